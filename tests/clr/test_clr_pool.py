"""The verification pieces together on a crafted pool of candidates (no model: the lead's
pipeline tests add sampling and the replay engine on top)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.clr.local_exec import execute
from tests.solve.pools import BFS, GREEDY
from tests.solve.pools import CRASHES as CRASH
from tests.solve.pools import LOOPS as LOOP
from tests.solve.pools import WRONG_ON_EXAMPLE as WRONG_EXAMPLE
from vibecode.clr.claim_check import check_claims, io_inputs
from vibecode.clr.claims import extract_claims
from vibecode.clr.compare import check_examples
from vibecode.clr.harness import HarnessJob, RawRun, build_job, parse_results, run_job
from vibecode.clr.inputs import generate_inputs, parse_model_inputs
from vibecode.clr.reliability import Evidence, reliability
from vibecode.clr.score import behaviour_tokens, decide
from vibecode.problems.statement import parse_problem
from vibecode.types import CandidateEvidence, Problem

PROBLEM = parse_problem((Path(__file__).resolve().parents[2] / "examples" / "coin_change.md").read_text(encoding="utf-8"))

DP = '''
class Solution:
    def coinChange(self, coins: List[int], amount: int) -> int:
        dp = [0] + [inf] * amount
        for a in range(1, amount + 1):
            for c in coins:
                if c <= a and dp[a - c] + 1 < dp[a]:
                    dp[a] = dp[a - c] + 1
        return dp[amount] if dp[amount] != inf else -1
'''
MEMO = '''
import functools
class Solution:
    def coinChange(self, coins, amount):
        @functools.lru_cache(maxsize=None)
        def best(a):
            if a == 0:
                return 0
            options = [best(a - c) for c in coins if c <= a]
            options = [o for o in options if o >= 0]
            return min(options) + 1 if options else -1
        import sys
        sys.setrecursionlimit(100000)
        for a in range(0, amount + 1, 500):
            best(a)
        return best(amount)
'''

REASONING = {
    0: "dp[a] is the fewest coins for amount a. For coins = [1,3,4], amount = 6, the answer is 2. 3 + 3 = 6.",
    3: "Greedy works: coinChange([1, 3, 4], 6) = 2 since 4 + 1 + 1 = 6.",
}


# Generous for the correct programs (MEMO takes about 0.15 s on the largest inputs of a quiet
# machine; at 0.3 s a loaded one timed it out), short enough that the looping one costs 4 s.
PER_INPUT_S = 2.0


def evaluate(
    problem: Problem, pool: list[str | None], k: int, run: Callable[[HarnessJob], RawRun] = execute
) -> tuple[object, dict[int, CandidateEvidence]]:
    generated = generate_inputs(problem).inputs
    proposed = parse_model_inputs('{"coins": [1, 3, 4], "amount": 6}\n{"coins": [2], "amount": 1}', problem).inputs
    shared = [ex.inputs for ex in problem.examples] + list(generated) + list(proposed)
    evidence = {}
    for index, code in enumerate(pool):
        if code is None:  # did not parse: counts in K only
            continue
        claims = extract_claims(REASONING.get(index % 8, ""), problem)
        claim_inputs = io_inputs(claims)
        job = build_job(problem.signature, code, shared + claim_inputs, per_input_timeout_s=PER_INPUT_S, max_timeouts=2)
        results = run_job(job, run)
        shared_results, claim_results = results[: len(shared)], results[len(shared) :]
        examples = check_examples(problem, shared_results)
        io_positions = [n for n, c in enumerate(claims) if c.kind == "io"]
        checked = check_claims(claims, order=problem.output_order, io_results=dict(zip(io_positions, claim_results, strict=True)))
        evidence[index] = CandidateEvidence(
            index, sum(e.passed for e in examples), len(examples), behaviour_tokens(shared_results, problem.output_order), checked
        )
    return decide(list(evidence.values()), k=k), evidence


def test_mixed_pool() -> None:
    runs: list[tuple[HarnessJob, RawRun]] = []

    def recorded(job: HarnessJob) -> RawRun:
        raw = execute(job)
        runs.append((job, raw))
        return raw

    pool = [DP, BFS, MEMO, GREEDY, WRONG_EXAMPLE, CRASH, LOOP, None]
    decision, evidence = evaluate(PROBLEM, pool, k=len(pool), run=recorded)
    # What keeps a pool cheap, whatever the machine's load: one process per parsed candidate
    # (no restarts), none stopped at its process-level limit, and the looping candidate cut by
    # the per-input alarm after max_timeouts (2) inputs, its other inputs not run at all.
    parsed = [code for code in pool if code is not None]
    assert len(runs) == len(parsed)
    assert all(code in job.code for code, (job, _) in zip(parsed, runs, strict=True))
    assert not any(raw.timed_out for _, raw in runs)
    loop_job, loop_raw = runs[parsed.index(LOOP)]
    loop_errors = [r.error for r in parse_results(loop_job, loop_raw)]
    assert loop_errors[:2] == [f"no answer within {PER_INPUT_S:g} s"] * 2
    assert all(e.startswith("not run: the code already timed out on 2") for e in loop_errors[2:])
    # issue 14: GREEDY passes every example and answers an edge case differently: contested, so
    # plausible (was "verified"); the pick is still the correct cluster
    assert decision.status == "plausible" and decision.reason.startswith("Contested")
    assert decision.best == 0
    top = decision.clusters[0]
    assert top.members == (0, 1, 2) and top.examples_passed == 3 and top.failure_rate == 0
    assert evidence[3].examples_passed == 3 and decision.cluster_of[3] != 0  # wrong on an edge case only
    assert [c.verdict for c in evidence[3].claims] == ["failed", "verified"]  # its own code gives 3, not 2
    assert decision.r[3] < decision.r[0]
    assert [(c.kind, c.verdict) for c in evidence[0].claims] == [("invariant", "unchecked"), ("io", "verified"), ("arithmetic", "verified")]
    assert evidence[4].examples_passed < 3 and evidence[5].examples_passed == 0 and evidence[6].examples_passed == 0
    # the reliability is clr.reliability's function of this evidence: 3 of 8 in the cluster, 4 pass
    # every example (GREEDY contests), rho = (2 verified + 1) / (2 + 0 + 2)
    seen = decision.evidence or {}
    assert (seen["cluster"], seen["passing"], seen["k"], seen["contested"]) == (3, 4, 8, True)
    assert (seen["claims_verified"], seen["claims_failed"]) == (2, 0)
    assert decision.reliability == pytest.approx(reliability(Evidence(**seen)))  # type: ignore[arg-type]


def test_unanimous_pool_beats_split_pool() -> None:
    unanimous, _ = evaluate(PROBLEM, [DP, BFS, MEMO, DP], k=4)
    split, _ = evaluate(PROBLEM, [DP, GREEDY, BFS, GREEDY], k=4)
    assert unanimous.status == "verified" and unanimous.clusters[0].members == (0, 1, 2, 3)
    assert split.clusters[0].members == (0, 2)
    assert unanimous.reliability > split.reliability


def test_nothing_passes() -> None:
    decision, _ = evaluate(PROBLEM, [WRONG_EXAMPLE, CRASH, None], k=3)
    assert decision.status == "failed" and decision.reliability == 0.0
    assert decision.best == 0
