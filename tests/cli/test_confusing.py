"""Regression tests for the "Confusing" list of issue 17: progress with --json, precommit with
nothing staged, caches outside git, doctor's config and Docker lines, plurals, honest tokens/s."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import REPO, run_cli
from tests.solve.pools import DP, candidate, write_pool
from vibecode.cli.progress_route import progress_sink
from vibecode.cli.render import Progress, StageTicker, plural
from vibecode.doctor import config_checks
from vibecode.events import SampleProgress, StageFinished, StageStarted
from vibecode.sandbox.docker import docker_status


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _git(root: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "T",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": os.devnull}
    subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)


def _failing_project(root: Path) -> Path:
    root.mkdir()
    (root / "a.py").write_text("def f():\n    return 1\n")
    (root / "test_a.py").write_text("from a import f\n\n\ndef test_f():\n    assert f() == 2\n")
    return root


def test_json_with_progress_streams_events_on_stderr_and_keeps_stdout_one_object(tmp_path: Path) -> None:
    pool = write_pool(tmp_path / "pool.jsonl", [candidate("r", DP)])
    out = run_cli("solve", "examples/coin_change.md", "--engine", f"replay:{pool}", "--n", "1",
                  "--no-model-checks", "--json", "--progress")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["status"] in ("verified", "plausible")
    events = [json.loads(line) for line in out.stderr.splitlines() if line.startswith("{")]
    kinds = [e["event"] for e in events]
    assert kinds[0] == "StageStarted" and "CandidateTested" in kinds and kinds[-1] == "ProposalReady"
    sampling = [e for e in events if e["event"] in ("SampleProgress", "CandidateSampled")]
    assert sampling and all(e["sampling_left_s"] is None for e in sampling)  # a free replay: nothing to time
    quiet = run_cli("solve", "examples/coin_change.md", "--engine", f"replay:{pool}", "--n", "1",
                    "--no-model-checks", "--json")
    assert quiet.returncode == 0 and "sampling" not in quiet.stderr  # stderr is a pipe: no chatter


def test_json_progress_lines_go_to_a_terminal_stderr() -> None:
    class Args:
        json, json_events, progress = True, False, False

    seen: list[object] = []
    event = StageStarted("inputs", "")
    progress_sink(Args(), seen.append, lambda e: {}, err=Terminal())(event)
    progress_sink(Args(), seen.append, lambda e: {}, err=io.StringIO())(event)
    assert seen == [event]  # shown once: on the terminal, not on the pipe


def test_precommit_with_nothing_staged_says_so_at_once(tmp_path: Path) -> None:
    root = _failing_project(tmp_path / "repo")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "failing test")
    out = run_cli("precommit", "--engine", "replay:/nonexistent.jsonl", cwd=root, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "nothing is staged" in out.stderr and "git add" in out.stderr
    assert "fail" not in out.stderr  # no test ran, no fix was looked for


def test_fix_outside_git_keeps_its_index_cache_in_the_user_cache_dir(tmp_path: Path) -> None:
    root = _failing_project(tmp_path / "folder")
    pool = write_pool(tmp_path / "fix.jsonl", [])
    cache = tmp_path / "cache"
    out = run_cli("fix", "--engine", f"replay:{pool}", "--n", "1", cwd=root, env={"XDG_CACHE_HOME": str(cache)})
    assert "localizing" in out.stderr, out.stderr  # it got as far as building the code index
    assert not (root / ".vibecode" / "index").exists()
    assert list((cache / "vibecode" / "index").glob("*/cache.json"))


def test_doctor_reports_a_broken_config_file_and_a_config_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "config.toml"
    bad.write_text("n = \n")
    monkeypatch.setenv("VIBECODE_CONFIG", str(bad))
    [check] = config_checks()
    assert not check.ok and "not valid TOML" in check.detail and check.fix
    monkeypatch.setenv("VIBECODE_CONFIG", str(tmp_path))
    [check] = config_checks()
    assert not check.ok and "is a folder" in check.detail and "VIBECODE_CONFIG" in (check.fix or "")
    bad.write_text('sandbox = "bogus"\n')
    monkeypatch.setenv("VIBECODE_CONFIG", str(bad))
    [check] = config_checks()
    assert not check.ok and str(bad) in check.detail  # says the value came from the config file
    bad.write_text("n = 4\n")
    [check] = config_checks()
    assert check.ok and str(bad) in check.detail


def test_doctor_json_has_the_config_section(tmp_path: Path) -> None:
    bad = tmp_path / "config.toml"
    bad.write_text("n = \n")
    out = run_cli("doctor", "--json", env={"VIBECODE_CONFIG": str(bad)}, timeout=300)
    assert out.returncode == 9, out.stderr  # a check failed (tests/cli/test_doctor_exit.py)
    [check] = json.loads(out.stdout)["config"]
    assert check["ok"] is False and "not valid TOML" in check["detail"] and check["level"] == "fail"


def test_dockers_unreachable_line_is_one_sentence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DOCKER_HOST", f"unix://{tmp_path}/no.sock")
    ok, detail, image_ok, _ = docker_status("vibecode-sandbox:latest", timeout=5)
    assert not ok and not image_ok
    assert detail == f"The Docker daemon is not reachable: there is no Docker socket at unix://{tmp_path}/no.sock."


def test_counts_agree_with_their_nouns() -> None:
    assert plural("1 candidates") == "1 candidate" and plural("1 distinct candidates") == "1 distinct candidate"
    assert plural("11 candidates") == "11 candidates" and plural("2 candidates") == "2 candidates"
    out = io.StringIO()
    progress = Progress(1, out)
    progress(StageStarted("sample", "1 candidates"))
    progress(StageFinished("sample", 0.1))
    assert "sampling (1 candidate)\n" in out.getvalue() and "sampled 0 candidates:" in out.getvalue()


def test_a_sampling_span_too_short_to_measure_reports_no_rate() -> None:
    now = [100.0]
    out = io.StringIO()
    progress = Progress(1, out, clock=lambda: now[0])
    for tokens in (10, 500, 9000):  # the replay engine: every token at the same instant
        progress(SampleProgress(0, "x", tokens, "answer"))
    progress(StageFinished("sample", 0.0))
    assert "tokens/s" not in out.getvalue()
    out = io.StringIO()
    progress = Progress(1, out, clock=lambda: now[0])
    progress(SampleProgress(0, "x", 0, "answer"))
    now[0] += 2.0
    progress(SampleProgress(0, "x", 200, "answer"))
    progress(StageFinished("sample", 2.0))
    assert "at 100.0 tokens/s" in out.getvalue()
    out = io.StringIO()
    silent = Progress(1, out, rates=False, clock=lambda: now[0])
    silent(SampleProgress(0, "x", 0, "answer"))
    now[0] += 2.0
    silent(SampleProgress(0, "x", 200, "answer"))
    silent(StageFinished("sample", 2.0))
    assert "tokens/s" not in out.getvalue()


def test_building_test_inputs_shows_an_indicator_on_a_terminal() -> None:
    term = Terminal()
    progress = Progress(1, term)
    assert isinstance(progress.ticker, StageTicker)
    progress.ticker.every_s = 0.01
    progress(StageStarted("inputs", ""))
    deadline = time.monotonic() + 30  # a generous wait for the first tick, not a speed target
    while "building test inputs: " not in term.getvalue() and time.monotonic() < deadline:
        time.sleep(0.01)
    progress(StageFinished("inputs", 0.1))
    assert "building test inputs: " in term.getvalue() and " s" in term.getvalue()
    assert Progress(1, io.StringIO()).ticker is None  # plain logs get no carriage returns


def test_solve_help_names_progress() -> None:
    out = subprocess.run([sys.executable, "-m", "vibecode", "solve", "--help"], capture_output=True, text=True,
                         cwd=REPO, timeout=60, check=False)
    assert out.returncode == 0 and "--progress" in out.stdout


def test_the_fix_summary_names_the_patch_that_only_passes_by_editing_a_test() -> None:
    from vibecode.cli.cmd_fix import FixProgress
    from vibecode.events import PatchParsed, PatchVerified
    from vibecode.fix.score import decide
    from vibecode.types import Completion, FixCandidate

    failing = ["t.py::a"]

    def cand(index: int, fixed: int, test_edit: bool) -> FixCandidate:
        return FixCandidate(index, Completion("", "", "", "stop", 0, 0), parsed=True, verified=True, fixed=fixed,
                            failing_total=1, regression_run=3, regression_scope="all",
                            outcomes={"t.py::a": "passed" if fixed else "failed"}, test_edit=test_edit)

    d = decide([cand(2, 0, False), cand(6, 1, True)], failing, k=8)
    assert d.status == "failed" and "the closest fixes 0" in d.reason
    assert "Candidate 6 fixes all of them by editing a test file" in d.reason and "--allow-test-edits" in d.reason
    out = io.StringIO()
    progress = FixProgress(8, out)
    progress(PatchParsed(6, True, None, None, "diff", test_edit=True))
    progress(PatchVerified(6, 1, 1, (), 3, "all"))
    assert "candidate 6: fixes 1/1 (its patch edits a test file)" in out.getvalue()


def test_the_tui_leaves_a_core_to_its_event_loop_unless_told_otherwise() -> None:
    from vibecode.config import Settings
    from vibecode.tui.jobs import tui_engine_settings

    assert tui_engine_settings(Settings(), cpus=8).n_threads == 7
    assert tui_engine_settings(Settings(), cpus=1).n_threads == 1  # never fewer than one decode thread
    assert tui_engine_settings(Settings(tui_reserved_cores=0), cpus=8).n_threads is None  # all cores
    assert tui_engine_settings(Settings(n_threads=3), cpus=8).n_threads == 3  # an explicit choice wins
    assert tui_engine_settings(Settings(tui_reserved_cores=2), cpus=8).n_threads == 6


def test_precommit_json_with_progress_streams_events_on_stderr(tmp_path: Path) -> None:
    root = _failing_project(tmp_path / "repo")
    _git(root, "init", "-q")
    _git(root, "add", "-A")  # the failing test is staged
    args = ("precommit", "--json", "--no-fix", "--mode", "soft", "--engine", "replay:/nonexistent.jsonl")
    out = run_cli(*args, "--progress", cwd=root, timeout=300)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)  # stdout stays one JSON object
    assert result["outcome"] == "failed"
    kinds = [json.loads(line)["event"] for line in out.stderr.splitlines() if line.startswith("{")]
    assert "BaselineTested" in kinds and kinds[-1] == "PrecommitReady"
    quiet = run_cli(*args, cwd=root, timeout=300)
    assert quiet.returncode == 0 and json.loads(quiet.stdout)["outcome"] == "failed"
    assert not [line for line in quiet.stderr.splitlines() if line.startswith("{")]  # a pipe: no events
