"""Bug-seeking inputs of the edge tier that build a structure the arguments share, driven by the
parsed types and constraints and by what the statement names (never by the problem's name):

- ``staircase``: a list of lists whose rows grow by one (row ``i`` has ``i + 1`` items) where a
  constraint line says so (``t[i].length == t[i - 1].length + 1``) or the statement names a
  triangle: seeded values across a small part of the items' range, and every item at the range's
  largest value (path sums past a bound written too small);
- ``segments``: a string and a list of words built from the same letters so that the string splits
  into the words only one way: a longest-first greedy split fails (``abcd`` with ``ab, abc, cd``),
  a shortest-first one fails (``abc`` with ``a, abc, b``), the last word is one letter (``aab``
  with ``aa, b``), and a string that does not split at all;
- ``joined``: three or more string arguments, the last the others joined, with a letter more, a
  letter less, and the others empty (a missed length check);
- ``near_pairs``: two string arguments equal, one or two letters longer at either end, one letter
  removed or replaced, and against the empty string;
- ``named_numbers``: a string of digits only, written as the numbers the statement names, just
  below and just above them (``26``: ``25``, ``27``): a bound off by one in how digits are read;
- ``short_lists``: a flat list of integers at two and three items, rising, falling and
  zig-zag (a loop that starts one item too late never sees the first pair);
- ``membership``: where an example's scalar argument is an item of a list argument of the same
  kind (``endGene`` in ``bank``), the example with every copy of it taken out of the list, and
  where it is not, with it put in: a search that reaches the value without looking it up in the
  list (a BFS that returns on meeting ``endGene``) answers as if it were there. Not where a
  sentence that names both says it is guaranteed, always or must be there.

The caller (``clr.inputs_tiers``) validates each input against the constraints and takes from
every strategy in turn, with those of ``clr.inputs_bugs``.
"""

from __future__ import annotations

import random
import re

from vibecode.clr.inputs_bugs import (
    Strategies,
    _chars,
    _int_range,
    _lists,
    _scalars,
    _small_len,
    propose,
)
from vibecode.clr.inputs_bugs_text import DIGITS, _three_letters
from vibecode.clr.inputs_check import specs
from vibecode.clr.trust import description
from vibecode.problems.constraint_types import Constraints
from vibecode.types import Problem

Args = dict[str, object]
SMALL_VALUES = 9  # staircase and short-list items stay within +-9 of the range's low end or zero


def _letters(problem: Problem, c: Constraints, name: str) -> tuple[str, str, str, str]:
    """Four letters allowed in ``name`` (repeating the last when fewer are allowed)."""
    chars = _chars(problem, c, name)
    a, b, d = _three_letters(chars)
    rest = [ch for ch in chars if ch not in (a, b, d, " ")]
    return a, b, d, rest[0] if rest else d


def _grows_by_one(problem: Problem, name: str) -> bool:
    row = rf"{re.escape(name)}\[i\]\.length\s*==\s*{re.escape(name)}\[i\s*-\s*1\]\.length\s*\+\s*1"
    lines = [re.sub(r"[`*]", "", line) for line in problem.constraints]
    return any(re.search(row, line) for line in lines) or "triangle" in problem.statement.lower()


def _small_range(c: Constraints, name: str, base: Args) -> tuple[int, int]:
    r = _int_range(c, name, base)
    lo, hi = r if r is not None else (-SMALL_VALUES, SMALL_VALUES)
    start = max(lo, -SMALL_VALUES) if lo < 0 else lo
    return start, min(hi, start + 2 * SMALL_VALUES)


def staircase(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    out: list[Args] = []
    base = bases[0]
    for name in _lists(specs(problem), 2):
        if not _grows_by_one(problem, name):
            continue
        lo, hi = _small_range(c, name, base)
        for rows in (2, 3, 4, 5, 6):
            rng = random.Random(rows)
            out.append({**base, name: [[rng.randint(lo, hi) for _ in range(i + 1)] for i in range(rows)]})
        full = _int_range(c, name, base)
        if full is not None:
            out.append({**base, name: [[full[1]] * (i + 1) for i in range(3)]})
    return out


def segments(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    spec = specs(problem)
    texts = _scalars(spec, "str")
    words = [n for n, s in spec.items() if s.base.kind == "list" and s.base.element.base.kind == "str"]
    if not texts or not words:
        return []
    s, w = texts[0], words[0]
    a, b, d, e = _letters(problem, c, s)
    cases = [
        (a + b + d + e, [a + b, a + b + d, d + e]),  # true; the longest first word leaves e alone
        (a + b + d, [a, a + b + d, b]),  # true; the shortest first word leaves b + d
        (a + a + b, [a + a, b]),  # true; the last word is one letter
        (a + b + d + e, [a + b, b + d, a]),  # false
        (a * 4 + b, [a, a + a]),  # false
    ]
    base = bases[0]
    return [{**base, s: text, w: list(dict.fromkeys(ws))} for text, ws in cases]


def joined(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    names = _scalars(specs(problem), "str")
    if len(names) < 3:
        return []
    *parts, last = names
    a, b, d, _ = _letters(problem, c, last)
    base = bases[0]
    pieces = [(a + b, b + a), (a, d + a)]
    out: list[Args] = []
    for p in pieces:
        given = {n: p[k % len(p)] for k, n in enumerate(parts)}
        whole = "".join(str(v) for v in given.values())
        for text in (whole, whole + a, whole[:-1], b + whole):
            out.append({**base, **given, last: text})
    out.append({**base, **{n: "" for n in parts}, last: a})
    out.append({**base, **{n: "" for n in parts}, last: ""})
    return out


def near_pairs(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    names = _scalars(specs(problem), "str")
    if len(names) != 2:
        return []
    x, y = names
    a, b, d, e = _letters(problem, c, x)
    w = a + b + d
    pairs = [(w, w), (w, w + e), (w, w + e + e), (w, e + e + w), (w + a + a, w), (w, a + d), (w, a + e + d),
             (w, a + e + e), ("", a), ("", a + a), (a, ""), (w, e + b + d)]
    base = bases[0]
    return [{**base, x: p, y: q} for p, q in pairs]


def named_numbers(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    out: list[Args] = []
    base = bases[0]
    named = sorted({int(m) for m in re.findall(r"(?<![\w.^])\d{1,3}(?![\w.^])", problem.statement)}, key=lambda v: (-v, v))
    for name in _scalars(specs(problem), "str"):
        chars = c.chars.get(name, "")
        if not chars or not set(chars) <= set(DIGITS):
            continue
        size = _small_len(c, name, base, 2)
        texts: list[str] = []
        for v in named[:6]:
            for u in (v + 1, v, v - 1):
                if u >= 0:
                    texts += [str(u), str(u) * 2, "1" + str(u)]
        out += [{**base, name: t} for t in dict.fromkeys(texts) if len(t) >= size]
    return out


def short_lists(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    out: list[Args] = []
    base = bases[0]
    for name in _lists(specs(problem), 1):
        if name in c.sorted:
            continue
        lo, hi = _small_range(c, name, base)
        x, y, z = lo, min(hi, lo + 5), min(hi, lo + 2)
        for items in ([x, y], [y, x], [z, x, y], [x, y, z], [y, z, x], [x, x]):
            out.append({**base, name: items})
    return out


PROMISED = re.compile(r"\b(guarantee\w*|always|must|exists?)\b", re.IGNORECASE)


def _promised_in(problem: Problem, x: str, items: str) -> bool:
    """A sentence of the statement or a constraint line names both arguments and promises
    something ("It is guaranteed that ``target`` is in ``nums``")."""
    sentences = re.split(r"(?<=[.!?])\s+|\n", description(problem)) + list(problem.constraints)
    named = [t for t in sentences if re.search(rf"\b{re.escape(x)}\b", t) and re.search(rf"\b{re.escape(items)}\b", t)]
    return any(PROMISED.search(t) for t in named)


def membership(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    del c  # the caller validates: a list that must not be empty drops the variant
    spec = specs(problem)
    flat = [n for n, s in spec.items() if s.base.kind == "list" and s.base.element.base.kind in ("str", "int")]
    pairs = [(x, items) for items in flat for x, s in spec.items()
             if s.base.kind == spec[items].base.element.base.kind and not _promised_in(problem, x, items)]
    out: list[Args] = []
    for args in [dict(e.inputs) for e in problem.examples] + bases:
        for x, items in pairs:
            value, listed = args.get(x), args.get(items)
            if not isinstance(listed, list):
                continue
            out.append({**args, items: [v for v in listed if v != value]} if value in listed
                       else {**args, items: [*listed, value]})
    return out


STRUCT_STRATEGIES: Strategies = {
    "staircase": staircase, "segments": segments, "joined": joined, "near_pairs": near_pairs,
    "named_numbers": named_numbers, "short_lists": short_lists, "membership": membership,
}


def struct_candidates(problem: Problem, c: Constraints, bases: list[Args]) -> dict[str, list[Args]]:
    """Strategy -> the inputs it proposes from ``bases`` (not validated yet)."""
    return propose(STRUCT_STRATEGIES, problem, c, bases)


__all__ = ["STRUCT_STRATEGIES", "joined", "membership", "named_numbers", "near_pairs", "segments", "short_lists", "staircase",
           "struct_candidates"]
