"""Issue 14: a timeout is no answer, so the brute-force oracle never rejects it, and an oracle that
times out on the large inputs still judges the small ones (vibecode.clr.execute runs inputs
smallest first). Real statements and the dev pools' own lines, run end to end through the replay
engine and the real local sandbox; the statuses asserted, never a time."""

from __future__ import annotations

import json
from pathlib import Path

from tests.solve.pools import dev_pool, solve_pool
from vibecode.clr.score import decide
from vibecode.problems.leetcode_data import from_json, render_markdown
from vibecode.problems.statement import parse_problem
from vibecode.types import CandidateEvidence, Problem

DATA = Path(__file__).resolve().parents[1] / "data"


def _problem(name: str) -> Problem:
    return parse_problem(render_markdown(from_json(json.loads((DATA / "leetcode" / f"{name}.json").read_text()))))


def _right(lines: list[dict[str, object]]) -> str:
    return next(str(x["text"]) for x in lines if x.get("correct") is True)


def test_a_candidate_that_times_out_where_the_oracle_answers_is_not_rejected() -> None:
    slow = CandidateEvidence(0, 2, 2, ("ok:1", "ok:2", "ok:7", "timeout", "timeout", "ok:9"), ())
    wrong = [CandidateEvidence(i, 2, 2, ("ok:1", "ok:2", "ok:6", "ok:8", "ok:3", "ok:9"), ()) for i in (1, 2, 3)]
    oracle = ("ok:1", "ok:2", "ok:7", "ok:8", "ok:3", "ok:9")
    d = decide([slow, *wrong], k=4, oracle=oracle)
    assert d.best == 0 and d.status != "failed"  # the wrong majority is rejected on input 3
    assert d.evidence["rivals_rejected"] == 1
    alone = decide([slow], k=1, oracle=oracle)
    assert alone.status != "failed" and alone.reliability > 0
    # where the slow candidate answers otherwise, it is rejected as before
    wrong_slow = CandidateEvidence(0, 2, 2, ("ok:1", "ok:2", "ok:5", "timeout", "timeout", "ok:9"), ())
    right = CandidateEvidence(1, 2, 2, oracle, ())
    assert decide([wrong_slow, right], k=2, oracle=oracle).best == 1
    assert decide([wrong_slow, right], k=2, oracle=oracle).evidence["rivals_rejected"] == 1


def test_unique_binary_search_trees_oracle_judges_small_n_after_large_timeouts(tmp_path: Path) -> None:
    # the wrong majority truncates a floating-point Catalan product (41 at n = 5); the brute force
    # that builds every tree shape times out from n of about 13, and used to lose n = 5 after it
    lines = dev_pool("LeetCode/unique_binary_search_trees@wrong-majority")
    result = solve_pool(tmp_path, _problem("unique_binary_search_trees"), lines)
    assert result.best is not None and result.best.code is not None and result.best.code.strip() in _right(lines)
    assert result.status == "verified" and result.decision.evidence["rivals_rejected"] == 1


def test_fraction_to_recurring_decimal_right_pick_is_not_failed_on_its_timeouts(tmp_path: Path) -> None:
    # vibecode's huge denominators (they break "fewer than 10^4 characters") make the correct long
    # division time out, which cuts off its later, valid inputs; the brute force answers them
    lines = dev_pool("LeetCode/fraction_to_recurring_decimal@wrong-majority")
    result = solve_pool(tmp_path, _problem("fraction_to_recurring_decimal"), lines)
    assert result.best is not None and result.best.code is not None and result.best.code.strip() in _right(lines)
    assert result.status != "failed" and result.decision.reliability > 0
