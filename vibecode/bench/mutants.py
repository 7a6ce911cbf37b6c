"""First-order mutants of a Python function, by ``ast`` transforms: the bugs models make.

Operators (``Mutant.kind``):

- ``compare``: a comparison swapped (``<`` and ``<=``, ``>`` and ``>=``, ``<`` and ``>``,
  ``==`` and ``!=``, ``in`` and ``not in``, ``is`` and ``is not``);
- ``arith``: an arithmetic operator swapped (``+``/``-``, ``*``/``//``, ``/``/``//``, ``%``/``//``),
  in expressions and augmented assignments;
- ``range``: off by one in a ``range(...)`` bound (stop ± 1, start + 1);
- ``index``: off by one in a subscript or a slice bound;
- ``boundary``: an integer constant in a comparison moved by one;
- ``branch``: an ``if`` dropped (its body, or the ``else``, or the whole statement);
- ``logic``: ``and``/``or`` swapped, a ``not`` dropped;
- ``return``: ``return True``/``False`` flipped;
- ``call``: a call swapped for its sibling (``min``/``max``, ``any``/``all``, ``lower``/``upper``,
  ``startswith``/``endswith``, ...), ``sorted`` reversed, ``len(...)`` off by one;
- ``filter``: a comprehension's ``if`` dropped; ``constant``: a join separator changed.

:func:`mutants` enumerates every site in the entry function and applies one mutation at a time
to a fresh copy of the module; the result is the whole module, unparsed (comments are lost).
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass

_COMPARE_SWAPS: dict[type[ast.cmpop], tuple[type[ast.cmpop], ...]] = {
    ast.Lt: (ast.LtE, ast.Gt),
    ast.LtE: (ast.Lt,),
    ast.Gt: (ast.GtE, ast.Lt),
    ast.GtE: (ast.Gt,),
    ast.Eq: (ast.NotEq,),
    ast.NotEq: (ast.Eq,),
    ast.In: (ast.NotIn,),
    ast.NotIn: (ast.In,),
    ast.Is: (ast.IsNot,),
    ast.IsNot: (ast.Is,),
}
_ARITH_SWAPS: dict[type[ast.operator], tuple[type[ast.operator], ...]] = {
    ast.Add: (ast.Sub,),
    ast.Sub: (ast.Add,),
    ast.Mult: (ast.FloorDiv,),
    ast.FloorDiv: (ast.Div, ast.Mult),
    ast.Div: (ast.FloorDiv,),
    ast.Mod: (ast.FloorDiv,),
    ast.Pow: (ast.Mult,),
}
_CALL_SWAPS = {"min": "max", "max": "min", "any": "all", "all": "any", "lower": "upper", "upper": "lower",
               "startswith": "endswith", "endswith": "startswith", "swapcase": "lower", "isupper": "islower",
               "islower": "isupper", "isdigit": "isalpha", "isalpha": "isdigit", "index": "rindex",
               "find": "rfind", "rfind": "find", "lstrip": "rstrip", "rstrip": "lstrip"}
_SYMBOL = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
           ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.Add: "+",
           ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Div: "/", ast.Mod: "%", ast.Pow: "**"}


@dataclass(frozen=True)
class Mutant:
    code: str
    kind: str
    description: str  # "line 5: < -> <="


# A site: (kind, description, function that mutates the copy's node at the same walk position).
Site = tuple[str, str, int, Callable[[ast.AST], None]]


def _plus(expr: ast.expr, delta: int) -> ast.expr:
    if isinstance(expr, ast.Constant) and type(expr.value) is int:
        return ast.Constant(expr.value + delta)
    op: ast.operator = ast.Add() if delta > 0 else ast.Sub()
    return ast.BinOp(left=expr, op=op, right=ast.Constant(abs(delta)))


def _line(node: ast.AST) -> int:
    return getattr(node, "lineno", 0)


def _annotation_nodes(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> set[int]:
    """Nodes of the signature's annotations and of the docstring: never mutated."""
    roots: list[ast.AST] = [a.annotation for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs,
                                                   fn.args.vararg, fn.args.kwarg) if a is not None and a.annotation]
    if fn.returns is not None:
        roots.append(fn.returns)
    roots += [n.annotation for n in ast.walk(fn) if isinstance(n, ast.AnnAssign)]
    roots += [s for s in fn.body[:1] if s not in _without_docstring(fn)]
    return {id(n) for root in roots for n in ast.walk(root)}


def _sites(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[Site]:
    """Every mutation of the function, in a fixed order (positions in ``ast.walk`` order)."""
    compared: set[int] = set()
    skip = _annotation_nodes(fn)
    for pos, node in enumerate(ast.walk(fn)):
        if id(node) in skip:
            continue
        line = _line(node)
        if isinstance(node, ast.Compare):
            for j, op in enumerate(node.ops):
                for new in _COMPARE_SWAPS.get(type(op), ()):
                    def swap(n: ast.AST, j: int = j, new: type[ast.cmpop] = new) -> None:
                        assert isinstance(n, ast.Compare)
                        n.ops[j] = new()
                    yield "compare", f"line {line}: {_SYMBOL[type(op)]} -> {_SYMBOL[new]}", pos, swap
            for side in (node.left, *node.comparators):
                compared.add(id(side))
        elif isinstance(node, (ast.BinOp, ast.AugAssign)):
            if isinstance(node, ast.BinOp) and isinstance(node.left, ast.Constant) and isinstance(node.left.value, str):
                continue  # string formatting with %
            for new_op in _ARITH_SWAPS.get(type(node.op), ()):
                def arith(n: ast.AST, new_op: type[ast.operator] = new_op) -> None:
                    n.op = new_op()  # type: ignore[attr-defined]
                yield "arith", f"line {line}: {_SYMBOL[type(node.op)]} -> {_SYMBOL[new_op]}", pos, arith
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range" and node.args:
            stop = len(node.args) - 1 if len(node.args) <= 2 else 1
            for delta in (1, -1):
                def bound(n: ast.AST, stop: int = stop, delta: int = delta) -> None:
                    assert isinstance(n, ast.Call)
                    n.args[stop] = _plus(n.args[stop], delta)
                yield "range", f"line {line}: range stop {delta:+d}", pos, bound
            if len(node.args) >= 2:
                def start(n: ast.AST) -> None:
                    assert isinstance(n, ast.Call)
                    n.args[0] = _plus(n.args[0], 1)
                yield "range", f"line {line}: range start +1", pos, start
        elif isinstance(node, ast.Subscript):
            if isinstance(node.slice, ast.Slice):
                for part in ("lower", "upper", "step"):
                    if getattr(node.slice, part) is None:
                        continue
                    for delta in (1, -1):
                        def sl(n: ast.AST, part: str = part, delta: int = delta) -> None:
                            assert isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Slice)
                            setattr(n.slice, part, _plus(getattr(n.slice, part), delta))
                        yield "index", f"line {line}: slice {part} {delta:+d}", pos, sl
            elif isinstance(node.ctx, ast.Load) and (
                not isinstance(node.slice, (ast.Tuple, ast.Constant))
                or (isinstance(node.slice, ast.Constant) and type(node.slice.value) is int)
            ):
                for delta in (1, -1):
                    def idx(n: ast.AST, delta: int = delta) -> None:
                        assert isinstance(n, ast.Subscript)
                        n.slice = _plus(n.slice, delta)
                    yield "index", f"line {line}: index {delta:+d}", pos, idx
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name in _CALL_SWAPS:
                def call(n: ast.AST, new: str = _CALL_SWAPS[name]) -> None:
                    assert isinstance(n, ast.Call)
                    if isinstance(n.func, ast.Name):
                        n.func.id = new
                    elif isinstance(n.func, ast.Attribute):
                        n.func.attr = new
                yield "call", f"line {line}: {name} -> {_CALL_SWAPS[name]}", pos, call
            if name == "len" and isinstance(func, ast.Name):
                yield from _len_sites(fn, node, pos, line)
            if name == "sorted" and not any(k.arg == "reverse" for k in node.keywords):
                def rev(n: ast.AST) -> None:
                    assert isinstance(n, ast.Call)
                    n.keywords.append(ast.keyword("reverse", ast.Constant(True)))
                yield "call", f"line {line}: sorted reversed", pos, rev
            if name == "join" and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Constant):
                sep = func.value.value
                def joiner(n: ast.AST, new: str = "" if sep else " ") -> None:
                    assert isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                    n.func.value = ast.Constant(new)
                yield "constant", f"line {line}: join separator {sep!r} changed", pos, joiner
        elif isinstance(node, ast.comprehension) and node.ifs:
            def unfilter(n: ast.AST) -> None:
                assert isinstance(n, ast.comprehension)
                n.ifs = n.ifs[1:]
            yield "filter", f"line {_line(node.ifs[0])}: comprehension filter dropped", pos, unfilter
        elif isinstance(node, ast.BoolOp):
            this, other = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
            def logic(n: ast.AST) -> None:
                assert isinstance(n, ast.BoolOp)
                n.op = ast.Or() if isinstance(n.op, ast.And) else ast.And()
            yield "logic", f"line {line}: {this} -> {other}", pos, logic
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, bool):
            def flip(n: ast.AST) -> None:
                assert isinstance(n, ast.Return) and isinstance(n.value, ast.Constant)
                n.value = ast.Constant(not n.value.value)
            yield "return", f"line {line}: return {node.value.value} -> {not node.value.value}", pos, flip
        for field, value in ast.iter_fields(node):
            if not isinstance(value, list):
                continue
            for j, child in enumerate(value):
                if isinstance(child, ast.UnaryOp) and isinstance(child.op, ast.Not):
                    def drop_not(n: ast.AST, field: str = field, j: int = j) -> None:
                        target = getattr(n, field)[j]
                        getattr(n, field)[j] = target.operand
                    yield "logic", f"line {_line(child)}: not dropped", pos, drop_not
                if not isinstance(child, ast.If):
                    continue
                for how in ("whole", "body", "else"):
                    if how == "else" and not child.orelse:
                        continue
                    if how == "body" and not child.orelse:
                        continue
                    def drop(n: ast.AST, field: str = field, j: int = j, how: str = how) -> None:
                        stmts = getattr(n, field)
                        stmt = stmts[j]
                        keep = [] if how == "whole" else (stmt.orelse if how == "body" else stmt.body)
                        stmts[j : j + 1] = keep or []
                        if not stmts:
                            stmts.append(ast.Pass())
                    what = {"whole": "if dropped", "body": "if branch dropped (else kept)",
                            "else": "else branch dropped"}[how]
                    yield "branch", f"line {_line(child)}: {what}", pos, drop
    for pos, node in enumerate(ast.walk(fn)):
        if isinstance(node, ast.Constant) and type(node.value) is int and id(node) in compared:
            for delta in (1, -1):
                def const(n: ast.AST, delta: int = delta) -> None:
                    assert isinstance(n, ast.Constant) and type(n.value) is int
                    n.value = int(n.value) + delta
                yield "boundary", f"line {_line(node)}: {node.value} -> {int(node.value) + delta}", pos, const


def _len_sites(fn: ast.AST, call: ast.Call, pos: int, line: int) -> Iterator[Site]:
    """``len(x)`` -> ``len(x) - 1`` where the parent holds it in a plain field."""
    for parent in ast.walk(fn):
        for field, value in ast.iter_fields(parent):
            if value is call:
                parent_pos = list(ast.walk(fn)).index(parent)

                def shorter(n: ast.AST, field: str = field) -> None:
                    setattr(n, field, _plus(getattr(n, field), -1))
                yield "call", f"line {line}: len(...) - 1", parent_pos, shorter
                return


def _entry(tree: ast.Module, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    found = None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            found = node
    return found


def _without_docstring(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.stmt]:
    body = fn.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
        return body[1:]
    return body


def mutants(code: str, entry_point: str) -> list[Mutant]:
    """Every distinct first-order mutant of ``entry_point`` in ``code`` that still compiles."""
    tree = ast.parse(code)
    fn = _entry(tree, entry_point)
    if fn is None:
        raise ValueError(f"no function {entry_point!r} in the code")
    original = ast.unparse(tree)
    seen = {original}
    out = []
    for kind, description, pos, apply in _sites(fn):
        copy_tree = copy.deepcopy(tree)
        copy_fn = _entry(copy_tree, entry_point)
        assert copy_fn is not None
        nodes = list(ast.walk(copy_fn))
        apply(nodes[pos])
        ast.fix_missing_locations(copy_tree)
        try:
            text = ast.unparse(copy_tree)
            compile(text, "<mutant>", "exec")
        except (SyntaxError, ValueError, TypeError, RecursionError):
            continue
        if text in seen:
            continue
        seen.add(text)
        out.append(Mutant(text, kind, description))
    return out


def strip_docstring(code: str, entry_point: str) -> str:
    """The module unparsed, with the entry function's docstring left out (as a model writes it)."""
    tree = ast.parse(code)
    fn = _entry(tree, entry_point)
    if fn is not None:
        fn.body = _without_docstring(fn) or [ast.Pass()]
    return ast.unparse(tree)


def rename_locals(code: str, entry_point: str, suffix: str = "_") -> str:
    """The same code with the entry function's assigned local names changed (another "writing")."""
    tree = ast.parse(code)
    fn = _entry(tree, entry_point)
    if fn is None:
        return ast.unparse(tree)
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    stored = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    names = {n for n in stored if n not in params and len(n) > 0}
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id in names:
            node.id = node.id + suffix
    return ast.unparse(tree)
