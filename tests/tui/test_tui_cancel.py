"""After a cancel the run view says so (rows stopped, p explains), and the TUI's undo refusal
names what the TUI can do (issue 17)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.solve.pools import coin_change_pool, write_pool
from tests.tui.helpers import GatedEngine, fixed_factory, wait_for
from vibecode.config import Settings
from vibecode.tui.app import VibecodeApp
from vibecode.tui.screens.proposals import ProposalsScreen
from vibecode.tui.screens.run import RunScreen


def test_after_a_cancel_rows_say_stopped_and_p_says_why_there_are_no_proposals(project: Path, pool: Path) -> None:
    engine = GatedEngine(pool, after=60)

    async def scenario() -> None:
        app = VibecodeApp(project, Settings(n=9), engine_factory=fixed_factory(engine))
        async with app.run_test(size=(120, 40)) as pilot:
            app.open_problem(project / "coin_change.md")
            await wait_for(pilot, engine.reached.is_set, what="the engine to reach the gate")
            run_screen = app.screen
            assert isinstance(run_screen, RunScreen)
            await wait_for(pilot, lambda: run_screen.state.total_tokens > 0, what="tokens on screen")
            await pilot.press("ctrl+c")
            await wait_for(pilot, lambda: run_screen.state.status == "cancelled", what="the cancelled state")
            states = {row.state for row in run_screen.state.candidates.values()}
            assert "answering" not in states and "thinking" not in states and "stopped" in states
            await pilot.press("p")
            assert "cancelled before it proposed anything" in app.notices[-1][1]
            assert not any(isinstance(s, ProposalsScreen) for s in app.screen_stack)

    asyncio.run(scenario())


def test_the_tuis_undo_refusal_does_not_offer_a_flag_it_lacks(project: Path, tmp_path: Path) -> None:
    pool = write_pool(tmp_path / "quick.jsonl", [line for i, line in enumerate(coin_change_pool()) if i != 6])

    async def scenario() -> None:
        app = VibecodeApp(project, Settings(engine=f"replay:{pool}", n=8))
        async with app.run_test(size=(120, 40)) as pilot:
            app.open_problem(project / "coin_change.md")
            await wait_for(pilot, lambda: isinstance(app.screen, ProposalsScreen), 120, "the proposals")
            await pilot.press("a")
            solution = project / "solution.py"
            assert solution.exists()
            edited = solution.read_text(encoding="utf-8") + "# my edit\n"
            solution.write_text(edited, encoding="utf-8")
            await pilot.press("u")
            await wait_for(pilot, lambda: any("Refusing to undo" in text for _, text in app.notices), what="the refusal")
            text = next(text for _, text in app.notices if "Refusing to undo" in text)
            assert "press u again" in text and "use --force" not in text
            assert solution.read_text(encoding="utf-8") == edited

    asyncio.run(scenario())
