"""Short constraint sentences read into checks (generate-then-filter), each a form seen on real
LeetCode statements:

- "k is in the range [1, the number of unique elements in the array]" -> ``1 <= k <= len(set(nums))``;
- "equations[i][2] is '='" -> that column of every row is that character;
- "mat[i] is sorted in non-decreasing order", "All the values of spaces are strictly increasing"
  -> rows (or the list) in order;
- "nums[i] != nums[i + 1] for all valid i" -> neighbours differ;
- "Either x is not zero or n > 0" -> the disjunction of two simple relations;
- "All the elements of graph[i] are unique" -> the items of each row are distinct;
- "All tuples (typei, ui, vi) are distinct", "All the pairs (xi, yi) occur at most one time"
  (columns the statement names: ``edges[i] = [typei, ui, vi]``) -> those columns' tuples distinct;
- "Each arrivali time is distinct", "Both arrays contain unique ids" (``times[i] = [arrivali,
  leavingi]``, ``nums1[i] = [idi, vali]``) -> the values of that column distinct in each list
  that has it;
- "Answers within 10^-5 of the actual value will be accepted" -> a promise about the answer, which
  vibecode honours: float answers compare within 1e-5 (``clr.compare``); read only when the stated
  tolerance is at least that, so a stricter one stays not understood.

A check that cannot read an input says None (undecided), never False.
"""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Callable
from typing import Any, TypeGuard

from vibecode.problems.constraint_types import Check, Constraints, number

Test = Callable[[dict[str, object]], bool | None]
COMPARE_TOLERANCE = 1e-5  # what clr.compare allows between float answers
_OPS: dict[str, Callable[[Any, Any], bool]] = {
    ">": operator.gt, "<": operator.lt, ">=": operator.ge, "<=": operator.le, "!=": operator.ne, "==": operator.eq}
_UNIQUE_COUNT = re.compile(
    r"^(\w+) is in the range \[\s*(\S+?)\s*,\s*the number of (?:unique|distinct) (?:elements|values|integers|numbers)"
    r" in (?:the array|(\w+))\s*\]\s*\.?$", re.I)
_COLUMN_CHAR = re.compile(r"^(\w+)\[i\]\[(\d+)\] is '(.)'\s*\.?$")
_ROWS_SORTED = re.compile(r"^(\w+)\[i\] is sorted in (non-decreasing|ascending|increasing|strictly increasing) order\s*\.?$", re.I)
_ALL_INCREASING = re.compile(r"^all the values of (\w+) are (strictly increasing|non-decreasing)\s*\.?$", re.I)
_NEIGHBOURS = re.compile(r"^(\w+)\[i\] != \1\[i \+ 1\] for all valid i\s*\.?$")
_EITHER = re.compile(r"^either (\w+) is not zero or (\w+)\s*(>=|<=|!=|>|<)\s*(-?\d+)\s*\.?$", re.I)
_ROW_ITEMS = re.compile(r"^all (?:the )?(?:elements|values|integers|numbers) (?:of|in) (\w+)\[i\] are (?:unique|distinct)\s*\.?$", re.I)
_TUPLES = re.compile(r"^all (?:the )?(?:pairs |tuples )?\(\s*(\w+(?:\s*,\s*\w+)+)\s*\)\s+"
                     r"(?:are (?:unique|distinct)|occur at most one time(?: in the input)?)\s*\.?$", re.I)
_COLUMN_DISTINCT = re.compile(r"\b(?:unique|distinct)\b", re.I)
_TOLERANCE = re.compile(r"^answers? (?:will be accepted as correct if they are )?within (10\^-\d+|1e-\d+) of the "
                        r"(?:actual value|correct answer|actual answer)(?: will be accepted)?\s*\.?$", re.I)


def read_phrase(line: str, params: dict[str, str], c: Constraints) -> bool:
    """Add the check one of the module's sentences states; False for any other line."""
    text = line.strip()
    lists = [n for n, k in params.items() if k == "list"]
    m = _UNIQUE_COUNT.match(text)
    if m and params.get(m.group(1)) == "int" and isinstance(lo := number(m.group(2)), int):
        target = m.group(3) if m.group(3) in lists else (lists[0] if len(lists) == 1 else None)
        if target is not None:
            k, low = m.group(1), lo
            return _add(c, line, "range to a count", lambda a: None if not isinstance(v := a.get(target), list)
                        or not isinstance(x := a.get(k), int) else low <= x <= len({repr(i) for i in v}))
    m = _COLUMN_CHAR.match(text)
    if m and m.group(1) in lists:
        name, col, ch = m.group(1), int(m.group(2)), m.group(3)
        return _add(c, line, "character at", lambda a: None if not isinstance(v := a.get(name), list)
                    else all(isinstance(s, str) and len(s) > col and s[col] == ch for s in v))
    m = _ROWS_SORTED.match(text) or _ALL_INCREASING.match(text)
    if m and m.group(1) in lists:
        name, strict = m.group(1), m.group(2).lower() == "strictly increasing"
        rows = m.re is _ROWS_SORTED
        return _add(c, line, "sorted", lambda a: _in_order(a.get(name), rows, strict))
    m = _NEIGHBOURS.match(text)
    if m and m.group(1) in lists:
        name = m.group(1)
        return _add(c, line, "neighbours differ", lambda a: None if not isinstance(v := a.get(name), list)
                    else all(x != y for x, y in itertools.pairwise(v)))
    m = _EITHER.match(text)
    if m and m.group(1) in params and params.get(m.group(2)) == "int":
        x, y, op, bound = m.group(1), m.group(2), _OPS[m.group(3)], int(m.group(4))
        return _add(c, line, "either", lambda a: None if not isinstance(a.get(x), (int, float)) or not isinstance(a.get(y), int)
                    else a[x] != 0 or op(a[y], bound))
    m = _ROW_ITEMS.match(text)
    if m and m.group(1) in lists:
        name = m.group(1)
        return _add(c, line, "distinct in each row", lambda a: None if not isinstance(v := a.get(name), list)
                    or not all(isinstance(r, list) for r in v) else all(len({repr(x) for x in r}) == len(r) for r in v))
    m = _TUPLES.match(text)
    if m:
        return _tuples(line, [t.strip() for t in m.group(1).split(",")], c)
    if _COLUMN_DISTINCT.search(text) and not any(re.search(rf"\b{re.escape(n)}\b", text) for n in params):
        return _column_distinct(line, c)
    m = _TOLERANCE.match(text)
    if m:
        tolerance = number(m.group(1).replace("1e", "10^"))
        return isinstance(tolerance, (int, float)) and tolerance >= COMPARE_TOLERANCE
    return False


def _tuples(line: str, names: list[str], c: Constraints) -> bool:
    """The named columns of one list, as tuples, are distinct."""
    cols = [c.columns.get(n, c.columns.get(n.replace("_", ""))) for n in names]
    owners = {col[0] for col in cols if col is not None}
    if None in cols or len(owners) != 1:
        return False
    name, idx = owners.pop(), [col[1] for col in cols if col is not None]
    return _add(c, line, "distinct rows", lambda a: None if not _rows_reach(v := a.get(name), max(idx))
                else len({tuple(repr(r[k]) for k in idx) for r in v}) == len(v))


def _column_distinct(line: str, c: Constraints) -> bool:
    """A sentence naming one column (``arrivali`` or its plural ``ids`` for ``idi``) as distinct."""
    words = re.findall(r"[A-Za-z_]\w*", line)
    found = {c.columns[w] for w in words if w in c.columns}
    found |= {c.columns[w[:-1] + "i"] for w in words if w.endswith("s") and w[:-1] + "i" in c.columns}
    by_col = {k for _, k in found}
    if not found or len(by_col) != 1:
        return False
    k, names = by_col.pop(), sorted({n for n, _ in found})
    return _add(c, line, "distinct column", lambda a: _column_unique(a, names, k))


def _column_unique(args: dict[str, object], names: list[str], k: int) -> bool | None:
    for name in names:
        v = args.get(name)
        if not _rows_reach(v, k):
            return None
        col = [repr(r[k]) for r in v]
        if len(set(col)) != len(col):
            return False
    return True


def _rows_reach(v: object, k: int) -> TypeGuard[list[list[object]]]:
    return isinstance(v, list) and all(isinstance(r, list) and len(r) > k for r in v)


def _in_order(value: object, rows: bool, strict: bool) -> bool | None:
    if not isinstance(value, list):
        return None
    seqs = value if rows else [value]
    if not all(isinstance(s, list) for s in seqs):
        return None
    try:
        return all(x < y if strict else x <= y for s in seqs for x, y in itertools.pairwise(s))
    except TypeError:
        return None


def _add(c: Constraints, line: str, kind: str, test: Test) -> bool:
    c.checks.append(Check(line, kind, test))
    return True


__all__ = ["COMPARE_TOLERANCE", "read_phrase"]
