"""Constraint lines read as checkable expressions over the arguments, for generate-then-filter.

The bound reader (:mod:`vibecode.problems.constraints`) turns simple ranges into bounds that drive
generation. Lines it cannot turn into bounds, such as ``nums1.length == m + n``,
``1 <= m * n <= 10^4``, ``sum(nums[i].length) <= 10^5``, ``0 <= ai, bi < n`` (``edges[i] = [ai,
bi]``), ``ai != bi``, ``triangle[i].length == triangle[i - 1].length + 1`` or
``isConnected[i][j] == isConnected[j][i]``, are compiled here into a :class:`Check`: a predicate on
one input that is checked for every value of the free index variables (``i``, ``j``; a column name
such as ``ai`` stands for ``edges[i][0]``). Generation draws inputs and drops those a check
rejects (the notes say when that drops too many).

Only a small expression language is accepted (numbers, argument names, size names from lines such
as ``n == nums.length``, indexing, ``len``/``sum``/``min``/``max``/``abs``, arithmetic and
comparisons); anything else leaves the line not understood.
"""

from __future__ import annotations

import ast
import itertools
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from vibecode.problems.constraint_types import Check, Term, resolve

_FUNCS: dict[str, Callable[..., object]] = {
    "len": len, "sum": sum, "min": min, "max": max, "abs": abs, "floor": math.floor, "ceil": math.ceil,
    "sorted": sorted, "list": list, "range": range,
}
_BUDGET = 20_000  # evaluations per check and input; beyond it the check is undecided
_CMP = re.compile(r"(<=|>=|==|!=|<|>)")


class Undecided(Exception):
    """The check cannot be decided on this input (a name has no value, too many index values)."""


def column_aliases(statement: str, params: dict[str, str]) -> dict[str, tuple[str, int]]:
    """``edges[i] = [ai, bi]`` in the statement -> {"ai": ("edges", 0), "bi": ("edges", 1)}; also
    spelled ``a_i`` (lines write ``price_i`` for the statement's ``pricei`` and the other way), and
    ``rectangle[i] = [...]`` for the argument ``rectangles``."""
    return _aliases(statement, params, r"\b(\w+)\[(\w)\]")


def flat_column_aliases(statement: str, params: dict[str, str]) -> dict[str, tuple[str, int]]:
    """``target = [xtarget, ytarget]`` (a list of numbers) -> {"xtarget": ("target", 0), ...}."""
    return _aliases(statement, params, r"\b(\w+)()", flat=True)


def _aliases(statement: str, params: dict[str, str], head: str, flat: bool = False) -> dict[str, tuple[str, int]]:
    text = re.sub(r"<sub>(\w+)</sub>", r"\1", statement).replace("`", "")
    out: dict[str, tuple[str, int]] = {}
    for m in re.finditer(head + r"\s*==?\s*[\[(]([^\]\[()]+)[\])]", text):
        name = m.group(1) if m.group(1) in params or flat else m.group(1) + "s"
        if params.get(name) != "list" or (flat and not _flat_list(name, text)):
            continue
        items = [t.strip() for t in m.group(3).split(",")]
        if len(items) >= 2 and all(re.fullmatch(r"[A-Za-z_]\w*", t) for t in items):
            for k, t in enumerate(items):
                for spelled in (t, t[:-2] + t[-1] if t.endswith("_i") or t.endswith("_j") else t[:-1] + "_" + t[-1]
                                if len(t) > 2 and t[-1] in "ij" else t):
                    if spelled not in params:
                        out.setdefault(spelled, (name, k))
    for alias, at in list(out.items()):  # "queries[j] = [uj, vj]" with the line "0 <= ui, vi <= n - 1"
        other = _other_index(alias)
        if other and other not in params:
            out.setdefault(other, at)  # never over a name the statement gives itself
    return out


def _other_index(alias: str) -> str:
    """``uj`` -> ``ui``, ``v_j`` -> ``v_i``: the column name a statement indexes by ``j``, spelled
    with ``i`` as constraint lines often write it (course_schedule_iv: "queries[j] = [uj, vj]",
    "0 <= ui, vi <= numCourses - 1"); "" for none. Never ``i`` -> ``j``: "xi != xj" compares two rows."""
    m = re.fullmatch(r"([a-z][a-z0-9]*?)(_?)j", alias)
    return m.group(1) + m.group(2) + "i" if m else ""


def _flat_list(name: str, text: str) -> bool:
    """``name`` is given as one list of coordinates, not rows (no ``name[i] = [...]``)."""
    return not re.search(rf"\b{re.escape(name)}\[\w\]\s*==?\s*[\[(]", text)


def normalize(line: str) -> str:
    """The line in Python syntax: ``^`` -> ``**``, ``x.length`` -> ``len(x)``, ``2n`` -> ``2*n``; a
    closing "for all valid i" dropped (the index runs over every valid value anyway)."""
    t = re.sub(r"<sub>(\w+)</sub>", r"\1", line).strip().rstrip(".").strip()
    t = re.sub(r",?\s+for (?:all|each|every|any) (?:valid )?[a-z]$", "", t)  # "nums[i] != nums[i + 1] for all valid i"
    t = re.sub(r"(?<=\d)\s*[x×]\s*(?=\d)", "*", t)
    t = re.sub(r"\|([^|]+)\|", r"abs(\1)", t)
    for _ in range(3):
        t = re.sub(r"([A-Za-z_]\w*(?:\[[^\]]*\])*)\.(?:length|size)\b(?:\(\))?", r"len(\1)", t)
    t = re.sub(r"(?<![\w.])(\d+)\s*([A-Za-z_(])", r"\1*\2", t)
    return t.replace("^", "**")


def _split_top(text: str, sep: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += 1 if ch in "([" else -1 if ch in ")]" else 0
        if ch == sep and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return [*out, cur]


def expand(text: str) -> list[str] | None:
    """``0 <= ai, bi < n`` -> ["0 <= ai < n", "0 <= bi < n"]; None when it does not compare."""
    parts = _CMP.split(text)
    if len(parts) < 3:
        return None
    groups = [[g.strip() for g in _split_top(p, ",")] for p in parts[0::2]]
    if any(not g for group in groups for g in group):
        return None
    ops = parts[1::2]
    out = []
    for combo in itertools.product(*groups):
        out.append(" ".join(x for pair in itertools.zip_longest(combo, ops, fillvalue="") for x in pair).strip())
    return out


class _Reader:
    def __init__(self, params: dict[str, str], aliases: dict[str, Term], columns: dict[str, tuple[str, int]],
                 flat: dict[str, tuple[str, int]] | None = None) -> None:
        self.params, self.aliases, self.columns = params, aliases, columns
        self.flat = flat or {}

    def compile(self, src: str) -> ast.expr | None:
        try:
            tree = ast.parse(src, mode="eval").body
        except SyntaxError:
            return None
        tree = self._columns(tree)
        index_vars = {n for sub in ast.walk(tree) if isinstance(sub, ast.Subscript)
                      for n in _names(sub.slice)} - set(self.params) - set(self.aliases)
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                if node.id not in self.params and node.id not in self.aliases and node.id not in index_vars \
                        and node.id not in _FUNCS:
                    return None
            elif isinstance(node, ast.Call):
                if not isinstance(node.func, ast.Name) or node.func.id not in _FUNCS or node.keywords:
                    return None
            elif not isinstance(node, (ast.Compare, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Constant, ast.Subscript,
                                       ast.Load, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)):
                return None
        if not any(isinstance(n, ast.Name) and n.id not in _FUNCS for n in ast.walk(tree)):
            return None
        return tree

    def _columns(self, tree: ast.expr) -> ast.expr:
        columns, flat = self.columns, self.flat

        class Sub(ast.NodeTransformer):
            def visit_Name(self, node: ast.Name) -> ast.expr:
                if node.id in flat and node.id not in columns:  # target = [xtarget, ytarget]
                    name, k = flat[node.id]
                    return ast.Subscript(ast.Name(name, ast.Load()), ast.Constant(k), ast.Load())
                if node.id in columns:
                    name, k = columns[node.id]
                    row = ast.Subscript(ast.Name(name, ast.Load()), ast.Name(f"row_{name}", ast.Load()), ast.Load())
                    return ast.Subscript(row, ast.Constant(k), ast.Load())
                return node

        return Sub().visit(tree)


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


_Key = tuple[int, tuple[str, ...]]  # a node (by identity) and the names bound around it


@dataclass
class _Memo:
    """What depends on a check's trees and the names bound, not on the arguments' values: kept
    as long as the trees (one check tests every row of a 10^5-row stress input alone)."""

    free: dict[_Key, list[str]] = field(default_factory=dict)
    index: dict[_Key, tuple[str, ast.expr | None]] = field(default_factory=dict)


class _Eval:
    def __init__(self, args: dict[str, object], aliases: dict[str, Term], memo: _Memo | None = None) -> None:
        self.args, self.aliases, self.steps = args, aliases, 0
        self.memo = memo if memo is not None else _Memo()

    def free(self, node: ast.AST, env: dict[str, object]) -> list[str]:
        key = (id(node), tuple(sorted(env)))
        if key not in self.memo.free:
            self.memo.free[key] = self._free(node, env)
        return self.memo.free[key]

    def _free(self, node: ast.AST, env: dict[str, object]) -> list[str]:
        seen: list[str] = []
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and n.id not in env and n.id not in self.args and n.id not in self.aliases \
                    and n.id not in _FUNCS and n.id not in seen:
                seen.append(n.id)
        return seen

    def bindings(self, node: ast.AST, env: dict[str, object]) -> Iterator[dict[str, object]]:
        free = self.free(node, env)
        if not free:
            yield env
            return
        var, base = self._index(node, env, free)
        if base is None:
            raise Undecided(var)
        seq = self.value(base, env)
        if not isinstance(seq, (list, str)):
            raise Undecided(var)
        for k in range(len(seq)):
            yield from self.bindings(node, {**env, var: k})

    def _index(self, node: ast.AST, env: dict[str, object], free: list[str]) -> tuple[str, ast.expr | None]:
        """The first index variable whose sequence is known ("graph[u][i]": u before i), and
        that sequence's expression (None when no free variable indexes a known one)."""
        key = (id(node), tuple(sorted(env)))
        if key not in self.memo.index:
            self.memo.index[key] = next(
                ((v, b) for v in free for b in [next((s.value for s in ast.walk(node) if isinstance(s, ast.Subscript)
                 and v in _names(s.slice) and not set(self.free(s.value, env))), None)] if b is not None), (free[0], None))
        return self.memo.index[key]

    def value(self, node: ast.AST, env: dict[str, object]) -> object:
        self.steps += 1
        if self.steps > _BUDGET:
            raise Undecided("budget")
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            if node.id in self.args:
                return self.args[node.id]
            if node.id in self.aliases:
                v = resolve(self.aliases[node.id], self.args)
                if v is None:
                    raise Undecided(node.id)
                return v
            raise Undecided(node.id)
        if isinstance(node, ast.Subscript):
            seq, k = self.value(node.value, env), self.value(node.slice, env)
            if not isinstance(seq, (list, str)) or not isinstance(k, int) or k < 0:
                raise IndexError(k)
            return seq[k]
        if isinstance(node, ast.Call):
            fname = node.func.id if isinstance(node.func, ast.Name) else ""
            fn = _FUNCS[fname]
            if fname in ("sum", "min", "max") and len(node.args) == 1 and self.free(node.args[0], env):
                items = [self.value(node.args[0], b) for b in self.bindings(node.args[0], env)]
                return fn(items)
            return fn(*[self.value(a, env) for a in node.args])
        if isinstance(node, ast.UnaryOp):
            x = self.value(node.operand, env)
            return -x if isinstance(node.op, ast.USub) else (not x) if isinstance(node.op, ast.Not) else x  # type: ignore[operator]
        if isinstance(node, ast.BinOp):
            a, b = self.value(node.left, env), self.value(node.right, env)
            if isinstance(node.op, ast.Pow) and isinstance(b, (int, float)) and abs(b) > 64:
                raise Undecided("power")
            ops: dict[type, Callable[[object, object], object]] = {
                ast.Add: lambda x, y: x + y, ast.Sub: lambda x, y: x - y, ast.Mult: lambda x, y: x * y,  # type: ignore[operator]
                ast.Div: lambda x, y: x / y, ast.FloorDiv: lambda x, y: x // y, ast.Mod: lambda x, y: x % y,  # type: ignore[operator]
                ast.Pow: lambda x, y: x**y}  # type: ignore[operator]
            if type(node.op) not in ops:
                raise Undecided("operator")
            return ops[type(node.op)](a, b)
        if isinstance(node, ast.BoolOp):
            vals = [bool(self.value(v, env)) for v in node.values]
            return all(vals) if isinstance(node.op, ast.And) else any(vals)
        if isinstance(node, ast.Compare):
            left = self.value(node.left, env)
            for op, right_node in zip(node.ops, node.comparators, strict=True):
                right = self.value(right_node, env)
                if not _compare(op, left, right):
                    return False
                left = right
            return True
        raise Undecided(type(node).__name__)


def _compare(op: ast.cmpop, a: object, b: object) -> bool:
    if isinstance(op, ast.Eq):
        return a == b
    if isinstance(op, ast.NotEq):
        return a != b
    if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
        raise TypeError("not numbers")
    return {ast.Lt: a < b, ast.LtE: a <= b, ast.Gt: a > b, ast.GtE: a >= b}[type(op)]


def _holds(trees: list[ast.expr], aliases: dict[str, Term]) -> Callable[[dict[str, object]], bool | None]:
    memo = _Memo()

    def test(args: dict[str, object]) -> bool | None:
        ev = _Eval(args, aliases, memo)
        try:
            for tree in trees:
                for env in ev.bindings(tree, {}):
                    try:
                        if ev.value(tree, env) is False:
                            return False
                    except (IndexError, TypeError, KeyError, ZeroDivisionError, ValueError, OverflowError):
                        continue  # an index outside the argument: this binding says nothing
        except (Undecided, RecursionError):
            return None
        except (IndexError, TypeError, KeyError, ZeroDivisionError, ValueError, OverflowError):
            return None
        return True

    return test


def read_check(line: str, params: dict[str, str], aliases: dict[str, Term],
               columns: dict[str, tuple[str, int]], flat: dict[str, tuple[str, int]] | None = None) -> Check | None:
    """The line as a :class:`Check`, or None when it is not in the expression language."""
    src = normalize(line)
    chains = expand(src)
    if not chains:
        return None
    reader = _Reader(params, aliases, columns, flat)
    trees = [reader.compile(c) for c in chains]
    if any(t is None for t in trees):
        return None
    return Check(line, "relation", _holds([t for t in trees if t is not None], aliases))


def column_ranges(line: str, params: dict[str, str], aliases: dict[str, Term], columns: dict[str, tuple[str, int]],
                  term: Callable[[str], Term | None]) -> list[tuple[str, int, Term | None, Term | None]]:
    """``-10^4 <= xi, yi <= 10^4`` -> [(points, 0, lo, hi), (points, 1, lo, hi)]: the bounds of a
    column, for generation (the check still validates)."""
    chains = expand(re.sub(r"<sub>(\w+)</sub>", r"\1", line).strip().rstrip("."))
    out = []
    for chain in chains or []:
        parts = [p.strip() for p in _CMP.split(chain)]
        terms, ops = parts[0::2], parts[1::2]
        if any(o not in ("<=", "<") for o in ops):
            continue
        for k, t in enumerate(terms):
            if t not in columns:
                continue
            lo = term(terms[k - 1]) if k > 0 else None
            hi = term(terms[k + 1]) if k + 1 < len(terms) else None
            if lo is not None and ops[k - 1] == "<":
                lo = (lo[0], lo[1], lo[2] + 1)
            if hi is not None and ops[k] == "<":
                hi = (hi[0], hi[1], hi[2] - 1)
            if lo is not None or hi is not None:
                name, col = columns[t]
                out.append((name, col, lo, hi))
    return out


def length_rule(line: str, params: dict[str, str], aliases: dict[str, Term]
                ) -> tuple[str, frozenset[str], Callable[[dict[str, object]], object]] | None:
    """``nums1.length == m + n`` -> ("nums1", {"m", "n"}, a function of the drawn scalars that
    gives the length), so that generation draws m and n first and then a list that long."""
    chains = expand(normalize(line))
    if not chains or len(chains) != 1:
        return None
    try:
        tree = ast.parse(chains[0], mode="eval").body
    except SyntaxError:
        return None
    if not (isinstance(tree, ast.Compare) and len(tree.ops) == 1 and isinstance(tree.ops[0], ast.Eq)):
        return None
    for side, other in ((tree.left, tree.comparators[0]), (tree.comparators[0], tree.left)):
        if (isinstance(side, ast.Call) and isinstance(side.func, ast.Name) and side.func.id == "len"
                and len(side.args) == 1 and isinstance(side.args[0], ast.Name) and side.args[0].id in params):
            name = side.args[0].id
            names = _names(other) - set(_FUNCS)
            if names and all(params.get(n) == "int" for n in names):
                expr = other

                def rule(args: dict[str, object], expr: ast.expr = expr) -> object:
                    try:
                        return _Eval(args, aliases).value(expr, {})
                    except (Undecided, TypeError, ValueError, ZeroDivisionError, IndexError, KeyError):
                        return None

                return name, frozenset(names), rule
    return None
