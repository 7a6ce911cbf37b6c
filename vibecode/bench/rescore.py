"""Re-scoring a stored run: decide again from the stored evidence, without a model or a sandbox
(for instance with a calibration map, or after the scoring formula changed)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from vibecode.bench.record import candidate_passed, cluster_record
from vibecode.bench.selectors import redecide
from vibecode.clr.score import Calibration


def rescore_record(record: Mapping[str, Any], calibration: Calibration | None = None) -> dict[str, Any]:
    """The record with its decision made again; candidates keep their stored labels."""
    if not record["candidates"]:
        return dict(record)
    d = redecide(record, calibration)
    candidates = [{**c, "cluster": d.cluster_of.get(c["index"]), "r": round(d.r[c["index"]], 6)
                   if c["index"] in d.r else c.get("r")} for c in record["candidates"]]
    return {
        **record,
        "status": d.status,
        "reliability": round(d.reliability, 6),
        "raw_reliability": round(d.raw_reliability, 6),
        "calibrated": calibration is not None,
        "reason": d.reason,
        "best": d.best,
        "passed": candidate_passed(record, d.best),
        "clusters": [cluster_record(c) for c in d.clusters],
        "candidates": candidates,
    }


def changed(before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]]) -> int:
    """How many problems got another proposal or status."""
    return sum((a["best"], a["status"]) != (b["best"], b["status"]) for a, b in zip(before, after, strict=True))
