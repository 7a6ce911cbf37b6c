"""Call limits that depend on the constructor's arguments, for the design readers.

"At most ``n^2`` calls will be made to ``move``" (design_tic_tac_toe), "At most ``m * n`` calls
in total": the number of calls a sequence may make is a product of the constructor's integer
arguments and numbers, known only once the sequence's constructor is drawn. (A limit that is a
number, "At most 10^4 calls will be made to get", is read by
:mod:`vibecode.problems.constraint_prose` into ``Constraints.calls``.)
:mod:`vibecode.clr.design_inputs` keeps each sequence within the bound of its own constructor and
checks hidden sequences against it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from vibecode.problems.design import fold, method_for
from vibecode.types import Signature

_LIMIT = re.compile(r"\bat most (.+?) (?:function )?calls?\b(?: in total)?(?: will be made| are made)?(?: in total)?"
                    r"(?: to ((?:\w+(?:\(\))?(?:,\s*|\s+and\s+|,\s*and\s+|\s+or\s+)?)+))?\s*\.?\s*$", re.I)
_FACTOR = re.compile(r"^\s*([A-Za-z_]\w*|\d+)\s*(?:(?:\^|\*\*)\s*(\d+))?\s*$")


@dataclass(frozen=True)
class CallLimit:
    """The calls of ``methods`` (all calls: ``("*",)``) number at most the product of ``factors``:
    (a constructor parameter's name or a number, its power)."""

    line: str
    methods: tuple[str, ...]
    factors: tuple[tuple[str, int], ...]

    def bound(self, ctor: dict[str, object]) -> int | None:
        """The limit for one sequence, given its constructor's arguments by parameter name; None
        when an argument it names is not an integer."""
        out = 1
        for name, power in self.factors:
            value = int(name) if name.isdigit() else ctor.get(name)
            if not isinstance(value, int) or isinstance(value, bool):
                return None
            out *= value ** power
        return out


def call_limit(line: str, sig: Signature) -> CallLimit | None:
    """The reading of ``line`` as a call limit that names the constructor's parameters, or None."""
    if not sig.design:
        return None
    m = _LIMIT.search(line.replace("`", ""))
    if not m:
        return None
    params = {fold(p.name): p.name for p in sig.methods[0].params if (p.type or "") == "int"}
    factors = []
    for part in m.group(1).split("*") if "**" not in m.group(1) else [m.group(1)]:
        f = _FACTOR.match(part)
        if not f:
            return None
        name = f.group(1) if f.group(1).isdigit() else params.get(fold(f.group(1)))
        if name is None:
            return None
        factors.append((name, int(f.group(2) or 1)))
    if all(name.isdigit() for name, _ in factors):
        return None  # a number: Constraints.calls
    names = [w for w in re.findall(r"\w+", m.group(2) or "") if w not in ("and", "or")]
    methods = tuple(mm.function for w in names if (mm := method_for(sig, w)) is not None)
    if names and len(methods) != len(names):
        return None
    return CallLimit(line, methods or ("*",), tuple(factors))


def calls_made(limit: CallLimit, sig: Signature, ops: list[object]) -> int:
    """How many calls of a sequence ``limit`` counts (a limit on all calls counts the constructor's too)."""
    if limit.methods == ("*",):
        return len(ops)
    return sum(1 for op in ops[1:] if (m := method_for(sig, str(op))) is not None and m.function in limit.methods)


def exceeded(limit: CallLimit, sig: Signature, ops: list[object], ctor: dict[str, object]) -> str | None:
    """What in a sequence breaks ``limit`` (more calls than its constructor allows), or None."""
    bound = limit.bound(ctor)
    made = calls_made(limit, sig, ops)
    if bound is not None and made > bound:
        return f"{made} calls where '{limit.line}' allows {bound} for this constructor"
    return None
