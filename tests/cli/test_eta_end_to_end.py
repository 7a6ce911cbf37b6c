"""The time left in the CLI's progress, end to end (issue 18): ``vibecode solve`` and ``vibecode
fix`` as a user runs them, on a paced replay engine (``replay:FILE?tps=R``), the real pipeline and
the real local sandbox, stderr on a terminal (a pseudo-terminal) so that the live line is drawn."""

from __future__ import annotations

import dataclasses
import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import run_cli
from tests.fix.repos import OFF_BY_ONE
from tests.repo.gitutil import GIT_ENV
from tests.solve.pools import coin_change_pool, write_pool

REPO = Path(__file__).resolve().parents[2]
TPS = 100  # tokens a second per sequence
TOKENS = 150  # each candidate's length: 1.5 s of sampling, long enough for a measured rate
LIMIT_S = 240.0
LEFT = re.compile(r"up to \d+ (?:s|min) of sampling left")


def on_a_terminal(args: list[str], cwd: Path) -> tuple[int, str, str]:
    """Run ``python -m vibecode ARGS`` with stderr on a pseudo-terminal; (exit code, stdout, the
    terminal's text)."""
    env = {**os.environ, **GIT_ENV, "VIBECODE_CONFIG": os.devnull, "PYTHONPATH": str(REPO),
           "COLUMNS": "160", "TERM": "xterm"}
    master, slave = pty.openpty()
    out = cwd.parent / "stdout.txt"
    with out.open("wb") as stdout:
        proc = subprocess.Popen([sys.executable, "-m", "vibecode", *args], cwd=cwd, env=env,
                                stdin=subprocess.DEVNULL, stdout=stdout, stderr=slave)
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + LIMIT_S
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1.0)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                data = os.read(master, 65536)
            except OSError:  # the other side closed (Linux says EIO)
                break
            if not data:
                break
            chunks.append(data)
        code = proc.wait(timeout=max(1.0, deadline - time.monotonic()))
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return code, out.read_text(encoding="utf-8"), b"".join(chunks).decode("utf-8", "replace")


def test_solve_shows_the_time_left_while_sampling(tmp_path: Path) -> None:
    lines = [{**line, "tokens": TOKENS} for line in coin_change_pool()[:3]]
    pool = write_pool(tmp_path / "pool.jsonl", lines)  # type: ignore[arg-type]
    work = tmp_path / "work"
    work.mkdir()
    problem = work / "coin_change.md"
    problem.write_text((REPO / "examples" / "coin_change.md").read_text(encoding="utf-8"), encoding="utf-8")
    code, stdout, terminal = on_a_terminal(
        ["solve", str(problem), "--engine", f"replay:{pool}?tps={TPS}", "--n", "3", "--until", "all"], work)
    assert code in (0, 1), terminal  # verified / plausible or failed: the run itself went through
    assert "Traceback" not in terminal
    live = [x for x in re.split(r"[\r\n]", terminal) if x.lstrip("\x1b[2K").startswith("sampling [")]
    assert any(LEFT.search(x) for x in live), terminal  # the live line, once the rate is measured
    assert "sampled 3 candidates" in terminal and stdout.strip()


def test_the_sample_stage_event_carries_its_budget_and_the_events_the_time_left(tmp_path: Path) -> None:
    lines = [{**line, "tokens": TOKENS} for line in coin_change_pool()[:3]]
    pool = write_pool(tmp_path / "pool.jsonl", lines)  # type: ignore[arg-type]
    out = run_cli("solve", "examples/coin_change.md", "--engine", f"replay:{pool}?tps={TPS}", "--n", "3",
                  "--until", "all", "--json", "--progress", env={"VIBECODE_MAX_TOKENS": "900"})
    assert out.returncode in (0, 1) and "Traceback" not in out.stderr, out.stderr
    events = [json.loads(x) for x in out.stderr.splitlines() if x.startswith("{")]
    [sample] = [e for e in events if e["event"] == "StageStarted" and e["stage"] == "sample"]
    # the batch: 3 candidates of 900 tokens, and the oracle, the generator and the edge cases with
    # their own budgets (vibecode/solve/helper_budgets.py), of which the oracle's floor is the largest
    assert sample["sampling"] == {"candidates": 3, "max_tokens": 900, "helpers": 3, "helper_max_tokens": 192}
    assert all(e["sampling"] is None for e in events if e["event"] == "StageStarted" and e["stage"] != "sample")
    left = [e["sampling_left_s"] for e in events if e["event"] == "SampleProgress"]
    assert any(x is not None and x > 0 for x in left)


def test_fix_shows_the_time_left_while_sampling(tmp_path: Path) -> None:
    pool_lines = [{**line, "tokens": TOKENS} if line.get("kind", "candidate") == "candidate" else line
                  for line in OFF_BY_ONE.pool]
    repo = dataclasses.replace(OFF_BY_ONE, pool=pool_lines)  # type: ignore[arg-type]
    root = repo.build(tmp_path / "repo")
    pool = repo.write_pool(tmp_path / "pool.jsonl")
    code, _, terminal = on_a_terminal(
        ["fix", "--engine", f"replay:{pool}?tps={TPS}", "--n", "3", "--no-plugin-autoload"], root)
    assert code == 0, terminal
    assert "Traceback" not in terminal
    assert LEFT.search(terminal), terminal
