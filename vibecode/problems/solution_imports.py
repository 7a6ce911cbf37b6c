"""The imports a candidate solution needs and lacks, so that the file vibecode writes runs alone.

Models write LeetCode-style code that uses ``List``, ``deque``, ``heapq`` or ``inf`` without
importing them (LeetCode's own runner provides them). Instead of a hidden prelude at run time,
vibecode writes the missing imports into the solution itself: exactly the names the code uses
and does not define, taken from the same modules LeetCode's environment offers (``typing``,
``collections``, ``heapq``, ``bisect``, ``functools``, ``itertools``, a few ``math`` names, and
the modules ``collections``, ``heapq``, ``bisect``, ``math``, ``itertools``, ``functools``,
``re``, ``string``, ``operator``, ``random``). Where a name exists in several of them, the later
module in that list wins (``Counter`` is ``collections.Counter``, not ``typing.Counter``).
"""

from __future__ import annotations

import ast
import bisect
import builtins
import collections
import functools
import heapq
import itertools
import typing

MODULES = ("collections", "heapq", "bisect", "math", "itertools", "functools", "re", "string",
           "operator", "random")
MATH_NAMES = ("inf", "gcd", "sqrt", "log", "log2", "ceil", "floor", "comb", "factorial", "isqrt")


def _public(module: object) -> list[str]:
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in dir(module) if not n.startswith("_")]
    return [str(n) for n in names]


def _table() -> dict[str, str]:
    """Name -> the module it is imported from (``from M import name``)."""
    table: dict[str, str] = {}
    for module in (typing, collections, heapq, bisect, functools, itertools):
        for name in _public(module):
            table[name] = module.__name__
    for name in MATH_NAMES:
        table[name] = "math"
    return table


FROM_IMPORTS = _table()


def bound_names(tree: ast.AST) -> set[str]:
    """Every name the code binds anywhere (assignments, defs, parameters, imports, ...)."""
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.alias) and node.name != "*":
            bound.add(node.asname or node.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            bound.update(n for n, m in FROM_IMPORTS.items() if m == node.module)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            bound.update(node.names)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            bound.add(node.rest)
    return bound


def free_names(tree: ast.AST) -> set[str]:
    """Names the code reads that it never binds and that are not builtins."""
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return used - bound_names(tree) - set(dir(builtins))


def used_as_module(tree: ast.AST, name: str) -> bool:
    """True when ``name`` is only ever read as ``name.attribute`` (the module, not a function of
    the same name: ``bisect.bisect_left(a, x)`` against ``bisect(a, x)``)."""
    attribute_bases = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    reads = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
    return all(id(n) in attribute_bases for n in reads)


def missing_imports(tree: ast.AST) -> list[str]:
    """The import lines for the free names vibecode knows where to find, sorted and grouped."""
    free = free_names(tree)
    # A name that is both a module and one of its functions (``bisect``) is the function when
    # the code calls it or passes it around, and the module when it only reads its attributes.
    modules = {m for m in MODULES if m in free and (m not in FROM_IMPORTS or used_as_module(tree, m))}
    lines = [f"import {m}" for m in MODULES if m in modules]
    by_module: dict[str, list[str]] = {}
    for name in sorted(free):
        module = FROM_IMPORTS.get(name)
        if module is not None and name not in modules:
            by_module.setdefault(module, []).append(name)
    order = ["typing", *MODULES]
    for module in sorted(by_module, key=order.index):
        lines.append(f"from {module} import {', '.join(by_module[module])}")
    return lines
