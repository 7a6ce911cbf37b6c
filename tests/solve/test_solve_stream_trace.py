"""Issue 18: the streaming probe's trace (the time-to-a-decision bench's breakdown) and its reason
for going on, on a real candidate in the real local sandbox."""

from __future__ import annotations

from tests.solve.oracle_pools import problem, right
from vibecode.clr.execute import CandidateRunner
from vibecode.config import Settings
from vibecode.sandbox import make_sandbox
from vibecode.solve.streaming import Probe
from vibecode.types import Completion


def test_the_trace_says_when_a_candidate_finished_ran_and_why_sampling_went_on() -> None:
    p = problem()
    shared = [dict(e.inputs) for e in p.examples]
    probe = Probe(CandidateRunner(make_sandbox("local", Settings())), p, shared, None, "confident", 2)
    answer = right(1)[0]["text"].split("</think>")[-1]
    probe.add(Completion(text=answer, reasoning="", answer=answer, finish_reason="stop",
                         prompt_tokens=1, completion_tokens=1, seq=0))
    probe.cached()  # wait for its runs
    assert probe.should_stop(force=True) is None
    assert probe.waiting == ("no usable oracle that answered enough generated inputs; "
                             "the largest cluster that passes the examples has 1 < 3")
    whats = [what for _, what in probe.trace]
    assert whats == ["candidate 0 finished", f"ran candidate 0 on {len(shared)} input(s)",
                     f"go on: {probe.waiting}"]
    times = [t for t, _ in probe.trace]
    assert times == sorted(times)
