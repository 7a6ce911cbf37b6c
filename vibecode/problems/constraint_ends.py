"""Description sentences that fix an argument's last or first item, read into checks (issue 14).

"Given a binary array ``bits`` that ends with ``0``, return ...": the sentence that asks the
question also states a property of the input. Unread, vibecode drew ``bits = [1]``, on which a
brute force that enumerates decodings answers ``false`` and every correct program ``true``; the
oracle's verdict there rejected the correct answers. Read, such an input breaks a check and is
dropped (generate-then-filter: a random list ends with the stated value often enough).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from vibecode.problems.constraint_types import Check, Constraints, number

_ENDS = re.compile(r"\b(?:array|list|string|sequence)\s+(\w+)\s+(?:that|which)\s+(ends|starts|begins)\s+with\s+"
                   r"(?:an?\s+|the\s+)?(?:'([^']+)'|\"([^\"]+)\"|(-?\d+))(?=[\s,.;]|$)", re.I)


def read_ends(statement: str, params: dict[str, str], c: Constraints) -> None:
    """Add to ``c`` a check for each sentence of ``statement`` (plain text) that says a list or
    string argument ends (starts) with a value."""
    for m in _ENDS.finditer(statement):
        name, side, quoted, dquoted, digits = m.groups()
        kind = params.get(name)
        if kind not in ("list", "str"):
            continue
        value: object = quoted if quoted is not None else dquoted if dquoted is not None else number(digits)
        if value is None:
            continue
        c.checks.append(Check(m.group(0), "ends with", _ends_test(name, value, side.lower() == "ends")))


def _ends_test(name: str, value: object, last: bool) -> Callable[[dict[str, object]], bool | None]:
    def test(args: dict[str, object]) -> bool | None:
        v = args.get(name)
        if isinstance(v, str) and isinstance(value, str):
            return v.endswith(value) if last else v.startswith(value)
        if isinstance(v, list):
            return bool(v) and v[-1 if last else 0] == value
        return None
    return test
