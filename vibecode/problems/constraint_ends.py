"""Description sentences that fix an argument's last or first item, read into checks (issue 14).

"Given a binary array ``bits`` that ends with ``0``, return ...": the sentence that asks the
question also states a property of the input. Unread, vibecode drew ``bits = [1]``, on which a
brute force that enumerates decodings answers ``false`` and every correct program ``true``; the
oracle's verdict there rejected the correct answers. Read, such an input breaks a check and is
dropped (generate-then-filter: where the items take few values, as bits do, a random list ends
with the stated one often enough; where they take many, most draws are dropped and the notes
say so).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from vibecode.problems.constraint_types import Check, Constraints, number

_ENDS = re.compile(r"\b(?:array|list|string|sequence)\s+(\w+)\s+(?:that|which)\s+(ends|starts|begins)\s+with\s+"
                   r"(?:an?\s+|the\s+)?(?:'([^']+)'|\"([^\"]+)\"|(-?\d+))(?=[\s,;]|\.(?!\d)|$)", re.I)


def read_ends(statement: str, params: dict[str, str], c: Constraints) -> None:
    """Add to ``c`` a check for each sentence of ``statement`` (plain text) that says a list or
    string argument ends (starts) with a value: ``0``, ``'0'`` and ``"0"`` alike (a list of
    integers ends with the integer, a string with the text)."""
    for m in _ENDS.finditer(statement):
        name, side, quoted, dquoted, digits = m.groups()
        if params.get(name) not in ("list", "str"):
            continue
        text = next(g for g in (quoted, dquoted, digits) if g is not None)
        last = side.lower() == "ends"
        c.checks.append(Check(m.group(0), "ends with" if last else "starts with", _ends_test(name, text, last)))


def _ends_test(name: str, text: str, last: bool) -> Callable[[dict[str, object]], bool | None]:
    """The check: a string ends (starts) with ``text``; a list's last (first) item is ``text``
    as written, or the number it spells (never a bool: ``False`` is no ``0``)."""
    value = number(text)

    def test(args: dict[str, object]) -> bool | None:
        v = args.get(name)
        if isinstance(v, str):
            return v.endswith(text) if last else v.startswith(text)
        if isinstance(v, list):
            if not v:
                return False
            item = v[-1 if last else 0]
            if isinstance(item, bool):
                return False
            return item == text or (value is not None and isinstance(item, (int, float)) and item == value)
        return None
    return test
