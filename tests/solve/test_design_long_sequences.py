"""Design-class inputs reach state that builds up (issue 14, found by the blind dev pools 106-120):
every sixth generated operation sequence is long and concentrated on few argument values, so a
feed that keeps each user's *oldest* ten tweets is told apart from one that keeps the newest ten.
With short spread-out sequences the two shared a cluster and, in the reversed order, the wrong
one was shown as `verified`. Real statement, real pool, real local sandbox."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.solve.pools import dev_pool, solve_pool
from vibecode.problems.leetcode_data import from_json, render_markdown
from vibecode.problems.statement import parse_problem

DATA = Path(__file__).resolve().parents[1] / "data" / "leetcode"


@pytest.mark.parametrize("reverse", [False, True])
def test_the_oldest_ten_tweets_feed_is_not_in_the_correct_cluster(tmp_path: Path, reverse: bool) -> None:
    problem = parse_problem(render_markdown(from_json(json.loads((DATA / "design_twitter.json").read_text()))))
    lines = dev_pool("LeetCode/design_twitter@agree")
    lines = lines[::-1] if reverse else lines
    oldest = next(str(x["text"]) for x in lines if "first ten tweets" in str(x["note"]))
    right = [str(x["text"]) for x in lines if x.get("correct") is True]
    result = solve_pool(tmp_path, problem, lines)
    cluster = result.decision.cluster_of
    wrong = next(r for r in result.candidates if r.code and r.code.strip() in oldest)
    rights = [r for r in result.candidates if r.code and any(r.code.strip() in t for t in right)]
    assert len(rights) == 2 and all(cluster[r.index] != cluster[wrong.index] for r in rights)
    assert result.best is not None and result.best.index != wrong.index
