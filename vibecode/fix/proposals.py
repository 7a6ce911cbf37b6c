"""Save the ranked patches of a fix as proposals (``vibecode apply <id>`` takes one).

Each distinct patch that ran in the sandbox becomes ``<state dir>/proposals/<run id>-<rank>/``
(rank 1 is the best) with its diff, whole-file contents and this evidence (``proposal.json``,
key ``evidence``)::

    {"kind": "fix", "status": <the fix's status>, "rank": 1, "best": true, "candidate": 3,
     "duplicates": [5], "fixed": 2, "failing_total": 2, "failing": [node ids],
     "regressions": [node ids], "regression_run": 14, "regression_scope": "all",
     "test_edit": false, "retried": false, "cluster": 0, "cluster_size": 3, "k": 8,
     "claims": [{"text", "kind", "method", "verdict", "detail"}], "r": 1.0, "reason": "..."}

``reliability`` is the fix's reliability for the best proposal, the same formula on its own
cluster for another acceptable patch, and 0 for a patch that fails a test or edits the tests
without leave.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from vibecode.clr.report import claim_json
from vibecode.fix.score import FixDecision, acceptable, cluster_reliability
from vibecode.repo.proposals import new_id, save_proposal
from vibecode.types import FixCandidate, FixResult


def save_all(root: Path, result: FixResult, decision: FixDecision, *, allow_test_edits: bool = False) -> FixResult:
    """Save every ranked patch; return the result with each candidate's ``proposal_id`` set."""
    by_index = {c.index: c for c in result.candidates}
    run_id = new_id()
    ids: dict[int, str] = {}
    failing = [c.nodeid for c in result.failing]
    for rank, index in enumerate(decision.ranking):
        c = by_index[index]
        if c.patch is None:
            continue
        members = [by_index[i] for i in decision.clusters[c.cluster or 0]] if c.cluster is not None else [c]
        is_best = index == result.best
        if is_best:
            reliability = result.reliability
        elif acceptable(c, allow_test_edits):
            reliability = round(cluster_reliability(members, len(failing), result.k), 4)
        else:
            reliability = 0.0
        evidence = evidence_json(c, result, rank, members, is_best)
        title = _title(c, result)
        proposal = save_proposal(root, c.patch, title=title, reliability=reliability, base=dict(result.base),
                                 evidence=evidence, proposal_id=f"{run_id}-{rank + 1}")
        ids[index] = proposal.id
    for c in result.candidates:
        if c.duplicate_of in ids:
            ids.setdefault(c.index, ids[c.duplicate_of])
    candidates = tuple(dataclasses.replace(c, proposal_id=ids.get(c.index)) for c in result.candidates)
    return dataclasses.replace(result, candidates=candidates)


def evidence_json(c: FixCandidate, result: FixResult, rank: int, members: list[FixCandidate], best: bool) -> dict[str, Any]:
    return {
        "kind": "fix",
        "status": result.status,
        "rank": rank + 1,
        "best": best,
        "candidate": c.index,
        "duplicates": [m.index for m in result.candidates if m.duplicate_of == c.index],
        "fixed": c.fixed,
        "failing_total": c.failing_total,
        "failing": [f.nodeid for f in result.failing],
        "regressions": list(c.regressions),
        "regression_run": c.regression_run,
        "regression_scope": c.regression_scope,
        "test_edit": c.test_edit,
        "retried": c.retried,
        "cluster": c.cluster,
        "cluster_size": len(members),
        "k": result.k,
        "claims": [claim_json(x) for x in c.claims],
        "r": None if c.r is None else round(c.r, 4),
        "verify_error": c.verify_error,
        "reason": result.reason if best else "",
    }


def _title(c: FixCandidate, result: FixResult) -> str:
    files = ", ".join(c.patch.paths[:3]) if c.patch else ""
    first = result.failing[0].nodeid if result.failing else ""
    more = f" and {len(result.failing) - 1} more" if len(result.failing) > 1 else ""
    return f"fix {first}{more}: edit {files}"
