"""The bench's reliability figures: AUROC overall, among verified picks, per pool mode, and the
evidence table of right vs wrong picks."""

from __future__ import annotations

from typing import Any

import pytest

from vibecode.bench.evidence import evidence_markdown, evidence_table, features, reason_kind
from vibecode.bench.leetcode_pools import pool_figures
from vibecode.bench.summary import summarize


def evidence(cluster: int, k: int = 4, passing: int | None = None, oracle: int = 0, contested: bool = False) -> dict[str, Any]:
    return {"examples": 2, "k": k, "cluster": cluster, "passing": passing or cluster, "generated": 10,
            "oracle_agreed": oracle, "contested": contested, "failure_rate": 0.0, "claims_verified": 0,
            "claims_failed": 0, "too_slow": False, "mode": "code", "rivals_rejected": 0}


def rec(task_id: str, status: str, rel: float, passed: bool, hidden: list[str], ev: dict[str, Any] | None,
        reason: str = "The proposal passes all 2 examples and its cluster has the top score; ...") -> dict[str, Any]:
    cands = [{"index": i, "parsed": True, "passed": h == "passed", "hidden": h, "examples_passed": 2,
              "behaviour": ["ok:1", "ok:2"], "claims": []} for i, h in enumerate(hidden)]
    return {"task_id": task_id, "status": status, "reliability": rel, "raw_reliability": rel, "passed": passed,
            "best": 0, "candidates": cands, "n": 4, "k": len(hidden), "examples": 2, "reason": reason,
            "evidence": ev, "timing": {}}


RECORDS = [
    rec("LeetCode/a@agree", "verified", 0.8, True, ["passed", "passed", "failed: 1"], evidence(2, 3)),
    rec("LeetCode/a@agree~o1", "verified", 0.9, False, ["failed: 1", "passed", "passed"], evidence(3, 3)),
    rec("LeetCode/b@agree", "plausible", 0.3, True, ["passed", "passed", "failed: 2"], evidence(2, 3, 3, contested=True),
        "Contested: another cluster (1 candidate(s), against 2) also passes every example ..."),
    rec("LeetCode/a@wm", "verified", 0.7, True, ["passed", "failed: x", "failed: x", "failed: x"], evidence(1, oracle=9)),
    rec("LeetCode/a@wm~o1", "verified", 0.7, False, ["passed", "failed: x", "failed: x", "failed: x"], evidence(4, oracle=9)),
    rec("LeetCode/c@wm", "verified", 0.6, True, ["passed", "failed: x", "failed: x", "failed: x"], evidence(1, oracle=4)),
]


def test_auroc_overall_among_verified_and_per_pool_mode() -> None:
    s = summarize(RECORDS)
    # right 0.8, 0.3, 0.7, 0.6 against wrong 0.9, 0.7: (0 + 0.5) + 0 + (0 + 0.5) + 0 ... counted by hand
    wins = sum(1.0 if p > q else 0.5 if p == q else 0.0 for p in (0.8, 0.3, 0.7, 0.6) for q in (0.9, 0.7))
    assert s["auroc"] == pytest.approx(wins / 8)
    assert s["auroc_verified"] == pytest.approx(sum(
        1.0 if p > q else 0.5 if p == q else 0.0 for p in (0.8, 0.7, 0.6) for q in (0.9, 0.7)) / 6)
    assert s["auroc_plausible"] is None  # one plausible pick, a right one: no pair to rank
    mixed = summarize([*RECORDS, rec("LeetCode/d@agree", "plausible", 0.5, False, ["failed: 1", "passed"],
                                     evidence(1, 2, 2, contested=True))])
    assert mixed["auroc_plausible"] == pytest.approx(0.0)  # the right plausible pick (0.3) below the wrong one (0.5)
    modes = pool_figures(RECORDS, oracle={"LeetCode/a@wm", "LeetCode/c@wm"})
    assert modes["largest_cluster_correct"]["records"] == 3
    assert modes["largest_cluster_correct"]["auroc"] == pytest.approx(0.0)  # right 0.8, 0.3 below wrong 0.9
    assert modes["wrong_majority_oracle"]["auroc"] == pytest.approx((0.5 + 0.0) / 2)  # a tie counts one half
    assert modes["wrong_majority_no_oracle"]["auroc"] is None  # no runs: cannot be computed


def test_the_evidence_table_sets_right_beside_wrong_picks() -> None:
    table = evidence_table(RECORDS)
    assert table["picks"] == {"right": 4, "wrong": 2} and table["with_evidence"] == 6
    assert table["status"]["verified"] == {"right": 3, "wrong": 2}
    assert table["reason"]["contested"] == {"right": 1, "wrong": 0}
    share = table["features"]["share_of_k"]
    assert share["wrong"] == pytest.approx((1 + 1) / 2) and share["right"] == pytest.approx((2 / 3 + 2 / 3 + 1 / 4 + 1 / 4) / 4)
    assert share["auroc"] == pytest.approx(0.0)  # on these records larger clusters go with wrong picks
    assert table["features"]["oracle_agreed"]["auroc"] == pytest.approx(3.5 / 8)  # right 0, 0, 9, 4; wrong 0, 9
    text = evidence_markdown(table)
    assert "| status: verified | 3 | 2 | |" in text and "cluster size / K (mean) | 0.458 | 1.000 | 0.000 |" in text


def test_records_without_evidence_and_reason_kinds() -> None:
    assert features({"evidence": None, "raw_reliability": 0.0}) is None
    assert reason_kind("Contested: another cluster ...") == "contested"
    assert reason_kind("The proposal passes all 2 examples, but only 1 generated input(s) ran ...") == \
        "too few generated inputs"
    assert reason_kind("Every cluster that passes the examples disagrees with the brute-force oracle; ...") == \
        "every cluster disagrees with the oracle"
    assert reason_kind("No candidate passes all 3 examples; the closest passes 2.") == "no candidate passes"
