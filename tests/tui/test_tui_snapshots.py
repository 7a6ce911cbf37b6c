"""Snapshot tests (pytest-textual-snapshot) with deterministic content: a frozen clock, fixed
names and dates, a replay engine, and a gate that holds sampling mid-way. The start, run,
proposals, help and settings screens are taken at 80x24 and at 120x40 (issue 17: nothing clipped
at 80x24); test_tui_layout.py asserts the same in words.

Update the SVGs after a deliberate change with ``pytest tests/tui --snapshot-update`` and review
them (the report opens in a browser)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.fix.repos import OFF_BY_ONE
from tests.solve.pools import coin_change_pool, write_pool
from tests.tui.helpers import GatedEngine, fixed_factory, wait_for
from vibecode.config import Settings
from vibecode.fix.suite import SuiteCommand
from vibecode.tui.app import VibecodeApp
from vibecode.tui.fix.proposals import FixProposalsScreen
from vibecode.tui.screens.proposals import ProposalsScreen
from vibecode.tui.screens.run import RunScreen

SIZE = (120, 40)
SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
STUB = "class Solution:\n    def coinChange(self, coins, amount):\n        return -1\n"
SnapCompare = Callable[..., bool]


def frozen() -> float:
    return 1000.0


def app_for(project: Path, pool: Path, **kwargs: Any) -> VibecodeApp:
    return VibecodeApp(project, Settings(engine=f"replay:{pool}", n=9), clock=frozen, **kwargs)


async def engine_open(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, VibecodeApp)
    await wait_for(pilot, lambda: app.engine_info is not None, what="the engine")


@SIZES
def test_start_screen(snap_compare: SnapCompare, project: Path, pool: Path, private_env: Path,
                      size: tuple[int, int]) -> None:
    private_env.mkdir(parents=True)
    runs = [("Coin Change", "verified", 0.58, 9, "code"), ("Shared pizza", "plausible", 0.72, 8, "math"),
            ("Two Sum", "failed", 0.0, 8, "code"), ("Merge Intervals", "cancelled", 0.0, 16, "code")]
    (private_env / "history.json").write_text(json.dumps([
        {"when": f"2025-03-0{i + 1}T09:30:00+00:00", "kind": kind, "title": title, "status": status,
         "reliability": rel, "n": n, "engine": "replay:pool.jsonl", "source": None, "text": "x"}
        for i, (title, status, rel, n, kind) in enumerate(runs)
    ]))
    assert snap_compare(app_for(project, pool), terminal_size=size, run_before=engine_open)


@SIZES
def test_run_view_mid_sampling(snap_compare: SnapCompare, project: Path, pool: Path, size: tuple[int, int]) -> None:
    engine = GatedEngine(pool, after=150)  # candidate 0 done, candidate 1 answering, the rest waiting
    app = VibecodeApp(project, Settings(n=9), clock=frozen, engine_factory=fixed_factory(engine))

    async def mid_sampling(pilot: Pilot[Any]) -> None:
        await engine_open(pilot)
        app.open_problem(project / "coin_change.md")
        await wait_for(pilot, engine.reached.is_set, what="the gate")
        screen = app.screen
        assert isinstance(screen, RunScreen)
        await wait_for(pilot, lambda: engine.shown(screen.state), what="the tokens before the gate on screen")
        assert screen.state.sampled == 1
        await pilot.press("down")  # focus candidate 1: its reasoning streams in the panel

    assert snap_compare(app, terminal_size=size, run_before=mid_sampling)
    assert engine.stopped_early.is_set()  # leaving the app cancelled the run


async def proposals(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, VibecodeApp)
    await engine_open(pilot)
    app.open_problem(app.root / "coin_change.md")
    await wait_for(pilot, lambda: isinstance(app.screen, ProposalsScreen), 60, "the proposals")


@SIZES
def test_proposals_with_a_diff(snap_compare: SnapCompare, project: Path, pool: Path, size: tuple[int, int]) -> None:
    (project / "solution.py").write_text(STUB, encoding="utf-8")
    assert snap_compare(app_for(project, pool), terminal_size=size, run_before=proposals)


def test_proposals_in_the_light_theme(snap_compare: SnapCompare, project: Path, tmp_path: Path) -> None:
    quick = write_pool(tmp_path / "quick.jsonl", [x for i, x in enumerate(coin_change_pool()) if i != 6])
    app = VibecodeApp(project, Settings(engine=f"replay:{quick}", n=8), clock=frozen)
    app.theme = "textual-light"
    assert snap_compare(app, terminal_size=SIZE, run_before=proposals)


@SIZES
def test_help_screen(snap_compare: SnapCompare, project: Path, pool: Path, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(project, pool), terminal_size=size, press=["question_mark"],
                        run_before=engine_open)


@SIZES
def test_settings_screen(snap_compare: SnapCompare, project: Path, pool: Path, size: tuple[int, int],
                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(pool.parent)  # the engine field shows the spec: keep the test's tmp path out of it
    monkeypatch.setenv("HF_HUB_CACHE", str(pool.parent / "hf"))  # the models on this machine do not show
    app = VibecodeApp(project, Settings(engine=f"replay:{pool.name}", n=9), clock=frozen)

    async def settings_open(pilot: Pilot[Any]) -> None:
        from textual.widgets import Input

        from vibecode.tui.screens.settings import SettingsScreen

        await engine_open(pilot)
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), what="the settings")
        await wait_for(pilot, lambda: app.screen.query_one("#pull-ref", Input).value == "tiny", what="the picker")
        app.screen.query_one("#pull-ref", Input).cursor_blink = False
        await pilot.pause(0.3)  # let the option list settle its highlight and scroll
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=settings_open)


def test_fix_proposals(snap_compare: SnapCompare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ranked patches of the off-by-one repository of the fix tests, the best one's diff and
    evidence (the proposals' ids are fixed: they hold the time otherwise)."""
    import vibecode.fix.proposals as saving

    monkeypatch.setattr(saving, "new_id", lambda: "20250301-093000-abc123")
    root = OFF_BY_ONE.build(tmp_path / "textkit")
    (tmp_path / "fix").mkdir()
    pool = OFF_BY_ONE.write_pool(tmp_path / "fix" / "pool.jsonl")
    app = VibecodeApp(root, Settings(engine=f"replay:{pool}", n=8), clock=frozen,
                      test_command=SuiteCommand(autoload_plugins=False))

    async def fix_proposals(pilot: Pilot[Any]) -> None:
        await engine_open(pilot)
        app.start_fix()
        await wait_for(pilot, lambda: isinstance(app.screen, FixProposalsScreen), 90, "the fix proposals")

    assert snap_compare(app, terminal_size=SIZE, run_before=fix_proposals)


def test_start_screen_with_the_model_notice(snap_compare: SnapCompare, project: Path, pool: Path) -> None:
    """The tiny-model notice is a line above the panes at 80x24, not a toast over them."""
    from vibecode.engine.replay import ReplayEngine
    from vibecode.engine.spec import OpenedEngine
    from vibecode.models.registry import TINY_NOTICE

    app = VibecodeApp(project, Settings(n=9), clock=frozen,
                      engine_factory=lambda settings: OpenedEngine(ReplayEngine(pool), None, TINY_NOTICE))

    async def noticed(pilot: Pilot[Any]) -> None:
        await engine_open(pilot)
        await wait_for(pilot, lambda: bool(app.notices), what="the notice")
        assert app.notices == [("warning", TINY_NOTICE)]

    assert snap_compare(app, terminal_size=(80, 24), run_before=noticed)
