"""Issue 18: the helper requests (oracle, generator, edge cases) in the candidates' batch, and the
early stop on agreement with a validated oracle; paced replay engine and the real local sandbox."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

from tests.solve.oracle_pools import (
    BAD_BRUTE,
    CORRECT,
    generator_line,
    oracle_line,
    problem,
    right,
    wrong,
)
from tests.solve.pools import candidate, write_pool
from vibecode.clr.execute import CandidateRunner
from vibecode.config import Settings
from vibecode.engine.base import CANDIDATE, Request
from vibecode.engine.replay import ReplayEngine
from vibecode.engine.sampling import Budget
from vibecode.errors import ContextOverflow
from vibecode.events import CandidateSampled, Event, ProposalReady, StageStarted, StepUnavailable
from vibecode.problems.entry_adapter import extract_entry
from vibecode.sandbox import make_sandbox
from vibecode.session import Session
from vibecode.solve.context import SolveContext
from vibecode.solve.prompts import (
    edge_case_batch_messages,
    generator_messages,
    oracle_messages,
    solve_messages,
)
from vibecode.solve.sample_stage import Sampled, sample_stage
from vibecode.solve.streaming import Probe
from vibecode.types import ChatMessage, Completion, SamplingParams, SolveResult, StreamEvent

RATE = 4000  # tokens/s per sequence
SLOW = 40000  # 10 s at RATE: far longer than verifying the fast lines


def _lines(lines: list[dict[str, str]], tokens: int) -> list[dict[str, object]]:
    return [{**line, "tokens": tokens} for line in lines]


def _solve(tmp_path: Path, lines: list[dict[str, object]], until: str, n: int) -> tuple[SolveResult, list[Event]]:
    engine = ReplayEngine(write_pool(tmp_path / "pool.jsonl", lines), tps=RATE)  # type: ignore[arg-type]
    session = Session(engine, make_sandbox("local", Settings()), Settings(until=until))  # type: ignore[arg-type]
    events = list(session.solve(problem(), n=n))
    assert isinstance(events[-1], ProposalReady)
    return events[-1].result, events


def test_helpers_run_in_the_batch_and_earlier_candidates_get_their_inputs(tmp_path: Path) -> None:
    # candidate 0 finishes at 0.025 s, the oracle and the generator at 0.5 s, the others at 2 s
    lines = [*_lines(right(1), 100), *_lines([*right(1), *wrong(1)], 8000),
             *_lines([oracle_line(), generator_line()], 2000)]
    engine = ReplayEngine(write_pool(tmp_path / "pool.jsonl", lines), tps=RATE)  # type: ignore[arg-type]
    sandbox = make_sandbox("local", Settings())
    session = Session(engine, sandbox, Settings())  # type: ignore[arg-type]
    ctx = SolveContext(engine, CandidateRunner(sandbox), session.params(), session.helper_params(), Budget(None),
                       until="all")
    p = problem()
    gen = sample_stage(ctx, p, 3, "")
    events: list[Event] = []
    try:
        while True:
            events.append(next(gen))
    except StopIteration as stop:
        sampled: Sampled = stop.value
    starts = [e for e in events if isinstance(e, StageStarted)]
    assert [e.stage for e in starts] == ["inputs", "sample"]  # no oracle stage of its own
    assert "a brute-force oracle, an input generator, edge cases in the same batch" in starts[1].detail
    assert next(e.index for e in events if isinstance(e, CandidateSampled)) == 0
    assert sampled.counts["generator"] > 0 and sampled.oracle.code is not None
    first, _ = extract_entry(sampled.completions[0].answer, p.signature)
    # the first candidate finished before the generator did, and still ran on its inputs
    assert len(sampled.cache[first]) == len(sampled.shared)
    assert len(sampled.cache[sampled.oracle.code]) == len(sampled.shared)
    # the edge-case request had no line: a named skipped step; the candidates went on
    assert any(isinstance(e, StepUnavailable) and e.step == "inputs" for e in events)
    assert len(sampled.completions) == 3


def test_early_stop_on_agreement_with_a_validated_oracle(tmp_path: Path) -> None:
    lines = [*_lines(right(1), 2000), *_lines([*right(1), *wrong(2)], SLOW),
             *_lines([oracle_line(), generator_line()], 400)]
    result, _ = _solve(tmp_path, lines, "confident", 4)
    assert result.sampling["sampled"] == 1 and result.sampling["asked"] == 4
    assert "agree with the brute-force oracle" in str(result.sampling["stopped"])
    best = result.best
    assert best is not None and best.index == 0
    assert result.decision.oracle is not None and result.decision.oracle.startswith("a brute-force oracle passes")


def test_oracle_stop_when_the_oracle_rejects_every_rival_that_passes_the_examples(tmp_path: Path) -> None:
    # the wrong one passes the examples but answers generated inputs otherwise than the validated
    # oracle: the scorer ranks it below and it cannot contest, so the two slow ones change nothing
    lines = [*_lines([*right(1), *wrong(1)], 2000), *_lines(right(2), SLOW),
             *_lines([oracle_line(), generator_line()], 400)]
    result, _ = _solve(tmp_path, lines, "confident", 4)
    assert result.sampling["sampled"] == 2 and result.sampling["asked"] == 4
    assert "the oracle rejects the 1 other finished candidate(s)" in str(result.sampling["stopped"])
    best = result.best
    assert result.status == "verified" and best is not None and best.index == 0
    assert "rejects the 1 other cluster" in result.decision.reason


def test_no_oracle_stop_on_a_rival_when_the_oracle_fails_an_example(tmp_path: Path) -> None:
    # the same pool with an oracle that fails an example: nothing rejects the rival, and the two
    # slow correct candidates do change the decision (a cluster of 3 against 1)
    lines = [*_lines([*right(1), *wrong(1)], 2000), *_lines(right(2), 12000),
             *_lines([oracle_line(BAD_BRUTE), generator_line()], 400)]
    result, _ = _solve(tmp_path, lines, "confident", 4)
    assert result.sampling["sampled"] == 4 and result.sampling["stopped"] == "every candidate was sampled"
    best = result.best
    assert best is not None and best.index in (0, 2, 3)
    top = result.decision.clusters[0]
    assert len(top.members) == 3 and 1 not in top.members


def test_a_failed_helper_is_named_and_the_candidates_go_on(tmp_path: Path) -> None:
    # no oracle, generator or edge-case line: each request fails in the batch
    result, events = _solve(tmp_path, _lines(right(2), 100), "all", 2)
    assert result.sampling["sampled"] == 2 and len(result.candidates) == 2
    assert result.decision.oracle is not None
    assert result.decision.oracle.startswith("no usable oracle: the model gave no brute-force solution")
    assert "'oracle'" in result.decision.oracle
    assert any(isinstance(e, StepUnavailable) and "edge-case" in e.reason for e in events)


def test_an_oracle_that_fails_an_example_cannot_stop_sampling(tmp_path: Path) -> None:
    lines = [*_lines(right(1), 2000), *_lines(right(1), 6000),
             *_lines([oracle_line(BAD_BRUTE), generator_line()], 400)]
    result, _ = _solve(tmp_path, lines, "confident", 2)
    assert result.sampling["sampled"] == 2 and result.sampling["stopped"] == "every candidate was sampled"
    assert result.decision.oracle is not None and result.decision.oracle.startswith("no usable oracle")


def test_an_early_stop_with_a_disagreeing_finished_candidate_is_never_verified(tmp_path: Path) -> None:
    # no oracle: 3 against 1 with one still decoding stops on the lead, and stays contested
    lines = [*_lines([*right(3), *wrong(1)], 100), *_lines(right(1), SLOW)]
    result, _ = _solve(tmp_path, lines, "confident", 5)
    assert result.sampling["sampled"] == 4
    assert "cannot overturn the lead" in str(result.sampling["stopped"])
    assert result.status == "plausible" and result.decision.reason.startswith("Contested")


def test_inputs_that_arrive_later_run_on_a_candidate_already_probed() -> None:
    p = problem()
    sandbox = make_sandbox("local", Settings())
    probe = Probe(CandidateRunner(sandbox), p, [dict(e.inputs) for e in p.examples], None, "confident", 2)
    answer = right(1)[0]["text"].split("</think>")[-1]
    probe.add(Completion(text=answer, reasoning="", answer=answer, finish_reason="stop",
                         prompt_tokens=1, completion_tokens=1, seq=0))
    assert probe.add_inputs("model", [{"s": "abba"}, dict(p.examples[0].inputs)]) == 1  # an example is not new
    code, _ = extract_entry(answer, p.signature)
    results = probe.cached()[code]
    assert len(results) == len(p.examples) + 1 and results[-1].output == 2


class _NoRoomForTheBatch(ReplayEngine):
    """A paced replay whose context cannot hold the whole batch (llama.cpp's ContextOverflow)."""

    def stream_batch(self, requests: Sequence[Request], *, cancel: threading.Event | None = None,
                     ) -> Iterator[StreamEvent]:
        raise ContextOverflow("the batch needs more than the 4096-token context")


def test_a_batch_that_overflows_the_context_falls_back_to_separate_requests(tmp_path: Path) -> None:
    lines = [*_lines(right(3), 100), *_lines([oracle_line(), generator_line()], 100)]
    engine = _NoRoomForTheBatch(write_pool(tmp_path / "pool.jsonl", lines), tps=RATE)
    session = Session(engine, make_sandbox("local", Settings()), Settings(until="all"))  # type: ignore[arg-type]
    events = list(session.solve(problem(), n=3))
    result = events[-1].result  # type: ignore[union-attr]
    stages = [e.stage for e in events if isinstance(e, StageStarted)]
    assert stages[:5] == ["inputs", "sample", "oracle", "inputs", "sample"]  # then the helpers first, apart
    assert any("did not fit in one batch" in note for note in result.notes)
    assert result.sampling["sampled"] == 3 and result.decision.oracle.startswith("a brute-force oracle passes")


class _Logged(ReplayEngine):
    """A paced replay that logs when each request starts and ends."""

    log: list[str]

    def stream(self, messages: Sequence[ChatMessage], params: SamplingParams, n: int = 1, *,
               purpose: str = CANDIDATE, cancel: threading.Event | None = None) -> Iterator[StreamEvent]:
        self.log.append(f"start {purpose}")
        yield from super().stream(messages, params, n, purpose=purpose, cancel=cancel)
        self.log.append(f"end {purpose}")


def test_claim_verdicts_start_when_their_candidate_finishes(tmp_path: Path) -> None:
    claimed = candidate("Sliding window. The time complexity is O(n) because each index is visited once.", CORRECT)
    lines = [*_lines([claimed], 100), *_lines(right(1), 8000), {"kind": "verdict", "text": "It holds.\nVERDICT: TRUE"}]
    engine = _Logged(write_pool(tmp_path / "pool.jsonl", lines), tps=RATE)
    engine.log = []
    session = Session(engine, make_sandbox("local", Settings()), Settings(until="all"))  # type: ignore[arg-type]
    events = list(session.solve(problem(), n=2))
    assert engine.log.index("start verdict") < engine.log.index("end candidate")  # asked while sampling
    result = events[-1].result  # type: ignore[union-attr]
    first = next(c for c in result.candidates if c.index == 0)
    assert any(c.kind == "complexity" and c.method == "model" and c.verdict == "verified" for c in first.claims)


def test_the_batch_prompts_share_the_problem_text_as_prefix() -> None:
    p = problem()
    texts = [m(p)[0].content for m in (solve_messages, oracle_messages, generator_messages, edge_case_batch_messages)]
    body = texts[0].rsplit("\n\n", 1)[0]
    assert p.statement.strip()[:40] in body
    assert all(t.startswith(body + "\n\n") for t in texts)
    assert len({t[len(body):] for t in texts}) == 4  # only the role's instruction differs
