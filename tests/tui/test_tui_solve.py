"""Pilot tests: the app driven by keys through a full solve with the replay engine and the real
local sandbox; cancel mid-run; errors as notifications."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from tests.solve.pools import CORRECT, DP, candidate, coin_change_pool, write_pool
from tests.tui.helpers import GatedEngine, fixed_factory, wait_for
from vibecode.config import Settings
from vibecode.tui.app import VibecodeApp
from vibecode.tui.history import load_history
from vibecode.tui.screens.help import HelpScreen
from vibecode.tui.screens.inputs import OpenFileScreen
from vibecode.tui.screens.proposals import ProposalsScreen
from vibecode.tui.screens.proposals_base import SaveScreen
from vibecode.tui.screens.run import RunScreen
from vibecode.tui.widgets import CandidateTable


def replay_app(project: Path, pool: Path, n: int = 9, **kwargs: object) -> VibecodeApp:
    return VibecodeApp(project, Settings(engine=f"replay:{pool}", n=n), **kwargs)  # type: ignore[arg-type]


def quick_pool(folder: Path) -> Path:
    """The mixed pool without the candidate that loops (its timeouts cost seconds)."""
    return write_pool(folder / "quick.jsonl", [line for i, line in enumerate(coin_change_pool()) if i != 6])


def test_open_solve_apply_undo(project: Path, pool: Path) -> None:
    mine = "# my own attempt\nprint('keep me')\n"
    (project / "solution.py").write_text(mine, encoding="utf-8")

    async def scenario() -> None:
        app = replay_app(project, pool)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("o")
            assert isinstance(app.screen, OpenFileScreen)
            await pilot.press(*"coin_change.md", "enter")
            await wait_for(pilot, lambda: isinstance(app.screen, (RunScreen, ProposalsScreen)), what="the run view")
            run_screen = next(s for s in app.screen_stack if isinstance(s, RunScreen))
            await wait_for(pilot, lambda: isinstance(app.screen, ProposalsScreen), 60, "the proposals")

            # Candidates appeared: one row per candidate, each with tokens, all verified.
            table = run_screen.query_one(CandidateTable)
            assert table.row_count == 9
            rows = run_screen.state.candidates
            assert all(r.tokens > 0 and r.finished for r in rows.values())
            assert rows[7].parsed is False and rows[2].duplicate_of == 0
            assert rows[0].examples is not None and all(e.passed for e in rows[0].examples)

            # Proposals ranked: the top one is a correct candidate, verified, with the reliability.
            screen = app.screen
            assert isinstance(screen, ProposalsScreen)
            assert [r.rank for r in screen.rows] == list(range(len(screen.rows)))
            top = screen.rows[0]
            # A wrong candidate in the pool also passes every example: contested, so plausible.
            assert top.candidate.index in CORRECT and top.status == "plausible"
            assert top.reliability == screen.result.decision.reliability > 0
            verdict = str(screen.query_one("#verdict").render())
            assert "PLAUSIBLE" in verdict and "Contested" in verdict and f"{top.reliability:.2f}" in verdict
            assert "-print('keep me')\n" in screen.view_text and "+class Solution:\n" in screen.view_text

            # a writes the solution file through the journal; u restores the user's file.
            await pilot.press("a")
            written = (project / "solution.py").read_text(encoding="utf-8")
            assert "def coinChange" in written and written == (top.candidate.code or "").rstrip() + "\n"
            assert any("Applied" in text for _, text in app.notices)
            await pilot.press("u")
            assert (project / "solution.py").read_text(encoding="utf-8") == mine
            assert any("Restored solution.py" in text for _, text in app.notices)

            # The run is in the recent runs.
            [entry] = load_history()
            assert entry.title == "Coin Change" and entry.status == "plausible" and entry.n == 9

    asyncio.run(scenario())


def test_apply_creates_the_file_and_undo_removes_it(project: Path, tmp_path: Path) -> None:
    async def scenario() -> None:
        app = replay_app(project, quick_pool(tmp_path), n=8, solution=Path("out/answer.py"))
        async with app.run_test(size=(120, 40)) as pilot:
            app.open_problem(project / "coin_change.md")
            await wait_for(pilot, lambda: isinstance(app.screen, ProposalsScreen), 60, "the proposals")
            await pilot.press("a")
            assert "def coinChange" in (project / "out" / "answer.py").read_text(encoding="utf-8")
            await pilot.press("a")  # again: nothing to apply, nothing overwritten
            assert app.notices[-1][0] == "error" and "already holds" in app.notices[-1][1]
            await pilot.press("u")
            assert not (project / "out").exists()

    asyncio.run(scenario())


def test_copy_save_reject_and_rerun(project: Path, tmp_path: Path) -> None:
    async def scenario() -> None:
        app = replay_app(project, quick_pool(tmp_path), n=8)
        async with app.run_test(size=(120, 40)) as pilot:
            app.open_problem(project / "coin_change.md")
            await wait_for(pilot, lambda: isinstance(app.screen, ProposalsScreen), 60, "the proposals")
            screen = app.screen
            assert isinstance(screen, ProposalsScreen)
            code = (screen.rows[0].candidate.code or "").rstrip() + "\n"

            await pilot.press("c")
            assert app.clipboard == code

            await pilot.press("s")
            assert isinstance(app.screen, SaveScreen)
            await pilot.press("enter")  # the suggested name, from the entry point
            assert (project / "coinchange.py").read_text(encoding="utf-8") == code
            await pilot.press("s", "enter")  # the same name again: never overwritten
            assert app.notices[-1][0] == "error" and "already exists" in app.notices[-1][1]
            assert not isinstance(app.screen, SaveScreen)

            await pilot.press("x")
            assert 0 in screen.rejected and screen.selected == 1
            await pilot.press("down", "down")  # a proposal that failed the checks
            failed = screen.current()
            assert failed is not None and failed.status == "failed"
            await pilot.press("a")  # asks first
            assert "failed the checks" in app.notices[-1][1] and not (project / "solution.py").exists()
            await pilot.press("a")
            assert (project / "solution.py").read_text() == (failed.candidate.code or "").rstrip() + "\n"
            await pilot.press("u", "up", "up")
            await pilot.press("v")
            assert screen.view == "code"

            await pilot.press("r")  # twice the samples: the replay file has no more lines
            await wait_for(pilot, lambda: app.notices[-1][0] == "error", 30, "the rerun to fail")
            run_screen = app.screen
            assert isinstance(run_screen, RunScreen) and run_screen.n == 16
            assert "unused candidate line" in app.notices[-1][1]

    asyncio.run(scenario())


def test_cancel_mid_run_stops_the_engine(project: Path, pool: Path) -> None:
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
            assert app.active_run is not None
            await wait_for(pilot, app.active_run.finished.is_set, 10, "the worker to stop")
            await wait_for(pilot, lambda: run_screen.state.status == "cancelled", what="the cancelled state")
            assert engine.stopped_early.is_set()
            assert ("warning", "Run cancelled.") in app.notices
            assert not any(isinstance(s, ProposalsScreen) for s in app.screen_stack)
            assert not (project / "solution.py").exists()
            await pilot.press("ctrl+c")  # nothing left to cancel: says so, does not quit
            assert "Nothing is running" in app.notices[-1][1]
            assert load_history()[0].status == "cancelled"

    asyncio.run(scenario())


def test_too_few_replay_lines_is_a_notification(project: Path, tmp_path: Path) -> None:
    short = write_pool(tmp_path / "short.jsonl", coin_change_pool()[:2])

    async def scenario() -> None:
        app = replay_app(project, short, n=9)
        async with app.run_test(size=(120, 40)) as pilot:
            app.open_problem(project / "coin_change.md")
            await wait_for(pilot, lambda: any(s == "error" for s, _ in app.notices), 30, "the error")
            _, text = next(n for n in app.notices if n[0] == "error")
            assert "has 2 unused candidate line(s); 9 were asked for" in text
            assert "--n 2" in text  # the hint travels with the message
            run_screen = app.screen
            assert isinstance(run_screen, RunScreen) and run_screen.state.status == "failed"
            await pilot.press("question_mark")  # the app is alive and answers keys
            assert isinstance(app.screen, HelpScreen)

    asyncio.run(scenario())


def test_a_bug_in_a_run_does_not_crash_the_app(project: Path) -> None:
    def broken(settings: Settings) -> object:
        raise RuntimeError("engine exploded")

    async def scenario() -> None:
        app = VibecodeApp(project, Settings(n=2), engine_factory=broken, open_engine=False)  # type: ignore[arg-type]
        async with app.run_test(size=(120, 40)) as pilot:
            app.open_problem(project / "coin_change.md")
            await wait_for(pilot, lambda: bool(app.notices), 30, "the error")
            assert app.notices[-1] == ("error", "Internal error: RuntimeError: engine exploded. The app keeps running.")
            await pilot.press("escape")
            assert not isinstance(app.screen, RunScreen)

    asyncio.run(scenario())


def test_a_problem_that_does_not_parse_is_a_notification(project: Path, pool: Path) -> None:
    async def scenario() -> None:
        app = replay_app(project, pool)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("p")
            await pilot.press(*"just some words q", "ctrl+s")
            await wait_for(pilot, lambda: any(s == "error" for s, _ in app.notices), 30, "the error")
            assert any("has no starter code" in t for s, t in app.notices if s == "error")
            assert isinstance(app.screen, RunScreen) and app.screen.state.status == "failed"
            assert app.screen.request.text == "just some words q"  # typing q did not quit

    asyncio.run(scenario())


def test_quit_exits_with_status_0(project: Path, pool: Path) -> None:
    async def scenario() -> int | None:
        app = replay_app(project, pool)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("q")
        return app.return_code

    assert asyncio.run(scenario()) == 0


def test_the_80x24_layout_shows_every_part(project: Path, tmp_path: Path) -> None:
    async def scenario() -> None:
        app = replay_app(project, quick_pool(tmp_path), n=8)
        async with app.run_test(size=(80, 24)) as pilot:
            app.open_problem(project / "coin_change.md")
            await wait_for(pilot, lambda: isinstance(app.screen, ProposalsScreen), 60, "the proposals")
            for selector in ("#verdict", "#proposal-list", "#code-view", "#evidence", "StatusBar", "KeyFooter"):
                region = app.screen.query_one(selector).region
                assert region.width > 0 and region.height > 0, selector
                assert region.right <= 80 and region.bottom <= 24, selector
            await pilot.press("escape")
            run_screen = app.screen
            assert isinstance(run_screen, RunScreen)
            for selector in ("#candidates", "#reasoning-box", "#details-box", "StatusBar"):
                region = run_screen.query_one(selector).region
                assert region.height >= 3 or selector == "StatusBar", selector
                assert region.right <= 80 and region.bottom <= 24, selector

    asyncio.run(scenario())


def test_recent_runs_can_be_run_again(project: Path, pool: Path, private_env: Path) -> None:
    private_env.mkdir(parents=True)
    (private_env / "history.json").write_text(json.dumps([
        {"when": "2025-01-02T10:00:00+00:00", "kind": "code", "title": "Coin Change", "status": "verified",
         "reliability": 0.58, "n": 4, "engine": "replay", "source": str(project / "coin_change.md"), "text": ""},
    ]))
    lines = [candidate("dp", DP)] * 4

    async def scenario() -> None:
        app = replay_app(project, write_pool(project.parent / "four.jsonl", lines), n=9)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("tab")  # the recent list
            await pilot.press("down", "enter")  # its first entry
            await wait_for(pilot, lambda: isinstance(app.screen, ProposalsScreen), 60, "the proposals")
            screen = app.screen
            assert isinstance(screen, ProposalsScreen)
            assert screen.result.decision.k == 4 and screen.result.status == "verified"
            assert [e.n for e in load_history()] == [4, 4]

    asyncio.run(scenario())



def test_apply_refuses_to_overwrite_a_solution_edited_since_the_last_apply(project: Path, tmp_path: Path) -> None:
    """The CLI's rule in the TUI: `a` never overwrites what the user changed after an apply."""

    async def scenario() -> None:
        app = replay_app(project, quick_pool(tmp_path), n=8)
        async with app.run_test(size=(120, 40)) as pilot:
            app.open_problem(project / "coin_change.md")
            await wait_for(pilot, lambda: isinstance(app.screen, ProposalsScreen), 60, "the proposals")
            screen = app.screen
            assert isinstance(screen, ProposalsScreen) and len(screen.rows) >= 2
            await pilot.press("a")
            target = project / "solution.py"
            assert "def coinChange" in target.read_text(encoding="utf-8")
            mine = target.read_text(encoding="utf-8") + "# my tweak\n"
            target.write_text(mine, encoding="utf-8")
            await pilot.press("down", "a", "a")  # the second a confirms a failed proposal's warning
            await pilot.pause()
            assert target.read_text(encoding="utf-8") == mine
            kind, text = app.notices[-1]
            assert kind == "error" and "changed after vibecode last applied" in text and "press s" in text.lower()
            target.unlink()  # once the edited file is out of the way, a applies again
            await pilot.press("a")
            await pilot.pause()
            assert target.exists() and "def coinChange" in target.read_text(encoding="utf-8")

    asyncio.run(scenario())
