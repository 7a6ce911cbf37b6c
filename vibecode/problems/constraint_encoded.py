"""Run-length encoded lists, for :mod:`vibecode.problems.constraints`. Read from an examined problem
(product_of_two_run_length_encoded_arrays):

"The full arrays that encoded1 and encoded2 represent are the same length." names two lists whose
rows are ``[val_i, freq_i]`` (the statement's columns, :attr:`Constraints.columns`): the
frequencies of each add up to the same total. Read as a check, and as the ``made`` rule ``same
total`` (the second list's frequencies drawn again to add up to the first's, each within its
column's range), since two lists drawn apart almost never expand to one length, and right answers
differ on those that do not (one stops at the shorter, one fails).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from vibecode.problems.constraint_types import Check, Constraints

_SAME_LENGTH = re.compile(r"^the (?:full|expanded|decoded) arrays that (\w+) and (\w+) represent are (?:of )?the same length\s*\.?$",
                          re.I)
_FREQUENCY = re.compile(r"^(?:freq|frequency|count|cnt)_?[a-z]?$", re.I)


def read_encoded(line: str, params: dict[str, str], c: Constraints) -> bool:
    """Add the check (and its made rule) the line states; False for any other line."""
    m = _SAME_LENGTH.match(line.strip())
    if m is None:
        return False
    first, second = m.group(1), m.group(2)
    if params.get(first) != "list" or params.get(second) != "list":
        return False
    cols = [frequency_column(name, c) for name in (first, second)]
    if cols[0] is None or cols[1] is None:
        return False
    c.checks.append(Check(line, "same expanded length", _same_total(first, cols[0], second, cols[1]),
                          made=(second, "same total", f"{first},{cols[0]},{cols[1]}")))
    return True


def frequency_column(name: str, c: Constraints) -> int | None:
    """The column of ``name``'s rows the statement calls a frequency (``freq_i``), or None."""
    found = {k for alias, (n, k) in c.columns.items() if n == name and _FREQUENCY.match(alias)}
    return found.pop() if len(found) == 1 else None


def _same_total(first: str, col1: int, second: str, col2: int) -> Callable[[dict[str, object]], bool | None]:
    def total(rows: object, col: int) -> int | None:
        if not isinstance(rows, list) or not all(isinstance(r, list) and len(r) > col and isinstance(r[col], int)
                                                 for r in rows):
            return None
        return sum(int(r[col]) for r in rows)

    def test(args: dict[str, object]) -> bool | None:
        a, b = total(args.get(first), col1), total(args.get(second), col2)
        return None if a is None or b is None else a == b

    return test


__all__ = ["frequency_column", "read_encoded"]
