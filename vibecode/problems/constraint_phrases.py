"""Short constraint sentences read into checks (generate-then-filter), each a form seen on real
LeetCode statements:

- "k is in the range [1, the number of unique elements in the array]", "... [1, The number of unique
  words[i]]" -> ``1 <= k <= len(set(nums))``;
- "equations[i][2] is '='" -> that column of every row is that character;
- "Either x is not zero or n > 0" -> the disjunction of two simple relations;
- "All the values of start_i are unique", "Both arrays contain unique ids" (``meetings[i] = [start_i,
  end_i]``, ``nums1[i] = [idi, vali]``) -> the values of that column distinct in each list
  that has it;
- "Answers within 10^-5 of the actual value will be accepted" -> a promise about the answer, which
  vibecode honours: float answers compare within 1e-5 (``clr.compare``); read only when the stated
  tolerance is at least that, so a stricter one stays not understood.

A check that cannot read an input says None (undecided), never False.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from typing import Any, TypeGuard

from vibecode.problems.constraint_types import Check, Constraints, number
from vibecode.types import ANSWER_TOLERANCE

Test = Callable[[dict[str, object]], bool | None]
_OPS: dict[str, Callable[[Any, Any], bool]] = {
    ">": operator.gt, "<": operator.lt, ">=": operator.ge, "<=": operator.le, "!=": operator.ne, "==": operator.eq}
_UNIQUE_COUNT = re.compile(
    r"^(\w+) is in the range \[\s*(\S+?)\s*,\s*the number of (?:unique|distinct) (\w+?)(?:\[i\])?"
    r"(?: in (?:the array|(\w+)))?\s*\]\s*\.?$", re.I)
_COLUMN_CHAR = re.compile(r"^(\w+)\[i\]\[(\d+)\] is '(.)'\s*\.?$")
_EITHER = re.compile(r"^either (\w+) is not zero or (\w+)\s*(>=|<=|!=|>|<)\s*(-?\d+)\s*\.?$", re.I)
_COLUMN_DISTINCT = re.compile(r"\b(?:unique|distinct)\b", re.I)
_TOLERANCE = re.compile(r"^answers? (?:will be accepted as correct if they are )?within (10\^-\d+|1e-\d+) of the "
                        r"(?:actual value|correct answer|actual answer)(?: will be accepted)?\s*\.?$", re.I)


def read_phrase(line: str, params: dict[str, str], c: Constraints) -> bool:
    """Add the check one of the module's sentences states; False for any other line."""
    text = line.strip()
    lists = [n for n, k in params.items() if k == "list"]
    m = _UNIQUE_COUNT.match(text)
    if m and params.get(m.group(1)) == "int" and isinstance(lo := number(m.group(2)), int):
        said = [g for g in (m.group(4), m.group(3)) if g in lists]  # "unique words[i]", "unique elements in nums"
        target = said[0] if said else (lists[0] if len(lists) == 1 else None)
        if target is not None:
            k, low = m.group(1), lo
            return _add(c, line, "range to a count", lambda a: None if not isinstance(v := a.get(target), list)
                        or not isinstance(x := a.get(k), int) else low <= x <= len({repr(i) for i in v}))
    m = _COLUMN_CHAR.match(text)
    if m and m.group(1) in lists:
        name, col, ch = m.group(1), int(m.group(2)), m.group(3)
        return _add(c, line, "character at", lambda a: None if not isinstance(v := a.get(name), list)
                    else all(isinstance(s, str) and len(s) > col and s[col] == ch for s in v))
    m = _EITHER.match(text)
    if m and m.group(1) in params and params.get(m.group(2)) == "int":
        x, y, op, bound = m.group(1), m.group(2), _OPS[m.group(3)], int(m.group(4))
        return _add(c, line, "either", lambda a: None if not isinstance(a.get(x), (int, float)) or not isinstance(a.get(y), int)
                    else a[x] != 0 or op(a[y], bound))
    if _COLUMN_DISTINCT.search(text) and not any(re.search(rf"\b{re.escape(n)}\b", text) for n in params):
        return _column_distinct(line, c)
    m = _TOLERANCE.match(text)
    if m:
        tolerance = number(m.group(1).replace("1e", "10^"))
        return isinstance(tolerance, (int, float)) and tolerance >= ANSWER_TOLERANCE
    return False


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


def _add(c: Constraints, line: str, kind: str, test: Test) -> bool:
    c.checks.append(Check(line, kind, test))
    return True


__all__ = ["read_phrase"]
