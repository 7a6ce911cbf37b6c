"""Intervals the statement promises never to overlap, for :mod:`vibecode.problems.constraints`.
Read from an examined line (meeting_scheduler): "It is guaranteed that no two availability slots
of the same person intersect with each other." -> for each argument that is a list of ``[start,
end]`` pairs, a check (sorted by start, each interval starts after the one before it ends) and
the ``made`` rule ``disjoint``: the drawn pairs' values, sorted, paired again in order (and
shuffled, unless the list is read as sorted), so blind draws are not all filtered away.

The sentence counts as read (it is then neither a promise in ``Constraints.promises`` nor one
for :func:`vibecode.clr.trust.tiers_vouched`) only when it says nothing else.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from vibecode.problems.constraint_types import Check, Constraints
from vibecode.types import Problem

_DISJOINT = re.compile(
    r"(?:it is guaranteed that )?no two (?:[\w-]+ ){0,2}(?:slots|intervals|ranges|segments|meetings)"
    r"(?: of the same \w+)? (?:intersect|overlap)(?: with each other)?\s*\.?", re.I)


def _pairs(problem: Problem) -> list[str]:
    from vibecode.problems.typespec import parse_type

    out = []
    for p in problem.signature.params:
        spec = parse_type(p.type).base
        if spec.kind == "list" and spec.element.kind == "list" and spec.element.element.kind in ("int", "float"):
            out.append(p.name)
    return out


def _disjoint(name: str) -> Callable[[dict[str, object]], bool | None]:
    def test(args: dict[str, object]) -> bool | None:
        rows = args.get(name)
        if not isinstance(rows, list) or not all(isinstance(r, list) and len(r) == 2 for r in rows):
            return None
        spans = sorted((r[0], r[1]) for r in rows if isinstance(r, list))
        return all(b[0] > a[1] for a, b in itertools.pairwise(spans))

    return test


def read_disjoint(sentences: list[str], problem: Problem, c: Constraints) -> list[str]:
    """The sentences read (see the module); their checks and rules are added to ``c``."""
    names = _pairs(problem)
    read = []
    for sentence in sentences:
        if names and _DISJOINT.fullmatch(sentence.strip()):
            for name in names:
                c.checks.append(Check(sentence, "disjoint intervals", _disjoint(name), made=(name, "disjoint", "")))
            read.append(sentence)
    return read
