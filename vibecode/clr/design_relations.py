"""Design-class lines that bound a method's arguments by the constructor's (``0 <= index <
nums.length`` for ``update`` after ``NumArray(nums)``, ``1 <= seatNumber <= n``, ``word1 and word2
are in wordsDict``): each call is checked with its sequence's constructor arguments bound, and
generated calls are drawn within those bounds.

The lines and their readings come from
:func:`vibecode.problems.constraint_design.context_problem`: the method's parameters and then the
constructor's, so the usual checks of :func:`vibecode.clr.inputs.validate_input` apply to a call's
arguments and the constructor's together.
"""

from __future__ import annotations

import copy
import json
import random
import re
from dataclasses import fields

from vibecode.clr.inputs import validate_input
from vibecode.problems.constraint_design import context_problem, relation_lines, relation_understood
from vibecode.problems.constraint_types import Constraints, Range, constraint_line, resolve
from vibecode.problems.constraints import parse_constraints
from vibecode.types import Problem, Signature

_TRIES = 24


class Relations:
    """The relation lines of each method, read with the constructor as context."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.ctor = problem.signature.methods[0]
        self.lines: dict[str, list[tuple[str, Problem, Constraints]]] = {}
        for m in problem.signature.methods[1:]:
            for line in relation_lines(problem, m):
                ctx = context_problem(problem, m, [line])
                if ctx is not None and relation_understood(problem, m, line, parse_constraints):
                    reading = _trimmed(parse_constraints(ctx), {p.name for p in self.ctor.params} - set(m.arg_names), ctx)
                    self.lines.setdefault(m.function, []).append((constraint_line(line), ctx, reading))

    def errors(self, method: Signature, args: list[object], ctor_args: list[object]) -> list[str]:
        """The relation lines this call breaks given the constructor's arguments, each named."""
        out = []
        for line, ctx, reading in self.lines.get(method.function, []):
            bound = self._bound(ctx, method, args, ctor_args)
            bad = validate_input(bound, ctx, reading)
            if bad:
                out.append(f"breaks {line!r} given the constructor's arguments {_short(ctor_args)} ({bad[0]})")
        return out

    def draw(self, method: Signature, base: list[object], ctor_args: list[object],
             rng: random.Random) -> list[object] | None:
        """Arguments like ``base`` that keep the relation lines: ints drawn within the bounds the
        constructor's arguments give (or up to its size), strings from its strings; None when no
        try keeps them."""
        if not self.errors(method, base, ctor_args):
            return base
        ctor_values = dict(zip((p.name for p in self.ctor.params), ctor_args, strict=False))
        ranges = {n: rs for _, _, r in self.lines.get(method.function, []) for n, rs in r.value.items()}
        size = max([_scale(v) for v in ctor_args] or [0])
        texts = sorted({v for v in _leaves(ctor_args) if isinstance(v, str)})
        letters = [chr(c) for t in texts if len(t) == 1 for c in range(ord("A"), ord(t) + 1)]
        words = {w for _, ctx, _ in self.lines.get(method.function, []) for w in re.findall(r"[A-Za-z_]\w*", ctx.constraints[-1])}
        own = [p.name for p in method.params]
        # a parameter bounded by the constructor alone is drawn first (``right`` before ``left <= right``)
        order = sorted(range(len(own)), key=lambda k: not _ctor_only(ranges.get(own[k], []), set(ctor_values)))
        for _ in range(_TRIES):
            trial = list(base)
            for k in order:
                name, value = own[k], trial[k]
                if isinstance(value, bool) or name not in words:
                    continue
                if isinstance(value, int):
                    assigned = {**ctor_values, **dict(zip(own, trial, strict=True))}
                    lo, hi = _span(ranges.get(name, []), assigned)
                    lo = 0 if lo is None else lo
                    hi = max(lo, size - 1) if hi is None else hi
                    if hi >= lo:
                        trial[k] = rng.randint(int(lo), int(hi))
                elif isinstance(value, str) and (texts or letters):
                    trial[k] = rng.choice(sorted({*letters, *texts}))
            if not self.errors(method, trial, ctor_args):
                return trial
        return None

    def _bound(self, ctx: Problem, method: Signature, args: list[object], ctor_args: list[object]) -> dict[str, object]:
        bound = dict(zip((p.name for p in method.params), args, strict=True))
        for p, v in zip(self.ctor.params, ctor_args, strict=False):
            if p.name in ctx.signature.arg_names:
                bound.setdefault(p.name, v)
        return bound


def _trimmed(reading: Constraints, ctor_names: set[str], ctx: Problem) -> Constraints:
    """The reading without what bounds the constructor's arguments alone (those are checked on
    the constructor's call, once): each call is checked against the relation line only."""
    out = copy.copy(reading)
    for f in fields(Constraints):
        value = getattr(reading, f.name)
        if isinstance(value, dict):
            setattr(out, f.name, {k: v for k, v in value.items() if k not in ctor_names})
        elif isinstance(value, set):
            setattr(out, f.name, value - ctor_names)
    line = constraint_line(ctx.constraints[-1]).strip().rstrip(".")
    out.checks = [c for c in reading.checks if c.line.strip().rstrip(".") == line]
    return out


def _span(ranges: list[Range], assigned: dict[str, object]) -> tuple[float | None, float | None]:
    lo: float | None = None
    hi: float | None = None
    for a, b in ranges:
        low, high = resolve(a, assigned), resolve(b, assigned)
        if low is not None:
            lo = low if lo is None else max(lo, low)
        if high is not None:
            hi = high if hi is None else min(hi, high)
    return lo, hi


def _ctor_only(ranges: list[Range], ctor_names: set[str]) -> bool:
    refs = {str(t[1]) for r in ranges for t in r if t is not None and t[0] != "num"}
    return refs <= ctor_names


def _scale(value: object) -> int:
    """How far a constructor argument reaches: an int's value, a list's or string's length."""
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return value
    return len(value) if isinstance(value, (list, str)) else 0


def _leaves(value: object) -> list[object]:
    if isinstance(value, list):
        return [x for v in value for x in _leaves(v)]
    return [value]


def _short(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."
