"""Arguments of a design problem whose values rise from call to call, for the design readers.

"Every timestamp will be passed in non-decreasing order (chronological order)", "Each test case
will call ping with strictly increasing values of t", "All the calls are being made to the system
in chronological order (i.e., timestamp is monotonically increasing)", "All the timestamps
timestamp of set are strictly increasing": one integer parameter (``timestamp``, ``t``) whose
values, taken in the order of the calls, never fall (or, "strictly", always rise). The calls are
those of the methods the line names ("of set", "call ping"), or of every method with that
parameter when it names none. :mod:`vibecode.clr.design_inputs` draws sequences that keep it
(the drawn values in order) and checks hidden sequences against it.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from vibecode.problems.design import fold, method_for
from vibecode.types import Signature

_RISING = re.compile(r"\b(?:strictly increasing|non-?decreasing|monotonically increasing|chronological order|"
                     r"increasing order)\b", re.I)


@dataclass(frozen=True)
class Rising:
    """``param``'s values rise over the calls of ``methods`` (never fall; ``strict``: always rise)."""

    line: str
    param: str
    methods: tuple[str, ...]
    strict: bool


def rising(line: str, sig: Signature) -> Rising | None:
    """The reading of ``line`` as a parameter rising across calls, or None (see the module)."""
    if not sig.design or not _RISING.search(line):
        return None
    words = {fold(w) for w in re.findall(r"[A-Za-z_]\w*", line)}
    params = {p.name for m in sig.methods[1:] for p in m.params if fold(p.name) in words and (p.type or "") == "int"}
    if len(params) != 1:
        return None
    param = params.pop()
    having = [m.function for m in sig.methods[1:] if any(p.name == param for p in m.params)]
    named = [f for f in having if fold(f) in words and fold(f) != fold(param)]
    strict = bool(re.search(r"\bstrictly\b", line, re.I)) and not re.search(r"non-?decreasing", line, re.I)
    return Rising(line, param, tuple(named or having), strict)


def values(r: Rising, sig: Signature, ops: list[object], args: list[object]) -> list[tuple[int, int, object]]:
    """(call index, argument position, value) of ``r``'s parameter, in the order of the calls."""
    out: list[tuple[int, int, object]] = []
    for i, (op, a) in enumerate(zip(ops, args, strict=False)):
        method = method_for(sig, str(op)) if i else None
        if method is None or method.function not in r.methods or not isinstance(a, list):
            continue
        k = [p.name for p in method.params].index(r.param)
        if k < len(a):
            out.append((i, k, a[k]))
    return out


def broken(r: Rising, sig: Signature, ops: list[object], args: list[object]) -> str | None:
    """What in a sequence breaks ``r`` (the first call whose value falls), or None."""
    seen = values(r, sig, ops, args)
    for (_, _, a), (i, _, b) in itertools.pairwise(seen):
        if isinstance(a, int) and isinstance(b, int) and (b < a or (r.strict and b == a)):
            return f"operation {i}: {r.param} = {b} after {a} breaks '{r.line}'"
    return None
