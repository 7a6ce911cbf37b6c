"""The evidence behind right and wrong picks, from a run's records (nothing is rerun).

Each record holds ``evidence`` (:class:`vibecode.clr.reliability.Evidence` as JSON: what the
reliability was computed from). :func:`evidence_table` sets the right picks beside the wrong ones:
how many had each status and kind of reason, and each feature's mean, with the AUROC of the
feature alone for right vs wrong picks (above 0.5: higher values go with right picks; 0.5: it
does not separate them). Failed decisions carry no evidence and count under ``status`` only.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from vibecode.bench.metrics import auroc

Record = Mapping[str, Any]

FEATURES: dict[str, str] = {  # name -> what it is (words for summary.md)
    "share_of_k": "cluster size / K",
    "share_of_passing": "cluster size / candidates passing every example",
    "passing_clusters_gt1": "another candidate passes every example but is not in the cluster",
    "generated": "generated inputs the proposal answered",
    "oracle": "a usable oracle agreed on some generated input",
    "oracle_agreed": "generated inputs the oracle agreed on",
    "contested": "contested (a rival passing every example disagrees, no oracle decided)",
    "rivals_rejected": "rival clusters the oracle rejected",
    "examples": "examples",
    "claims_checked": "claims checked (verified + failed)",
    "claims_failed": "claims failed",
    "too_slow": "too slow",
    "reliability": "reliability",
}


def reason_kind(reason: str) -> str:
    """The kind of a decision's reason, from its first words."""
    if reason.startswith("Contested"):
        return "contested"
    if "generated input(s) ran" in reason:
        return "too few generated inputs"
    if "too slow" in reason or reason.startswith("The proposal is"):
        return "too slow"
    if "disagrees with the brute-force oracle" in reason:
        return "every cluster disagrees with the oracle"
    if reason.startswith("No candidate"):
        return "no candidate passes"
    if "no examples" in reason:
        return "no examples"
    if "score alike" in reason:
        return "tie"
    if "has the top score" in reason:
        return "verified"
    return "other"


def features(record: Record) -> dict[str, float] | None:
    """The features of one record's decision; None when it carries no evidence (failed, or a
    record written before the evidence was recorded)."""
    e = record.get("evidence")
    if not isinstance(e, Mapping):
        return None
    k = max(int(e["k"]), int(e["cluster"]), 1)
    passing = max(int(e["passing"]), int(e["cluster"]), 1)
    return {
        "share_of_k": int(e["cluster"]) / k,
        "share_of_passing": int(e["cluster"]) / passing,
        "passing_clusters_gt1": float(int(e["passing"]) > int(e["cluster"])),
        "generated": float(e["generated"]),
        "oracle": float(int(e["oracle_agreed"]) > 0),
        "oracle_agreed": float(e["oracle_agreed"]),
        "contested": float(bool(e["contested"])),
        "rivals_rejected": float(e.get("rivals_rejected", 0)),
        "examples": float(e["examples"]),
        "claims_checked": float(int(e["claims_verified"]) + int(e["claims_failed"])),
        "claims_failed": float(e["claims_failed"]),
        "too_slow": float(bool(e.get("too_slow"))),
        "reliability": float(record["raw_reliability"]),
    }


def _mean(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def evidence_table(records: Sequence[Record]) -> dict[str, Any]:
    """Right vs wrong picks (records with a proposal): counts by status and reason kind, and per
    feature the mean for each side and the feature's own AUROC."""
    picked = [r for r in records if r.get("best") is not None]
    sides = {"right": [r for r in picked if r["passed"]], "wrong": [r for r in picked if not r["passed"]]}
    out: dict[str, Any] = {"picks": {side: len(rs) for side, rs in sides.items()}, "status": {}, "reason": {},
                           "features": {}}
    for side, rs in sides.items():
        for r in rs:
            out["status"].setdefault(str(r["status"]), {"right": 0, "wrong": 0})[side] += 1
            out["reason"].setdefault(reason_kind(str(r.get("reason", ""))), {"right": 0, "wrong": 0})[side] += 1
    rows = [(f, bool(r["passed"])) for r in picked if (f := features(r)) is not None]
    for name in FEATURES:
        right = [f[name] for f, ok in rows if ok]
        wrong = [f[name] for f, ok in rows if not ok]
        out["features"][name] = {"right": _mean(right), "wrong": _mean(wrong),
                                 "auroc": auroc([f[name] for f, _ in rows], [ok for _, ok in rows])}
    out["with_evidence"] = len(rows)
    return out


def evidence_markdown(table: Mapping[str, Any]) -> str:
    """The table as summary.md lines."""
    picks = table.get("picks", {})
    lines = ["## Evidence behind right and wrong picks", "",
             f"{picks.get('right', 0)} right and {picks.get('wrong', 0)} wrong picks; features of the "
             f"{table.get('with_evidence', 0)} that are not failed. AUROC of a feature alone: above 0.5, "
             "higher values go with right picks.", "",
             "| | right | wrong | AUROC alone |", "|---|---|---|---|"]
    for kind in ("status", "reason"):
        for name, row in table.get(kind, {}).items():
            lines.append(f"| {kind}: {name} | {row['right']} | {row['wrong']} | |")
    for name, row in table.get("features", {}).items():
        cells = ["n/a" if row[s] is None else f"{row[s]:.3f}" for s in ("right", "wrong", "auroc")]
        lines.append(f"| {FEATURES.get(name, name)} (mean) | {cells[0]} | {cells[1]} | {cells[2]} |")
    return "\n".join(lines) + "\n"
