"""Checking one input against a problem's signature and constraints (:func:`validate_input`),
and the small helpers the input stages share."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import TypeGuard

from vibecode.problems.constraints import Constraints, differ_violations, holds, parse_constraints
from vibecode.problems.typespec import TypeSpec, check_value, parse_type
from vibecode.types import Problem

_SUPPORTED = {"int", "float", "bool", "str", "list", "listnode", "treenode"}


def key(args: dict[str, object]) -> str:
    try:
        return json.dumps(args, sort_keys=True)
    except TypeError:  # a dict with keys of mixed types ({'a': 1, 8: 2}) cannot be sorted
        return repr(args)


def specs(problem: Problem) -> dict[str, TypeSpec]:
    return {p.name: parse_type(p.type) for p in problem.signature.params}


def leaf(spec: TypeSpec) -> TypeSpec:
    spec = spec.base
    while spec.kind == "list":
        spec = spec.element.base
    return spec


def supported(spec: TypeSpec) -> bool:
    spec = spec.base
    if spec.kind in ("listnode", "treenode"):
        return True
    if spec.kind == "list":
        return supported(spec.element)
    return spec.kind in _SUPPORTED - {"list"}


def nested_ints(problem: Problem, name: str) -> bool:
    """Whether ``name`` is a ``list[Any]`` whose examples are lists of integers nested at any depth
    (``nestedList = [[1,1],2,[1,1]]``): generated as such (``clr.inputs_values``)."""
    spec = specs(problem).get(name)
    shown = seen_values(problem, name)
    lists = [v for v in shown if isinstance(v, list)]
    return (spec is not None and spec.base.kind == "list" and spec.base.element.kind == "any" and bool(shown)
            and len(lists) == len(shown) and any(isinstance(x, list) for v in lists for x in v)
            and all(isinstance(x, int) and not isinstance(x, bool) for x in leaves(lists)))


def seen_values(problem: Problem, name: str) -> list[object]:
    return [ex.inputs[name] for ex in problem.examples if name in ex.inputs]


def leaves(value: object) -> list[object]:
    if isinstance(value, list):
        return [x for v in value for x in leaves(v)]
    return [value]


def lengths(value: object, depth: int) -> list[int]:
    if depth == 0:
        return [sum(v is not None for v in value) if isinstance(value, list) else len(value)] if isinstance(value, (list, str)) else []
    return [n for v in value for n in lengths(v, depth - 1)] if isinstance(value, list) else []


def rotated_lists(problem: Problem) -> set[str]:
    """List arguments the statement calls a rotated sorted array: a constraint line or a sentence
    naming the argument says both "rotated" and "sorted" or "ascending" (in either order), or that
    it is rotated at a pivot ("nums is guaranteed to be rotated at some pivot")."""
    return set(_rotated(problem.constraints, problem.statement, tuple(p.name for p in problem.signature.params)))


@lru_cache(maxsize=256)
def _rotated(constraints: tuple[str, ...], statement: str, names: tuple[str, ...]) -> frozenset[str]:
    lines = [*constraints, *re.split(r"(?<=[.!?])\s+", statement)]
    out = set()
    for line in lines:
        low = line.lower()
        if "rotat" in low and any(w in low for w in ("sorted", "ascending", "non-decreasing", "pivot")):
            out |= {n for n in names if re.search(rf"\b{re.escape(n)}\b", line)}
    return frozenset(out)


def outside_examples(args: dict[str, object], problem: Problem, c: Constraints) -> list[str]:
    """Numbers of ``args`` outside the examples' own range for an argument whose values no
    constraint bounds: where a bound is unknown generated inputs stay within what the examples
    show (a value the examples never use may be one the problem never allows); likewise the rows
    of a list of lists whose row length no line states stay as long as the examples' rows."""
    out: list[str] = []
    for name, spec in specs(problem).items():
        if name in args and spec.base.kind == "list" and spec.base.element.base.kind == "list" \
                and name not in c.inner_length:
            rows, made = lengths(seen_values(problem, name), 2), lengths(args[name], 1)
            if rows and made and (min(made) < min(rows) or max(made) > max(rows)):
                out.append(f"{name} has a row of {max(made) if max(made) > max(rows) else min(made)} items, outside "
                           f"the examples' {min(rows)}..{max(rows)} (no row length stated)")
        if name in c.value or name in c.column_value or name in c.choices or name not in args:
            continue
        shown = [float(v) for v in leaves(seen_values(problem, name)) if _number(v)]
        got = [float(v) for v in leaves(args[name]) if _number(v)]
        if shown and got and (min(got) < min(shown) or max(got) > max(shown)):
            out.append(f"{name} has a value outside the examples' range {min(shown):g}..{max(shown):g} (no bound stated)")
    return out


def _number(v: object) -> TypeGuard[int | float]:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def validate_input(args: dict[str, object], problem: Problem, constraints: Constraints | None = None) -> list[str]:
    """What is wrong with ``args`` (argument name -> value) for this problem; empty when valid."""
    c = constraints if constraints is not None else parse_constraints(problem)
    problems: list[str] = []
    for name, spec in specs(problem).items():
        if name not in args:
            problems.append(f"missing argument {name}")
            continue
        value = args[name]
        err = check_value(value, spec, name)
        if err:
            problems.append(err)
            continue
        if value is None:
            continue
        if name in c.length:
            for n in lengths(value, 0):
                if not holds(n, c.length[name], args):
                    problems.append(f"{name} has length {n} outside the constraints")
        if name in c.inner_length:
            for n in lengths(value, 1):
                if not holds(n, c.inner_length[name], args):
                    problems.append(f"an item of {name} has length {n} outside the constraints")
        flat_leaves = [v for v in leaves(value) if v is not None]
        if name in c.value:
            nums = [v for v in flat_leaves if isinstance(v, (int, float))]
            edges = [min(nums), max(nums)] if nums else []  # the bounds do not depend on the item
            bad = [v for v in edges if not holds(v, c.value[name], args)]
            if bad:
                problems.append(f"{name} has value {bad[0]} outside the constraints")
        if name in c.choices:
            bad_choice = [v for v in flat_leaves if v not in c.choices[name]]
            if bad_choice:
                problems.append(f"{name} has value {bad_choice[0]!r}, not one of {c.choices[name]}")
        if name in c.chars:
            text = "".join(v for v in flat_leaves if isinstance(v, str))
            extra = sorted(set(text) - set(c.chars[name]))
            if extra:
                problems.append(f"{name} has characters {''.join(extra)!r} the constraints do not allow")
        flat = [v for v in (value if isinstance(value, list) else []) if not isinstance(v, list)]
        if name in c.sorted and flat and flat != sorted(flat, key=lambda v: (v is None, v)):
            problems.append(f"{name} should be sorted")
        units = value if isinstance(value, list) and any(isinstance(v, list) for v in value) else flat_leaves
        if name in c.unique and len(set(map(json.dumps, units))) != len(units):
            problems.append(f"{name} should have distinct values")
        pairs = value if name in c.pair_sorted and isinstance(value, list) else []
        if any(isinstance(v, list) and len(v) == 2 and v[0] > v[1] for v in pairs):
            problems.append(f"the pairs in {name} should be ordered")
    if not problems:
        problems += differ_violations(c, args)
    if not problems:
        problems += [f"breaks {ch.line!r}" for ch in c.checks if ch.test(args) is False]
    return problems
