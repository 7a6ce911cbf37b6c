"""The data of :mod:`vibecode.problems.constraints`: bound terms, :class:`Constraints`, and
reading numbers such as ``10^4``, ``2^31 - 1``, ``5 * 10^4``, ``1e5``, ``10⁹``."""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass, field

# A bound term: ("num", value, 0) | ("len", name, offset) | ("ilen", name, offset) (the length of
# the argument's first item) | ("val", name, offset)
Term = tuple[str, object, int]
Range = tuple["Term | None", "Term | None"]

_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_SUPER_RUN = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+")


def _plain(text: str) -> str:
    """``10⁹`` -> ``10^9``, ``10<sup>9</sup>`` -> ``10^9``, ``x<sub>i</sub>`` -> ``xi``, ``≤`` -> ``<=``,
    backticks dropped."""
    text = _SUPER_RUN.sub(lambda m: "^" + m.group(0).translate(_SUPERSCRIPTS), text)
    text = re.sub(r"<sub>\s*(\w+)\s*</sub>", r"\1", text)  # "direction<sub>i</sub>" as the statement's "directioni"
    text = re.sub(r"<sup>\s*(\w+)\s*</sup>", r"^\1", text)
    return text.replace("≤", "<=").replace("≥", ">=").replace("`", "")


def constraint_line(line: str) -> str:
    """A constraint line as the readers see it (and the notes list it): plain (:func:`_plain`), and
    ``x = 5`` as ``x == 5`` but not a quoted character (``exactly one '='``)."""
    return re.sub(r"(?<![<>=!'\"])=(?![='\"])", "==", _plain(line))


@dataclass(frozen=True)
class Check:
    """A property of one input read from a constraint line. ``test(args)`` is True when it holds,
    False when the input breaks it, None when it cannot be decided."""

    line: str
    kind: str
    test: Callable[[dict[str, object]], bool | None]
    # "word1 and word2 are in wordsDict": the arguments drawn from another one (the generator
    # picks them from it instead of filtering blind draws); empty for any other check
    members: tuple[str, ...] = ()
    pool: str = ""
    # "The given input is guaranteed to be a tree": each (edge list, the argument giving its node
    # count, or "" when the nodes are 0..len(edges)); the generator draws random trees instead of
    # filtering blind draws; empty for any other check
    trees: tuple[tuple[str, str], ...] = ()
    # "popped is a permutation of pushed", "p is a subsequence of s", "sequences[i] is a
    # subsequence of nums", "nums is a permutation of all the integers in the range [1, n]": the
    # argument made from another one, as (argument, how, source) with ``how`` one of MADE_HOW
    # ("range": ``source`` is the first integer of the range); the generator makes it so instead of
    # filtering blind draws, which almost never are ("plus one": a shuffle of the source with one
    # more letter; :mod:`vibecode.problems.constraint_made`); empty for any other check
    made: tuple[str, str, str] | tuple[()] = ()


MADE_HOW = ("range", "permutation", "plus one", "subsequence", "subsequences", "expression", "expression, unary minus",
            "email", "letters", "disjoint", "path", "prefix", "acyclic", "line", "format", "connected",
            "same total")  # the order they are made in


@dataclass
class Constraints:
    length: dict[str, list[Range]] = field(default_factory=dict)
    inner_length: dict[str, list[Range]] = field(default_factory=dict)
    value: dict[str, list[Range]] = field(default_factory=dict)
    chars: dict[str, str] = field(default_factory=dict)
    sorted: set[str] = field(default_factory=set)
    unique: set[str] = field(default_factory=set)
    pair_sorted: set[str] = field(default_factory=set)
    bst: set[str] = field(default_factory=set)
    same_length: set[str] = field(default_factory=set)  # lists of strings all of one length ("all of the same length")
    choices: dict[str, list[object]] = field(default_factory=dict)  # "grid[i][j] is 0 or 1"
    differ: list[tuple[Term, Term]] = field(default_factory=list)  # "divisor != 0", "word1 != word2"
    promises: list[str] = field(default_factory=list)  # hidden properties: not generated
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (line, kind) not understood
    promise_lines: list[str] = field(default_factory=list)  # the constraint lines among promises
    checks: list[Check] = field(default_factory=list)  # properties checked by a validator (generate, then filter)
    answer_bounds: list[tuple[float, float]] = field(default_factory=list)  # "the answer fits in a 32-bit integer"
    columns: dict[str, tuple[str, int]] = field(default_factory=dict)  # "edges[i] = [ai, bi]": ai -> (edges, 0)
    flat_columns: dict[str, tuple[str, int]] = field(default_factory=dict)  # "target = [xtarget, ytarget]"
    column_value: dict[str, dict[int, list[Range]]] = field(default_factory=dict)  # value bounds of one column
    calls: dict[str, int] = field(default_factory=dict)  # design problems: "At most 10^4 calls will be made to get"
    # "nums1.length == m + n": name -> (the scalars it depends on, their values -> the length)
    length_rules: dict[str, tuple[frozenset[str], Callable[[dict[str, object]], object]]] = field(default_factory=dict)

    @property
    def notes(self) -> list[str]:
        out = [f"constraint line partly read (its read part is generated; it vouches for no input): {line!r}"
               if kind == "partly read" else f"constraint line skipped ({kind}): {line!r}" for line, kind in self.skipped]
        return out + [f"a promise of the problem is not generated, inputs may break it: {p!r}" for p in self.promises]


def number(text: str) -> int | float | None:
    """``10^4`` -> 10000, ``2^31 - 1``, ``5 * 10^4``, ``1e5``, ``-10^9``; None if not a number."""
    src = _plain(text).replace("^", "**").replace("×", "*").replace(",", "").strip()
    if not src or not re.fullmatch(r"[\d\s.eE+\-*/()]+", src):
        return None
    try:
        node = ast.parse(src, mode="eval").body
    except SyntaxError:
        return None
    try:
        value = _eval(node)
    except (ValueError, OverflowError, ZeroDivisionError):
        return None
    if isinstance(value, float) and value.is_integer() and "." not in src and "e" not in src.lower():
        return int(value)
    return value


def _eval(node: ast.expr) -> int | float:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _eval(node.operand)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp):
        a, b = _eval(node.left), _eval(node.right)
        if isinstance(node.op, ast.Pow):
            if abs(b) > 64:
                raise ValueError("exponent too large")
            return a**b
        ops = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}
        if type(node.op) in ops:
            return ops[type(node.op)](a, b)
        if isinstance(node.op, ast.Div):
            return a / b
    raise ValueError("not a number")


def resolve(term: Term | None, assigned: dict[str, object]) -> int | float | None:
    """A term's number given the values assigned so far; None when it cannot be resolved yet."""
    if term is None:
        return None
    kind, ref, off = term
    if kind == "num":
        return ref + off if isinstance(ref, (int, float)) else None
    value = assigned.get(str(ref))
    if value is None:
        return None
    if kind == "ilen":
        first = value[0] if isinstance(value, list) and value else None
        return len(first) + off if isinstance(first, (list, str)) else None
    if kind == "len" and isinstance(value, (list, str)):
        return (sum(v is not None for v in value) if isinstance(value, list) else len(value)) + off
    if kind == "val" and isinstance(value, (int, float)):
        return value + off
    return None


def acyclic(edges: list[tuple[int, int]]) -> bool:
    """Whether the undirected ``edges`` close no cycle (union-find; a repeated edge or a self-loop
    is a cycle); over ``n`` nodes, ``n - 1`` such edges are one tree."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in edges:
        ra, rb = find(a), find(b)
        if ra == rb:
            return False
        parent[ra] = rb
    return True


def holds(value: float, ranges: list[Range], assigned: dict[str, object]) -> bool:
    for lo, hi in ranges:
        lo_v, hi_v = resolve(lo, assigned), resolve(hi, assigned)
        if lo_v is not None and value < lo_v:
            return False
        if hi_v is not None and value > hi_v:
            return False
    return True



def _raw(term: Term, assigned: dict[str, object]) -> object:
    kind, ref, off = term
    if kind == "num":
        return ref if off == 0 or not isinstance(ref, (int, float)) else ref + off
    if kind == "val" and off == 0:
        return assigned.get(str(ref))
    return resolve(term, assigned)


def differ_violations(c: Constraints, assigned: dict[str, object]) -> list[str]:
    """The "a != b" lines that ``assigned`` breaks."""
    out = []
    for a, b in c.differ:
        va, vb = _raw(a, assigned), _raw(b, assigned)
        if va is not None and vb is not None and va == vb:
            out.append(f"{a[1]} and {b[1]} should differ")
    return out
