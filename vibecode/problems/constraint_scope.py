"""Where a reading applies, for :mod:`vibecode.problems.constraints`: one index that is excepted
(``manager[headID] == -1`` beside ``0 <= manager[i] < n``; ``0 <= parent[i] <= n - 1 for i != 0``),
rows of different lengths (``triangle[0].length == 1`` is the first row only, not every row), the
rows a line's closing "for each X[i]" names, and lines under a condition ("If s is an email:" and the lines after it hold only for emails).

Each of these was a reading that rejected real inputs: the range of every entry broke the one
entry the statement excepts; the first row's length was applied to every row; both branches'
lengths were required at once.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from vibecode.problems.constraint_types import Check, Constraints, Range, resolve
from vibecode.types import Problem

_AT = re.compile(r"^\s*([A-Za-z_]\w*)\[(\w+)\]\s*==\s*(-?\d+)\b")
_FOR_ALL_BUT = re.compile(r"^(.*\[i\].*?)\s+for\s+(?:all\s+)?i\s*!=\s*(\w+)\s*\.?\s*$")
_CONDITION = re.compile(r"^\s*if\b.*:\s*$", re.I)
_FOR_EACH_ROW = re.compile(r"^(.*?),?\s+for (?:each|every|all) ([A-Za-z_]\w*)\[\w+\]\s*\.?\s*$")


def ragged(problem: Problem, params: dict[str, str]) -> set[str]:
    """The lists of rows whose rows differ in length in some example (a triangle, not a grid)."""
    out = set()
    for ex in problem.examples:
        for name, value in ex.inputs.items():
            rows = value if params.get(name) == "list" and isinstance(value, list) else []
            sizes = {len(r) for r in rows if isinstance(r, (list, str))}
            if len(sizes) > 1 and all(isinstance(r, list) for r in rows):
                out.add(name)
    return out


def first_row_only(line: str, ragged_names: set[str]) -> bool:
    """``triangle[0].length == 1`` for a ragged list: a check on that row, not every row's length."""
    return any(re.search(rf"\b{re.escape(n)}\[\d+\]\s*\.\s*length|len\(\s*{re.escape(n)}\[\d+\]\s*\)", line)
               for n in ragged_names)


def for_each_row(line: str, c: Constraints) -> str | None:
    """``1 <= val_i, freq_i <= 10^4 for each encoded1[i]`` (examined:
    product_of_two_run_length_encoded_arrays) without its closing scope, where every name the
    rest of the line gives a bound to is a column of that list's rows (``encoded1[i] = [val_i,
    freq_i]``): the columns already say whose rows they are. None otherwise."""
    m = _FOR_EACH_ROW.match(line)
    if m is None:
        return None
    named = [w for w in re.findall(r"[A-Za-z_]\w*", m.group(1)) if w in c.columns]
    return m.group(1) if named and all(c.columns[w][0] == m.group(2) for w in named) else None


def conditional_lines(lines: list[str]) -> set[int]:
    """The indices of the lines that hold under a condition: an "If ...:" line and the lines after
    it (up to the next one), when the statement has such headers. They are read as not
    understood: either branch alone rejects the other branch's real inputs."""
    out: set[int] = set()
    inside = False
    for k, line in enumerate(lines):
        if _CONDITION.match(line):
            inside = True
        if inside:
            out.add(k)
    return out


def all_but_one(line: str) -> tuple[str, str] | None:
    """``0 <= parent[i] <= n - 1 for i != 0`` -> (``0 <= parent[i] <= n - 1``, ``0``)."""
    m = _FOR_ALL_BUT.match(line)
    return (m.group(1).strip(), m.group(2)) if m else None


def except_at(lines: list[str], unread: set[str], params: dict[str, str], excepted: dict[str, str],
              c: Constraints) -> set[str]:
    """Lines ``X[k] == v`` (``k`` a scalar argument or a literal index) beside ranges for every
    entry of ``X``: the ranges hold for every entry but ``X[k]`` (checked), and ``X[k] == v`` is
    checked too when no other reader took the line (it is in ``unread``: "parent[0] == -1 which
    indicates that 0 is the root"). ``excepted`` holds the indices said by "for i != k". Returns
    the lines of ``unread`` read here."""
    read = set()
    spots: dict[str, tuple[str, object]] = {n: (k, None) for n, k in excepted.items()}
    for line in lines:
        m = _AT.match(line)
        if m and params.get(m.group(1)) == "list" and (m.group(2).isdigit() or params.get(m.group(2)) == "int"):
            spots[m.group(1)] = (m.group(2), int(m.group(3)))
            if line not in unread:
                continue
            read.add(line)
            c.checks.append(Check(line, "value at one index", _value_at(m.group(1), m.group(2), int(m.group(3)))))
    for name, (index, _) in spots.items():
        lists = [n for n, k in params.items() if k == "list" and n != name]
        for k, check in enumerate(c.checks):  # "0 <= parent[i] <= nodes - 1": every entry but that one
            line = check.line
            if re.search(rf"\b{re.escape(name)}\[i\]", line) and not any(re.search(rf"\b{re.escape(n)}\b", line) for n in lists):
                c.checks[k] = Check(line, check.kind, _without(name, index, check.test))
        ranges = c.value.pop(name, [])
        if not ranges:
            continue
        c.checks.append(Check(f"every {name}[i] but {name}[{index}] in its range", "except one index",
                              _others_in(name, index, ranges)))
        value = spots[name][1]
        wide = [_widened(r, value) for r in ranges] if isinstance(value, int) else []
        if wide:  # generation keeps bounds that also admit the excepted value
            c.value[name] = wide
    return read


def _widened(rng: Range, value: int) -> Range:
    """A range that also admits ``value``: a number bound moved to it; a bound that depends on
    another argument kept only when a negative value lies below it (sizes are not negative)."""
    lo, hi = rng
    if lo is not None:
        lo = ("num", min(value, lo[1] + lo[2]), 0) if lo[0] == "num" and isinstance(lo[1], (int, float)) else None
    if hi is not None:
        if hi[0] == "num" and isinstance(hi[1], (int, float)):
            hi = ("num", max(value, hi[1] + hi[2]), 0)
        elif value >= 0:
            hi = None
    return (lo, hi)


def _index(index: str, args: dict[str, object]) -> int | None:
    if index.isdigit():
        return int(index)
    k = args.get(index)
    return k if isinstance(k, int) else None


Test = Callable[[dict[str, object]], bool | None]


def _value_at(name: str, index: str, value: int) -> Test:
    def test(args: dict[str, object]) -> bool | None:
        xs, k = args.get(name), _index(index, args)
        if not isinstance(xs, list) or k is None or not 0 <= k < len(xs):
            return None
        return bool(xs[k] == value)
    return test


def _without(name: str, index: str, test: Test) -> Test:
    def without(args: dict[str, object]) -> bool | None:
        xs, k = args.get(name), _index(index, args)
        if not isinstance(xs, list) or k is None:
            return None
        return test({**args, name: xs[:k] + xs[k + 1:]})
    return without


def _others_in(name: str, index: str, ranges: list[Range]) -> Test:
    def test(args: dict[str, object]) -> bool | None:
        xs, k = args.get(name), _index(index, args)
        if not isinstance(xs, list) or k is None:
            return None
        for i, v in enumerate(xs):
            if i == k or not isinstance(v, (int, float)):
                continue
            for lo, hi in ranges:
                lo_v, hi_v = resolve(lo, args), resolve(hi, args)
                if (lo_v is not None and v < lo_v) or (hi_v is not None and v > hi_v):
                    return False
        return True
    return test

