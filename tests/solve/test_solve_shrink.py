"""End to end on Remove Duplicate Letters (the dev pool's wrong-majority pool: three wrong
candidates, one correct, a brute-force oracle that is exponential in the length): the
differential inputs that separate the clusters are too long for the oracle, the shrunk ones
are not, so the oracle decides for the correct minority."""

from __future__ import annotations

import json
from pathlib import Path

from vibecode.config import Settings
from vibecode.engine.replay import ReplayEngine
from vibecode.events import ProposalReady
from vibecode.problems.leetcode_data import load_all, render_markdown
from vibecode.problems.statement import parse_problem
from vibecode.sandbox import make_sandbox
from vibecode.session import Session

POOLS = Path(__file__).resolve().parents[1] / "data" / "leetcode_pools" / "dev.jsonl"
TASK = '"LeetCode/remove_duplicate_letters@wrong-majority"'


def test_the_oracle_judges_a_shrunk_input_and_the_correct_minority_is_verified(tmp_path: Path) -> None:
    [lp] = [p for p in load_all() if p.slug == "remove_duplicate_letters"]
    problem = parse_problem(render_markdown(lp))
    lines = [json.loads(line) for line in POOLS.read_text(encoding="utf-8").splitlines() if TASK in line]
    pool = tmp_path / "pool.jsonl"
    pool.write_text("".join(json.dumps({"kind": x["kind"], "text": x["text"]}) + "\n" for x in lines), encoding="utf-8")
    right = {x["text"] for x in lines if x.get("role") == "correct"}
    session = Session(ReplayEngine(pool), make_sandbox("local", Settings()), Settings())  # type: ignore[arg-type]
    events = list(session.solve(problem, n=sum(x["kind"] == "candidate" for x in lines)))
    assert isinstance(events[-1], ProposalReady)
    result = events[-1].result
    assert result.status == "verified", result.decision.reason
    assert result.best is not None and "used.discard" in (result.best.code or "")
    assert any("used.discard" in t for t in right)
    assert "rejects the 1 other cluster" in result.decision.reason
