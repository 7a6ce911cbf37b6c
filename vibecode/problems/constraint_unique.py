"""Arguments of a design problem that never repeat from call to call, for the design readers.

"``(row, col)`` are unique for each different call to ``move``", "All the values of ``key`` are
distinct across calls to ``add``": a tuple of parameters of one method (or of every method with
them, when the line names none) whose values, taken together, differ between any two calls.
:mod:`vibecode.clr.design_inputs` draws sequences that keep it (a repeated tuple is drawn again)
and checks hidden sequences against it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from vibecode.problems.design import fold, method_for
from vibecode.types import Signature

_UNIQUE = re.compile(r"\b(?:are|is|will be) (?:all |always )?(?:unique|distinct|different)\b.*\bcalls?\b", re.I)
_NOT_UNIQUE = re.compile(r"\bnot (?:necessarily )?(?:unique|distinct)\b", re.I)


@dataclass(frozen=True)
class Unique:
    """The values of ``params`` (together) differ between any two calls of ``methods``."""

    line: str
    params: tuple[str, ...]
    methods: tuple[str, ...]


def unique(line: str, sig: Signature) -> Unique | None:
    """The reading of ``line`` as arguments that never repeat across calls, or None (see the module)."""
    if not sig.design or not _UNIQUE.search(line) or _NOT_UNIQUE.search(line):
        return None
    subject = _UNIQUE.split(line, maxsplit=1)[0]
    words = [fold(w) for w in re.findall(r"[A-Za-z_]\w*", subject)]
    for method in sig.methods[1:]:
        own = {fold(p.name): p.name for p in method.params}
        params = tuple(dict.fromkeys(own[w] for w in words if w in own))
        if not params:
            continue
        having = [m.function for m in sig.methods[1:]
                  if all(any(p.name == n for p in m.params) for n in params)]
        named = [f for f in having if re.search(rf"\b{re.escape(f)}\b", line)]
        return Unique(line, params, tuple(named or having))
    return None


def call_key(u: Unique, sig: Signature, op: object, args: object) -> str | None:
    """The values of ``u``'s parameters in one call (a JSON string), or None when the call is not
    one of ``u``'s methods."""
    method = method_for(sig, str(op))
    if method is None or method.function not in u.methods or not isinstance(args, list):
        return None
    names = [p.name for p in method.params]
    if len(args) != len(names):
        return None
    return json.dumps([args[names.index(n)] for n in u.params])


def repeated(u: Unique, sig: Signature, ops: list[object], args: list[object]) -> str | None:
    """What in a sequence breaks ``u`` (the first call that repeats an earlier call's values), or None."""
    seen: dict[str, int] = {}
    for i, (op, a) in enumerate(zip(ops, args, strict=False)):
        k = call_key(u, sig, op, a) if i else None
        if k is None:
            continue
        if k in seen:
            return f"operation {i}: {', '.join(u.params)} = {k} repeats operation {seen[k]}, which breaks '{u.line}'"
        seen[k] = i
    return None
