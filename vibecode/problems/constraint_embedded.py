"""Values inside other values, read into checks for :mod:`vibecode.problems.constraints`:

- integers written inside a string or nested inside a list: "All the integers in s are in the
  range [1, 300]", "All the integer values in the input expression are in the range [0, 99]",
  "The values of the integers in the nested list is in the range [-100, 100]";
- tokens that are one of some symbols or an integer in a range: "tokens[i] is either an operator:
  "+", "-", "*", or "/", or an integer in the range [-200, 200]";
- a power of two: "n == 2^x where 0 <= x <= 6", "n == 2^x where x is in the range [1, 12]";
- a column's values: "directioni is either 0 or 1" with ``shift[i] = [directioni, amounti]``;
- pairs named by their columns distinct: "All the pairs (xi, yi) are distinct" with
  ``similarPairs[i] = [xi, yi]`` (the rows of similarPairs are distinct);
- rows (or columns) of a matrix in order: "mat[i] is sorted in non-decreasing order", "All the
  integers in each row are sorted in ascending order".

A check that cannot decide an input (the argument is missing or of another shape) says None.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from vibecode.problems.constraint_types import Check, Constraints, Term, number, resolve

Test = Callable[[dict[str, object]], bool | None]
_RANGE = r"\[\s*([^,\]]+?)\s*,\s*([^\]]+?)\s*\]"
_INTEGERS = re.compile(
    rf"^(?:all\s+)?(?:the\s+)?(?:values\s+of\s+the\s+)?(?:integer\s+values|integers|numbers|values)\s+(?:in|of)\s+"
    rf"(.+?)\s+(?:are|is)\s+in\s+the\s+range\s*{_RANGE}\s*\.?$", re.I)
_TOKENS = re.compile(rf"^(\w+)\[i\]\s+is\s+(?:either\s+)?(.*?),?\s+or\s+(?:a\s+string\s+representing\s+)?an\s+integer"
                     rf"\s+in\s+the\s+range\s*{_RANGE}\s*\.?$", re.I)
_POWER = re.compile(rf"^(\w+)\s*==\s*2\s*\^\s*x\s*,?\s+where\s+(?:(.+?)\s*<=\s*x\s*<=\s*(.+?)|x\s+is\s+in\s+the\s+range\s*{_RANGE})\s*\.?$")
_ROWS = re.compile(r"^(?:(\w+)\[i\]\s+is|(?:all\s+)?(?:the\s+)?(?:integers|numbers|values|elements)\s+in\s+each\s+(row|column)"
                   r"(?:\s+of\s+(\w+))?\s+are)\s+sorted\s+in\s+(strictly\s+)?(?:non-?decreasing|ascending|increasing)\s+order\s*\.?$",
                   re.I)


_PAIRS = re.compile(r"^all\s+(?:the\s+)?(?:pairs\s+)?[\(\[]\s*(\w+)\s*,\s*(\w+)\s*[\)\]]\s+are\s+(?:unique|distinct)\s*\.?$", re.I)


def read_embedded(line: str, params: dict[str, str], aliases: dict[str, Term], c: Constraints) -> bool:
    """Read ``line`` into a check when it is one of the shapes above; False otherwise."""
    text = line.strip()
    return any(reader(text, params, aliases, c) for reader in (_integers, _tokens, _power, _rows, _pairs, _column_choice))


_COLUMN_CHOICE = re.compile(r"^(\w+)\s+is\s+(?:either\s+)?(.+?\bor\b.+?)\s*\.?$", re.I)


def _column_choice(text: str, params: dict[str, str], aliases: dict[str, Term], c: Constraints) -> bool:
    """"directioni is either 0 or 1" where ``shift[i] = [directioni, amounti]``: that column's
    values (checked; a range for generation when they are numbers)."""
    m = _COLUMN_CHOICE.match(text)
    if not m or m.group(1) not in c.columns:
        return False
    items = [x.strip() for x in re.split(r",|\bor\b", m.group(2)) if x.strip()]
    values = [number(x) if number(x) is not None else x.strip("'\"") for x in items]
    if not items or not all(number(x) is not None or re.fullmatch(r"'[^']*'|\"[^\"]*\"", x) for x in items):
        return False
    name, col = c.columns[m.group(1)]
    if all(isinstance(v, (int, float)) for v in values):
        nums = [v for v in values if isinstance(v, (int, float))]
        c.column_value.setdefault(name, {}).setdefault(col, []).append((("num", min(nums), 0), ("num", max(nums), 0)))

    def test(args: dict[str, object]) -> bool | None:
        rows = args.get(name)
        if not isinstance(rows, list):
            return None
        return all(not isinstance(r, list) or len(r) <= col or r[col] in values for r in rows)

    return _add(c, text, "column values", test)


def _pairs(text: str, params: dict[str, str], aliases: dict[str, Term], c: Constraints) -> bool:
    """"All the pairs (xi, yi) are distinct" where ``similarPairs[i] = [xi, yi]``: distinct rows."""
    m = _PAIRS.match(text)
    lists = {c.columns[t][0] for t in m.groups() if t in c.columns} if m else set()
    if not m or len(lists) != 1 or not all(t in c.columns for t in m.groups()):
        return False
    c.unique.add(lists.pop())
    return True


def _add(c: Constraints, line: str, kind: str, test: Test) -> bool:
    c.checks.append(Check(line, kind, test))
    return True


def _integers(text: str, params: dict[str, str], aliases: dict[str, Term], c: Constraints) -> bool:
    m = _INTEGERS.match(text)
    if not m:
        return False
    lo, hi = number(m.group(2)), number(m.group(3))
    where = m.group(1)
    named = [n for n in params if re.search(rf"\b{re.escape(n)}\b", where)]
    generic = re.fullmatch(r"(?:the\s+)?(?:input(?:\s+\w+)?|nested\s+list|expression|string)", where, re.I)
    names = named or (list(params) if generic and len(params) == 1 else [])
    if lo is None or hi is None or len(names) != 1 or params[names[0]] not in ("str", "list"):
        return False
    name, signed = names[0], lo < 0
    pattern = re.compile(r"-?\d+" if signed else r"\d+")

    def test(args: dict[str, object]) -> bool | None:
        v = args.get(name)
        if isinstance(v, str):
            found = [int(x) for x in pattern.findall(v)]
        elif isinstance(v, list):
            found = [x for x in _leaves(v) if isinstance(x, int) and not isinstance(x, bool)]
        else:
            return None
        return all(lo <= x <= hi for x in found)

    return _add(c, text, "integers inside", test)


def _leaves(v: object) -> list[object]:
    return [x for item in v for x in _leaves(item)] if isinstance(v, list) else [v]


def _tokens(text: str, params: dict[str, str], aliases: dict[str, Term], c: Constraints) -> bool:
    m = _TOKENS.match(text)
    if not m or params.get(m.group(1)) != "list":
        return False
    symbols = set(re.findall(r"\"([^\"]+)\"|'([^']+)'", m.group(2)))
    allowed = {a or b for a, b in symbols}
    lo, hi = number(m.group(3)), number(m.group(4))
    if not allowed or lo is None or hi is None:
        return False
    name = m.group(1)

    def test(args: dict[str, object]) -> bool | None:
        v = args.get(name)
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            return None
        return all(x in allowed or (re.fullmatch(r"[+-]?\d+", x) is not None and lo <= int(x) <= hi)
                   for x in v if isinstance(x, str))

    return _add(c, text, "tokens", test)


def _power(text: str, params: dict[str, str], aliases: dict[str, Term], c: Constraints) -> bool:
    m = _POWER.match(text)
    if not m:
        return False
    lo_text, hi_text = (m.group(2), m.group(3)) if m.group(2) is not None else (m.group(4), m.group(5))
    lo, hi = number(lo_text), number(hi_text)
    name = m.group(1)
    term: Term | None = ("val", name, 0) if params.get(name) == "int" else aliases.get(name)
    if lo is None or hi is None or term is None or not isinstance(lo, int) or not isinstance(hi, int):
        return False
    powers = {2**x for x in range(lo, hi + 1)}

    def test(args: dict[str, object]) -> bool | None:
        v = resolve(term, args)
        return None if v is None else v in powers

    return _add(c, text, "power of two", test)


def _rows(text: str, params: dict[str, str], aliases: dict[str, Term], c: Constraints) -> bool:
    m = _ROWS.match(text)
    if not m:
        return False
    matrices = [n for n, k in params.items() if k == "list"]
    name = m.group(1) or m.group(3) or (matrices[0] if len(matrices) == 1 else None)
    if name not in params or params[name] != "list":
        return False
    columns, strict = m.group(2) is not None and m.group(2).lower() == "column", m.group(4) is not None

    def test(args: dict[str, object]) -> bool | None:
        v = args.get(name)
        if not isinstance(v, list) or not all(isinstance(r, list) for r in v):
            return None
        lines = [list(col) for col in zip(*v, strict=False)] if columns else v
        try:
            return all(all(a < b if strict else a <= b for a, b in itertools.pairwise(r)) for r in lines)
        except TypeError:
            return None

    return _add(c, text, "rows sorted", test)
