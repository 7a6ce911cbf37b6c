"""Description sentences that give a list of strings one length, read into checks (issue 14).

"You are given an array of ``n`` strings ``strs``, all of the same length." (the three
delete_columns_to_make_sorted problems) and "You are given a list of strings of the same length
``words``": the sentence that sets the scene also states a property of the input. Unread, vibecode
drew rows of different lengths; a correct brute force that reads ``strs[i][c]`` crashed on them,
the crash made the oracle unusable, and the wrong answers' larger cluster won. Read, the list is
marked (``Constraints.same_length``) and drawn with one length for all its strings, and the check
drops any input that breaks it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from vibecode.problems.constraint_types import Check, Constraints

_SENTENCES = (
    re.compile(r"\b(?:array|list) of (?:\w+ )?strings (\w+),? (?:all )?of the same length\b", re.I),
    re.compile(r"\b(?:array|list) of strings of the same length,? (\w+)\b", re.I),
)


def read_same_length(statement: str, params: dict[str, str], c: Constraints) -> None:
    """Add to ``c`` a "same length" check for each list argument a sentence of ``statement``
    (plain text) says holds strings of one length, and mark it to be drawn so."""
    for pattern in _SENTENCES:
        for m in pattern.finditer(statement):
            name = m.group(1)
            if params.get(name) != "list" or name in c.same_length:
                continue
            c.same_length.add(name)
            c.checks.append(Check(m.group(0), "same length", one_length(name)))


def one_length(name: str) -> Callable[[dict[str, object]], bool | None]:
    """The check: every string of the list ``name`` has one length."""
    def test(args: dict[str, object]) -> bool | None:
        value = args.get(name)
        if not isinstance(value, list):
            return None
        return len({len(x) for x in value if isinstance(x, str)}) <= 1
    return test
