"""The stable ``--json`` form of ``vibecode fix`` (in the README).

A fix has the shape of a solve: ``status``, ``best`` (``index``, ``diff``, ``reliability``,
``fixed``, ``regressions``, ...) and ``candidates``, plus what is particular to fixing.
"""

from __future__ import annotations

from typing import Any

from vibecode.clr.report import claim_json
from vibecode.types import FixCandidate, FixResult, TestCaseResult

MESSAGE_CHARS = 2000


def _text(s: str | None) -> str | None:
    return None if s is None else s.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def failing_json(case: TestCaseResult) -> dict[str, Any]:
    return {"nodeid": case.nodeid, "outcome": case.outcome, "message": case.message[-MESSAGE_CHARS:]}


def fix_candidate_json(c: FixCandidate) -> dict[str, Any]:
    return {
        "index": c.index,
        "parsed": c.parsed,
        "duplicate_of": c.duplicate_of,
        "retried": c.retried,
        "error": c.error,
        "files": list(c.patch.paths) if c.patch else [],
        "test_edit": c.test_edit,
        "verified": c.verified,
        "fixed": c.fixed,
        "failing": c.failing_total,
        "regressions": len(c.regressions),
        "regressed": list(c.regressions),
        "regression_run": c.regression_run,
        "regression_scope": c.regression_scope,
        "verify_error": c.verify_error,
        "cluster": c.cluster,
        "rank": c.rank,
        "claims": [claim_json(x) for x in c.claims],
        "r": None if c.r is None else round(c.r, 4),
        "proposal_id": c.proposal_id,
        "tokens": c.completion.completion_tokens,
        "finish_reason": c.completion.finish_reason,
        "diff": _text(c.diff) if c.duplicate_of is None else None,
    }


def fix_json(result: FixResult) -> dict[str, Any]:
    best = result.best_candidate
    cluster_size = 0
    if best is not None and best.cluster is not None:
        cluster_size = sum(c.cluster == best.cluster for c in result.candidates)
    return {
        "status": result.status,
        "mode": "fix",
        "reason": result.reason,
        "best": None if best is None else {
            "index": best.index,
            "diff": _text(best.diff),
            "reliability": round(result.reliability, 4),
            "fixed": best.fixed,
            "failing": best.failing_total,
            "regressions": len(best.regressions),
            "regressed": list(best.regressions),
            "regression_scope": best.regression_scope,
            "files": list(best.patch.paths) if best.patch else [],
            "test_edit": best.test_edit,
            "proposal_id": best.proposal_id,
            "cluster_size": cluster_size,
        },
        "reliability": round(result.reliability, 4),
        "raw_reliability": round(result.raw_reliability, 4),
        "calibrated": result.calibrated,
        "failing": [failing_json(c) for c in result.failing],
        "passed_before": result.passed_before,
        "ranking": list(result.ranking),
        "k": result.k,
        "candidates": [fix_candidate_json(c) for c in result.candidates],
        "base": result.base,
        "collection_error": result.collection_error,
        "notes": list(result.notes),
        "timing": result.timing,
        "environment": result.environment,
    }
