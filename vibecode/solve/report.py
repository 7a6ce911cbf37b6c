"""The stable ``--json`` form of a solve (documented in the README)."""

from __future__ import annotations

from typing import Any

from vibecode.clr.report import claim_json
from vibecode.types import CandidateReport, Problem, SolveResult


def candidate_json(c: CandidateReport) -> dict[str, Any]:
    return {
        "index": c.index,
        "parsed": c.parsed,
        "duplicate_of": c.duplicate_of,
        "cluster": c.cluster,
        "examples_passed": sum(e.passed for e in c.examples),
        "examples_total": len(c.examples),
        "claims": [claim_json(x) for x in c.claims],
        "r": None if c.r is None else round(c.r, 4),
        "error": c.error,
        "tokens": c.completion.completion_tokens,
        "finish_reason": c.completion.finish_reason,
        **({"answer": c.answer} if c.answer is not None else {}),
        **({"note": c.note} if c.note else {}),
    }


def result_json(result: SolveResult) -> dict[str, Any]:
    d = result.decision
    best = result.best
    problem = result.problem
    if isinstance(problem, Problem):
        about: dict[str, Any] = {"entry_point": problem.signature.entry_point,
                                 "examples": len(problem.examples), "title": problem.title}
    else:
        about = {"question": problem.question, "title": problem.title}
    top = d.clusters[0] if d.clusters else None
    return {
        "status": d.status,
        "mode": result.mode,
        "problem": about,
        "best": None
        if best is None
        else {
            "index": best.index,
            "code": best.code,
            **({"answer": best.answer} if result.mode == "math" else {}),
            "reliability": round(d.reliability, 4),
            "examples": {"passed": sum(e.passed for e in best.examples), "total": len(best.examples)},
            "cluster_size": len(top.members) if top else 0,
        },
        "reliability": round(d.reliability, 4),
        "raw_reliability": round(d.raw_reliability, 4),
        "calibrated": result.calibrated,
        "reason": d.reason,
        "oracle": d.oracle,
        "evidence": d.evidence,  # what the reliability was computed from (clr.reliability)
        "clusters": [
            {"rank": c.rank, "members": list(c.members), "best": c.best, "score": round(c.score, 4),
             "examples_passed": c.examples_passed, "examples_total": c.examples_total}
            for c in d.clusters
        ],
        "candidates": [candidate_json(c) for c in result.candidates],
        "notes": list(result.notes),
        "sampling": dict(result.sampling),
        "timing": result.timing,
    }
