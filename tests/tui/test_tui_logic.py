"""The TUI's plain modules, without an app: run state, proposals and apply, history, workers."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, run_cli
from tests.repo.gitutil import make_repo
from tests.solve.pools import DP, GREEDY, candidate, coin_change_pool, write_pool
from tests.tui.helpers import EXAMPLES, GatedEngine
from vibecode.config import Settings
from vibecode.engine.replay import ReplayEngine
from vibecode.engine.spec import OpenedEngine
from vibecode.errors import ApplyError, UsageError
from vibecode.events import CandidateSampled, SampleProgress, StageFinished, StageStarted
from vibecode.repo.workspace import undo
from vibecode.tui import jobs
from vibecode.tui.app import guess_kind
from vibecode.tui.history import KEEP, HistoryEntry, add_entry, history_path, load_history
from vibecode.tui.review import (
    apply_solution,
    band,
    proposal_rows,
    save_text,
    solution_change,
    suggested_name,
)
from vibecode.tui.state import RunState
from vibecode.types import Completion


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_run_state_splits_reasoning_from_answer_and_measures() -> None:
    clock = Clock()
    state = RunState(2, clock=clock)
    state.apply(StageStarted("sample", "2 candidates"))
    for i, (piece, phase) in enumerate([("<thi", "answer"), ("nk>", "thinking"), ("\nadd them", "thinking"),
                                        ("</think>", "answer"), ("\nreturn a + b", "answer")]):
        clock.now = float(i)
        state.apply(SampleProgress(0, piece, i + 1, phase))  # type: ignore[arg-type]
    row = state.candidates[0]
    assert row.reasoning_text() == "add them" and row.answer_text() == "return a + b"
    assert row.state == "answering" and state.candidates[1].state == "waiting"
    assert state.tokens_per_s() == pytest.approx(4 / 4)  # the first token took no time the view saw
    state.prompt_tokens = 100
    assert state.context_used == 105
    done = Completion("x", "add them", "return a + b", "stop", 100, 5, budget_forced=True)
    state.apply(CandidateSampled(0, done))
    assert row.finished and row.state == "budget-forced" and state.sampled == 1
    clock.now = 10.0
    state.apply(StageFinished("sample", 4.0))
    assert state.tokens_per_s() == pytest.approx(4 / 4)  # frozen when sampling ended
    assert state.stage_marks()[:2] == [("sample", "done"), ("extract", "pending")]
    state.apply(SampleProgress(5, "more", 1, "answer"))  # a sequence beyond K grows the table
    assert sorted(state.candidates) == [0, 1, 5]
    state.stop("cancelled")
    assert state.status == "cancelled" and not state.running
    state.stop("failed", "late")  # the first ending wins
    assert state.status == "cancelled"


def test_a_prompt_that_opens_the_think_block_streams_as_reasoning() -> None:
    state = RunState(1)
    state.apply(SampleProgress(0, "let me think", 1, "thinking"))
    state.apply(SampleProgress(0, "</think>42", 2, "answer"))
    row = state.candidates[0]
    assert (row.reasoning_text(), row.answer_text()) == ("let me think", "42")


def _result(tmp_path: Path, lines: list[dict[str, str]]) -> object:
    engine = ReplayEngine(write_pool(tmp_path / "pool.jsonl", lines))
    run = jobs.Run(jobs.Task("code", (EXAMPLES / "coin_change.md").read_text()), len(lines))
    updates: list[jobs.Update] = []
    jobs.solve(run, Settings(), jobs.EngineHolder(lambda s: OpenedEngine(engine, None, None)),
               jobs.SandboxHolder(), updates.append)
    return updates


def test_the_solve_job_reports_start_events_and_the_result(tmp_path: Path) -> None:
    updates = _result(tmp_path, [candidate("dp", DP), candidate("greedy", GREEDY), candidate("dp", DP)])
    assert isinstance(updates, list)
    kinds = [type(u).__name__ for u in updates]
    assert kinds[:2] == ["EngineReady", "RunStarted"] and kinds[-1] == "RunEnded"
    started = updates[1]
    assert isinstance(started, jobs.RunStarted) and started.title == "Coin Change" and started.prompt_tokens > 50
    ended = updates[-1]
    assert isinstance(ended, jobs.RunEnded) and ended.result is not None and not ended.cancelled
    rows = proposal_rows(ended.result)
    assert [r.rank for r in rows] == [0, 1]
    # The greedy candidate also passes every example but answers generated inputs differently:
    # contested evidence, so the top proposal is plausible, never verified (issue 14).
    assert rows[0].members == (0, 2) and rows[0].status == "plausible" and rows[0].reliability is not None
    assert rows[1].candidate.index == 1 and rows[1].status == "plausible" and rows[1].reliability is None
    assert suggested_name(ended.result) == "coinchange.py"
    events = [e for u in updates if isinstance(u, jobs.RunEvents) for e in u.events]
    assert sum(isinstance(e, SampleProgress) for e in events) > 20  # token events arrive, batched
    assert len([u for u in updates if isinstance(u, jobs.RunEvents)]) < len(events)


def test_a_run_cancelled_before_it_starts_ends_cancelled(tmp_path: Path) -> None:
    engine = ReplayEngine(write_pool(tmp_path / "pool.jsonl", coin_change_pool()))
    run = jobs.Run(jobs.Task("code", (EXAMPLES / "coin_change.md").read_text()), 9)
    run.cancel()
    updates: list[jobs.Update] = []
    jobs.solve(run, Settings(), jobs.EngineHolder(lambda s: OpenedEngine(engine, None, None)),
               jobs.SandboxHolder(), updates.append)
    assert updates[-1] == jobs.RunEnded(cancelled=True) and run.finished.is_set()
    assert not any(isinstance(u, jobs.RunEnded) and u.result is not None for u in updates)


def test_the_engine_is_opened_once_and_reopened_when_the_settings_name_another(tmp_path: Path) -> None:
    opened: list[str | None] = []
    closed: list[str | None] = []

    class Closing(ReplayEngine):
        def close(self) -> None:
            closed.append(str(self.path))

    def factory(settings: Settings) -> OpenedEngine:
        opened.append(settings.engine)
        return OpenedEngine(Closing((settings.engine or "").removeprefix("replay:")), None, None)

    a = write_pool(tmp_path / "a.jsonl", [candidate("x", DP)])
    b = write_pool(tmp_path / "b.jsonl", [candidate("x", DP)])
    holder = jobs.EngineHolder(factory)
    first = holder.get(Settings(engine=f"replay:{a}", n=3))
    assert holder.get(Settings(engine=f"replay:{a}", n=5)) is first  # K does not reopen the model
    holder.get(Settings(engine=f"replay:{b}"))
    holder.close()
    assert opened == [f"replay:{a}", f"replay:{b}"] and closed == [str(a), str(b)]


def test_the_batcher_sends_tokens_in_batches_and_the_rest_at_once() -> None:
    sent: list[tuple[object, ...]] = []
    batcher = jobs.Batcher(sent.append, interval=60.0)
    for i in range(5):
        batcher.add(SampleProgress(0, "x", i + 1, "answer"))
    assert sent == []
    batcher.add(StageFinished("sample", 1.0))
    assert len(sent) == 1 and len(sent[0]) == 6
    batcher.add(SampleProgress(0, "y", 6, "answer"))
    batcher.flush()
    assert len(sent) == 2


def test_the_ask_job_stops_when_cancelled(tmp_path: Path) -> None:
    long_answer = {"kind": "candidate", "text": "word " * 5000}
    engine = GatedEngine(write_pool(tmp_path / "ask.jsonl", [long_answer]), after=10)
    run = jobs.Run(None, 1)
    updates: list[jobs.Update] = []

    def emit(update: jobs.Update) -> None:
        updates.append(update)
        if isinstance(update, jobs.AskEvents):
            run.cancel()

    jobs.ask(run, [], Settings(), jobs.EngineHolder(lambda s: OpenedEngine(engine, None, None)), emit)
    ended = updates[-1]
    assert isinstance(ended, jobs.AskEnded) and ended.cancelled and ended.completion is None
    assert engine.stopped_early.is_set() and run.finished.is_set()


def test_apply_in_a_git_repository_uses_paths_from_its_root(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"README.md": b"hi\n", "pkg/solution.py": b"old = 1\n"})
    root = repo / "pkg"
    base, change = solution_change(root, Path("solution.py"), "new = 2")
    assert base == repo.resolve() and change.path == "pkg/solution.py" and change.old == "old = 1\n"
    report = apply_solution(root, Path("solution.py"), "new = 2")
    assert report.files == ("pkg/solution.py",)
    assert (root / "solution.py").read_text() == "new = 2\n"
    undo(root)
    assert (root / "solution.py").read_text() == "old = 1\n"
    with pytest.raises(ApplyError, match="outside"):
        solution_change(root, tmp_path / "elsewhere.py", "x")


def test_save_never_overwrites(tmp_path: Path) -> None:
    path = save_text(tmp_path, "answer.py", "x = 1")
    assert path.read_text() == "x = 1\n"
    with pytest.raises(UsageError, match="already exists"):
        save_text(tmp_path, "answer.py", "x = 2")
    with pytest.raises(UsageError, match="does not exist"):
        save_text(tmp_path, "no/such/dir/answer.py", "x")
    assert path.read_text() == "x = 1\n"
    assert [band(0.9), band(0.5), band(0.1)] == ["high", "medium", "low"]


def test_history_keeps_the_newest_runs_and_survives_a_broken_file(private_env: Path) -> None:
    assert history_path() == private_env / "history.json"
    assert load_history() == []
    private_env.mkdir(parents=True)
    history_path().write_text("{not json")
    assert load_history() == []
    for i in range(KEEP + 5):
        add_entry(HistoryEntry("2025-01-01T00:00:00+00:00", "code", f"run {i}", "verified", 0.5, 8))
    entries = load_history()
    assert len(entries) == KEEP and entries[0].title == f"run {KEEP + 4}"
    assert entries[0].label_time == "Jan 01 00:00"
    raw = json.loads(history_path().read_text())
    raw.insert(0, {"title": "missing fields"})
    history_path().write_text(json.dumps(raw))
    assert len(load_history()) == KEEP  # entries it cannot read are skipped


def test_a_problem_file_is_math_when_it_asks_for_a_boxed_answer() -> None:
    assert guess_kind((EXAMPLES / "math_fraction.md").read_text()) == "math"
    assert guess_kind((EXAMPLES / "coin_change.md").read_text()) == "code"


def test_the_tui_command_needs_a_terminal(tmp_path: Path) -> None:
    result = run_cli("tui", str(tmp_path), input="")
    assert result.returncode == 2
    assert "The terminal UI needs a terminal" in result.stderr and "vibecode solve" in result.stderr
    bare = run_cli(input="")  # a bare `vibecode` runs the tui command
    assert bare.returncode == 2 and "needs a terminal" in bare.stderr


def test_help_does_not_import_textual() -> None:
    code = ("import sys; from vibecode.cli import build_parser; build_parser(); "
            "print(any(m == 'textual' or m.startswith('textual.') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert out.stdout.strip() == "False"


def test_the_worker_code_and_the_plain_modules_do_not_import_textual() -> None:
    # jobs.py runs in the worker threads: it cannot touch a widget if it cannot import one.
    for name in ("jobs", "state", "review", "history"):
        tree = ast.parse((REPO / "vibecode" / "tui" / f"{name}.py").read_text())
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not any(m.split(".")[0] == "textual" for m in imported), name
