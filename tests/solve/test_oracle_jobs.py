"""The brute-force oracle runs each source's inputs as a job of its own (issue 14, found by the
blind dev pools 106-135): the harness gives up on a job after two timeouts, and a brute force
times out on vibecode's large tier inputs, so in one job it never reached the small inputs the
model's generator wrote for it, the ones where its answer is a verdict. Real statement, real
pool, real local sandbox."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.solve.pools import dev_pool, solve_pool
from vibecode.clr.execute import CandidateRunner
from vibecode.config import Settings
from vibecode.problems.entry_adapter import extract_entry
from vibecode.problems.leetcode_data import from_json, render_markdown
from vibecode.problems.statement import parse_problem
from vibecode.sandbox import make_sandbox
from vibecode.solve.pipeline import oracle_blocks
from vibecode.solve.streaming import Probe
from vibecode.types import Problem

DATA = Path(__file__).resolve().parents[1] / "data" / "leetcode"
POOL = "LeetCode/combination_sum_iv@wrong-majority"
SLOW = [{"nums": [1, 2], "target": 600}, {"nums": [1, 2, 3], "target": 700}, {"nums": [1, 3], "target": 800}]
SMALL = [{"nums": [7, 1, 3, 5], "target": 8}, {"nums": [9, 3], "target": 6}]  # 21 and 1 ways


def _problem() -> Problem:
    return parse_problem(render_markdown(from_json(json.loads((DATA / "combination_sum_iv.json").read_text()))))


def test_oracle_blocks_follow_the_shared_inputs_layout() -> None:
    assert oracle_blocks(3, {"type": 40, "model": 2, "generator": 8}, 53) == (43, 10)
    assert oracle_blocks(3, {"type": 40, "model": 0, "generator": 8, "differential": 5}, 56) == (43, 8, 5)
    assert oracle_blocks(2, {"type": 0, "model": 0, "generator": 0}, 2) == (2,)


def test_the_generators_inputs_decide_although_the_oracle_times_out_on_vibecodes(tmp_path: Path) -> None:
    lines = dev_pool(POOL)
    right = next(str(x["text"]) for x in lines if x.get("correct") is True)
    result = solve_pool(tmp_path, _problem(), lines)
    # the wrong majority (3 of 4, an early break without sorting) is rejected on the generator's inputs
    assert result.best is not None and result.best.code is not None and result.best.code.strip() in right
    assert result.status == "verified"
    assert "rejects the 1 other cluster(s)" in result.decision.reason
    assert re.search(r"\(by source: \d+ type, \d+ generator\)", result.decision.reason)


def test_the_probe_runs_the_oracle_on_inputs_that_came_later_as_their_own_job() -> None:
    p = _problem()
    oracle = next(str(x["text"]) for x in dev_pool(POOL) if x["kind"] == "oracle")
    code, _ = extract_entry(oracle, p.signature)
    shared = [dict(e.inputs) for e in p.examples] + SLOW
    probe = Probe(CandidateRunner(make_sandbox("local", Settings())), p, shared, None, "confident", 4)
    assert probe.add_inputs("generator", SMALL) == 2
    probe.set_oracle(code)  # it arrives after the generator's inputs: they are all in ``shared``
    runs = probe.cached()[code]
    n = len(p.examples)
    assert [r.status for r in runs[n:n + len(SLOW)]] == ["timeout"] * len(SLOW)
    assert [(r.status, r.output) for r in runs[n + len(SLOW):]] == [("ok", 21), ("ok", 1)]
