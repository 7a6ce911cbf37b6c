"""Constraint lines under conditions, read as one disjunction: "If s is an email:" followed by its
lines, "If s is a phone number:" followed by its own (masking_personal_information).

Either branch alone rejects the other branch's real inputs, so the lines are not bounds of the
argument. Each branch is read as a problem of its own (its lines only), and the block becomes one
check: an input is valid when it satisfies every reading of some branch. The check says False only
when every branch was read in full and the input breaks each; with a branch that has a line it
could not read, an input that no read branch accepts is undecided (None). Generation cannot draw
from a disjunction, so inputs are drawn as usual and filtered (generate-then-filter).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from vibecode.problems.constraint_types import Check, Constraints, holds
from vibecode.types import Problem

Parse = Callable[[Problem], Constraints]
_CONDITION = re.compile(r"^\s*if\b.*:\s*$", re.I)


def branches(lines: list[str]) -> list[tuple[int, list[int]]]:
    """(index of the "If ...:" line, indices of the lines under it) for each condition header."""
    out: list[tuple[int, list[int]]] = []
    for k, line in enumerate(lines):
        if _CONDITION.match(line):
            out.append((k, []))
        elif out:
            out[-1][1].append(k)
    return out


def read_blocks(problem: Problem, lines: list[str], parse: Parse) -> tuple[list[Check], set[int]]:
    """The disjunction check of the conditional block (none without two branches that each hold a
    line), and the indices of the lines it covers (the headers and every line under them) when
    each branch's lines were read."""
    found = [(head, under) for head, under in branches(lines) if under]
    if len(found) < 2:
        return [], set()
    readings: list[tuple[Constraints, bool]] = []
    for _, under in found:
        sub = dataclasses.replace(problem, examples=(), constraints=tuple(lines[k] for k in under))
        c = parse(sub)
        readings.append((c, not c.skipped and not c.promise_lines))
    if not any(full for _, full in readings):
        return [], set()
    headers = " / ".join(lines[head] for head, _ in found)
    covered = {k for head, under in found for k in (head, *under)} if all(full for _, full in readings) else set()

    def test(args: dict[str, object]) -> bool | None:
        verdicts = [_satisfies(c, args) for c, _ in readings]
        if any(v is True for v in verdicts):
            return True
        if all(full for _, full in readings) and all(v is False for v in verdicts):
            return False
        return None

    return [Check(headers, "one of the conditions", test)], covered


def _satisfies(c: Constraints, args: dict[str, object]) -> bool | None:
    """Whether ``args`` meet one branch's reading (its lengths, values, characters and checks)."""
    for name, ranges in c.length.items():
        v = args.get(name)
        if isinstance(v, (str, list)) and not holds(len(v), ranges, args):
            return False
    for name, ranges in c.value.items():
        v = args.get(name)
        if isinstance(v, (int, float)) and not isinstance(v, bool) and not holds(v, ranges, args):
            return False
    for name, chars in c.chars.items():
        v = args.get(name)
        if isinstance(v, str) and not set(v) <= set(chars):
            return False
    verdicts = [ch.test(args) for ch in c.checks]
    if any(v is False for v in verdicts):
        return False
    return None if any(v is None for v in verdicts) else True


__all__ = ["branches", "read_blocks"]
