"""The time left while sampling, in the CLI's progress line and in its JSON events (issue 18):
it appears once the run's tokens/s is measurable, follows the events, and goes with the stage."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from vibecode.cli.eta import ETA_FIELD, LIKELY_FIELD, SamplingEta
from vibecode.cli.render import Progress
from vibecode.events import (
    CandidateSampled,
    SampleBudget,
    SampleProgress,
    StageFinished,
    StageStarted,
)
from vibecode.session import event_json
from vibecode.types import Completion


def done(index: int, tokens: int) -> CandidateSampled:
    return CandidateSampled(index, Completion(text="x", reasoning="", answer="x", finish_reason="stop", prompt_tokens=10,
                                              completion_tokens=tokens, seq=index))


def test_the_progress_line_shows_the_time_left_and_follows_the_events() -> None:
    now = [100.0]
    progress = Progress(2, io.StringIO(), clock=lambda: now[0], max_tokens=100)
    progress(StageStarted("sample", "2 candidates"))
    progress(SampleProgress(0, "x", 0, "thinking"))
    assert "left" not in progress.sampling_line()  # no rate yet: no guess
    now[0] = 102.0
    progress(SampleProgress(0, "x", 20, "thinking"))  # 10 steps/s; candidate 1 may need all 100
    assert progress.sampling_line().endswith(", 10.0 tokens/s, up to 10 s of sampling left")
    now[0] = 104.0
    progress(SampleProgress(1, "x", 20, "thinking"))  # 20 steps in 4 s; 80 + 80 to go
    assert progress.sampling_line().endswith("up to 16 s of sampling left")
    progress(done(1, 20))  # candidate 1 stopped early: only candidate 0's 80 tokens remain
    assert progress.sampling_line().endswith("up to 16 s of sampling left")  # a step costs the same
    now[0] = 106.0
    progress(SampleProgress(0, "x", 60, "thinking"))  # 60 steps in 6 s: the straggler's 40 take 4 s
    assert progress.sampling_line().endswith("up to 4 s of sampling left")
    assert "1/2 candidates" in progress.sampling_line()
    progress(StageFinished("sample", 4.0))
    assert "left" not in progress.sampling_line()


@pytest.mark.parametrize("detail", [
    "4 candidates; about 2 min for 4 x 100 tokens at 10.0 tokens/s; "
    "K x max_tokens = 8 x 4096: 28 min is over the 2 min budget, so K is 4",
    "sampling four candidates of at most a hundred tokens each",  # other wording: the same time left
    "",
])
def test_the_planned_budget_replaces_the_asked_one_and_replay_shows_no_time(detail: str) -> None:
    now = [0.0]
    progress = Progress(8, io.StringIO(), clock=lambda: now[0], max_tokens=4096)
    progress(StageStarted("sample", detail, SampleBudget(4, 100)))
    progress(SampleProgress(0, "x", 0, "answer"))
    now[0] = 1.0
    progress(SampleProgress(0, "x", 10, "answer"))  # 10 steps/s; 3 candidates not heard from: 100 steps
    line = progress.sampling_line()
    assert "0/4 candidates" in line and line.endswith("up to 10 s of sampling left")
    replay = Progress(1, io.StringIO(), rates=False, clock=lambda: now[0], max_tokens=100)
    replay(SampleProgress(0, "x", 0, "answer"))
    now[0] = 3.0
    replay(SampleProgress(0, "x", 50, "answer"))
    assert "left" not in replay.sampling_line() and "tokens/s" not in replay.sampling_line()


def test_json_events_carry_the_seconds_left_on_sampling_events() -> None:
    now = [0.0]
    eta = SamplingEta(1, 100, clock=lambda: now[0])
    start = StageStarted("sample", "1 candidate")
    assert ETA_FIELD not in eta.annotate(start, event_json(start))
    first = SampleProgress(0, "x", 0, "answer")
    assert eta.annotate(first, event_json(first))[ETA_FIELD] is None  # not measurable yet
    now[0] = 5.0
    later = SampleProgress(0, "x", 50, "answer")
    body = eta.annotate(later, event_json(later))
    assert body[ETA_FIELD] == 5.0 and body["event"] == "SampleProgress" and body["tokens"] == 50
    assert eta.annotate(done(0, 60), event_json(done(0, 60)))[ETA_FIELD] == 0.0  # nothing open


def test_fix_and_precommit_ask_the_open_model_for_the_budget(tmp_path: Path) -> None:
    from vibecode.cli.cmd_fix import FixProgress, sample_budget_of
    from vibecode.config import Settings
    from vibecode.engine.replay import ReplayEngine
    from vibecode.session import Session

    now = [0.0]
    asked: list[int] = []

    def budget() -> tuple[int, dict[int, float], list[float]]:
        asked.append(1)
        return 100, {}, []

    progress = FixProgress(2, io.StringIO(), budget=budget)
    progress.inner.meter.clock = progress.inner.eta.steps.clock = lambda: now[0]
    assert asked == []  # not before sampling: the model opens later
    progress(StageStarted("sample", "2 candidates"))  # no budget said: the model's max_tokens
    progress(SampleProgress(0, "x", 0, "answer"))
    now[0] = 2.0
    progress(SampleProgress(0, "x", 20, "answer"))  # 10 steps/s; candidate 1 may need all 100
    assert asked == [1] and progress.inner.sampling_line().endswith("up to 10 s of sampling left")
    silent = SamplingEta(1, None, budget=lambda: None)  # a replay engine that samples in no time
    silent.observe(StageStarted("sample", "1 candidate"))
    assert silent.max_tokens is None and silent.left_s() is None
    pool = tmp_path / "pool.jsonl"
    pool.write_text('{"kind": "candidate", "text": "x"}\n', encoding="utf-8")
    assert sample_budget_of(Session(ReplayEngine(pool), None, Settings())) is None
    paced = sample_budget_of(Session(ReplayEngine(pool, tps=50.0), None, Settings(max_tokens=300)))
    assert paced is not None and paced[0] == 300


def test_the_time_left_stops_at_the_time_budget() -> None:
    now = [0.0]
    progress = Progress(1, io.StringIO(), clock=lambda: now[0], max_tokens=1000, time_budget_s=30.0)
    progress(StageStarted("sample", "1 candidate"))
    progress(SampleProgress(0, "x", 0, "answer"))
    now[0] = 10.0
    progress(SampleProgress(0, "x", 100, "answer"))  # 10 tokens/s: 90 s of tokens, 20 s of budget
    assert progress.sampling_line().endswith("up to 20 s of sampling left")


def test_the_helper_sequences_of_the_batch_count_in_the_time_left() -> None:
    now = [0.0]
    eta = SamplingEta(2, 100, clock=lambda: now[0])
    eta.observe(StageStarted("sample", "2 candidates", SampleBudget(2, 100, helpers=3, helper_max_tokens=300)))
    eta.observe(SampleProgress(0, "x", 0, "answer"))
    eta.observe(SampleProgress(1, "x", 0, "answer"))
    now[0] = 5.0
    eta.observe(SampleProgress(0, "x", 50, "answer"))
    eta.observe(SampleProgress(1, "x", 50, "answer"))  # 10 steps/s; the helpers have 250 steps to go
    assert eta.left_s() == 25.0
    alone = SamplingEta(2, 100, clock=lambda: now[0])  # the same run without helpers
    alone.observe(StageStarted("sample", "2 candidates", SampleBudget(2, 100)))
    now[0] = 0.0
    alone.observe(SampleProgress(0, "x", 0, "answer"))
    now[0] = 5.0
    alone.observe(SampleProgress(0, "x", 50, "answer"))
    alone.observe(SampleProgress(1, "x", 50, "answer"))
    assert alone.left_s() == 5.0


def test_recorded_completion_lengths_add_the_likely_time_beside_the_bound() -> None:
    now = [0.0]
    seen = [0.2] * 5  # this model's completions stopped at a fifth of their budget
    progress = Progress(2, io.StringIO(), clock=lambda: now[0], max_tokens=1000, seen=seen)
    progress(StageStarted("sample", "2 candidates"))
    progress(SampleProgress(0, "x", 0, "answer"))
    now[0] = 5.0
    # 10 steps/s; likely 150 and 200 tokens to go (200 steps), 950 and 1000 at most
    progress(SampleProgress(0, "x", 50, "answer"))
    assert progress.sampling_line().endswith("about 20 s (up to 2 min) of sampling left")
    body = progress.eta.annotate(SampleProgress(1, "x", 50, "answer"), {})
    assert (body[ETA_FIELD], body[LIKELY_FIELD]) == (95.0, 15.0)
    plain = SamplingEta(1, 1000, clock=lambda: now[0])  # nothing recorded: the bound alone
    assert plain.annotate(SampleProgress(0, "x", 0, "answer"), {})[LIKELY_FIELD] is None
