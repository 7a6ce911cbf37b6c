"""Choosing a proposal from a stored record, in four ways, for the ablations.

- ``clr``: the full selector, :func:`vibecode.clr.score.decide` on the stored evidence (examples,
  behaviour clusters, claims) and what else it was given (``decided_with``: the oracle, the
  trusted inputs, ...). With the record's own calibration it reproduces the stored decision
  exactly (records written before ``decided_with`` are decided without the oracle).
- ``no_claims``: the same with every claim removed (examples and clusters only).
- ``examples_only``: the first candidate, in sampling order, that passes every example (the
  first parsed candidate when none does); no clustering, no claims.
- ``majority``: plain majority vote: the largest cluster of candidates with the same behaviour
  on the shared inputs (ties: the cluster with the earliest candidate), its earliest member; no
  examples checked, no claims.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from vibecode.bench.record import candidate_passed, evidence_of
from vibecode.clr.score import Calibration, decide, decide_kwargs
from vibecode.types import Decision

SELECTORS = ("clr", "no_claims", "examples_only", "majority")


@dataclass(frozen=True)
class Choice:
    selector: str
    best: int | None
    passed: bool
    status: str | None = None  # clr and no_claims only
    reliability: float | None = None
    raw_reliability: float | None = None


def redecide(record: Mapping[str, Any], calibration: Calibration | None = None, *,
             claims: bool = True) -> Decision:
    evidence = evidence_of(record)
    if not claims:
        evidence = [dataclasses.replace(e, claims=()) for e in evidence]
    kwargs = decide_kwargs(record.get("decided_with") or {})
    return decide(evidence, k=int(record["k"]), calibration=calibration, **kwargs)


def choose(record: Mapping[str, Any], selector: str, calibration: Calibration | None = None) -> Choice:
    if selector in ("clr", "no_claims"):
        d = redecide(record, calibration, claims=selector == "clr")
        return Choice(selector, d.best, candidate_passed(record, d.best), d.status, d.reliability,
                      d.raw_reliability)
    parsed = sorted((c for c in record["candidates"] if c["parsed"]), key=lambda c: c["index"])
    if not parsed:
        return Choice(selector, None, False)
    if selector == "examples_only":
        total = record["examples"]
        best = next((c for c in parsed if c["examples_passed"] == total), parsed[0])["index"]
        return Choice(selector, best, candidate_passed(record, best))
    if selector == "majority":
        groups: dict[tuple[str, ...], list[int]] = {}
        for c in parsed:
            groups.setdefault(tuple(c.get("behaviour", ())), []).append(c["index"])
        top = max(groups.values(), key=lambda members: (len(members), -min(members)))
        best = min(top)
        return Choice(selector, best, candidate_passed(record, best))
    raise ValueError(f"unknown selector {selector!r}; known: {', '.join(SELECTORS)}")
