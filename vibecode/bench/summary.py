"""The figures of a run, computed from its records (nothing is rerun)."""

from __future__ import annotations

import statistics
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from vibecode.bench.calibration import fit_map
from vibecode.bench.evidence import evidence_table
from vibecode.bench.metrics import auroc, brier, ece, pass_at_k, reliability_bins, share
from vibecode.bench.selectors import SELECTORS, choose
from vibecode.clr.score import Calibration

Record = Mapping[str, Any]
STAGES = ("sample", "extract", "inputs", "verify", "claims", "score", "hidden", "total")


def task_half(task_id: str) -> int:
    """0 or 1: the fold a problem belongs to (even / odd HumanEval number; a hash otherwise).
    All pools of a problem (``HumanEval/17@1``) fall in the same fold."""
    tail = task_id.split("@", 1)[0].rsplit("/", 1)[-1]
    number = int(tail) if tail.isdigit() else zlib.crc32(task_id.encode("utf-8"))
    return number % 2


def calibration_pairs(records: Sequence[Record]) -> tuple[list[float], list[float]]:
    """(raw reliability, correct) of the proposals a calibration map applies to: not failed."""
    pairs = [(float(r["raw_reliability"]), float(bool(r["passed"]))) for r in records if r["status"] != "failed"]
    return [x for x, _ in pairs], [y for _, y in pairs]


def calibrated(records: Sequence[Record], cal: Calibration) -> list[float]:
    """Each record's reliability under ``cal`` (failed proposals stay at 0, as in decide)."""
    return [0.0 if r["status"] == "failed" else cal(float(r["raw_reliability"])) for r in records]


def holdout_check(records: Sequence[Record], fit_half: int = 0, reverse: bool = True) -> dict[str, Any] | None:
    """Fit a map on the even-numbered problems, measure on the odd-numbered ones (and, with
    ``reverse``, the other way round too, under ``"reverse"``)."""
    fit = [r for r in records if task_half(r["task_id"]) == fit_half]
    test = [r for r in records if task_half(r["task_id"]) != fit_half]
    xs, ys = calibration_pairs(fit)
    if not xs or not test:
        return None
    cal = fit_map(xs, ys)
    labels = [bool(r["passed"]) for r in test]
    raw = [0.0 if r["status"] == "failed" else float(r["raw_reliability"]) for r in test]
    after = calibrated(test, cal)
    kept = [i for i, r in enumerate(test) if r["status"] != "failed"]
    out: dict[str, Any] = {
        "fit": "even" if fit_half == 0 else "odd",
        "fit_records": len(fit),
        "test_records": len(test),
        "ece_raw": ece(raw, labels),
        "ece_calibrated": ece(after, labels),
        "ece_calibrated_not_failed": ece([after[i] for i in kept], [labels[i] for i in kept]) if kept else None,
        "brier_raw": brier(raw, labels),
        "brier_calibrated": brier(after, labels),
        "map": {"x": list(cal.x), "y": list(cal.y)},
        "bins": [b.__dict__ for b in reliability_bins(after, labels)],
    }
    if reverse:
        out["reverse"] = holdout_check(records, 1 - fit_half, reverse=False)
    return out


def _mean(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def summarize(records: Sequence[Record], meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every figure of the issue, as one JSON-able dict (see summary.md for the words)."""
    meta = dict(meta or {})
    n_problems = len(records)
    ks = sorted({int(r["n"]) for r in records})
    big_k = max(ks) if ks else 0
    labels = [bool(r["passed"]) for r in records]
    rel = [float(r["reliability"]) for r in records]
    counts = [len(r["candidates"]) for r in records]
    correct = [sum(bool(c["passed"]) for c in r["candidates"]) for r in records]
    pass_k: dict[str, dict[str, Any]] = {}
    for k in sorted({1, big_k} - {0}):
        usable = [(n, c) for n, c in zip(counts, correct, strict=True) if n >= k]
        pass_k[str(k)] = {"value": _mean([pass_at_k(n, c, k) for n, c in usable]), "problems": len(usable)}
    first = [bool(r["candidates"]) and bool(min(r["candidates"], key=lambda c: c["index"])["passed"])
             for r in records]
    verified = [r for r in records if r["status"] == "verified"]
    picked = [r for r in records if r.get("best") is not None]
    plausible = [r for r in records if r["status"] == "plausible"]
    selectors: dict[str, dict[str, Any]] = {}
    for name in SELECTORS:
        choices = [choose(r, name) for r in records]
        row: dict[str, Any] = {"accuracy": share([c.passed for c in choices])}
        if name in ("clr", "no_claims"):
            ver = [c for c in choices if c.status == "verified"]
            row["verified_precision"] = share([c.passed for c in ver])
            row["coverage"] = share([c.status == "verified" for c in choices])
            probs = [c.reliability or 0.0 for c in choices]
            row["ece"] = ece(probs, [c.passed for c in choices]) if choices else None
        selectors[name] = row
    tokens = sum(int(r.get("tokens", 0)) for r in records)
    engine_s = sum(float(r.get("timing", {}).get("engine", 0.0)) for r in records)
    stage_means = {s: _mean([float(r["timing"][s]) for r in records if s in r.get("timing", {})]) for s in STAGES}
    return {
        "problems": n_problems,
        "k": big_k,
        "candidates_mean": _mean([float(c) for c in counts]),
        "pass@1_first_sample": share(first),
        "pass@k": pass_k,
        "clr_accuracy": share(labels),
        "any_correct": share([c > 0 for c in correct]),
        "verified": len(verified),
        "verified_precision": share([bool(r["passed"]) for r in verified]),
        "coverage": share([r["status"] == "verified" for r in records]),
        "plausible": len(plausible),
        "plausible_precision": share([bool(r["passed"]) for r in plausible]),
        "failed": sum(r["status"] == "failed" for r in records),
        "calibrated": any(bool(r.get("calibrated")) for r in records),
        "ece": ece(rel, labels) if records else None,
        "brier": brier(rel, labels) if records else None,
        "bins": [b.__dict__ for b in reliability_bins(rel, labels)] if records else [],
        # reliability of the pick, right vs wrong picks (problems with a pick; failed ones count)
        "auroc": auroc([float(r["reliability"]) for r in picked], [bool(r["passed"]) for r in picked]),
        "auroc_picks": len(picked),
        # ... among the verified picks only: does the reliability still rank right above wrong there?
        "auroc_verified": auroc([float(r["reliability"]) for r in verified], [bool(r["passed"]) for r in verified]),
        # ... and among the plausible ones, where every wrong pick of a part whose verified picks are all right lies
        "auroc_plausible": auroc([float(r["reliability"]) for r in plausible if r.get("best") is not None],
                                 [bool(r["passed"]) for r in plausible if r.get("best") is not None]),
        "evidence": evidence_table(records),
        "holdout": holdout_check(records),
        "selectors": selectors,
        "tokens": tokens,
        # a replay engine only reads recorded text: its "rate" is not a speed (issue 17)
        "tokens_per_s": tokens / engine_s if engine_s > 0 and not str(meta.get("engine", "")).startswith("replay") else None,
        "stage_seconds_mean": stage_means,
        "wall_s": meta.get("wall_s"),
        "meta": meta,
    }
