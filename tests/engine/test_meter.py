"""The live token rate: measured from the first token, and silent until there is a span to measure."""

from __future__ import annotations

import io

import pytest

from vibecode.cli.render import Progress
from vibecode.engine.meter import MIN_SPAN_S, Throughput
from vibecode.events import SampleProgress, StageFinished


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_no_rate_before_a_measurable_span() -> None:
    clock = Clock()
    meter = Throughput(clock)
    assert meter.rate() is None and not meter.started
    meter.observe(1)
    assert meter.started and meter.rate() is None  # one token at one instant is not a rate
    clock.now += MIN_SPAN_S / 2
    meter.observe(40)
    assert meter.rate() is None  # 39 tokens in an eighth of a second would read as 312 tokens/s


def test_rate_leaves_out_the_tokens_of_the_first_observation() -> None:
    clock = Clock()
    meter = Throughput(clock)
    meter.observe(8)  # K = 8 sequences each report their first token together
    clock.now += 2.0
    meter.observe(208)
    assert meter.rate() == pytest.approx(100.0)


def test_progress_line_shows_no_absurd_rate_for_the_first_token(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    monkeypatch.setattr("vibecode.engine.meter.time.monotonic", clock)
    monkeypatch.setattr("vibecode.cli.render.time.monotonic", clock)
    out = io.StringIO()
    progress = Progress(2, out)
    clock.now += 10.0  # past the plain-log line interval, so this event writes a line
    progress(SampleProgress(0, "def", 1, "answer"))
    first = out.getvalue()
    assert "1 tokens" in first and "tokens/s" not in first
    clock.now += 1.0
    progress(SampleProgress(0, " f", 51, "answer"))
    progress(StageFinished("sample", 11.0))
    assert out.getvalue().splitlines()[-1] == "sampled 0 candidates: 51 tokens at 50.0 tokens/s"
