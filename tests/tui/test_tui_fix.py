"""Fixing failing tests from the TUI: pilot tests through a full fix with the replay engine and
the real local sandbox, on the buggy git repositories of the fix tests (tests/fix/repos.py);
"nothing fails"; cancel mid-run; an error as a notification; and the plain parts (state, ranking,
editing a patch) without an app."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from textual.widgets import OptionList

from tests.fix.conftest import _git_identity  # noqa: F401  (a git identity for the repositories)
from tests.fix.repos import NAIVE_BREAKS, OFF_BY_ONE, BuggyRepo, state
from tests.repo.gitutil import git
from tests.tui.helpers import GatedEngine, fixed_factory, wait_for
from vibecode.config import Settings
from vibecode.engine.replay import ReplayEngine
from vibecode.events import FixReady, PatchParsed, PatchVerified
from vibecode.fix.suite import SuiteCommand
from vibecode.repo.proposals import list_proposals, load_proposal
from vibecode.sandbox import make_sandbox
from vibecode.session import Session
from vibecode.tui.app import VibecodeApp
from vibecode.tui.fix.proposals import FixProposalsScreen
from vibecode.tui.fix.review import edit_patch, fix_proposals, patch_diff
from vibecode.tui.fix.run import FixRunScreen
from vibecode.tui.fix.state import FixState, diff_paths, message_summary
from vibecode.tui.fix.widgets import FixCandidateTable
from vibecode.tui.history import load_history
from vibecode.tui.screens.proposals_base import SaveScreen

FAST = SuiteCommand(autoload_plugins=False)  # as the fix tests run pytest: without plugin autoload


def setup(repo: BuggyRepo, tmp_path: Path) -> tuple[Path, Path]:
    root = repo.build(tmp_path / repo.name)
    return root, repo.write_pool(tmp_path / f"{repo.name}.jsonl")


def fix_app(root: Path, pool: Path, n: int, **kwargs: object) -> VibecodeApp:
    return VibecodeApp(root, Settings(engine=f"replay:{pool}", n=n), test_command=FAST, **kwargs)  # type: ignore[arg-type]


def plain_pytest_passes(root: Path) -> bool:
    """The repository's tests, run with plain pytest where they are (leaving no caches behind)."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=120)
    return done.returncode == 0


async def fix_proposals_open(pilot: object, app: VibecodeApp) -> FixProposalsScreen:
    await wait_for(pilot, lambda: isinstance(app.screen, FixProposalsScreen), 90, "the fix proposals")  # type: ignore[arg-type]
    screen = app.screen
    assert isinstance(screen, FixProposalsScreen)
    return screen


def test_fix_from_the_start_screen_then_apply_and_undo(tmp_path: Path) -> None:
    root, pool = setup(OFF_BY_ONE, tmp_path)
    paging = root / "textkit" / "paging.py"
    before, original = state(root), paging.read_bytes()
    assert not plain_pytest_passes(root)

    async def scenario() -> None:
        app = fix_app(root, pool, n=8)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("f")
            assert isinstance(app.screen, FixRunScreen)
            run_screen = app.screen
            assert isinstance(app.focused, FixCandidateTable)
            screen = await fix_proposals_open(pilot, app)

            # The failing tests, with their messages.
            fix_state = run_screen.fix_state
            assert [t.nodeid for t in fix_state.failing] == list(OFF_BY_ONE.failing)
            baseline = str(run_screen.query_one("#baseline").render())
            assert "2 failing, 2 passed on the working tree" in baseline
            assert "tests/test_paging.py::test_first_page" in baseline and "assert [3, 4] == [1, 2]" in baseline
            # The candidates appeared, and each patch's verification.
            assert run_screen.query_one(FixCandidateTable).row_count == 8
            rows, checks = fix_state.candidates, fix_state.checks
            assert all(r.finished and r.tokens > 0 for r in rows.values())
            assert rows[2].duplicate_of == 0 and rows[7].parsed is False and checks[4].retried
            assert checks[0].fixed == 2 and checks[0].failing_total == 2 and not checks[0].regressions
            assert checks[0].scope == "all" and checks[2].fixed == 2  # a duplicate shares its original's checks
            assert checks[3].regressions == ("tests/test_paging.py::test_page_count",)
            assert checks[5].test_edit and checks[6].test_edit and not checks[0].test_edit
            assert rows[0].cluster == 0 and rows[0].r is not None and rows[0].claims

            # The proposals, ranked: a correct fix first, verified, with the reliability.
            result = screen.result
            assert [p.rank for p in screen.rows] == list(range(len(screen.rows)))
            top = screen.rows[0]
            assert top.candidate.index in OFF_BY_ONE.correct and top.status == "verified"
            assert top.reliability == pytest.approx(result.reliability) and result.reliability > 0
            assert {p.candidate.index for p in screen.rows[-2:]} == {5, 6}  # the test edits come last
            assert all(p.status == "failed" for p in screen.rows if p.candidate.index in (3, 5, 6))
            assert "VERIFIED" in str(screen.query_one("#verdict").render())
            assert screen.view_text == top.candidate.diff
            assert "+    start = (number - 1) * size" in screen.view_text
            evidence = str(screen.query_one("#evidence").render())
            assert "fixed 2/2" in evidence and "0 of the 2 tests that passed before" in evidence
            assert "scope all" in evidence and (top.candidate.proposal_id or "?") in evidence

            await pilot.press("escape", "down", "down", "down")  # the run view: candidate 3's details
            assert app.screen is run_screen and run_screen.focused_index == 3
            details = str(run_screen.query_one("#details").render())
            assert "breaks 1 of 2 tests that passed before" in details and "test_page_count" in details
            await pilot.press("p")
            assert app.screen is not run_screen and isinstance(app.screen, FixProposalsScreen)
            screen = app.screen

            # a applies it through the journal: the file changes and the tests pass.
            await pilot.press("a")
            assert paging.read_bytes() != original and b"(number - 1) * size" in paging.read_bytes()
            assert any(text.startswith(f"Applied candidate {top.candidate.index} to textkit/paging.py")
                       for _, text in app.notices)
            assert plain_pytest_passes(root)
            # u restores the exact bytes.
            await pilot.press("u")
            assert paging.read_bytes() == original and state(root) == before
            assert app.notices[-1] == ("information", "Restored textkit/paging.py.")

            [entry] = load_history()
            assert entry.kind == "fix" and entry.status == "verified" and entry.n == 8
            assert entry.source == str(root)

    asyncio.run(scenario())


def test_what_is_not_verified_applies_on_the_second_a_and_the_other_keys(tmp_path: Path) -> None:
    root, pool = setup(NAIVE_BREAKS, tmp_path)
    stats = root / "mathx" / "stats.py"
    original = stats.read_bytes()

    async def scenario() -> None:
        app = fix_app(root, pool, n=6)
        async with app.run_test(size=(120, 40)) as pilot:
            app.start_fix()
            screen = await fix_proposals_open(pilot, app)
            assert screen.rows[0].candidate.index == 3 and screen.rows[0].status == "verified"
            naive = screen.rows[1]
            assert naive.status == "failed" and naive.reliability == 0 and naive.candidate.regressions

            await pilot.press("c")  # the diff, to the clipboard
            assert app.clipboard == screen.rows[0].candidate.diff
            await pilot.press("s")
            assert isinstance(app.screen, SaveScreen)
            await pilot.press("enter")  # the suggested name: the proposal's id
            saved = root / f"fix-{screen.rows[0].candidate.proposal_id}.diff"
            assert saved.read_text(encoding="utf-8") == screen.rows[0].candidate.diff
            git(root, "apply", "--check", saved.name)  # a diff that git applies

            await pilot.press("v")  # the patched file, whole
            assert screen.view == "files" and screen.view_text.startswith("# mathx/stats.py\n")
            assert "if len(ordered) % 2 == 0:" in screen.view_text
            await pilot.press("v")

            await pilot.press("down")  # the naive fix, which breaks a test
            assert screen.current() == naive
            await pilot.press("a")  # asks first
            assert "not verified. Press a again" in app.notices[-1][1] and stats.read_bytes() == original
            await pilot.press("a")
            assert b"(ordered[mid - 1] + ordered[mid]) / 2" in stats.read_bytes()
            await pilot.press("u")
            assert stats.read_bytes() == original

            await pilot.press("x")  # rejected: struck through, and the next patch is highlighted
            assert naive.rank in screen.rejected and screen.current() == screen.rows[0]
            await pilot.press("down", "a")
            assert app.notices[-1][1] == "This patch was rejected; pick another one." and stats.read_bytes() == original

            await pilot.press("e")  # the pilot's terminal cannot run an editor: it says so
            assert app.notices[-1] == ("error", "This terminal cannot hand the screen to an editor.")

            told = len(app.notices)
            await pilot.press("r")  # twice the samples: the replay file has no more lines
            await wait_for(pilot, lambda: any(s == "error" for s, _ in app.notices[told:]), 60, "the rerun to fail")
            assert isinstance(app.screen, FixRunScreen) and app.screen.n == 12
            assert "unused candidate line" in app.notices[-1][1]
            assert app.screen.fix_state.status == "failed"

    asyncio.run(scenario())


def test_nothing_fails_says_so_without_a_model(tmp_path: Path) -> None:
    root = OFF_BY_ONE.build(tmp_path / "repo")
    paging = root / "textkit" / "paging.py"
    paging.write_text(paging.read_text().replace("start = number * size", "start = (number - 1) * size"))
    git(root, "commit", "-qam", "fixed")
    missing = tmp_path / "missing.jsonl"  # opening this engine would fail: no model is needed

    async def scenario() -> None:
        app = fix_app(root, missing, n=4, open_engine=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("f")
            run_screen = app.screen
            assert isinstance(run_screen, FixRunScreen)
            await wait_for(pilot, lambda: run_screen.fix_state.status == "done", 60, "the test run")
            assert run_screen.fix_state.passing
            assert ("information", "Nothing fails: 4 test(s) pass. There is nothing to fix.") in app.notices
            baseline = str(run_screen.query_one("#baseline").render())
            assert baseline.startswith("✓ Nothing fails: 4 test(s) pass. There is nothing to fix.")
            assert not run_screen.query_one("#candidates").display
            await pilot.press("p")
            assert app.notices[-1][1] == "Nothing fails, so there is nothing to propose."
            assert not any(isinstance(s, FixProposalsScreen) for s in app.screen_stack)
            assert not any(severity == "error" for severity, _ in app.notices)
            assert list_proposals(root) == []
            [entry] = load_history()
            assert entry.kind == "fix" and entry.status == "passing" and entry.n == 4

            await pilot.press("escape", "tab")  # the recent runs: the fix runs again in this folder
            assert "Fix tests in repo" in str(app.screen.query_one("#recent-list", OptionList).get_option_at_index(0).prompt)
            await pilot.press("down", "enter")
            again = app.screen
            assert isinstance(again, FixRunScreen) and again is not run_screen and again.n == 4
            await wait_for(pilot, lambda: again.fix_state.status == "done", 60, "the second test run")
            assert len(load_history()) == 2

    asyncio.run(scenario())


def test_cancel_mid_run_stops_the_engine_and_changes_nothing(tmp_path: Path) -> None:
    root, pool = setup(OFF_BY_ONE, tmp_path)
    before = state(root)
    engine = GatedEngine(pool, after=40)

    async def scenario() -> None:
        app = VibecodeApp(root, Settings(n=8), engine_factory=fixed_factory(engine), test_command=FAST)
        async with app.run_test(size=(120, 40)) as pilot:
            app.start_fix()
            run_screen = app.screen
            assert isinstance(run_screen, FixRunScreen)
            await wait_for(pilot, engine.reached.is_set, 60, "the engine to reach the gate")
            await wait_for(pilot, lambda: run_screen.fix_state.total_tokens > 0, what="tokens on screen")
            assert run_screen.fix_state.failing  # the failing tests were shown first
            await pilot.press("ctrl+c")
            assert app.active_run is not None
            await wait_for(pilot, app.active_run.finished.is_set, 20, "the worker to stop")
            await wait_for(pilot, lambda: run_screen.fix_state.status == "cancelled", what="the cancelled state")
            assert engine.stopped_early.is_set()
            assert ("warning", "Run cancelled.") in app.notices
            assert not any(isinstance(s, FixProposalsScreen) for s in app.screen_stack)
            assert load_history()[0].status == "cancelled"

    asyncio.run(scenario())
    assert state(root) == before and list_proposals(root) == []


def test_a_model_that_cannot_open_is_a_notification_with_its_hint(tmp_path: Path) -> None:
    root = OFF_BY_ONE.build(tmp_path / "repo")

    async def scenario() -> None:
        app = fix_app(root, tmp_path / "missing.jsonl", n=4, open_engine=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("f")
            await wait_for(pilot, lambda: any(s == "error" for s, _ in app.notices), 60, "the error")
            _, text = next(n for n in app.notices if n[0] == "error")
            assert text == f"Replay file {tmp_path / 'missing.jsonl'} does not exist. Check the replay:<file> spec."
            run_screen = app.screen
            assert isinstance(run_screen, FixRunScreen) and run_screen.fix_state.status == "failed"
            assert [t.nodeid for t in run_screen.fix_state.failing] == list(OFF_BY_ONE.failing)
            await pilot.press("escape")  # the app is alive and answers keys
            assert not isinstance(app.screen, FixRunScreen)

    asyncio.run(scenario())


# ---- the plain parts -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def naive_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[object]]:
    """One fix of the naive-breaks repository through the session, as the TUI's worker runs it."""
    folder = tmp_path_factory.mktemp("naive")
    root, pool = setup(NAIVE_BREAKS, folder)
    session = Session(ReplayEngine(pool), make_sandbox("local", Settings()), Settings())
    return root, list(session.fix(root, command=FAST, n=6))


def test_fix_state_folds_the_events(naive_run: tuple[Path, list[object]]) -> None:
    _, events = naive_run
    fix_state = FixState(6, clock=lambda: 0.0)
    for event in events[:-1]:  # everything before the result
        fix_state.apply(event)  # type: ignore[arg-type]
    assert fix_state.fix_result is None and fix_state.status == "running"
    assert [t.nodeid for t in fix_state.failing] == list(NAIVE_BREAKS.failing)
    assert fix_state.failing[0].summary()[0] == "assert 3 == 2.5"
    verified = {e.index for e in events if isinstance(e, PatchVerified)}
    parsed = {e.index: e for e in events if isinstance(e, PatchParsed)}
    assert verified == {0, 3, 4}  # 1 and 2 are the same patch as 0
    assert fix_state.checks[1].fixed == fix_state.checks[0].fixed == 1 and fix_state.checks[1].regressions
    assert fix_state.checks[3].files == ("mathx/stats.py",) and parsed[5].parsed is False
    last = events[-1]
    assert isinstance(last, FixReady)
    fix_state.apply(last)
    assert fix_state.status == "done" and fix_state.candidates[3].cluster == 0
    assert fix_state.failing[0].message == last.result.failing[0].message


def test_proposal_status_and_reliability_match_the_saved_proposals(naive_run: tuple[Path, list[object]]) -> None:
    root, events = naive_run
    last = events[-1]
    assert isinstance(last, FixReady)
    rows = fix_proposals(last.result)
    assert [p.candidate.index for p in rows] == list(last.result.ranking)
    for p in rows:
        saved = load_proposal(root, p.candidate.proposal_id or "")
        assert saved.reliability == pytest.approx(p.reliability), p.candidate.index
        assert saved.patch == p.candidate.patch
    assert rows[0].status == "verified" and [p.status for p in rows[1:]] == ["failed"] * (len(rows) - 1)
    assert rows[0].members == (3,) and rows[1].duplicates == (1, 2)


def test_editing_a_patch_keeps_its_old_contents(naive_run: tuple[Path, list[object]]) -> None:
    _, events = naive_run
    last = events[-1]
    assert isinstance(last, FixReady)
    patch = fix_proposals(last.result)[0].candidate.patch
    assert patch is not None
    seen: list[str] = []

    def editor(paths: Sequence[Path]) -> int:
        for path in paths:
            seen.append(path.as_posix())
            path.write_text(path.read_text() + "\n\ndef mean(values):\n    return sum(values) / len(values)\n")
        return 0

    edited = edit_patch(patch, editor)
    assert edited is not None and seen[0].endswith("/mathx/stats.py")
    assert edited.changes[0].old == patch.changes[0].old
    assert "def mean(values):" in (edited.changes[0].new or "") and "+def mean(values):" in patch_diff(edited)
    assert edit_patch(patch, lambda paths: 0) is None  # unchanged: nothing to keep
    assert edit_patch(patch, lambda paths: 1) is None  # the editor failed


def test_message_summary_and_diff_paths() -> None:
    message = ("assert 3.0 == 2.5\ntests/test_stats.py:8: in test_median_even\n    assert median([4, 1, 3, 2]) == 2.5\n"
               "E   assert 3 == 2.5\nE    +  where 3 = median([4, 1, 3, 2])\nE   third\n")
    assert message_summary(message) == ["assert 3 == 2.5", "+  where 3 = median([4, 1, 3, 2])"]
    assert message_summary("Traceback\n  line\nValueError: bad\n") == ["line", "ValueError: bad"]
    assert message_summary("") == []
    diff = "diff --git a/pkg/a.py b/pkg/a.py\n--- a/pkg/a.py\n+++ b/pkg/a.py\ndiff --git a/b.py b/b.py\n"
    assert diff_paths(diff) == ("pkg/a.py", "b.py")


def test_the_fix_run_view_at_80x24(tmp_path: Path) -> None:
    root = OFF_BY_ONE.build(tmp_path / "repo")
    small = dataclasses.replace(OFF_BY_ONE, pool=OFF_BY_ONE.pool[:4], extra=[]).write_pool(tmp_path / "four.jsonl")

    async def scenario() -> None:
        app = fix_app(root, small, n=4)
        async with app.run_test(size=(80, 24)) as pilot:
            app.start_fix()
            screen = await fix_proposals_open(pilot, app)
            for selector in ("#verdict", "#proposal-list", "#code-view", "#evidence", "StatusBar", "KeyFooter"):
                region = screen.query_one(selector).region
                assert region.width > 0 and region.height > 0, selector
                assert region.right <= 80 and region.bottom <= 24, selector
            await pilot.press("escape")
            run_screen = app.screen
            assert isinstance(run_screen, FixRunScreen)
            for selector in ("#baseline-box", "#candidates", "#details-box", "StatusBar"):
                region = run_screen.query_one(selector).region
                assert region.height >= 3 or selector == "StatusBar", selector
                assert region.right <= 80 and region.bottom <= 24, selector

    asyncio.run(scenario())
