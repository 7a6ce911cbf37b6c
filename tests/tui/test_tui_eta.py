"""The run view's stage line shows the time left while sampling (issue 18): nothing before the
run's tokens/s is measurable, then a figure that follows the events, gone once sampling ends.
The app's clock is the test's, so the rate is set by the test, not by the machine."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.pilot import Pilot

from tests.solve.pools import coin_change_pool, write_pool
from tests.tui.helpers import GatedEngine, fixed_factory, wait_for
from vibecode.config import Settings
from vibecode.engine.replay import ReplayEngine
from vibecode.tui.app import VibecodeApp
from vibecode.tui.screens.run import RunScreen
from vibecode.tui.widgets import StageLine


async def open_coin_change(app: VibecodeApp, pilot: Pilot[None], project: Path) -> RunScreen:
    app.open_problem(project / "coin_change.md")
    await wait_for(pilot, lambda: isinstance(app.screen, RunScreen), what="the run screen")
    screen = app.screen
    assert isinstance(screen, RunScreen)
    return screen


def test_the_stage_line_shows_the_time_left_and_it_follows_the_rate(project: Path, tmp_path: Path) -> None:
    quick = write_pool(tmp_path / "quick.jsonl", [x for i, x in enumerate(coin_change_pool()) if i != 6])
    engine = GatedEngine(quick, after=150)
    now = [1000.0]

    async def scenario() -> None:
        app = VibecodeApp(project, Settings(n=8, max_tokens=1000), clock=lambda: now[0],
                          engine_factory=fixed_factory(engine))
        async with app.run_test(size=(80, 24)) as pilot:
            app.open_problem(project / "coin_change.md")
            await wait_for(pilot, engine.reached.is_set, what="the gate")
            screen = app.screen
            assert isinstance(screen, RunScreen)
            state = screen.state
            await wait_for(pilot, lambda: engine.shown(state), what="the tokens before the gate")

            def line() -> str:
                return str(screen.query_one(StageLine).render())

            assert state.sampling_left_s() is None and "left" not in line()  # every token at one instant
            now[0] = 1010.0  # the gate's heartbeats arrive 10 s later: a rate, so a time left
            await wait_for(pilot, lambda: state.sampling_left_s() is not None and "left" in line(),
                           what="the time left")
            first, first_line = state.sampling_left_s(), line()
            assert first is not None and first > 0 and "up to " in first_line
            # at 80 columns the line still fits: the pending stages shrink to dots
            assert len(first_line) <= 78 and "▸ sample" in first_line and "· score" not in first_line
            now[0] = 1030.0  # no new tokens for 20 s more: a third of the rate, three times the time
            await wait_for(pilot, lambda: (state.sampling_left_s() or 0) > 2.5 * first, what="a longer time left")
            await wait_for(pilot, lambda: line() != first_line, what="the line to follow")
            assert "up to " in line() and line().split("up to ")[1] != first_line.split("up to ")[1]
            engine.release.set()
            await wait_for(pilot, lambda: "sample" in state.stages_done, 60, what="the end of sampling")
            await wait_for(pilot, lambda: "left" not in line(), what="the time left to go")
            assert state.sampling_left_s() is None and "✓ sample" in line()

    asyncio.run(scenario())


@pytest.mark.parametrize("detail", [
    "2 candidates; about 20 s for 2 x 100 tokens at 10.0 tokens/s",
    "two candidates, planned",  # other wording: the same time left
    "",
])
def test_the_run_states_time_left_follows_the_planned_budget_and_the_time_budget(detail: str) -> None:
    from vibecode.events import SampleBudget, SampleProgress, StageStarted
    from vibecode.tui.state import RunState

    now = [0.0]
    state = RunState(8, clock=lambda: now[0])
    state.max_tokens = 4096
    state.apply(StageStarted("sample", detail, SampleBudget(2, 100)))
    assert (state.k, state.max_tokens) == (2, 100)  # the plan lowered K and max_tokens
    state.apply(SampleProgress(0, "x", 0, "answer"))
    now[0] = 2.0
    state.apply(SampleProgress(0, "x", 20, "answer"))  # 10 steps/s; candidate 1 may need all 100
    assert state.sampling_left_s() == 10.0
    state.time_budget_s = 5.0
    assert state.sampling_left_s() == 3.0  # sampling stops when --time-budget runs out


def test_the_run_states_time_left_counts_the_helpers_of_the_batch() -> None:
    from vibecode.events import SampleBudget, SampleProgress, StageStarted
    from vibecode.tui.state import RunState

    now = [0.0]
    state = RunState(1, clock=lambda: now[0])
    state.apply(StageStarted("sample", "1 candidate", SampleBudget(1, 100, helpers=2, helper_max_tokens=400)))
    state.apply(SampleProgress(0, "x", 0, "answer"))
    now[0] = 5.0
    state.apply(SampleProgress(0, "x", 50, "answer"))  # 10 steps/s; the helpers have 350 steps to go
    assert state.sampling_left_s() == 35.0


def test_a_paced_replay_solve_shows_the_time_left_on_the_stage_line(project: Path, tmp_path: Path) -> None:
    """End to end: the real pipeline on ``replay:FILE?tps=R`` (100 tokens/s per sequence, 3 s of
    sampling) and the machine's clock; the stage line says how much sampling is left, then not."""
    lines = [{**line, "tokens": 300} for line in coin_change_pool()[:3]]
    engine = ReplayEngine(write_pool(tmp_path / "paced.jsonl", lines), tps=100.0)  # type: ignore[arg-type]

    async def scenario() -> None:
        app = VibecodeApp(project, Settings(n=3, max_tokens=1000), engine_factory=fixed_factory(engine))
        async with app.run_test(size=(120, 24)) as pilot:
            screen = await open_coin_change(app, pilot, project)

            seen: list[str] = []

            def line() -> str:
                return str(screen.query_one(StageLine).render())

            def shows_the_time_left() -> bool:  # the line as it was then: a loaded machine moves on
                seen.append(line())
                return "of sampling left" in seen[-1]

            await wait_for(pilot, shows_the_time_left, what="the time left")
            assert "up to " in seen[-1] and "▸ sample" in seen[-1] and screen.state.k == 3
            await wait_for(pilot, lambda: "sample" in screen.state.stages_done, 60, what="the end of sampling")
            await wait_for(pilot, lambda: "left" not in line(), what="the time left to go")

    asyncio.run(scenario())


def test_recorded_completion_lengths_put_the_likely_time_on_the_stage_line(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The model's recorded lengths (here: every completion stopped at 30% of its budget) reach
    the run view through RunStarted: the line says "about ... (up to ...)"."""
    from vibecode.engine import lengths, plan

    monkeypatch.setenv("VIBECODE_CACHE", str(tmp_path / "cache"))
    lines = [{**line, "tokens": 300} for line in coin_change_pool()[:3]]
    engine = ReplayEngine(write_pool(tmp_path / "paced.jsonl", lines), tps=50.0)  # type: ignore[arg-type]
    info = engine.info()
    assert lengths.record(plan.model_key(info.model, info.backend), [(300, 1000)] * 5)

    async def scenario() -> None:
        app = VibecodeApp(project, Settings(n=3, max_tokens=1000), engine_factory=fixed_factory(engine))
        async with app.run_test(size=(160, 24)) as pilot:
            screen = await open_coin_change(app, pilot, project)
            seen: list[str] = []

            def shows_the_likely_time() -> bool:
                seen.append(str(screen.query_one(StageLine).render()))
                return "of sampling left" in seen[-1]

            await wait_for(pilot, shows_the_likely_time, what="the time left")
            assert "about " in seen[-1] and "(up to " in seen[-1], seen[-1]
            assert len(screen.state.seen) == 5

    asyncio.run(scenario())
