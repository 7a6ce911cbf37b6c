"""The stress tier: candidates run on inputs at the largest sizes the constraints allow, with a
LeetCode-like time limit per input.

The limit is ``STRESS_TIME_LIMIT_S`` (3 s of wall-clock time per input in the sandbox, one
candidate at a time so candidates do not slow each other down), raised on a busy machine to
``REFERENCE_FACTOR`` (20) times a reference O(n log n) run at n = 10^5 timed in the same sandbox
(:func:`calibrated_limit`). So Python's O(n log n) at n = 10^5 (well under a second here) passes
and O(n^2) at n = 10^5 (about 10^10 steps: hours) does not; O(n^2) at n = 5 * 10^3 takes a few
seconds, about where LeetCode's own limit falls for Python. A candidate that times out on a stress input is **too slow for the constraints**: that is
reported apart from a wrong answer and such a candidate is never ``verified``
(:func:`vibecode.clr.score.block_too_slow`).

The cost is bounded: ``STRESS_INPUTS`` inputs, only the distinct candidates that pass every
example, and the harness stops a candidate after two timeouts, so at most 2 * 3 s per candidate
on top of loading it.

What the scorer (engineer B's ``clr/score.py``) can use: :func:`run_stress` returns a
:class:`StressOutcome` per candidate (``ran``: stress inputs run, ``too_slow``, ``slowest_s``,
``errors``, ``results`` with the outputs), and :func:`too_slow_reasons` maps candidate -> reason
for those that were too slow.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from vibecode.clr.execute import CandidateRunner
from vibecode.clr.inputs_tiers import STRESS_INPUTS, generate_tiers
from vibecode.clr.score import block_too_slow
from vibecode.types import CandidateReport, Decision, InputResult, Param, Problem, Signature

STRESS_TIME_LIMIT_S = 3.0
REFERENCE_FACTOR = 20  # the limit is at least this many times the reference O(n log n) run
_REFERENCE = Signature("reference", (Param("nums", "list[int]"),), "int", "Solution")
_REFERENCE_CODE = """
class Solution:
    def reference(self, nums):
        order = sorted(nums)
        total = 0
        for i, v in enumerate(order):
            total = (total + v * i) % 1000003
        return total
"""


def calibrated_limit(runner: CandidateRunner, base_s: float = STRESS_TIME_LIMIT_S) -> tuple[float, float | None]:
    """(limit, reference seconds): the harness limits wall-clock time, so on a busy machine the
    limit grows with a reference O(n log n) run at n = 10^5 (a sort and a pass) in the same
    sandbox: at least ``REFERENCE_FACTOR`` times its duration. O(n^2) at 10^5 is some 10^4 times
    that reference, so the two stay apart however loaded the machine is."""
    nums = [(i * 7919) % 100_003 for i in range(100_000)]
    timed = CandidateRunner(runner.sandbox, per_input_timeout_s=60.0, memory_mb=runner.memory_mb, parallel=1,
                            retry_timeouts=False)
    res = timed.run(_REFERENCE, {0: _REFERENCE_CODE}, {0: [{"nums": nums}]}).get(0, ())
    if not res or res[0].status != "ok":
        return base_s, None
    ref = res[0].duration_s
    return max(base_s, round(REFERENCE_FACTOR * ref, 2)), ref


@dataclass(frozen=True)
class StressOutcome:
    """What one candidate did on the stress tier."""

    index: int  # the candidate
    ran: int  # stress inputs run
    too_slow: bool  # timed out on at least one: too slow for the constraints
    slowest_s: float  # the longest run among those that finished
    errors: int  # stress inputs on which it raised (a real failure, e.g. RecursionError)
    results: tuple[InputResult, ...]
    time_limit_s: float = STRESS_TIME_LIMIT_S

    @property
    def reason(self) -> str:
        """One sentence for the solve output; empty when the candidate kept within the limit."""
        if self.too_slow:
            n = sum(r.status == "timeout" for r in self.results)
            return (f"too slow for the constraints: {n} of {self.ran} stress input(s) at the largest allowed sizes "
                    "ran past the time limit")
        if self.errors:
            return f"raised an error on {self.errors} of {self.ran} stress input(s)"
        return ""


def stress_inputs(problem: Problem, *, seed: int = 0, count: int = STRESS_INPUTS) -> list[dict[str, object]]:
    """The stress tier's inputs alone (validated against the constraints)."""
    return generate_tiers(problem, seed=seed, edge=0, random_count=0, stress=count).of("stress")


def run_stress(
    runner: CandidateRunner,
    signature: Signature,
    codes: Mapping[int, str],
    inputs: Sequence[Mapping[str, object]],
    *,
    time_limit_s: float = STRESS_TIME_LIMIT_S,
) -> dict[int, StressOutcome]:
    """Run each candidate (``codes``: candidate -> code) on the stress ``inputs``, one candidate at
    a time, with ``time_limit_s`` per input."""
    if not inputs or not codes:
        return {}
    timed = CandidateRunner(runner.sandbox, per_input_timeout_s=time_limit_s, memory_mb=runner.memory_mb, parallel=1,
                            retry_timeouts=False)
    results = timed.run(signature, codes, {i: list(inputs) for i in codes})
    out = {}
    for i, res in results.items():
        finished = [r.duration_s for r in res if r.status == "ok"]
        out[i] = StressOutcome(
            index=i,
            ran=len(res),
            too_slow=any(r.status == "timeout" for r in res),
            slowest_s=round(max(finished), 3) if finished else 0.0,
            errors=sum(r.status == "error" for r in res),
            results=tuple(res),
            time_limit_s=time_limit_s,
        )
    return out


def too_slow_reasons(outcomes: Mapping[int, StressOutcome]) -> dict[int, str]:
    """Candidate -> reason, for the candidates that were too slow for the constraints."""
    return {i: o.reason for i, o in outcomes.items() if o.too_slow}


STRESS_MAX_CANDIDATES = 4  # distinct candidates of the top cluster run on the stress tier, at most


def check_stress(runner: CandidateRunner, problem: Problem, reports: Mapping[int, CandidateReport],
                 decision: Decision, *, seed: int = 0,
                 time_limit_s: float | None = None) -> tuple[Decision, dict[int, StressOutcome], list[str]]:
    """The solve pipeline's stress step: when the top cluster passes every example, run its
    distinct candidates (the proposal first, at most ``STRESS_MAX_CANDIDATES``) on the stress
    tier; a proposal that is too slow is not ``verified``. Returns the decision, the outcome per
    candidate (duplicates share their original's) and notes for the solve output."""
    top = decision.clusters[0] if decision.clusters else None
    if decision.best is None or top is None or decision.status == "failed":
        return decision, {}, []
    originals: list[int] = []
    for i in [decision.best, *sorted(top.members)]:
        r = reports.get(i)
        o = r.duplicate_of if r is not None and r.duplicate_of is not None else i
        if o not in originals and reports.get(o) is not None and reports[o].code:
            originals.append(o)
    originals = originals[:STRESS_MAX_CANDIDATES]
    inputs = stress_inputs(problem, seed=seed)
    if not inputs:
        return decision, {}, ["stress tier: no input at the largest sizes could be made, so speed was not checked"]
    if time_limit_s is None:
        time_limit_s, _ = calibrated_limit(runner)
    ran = run_stress(runner, problem.signature, {o: reports[o].code or "" for o in originals}, inputs,
                     time_limit_s=time_limit_s)
    outcomes = {i: ran[o] for i, r in reports.items()
                if (o := r.duplicate_of if r.duplicate_of is not None else i) in ran}
    # a note only when a candidate was too slow or failed there (no seconds in it: it reads the
    # same from run to run, and the TUI shows it next to the proposal)
    flagged = [o for o in originals if ran[o].reason]
    notes = [f"stress tier: {len(inputs)} input(s) at the largest sizes the constraints allow, run with a time "
             "limit per input; " + "; ".join(f"candidate {o + 1}: {ran[o].reason}" for o in flagged)] if flagged else []
    return block_too_slow(decision, too_slow_reasons(outcomes)), outcomes, notes
