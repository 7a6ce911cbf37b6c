"""Parallel runs: M at once, each isolated, with its own limits."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from vibecode.sandbox.base import Limits, RunJob, Sandbox
from vibecode.types import RunResult

# Each sleeper says it is running, then waits for the test's "go" (a file in its own workspace,
# which both backends mount at the same path). The test writes "go" only once all three are
# running, so three runs that finish normally were running at the same time, whatever the load.
SLEEPER = (
    "import os, time\n"
    "open('started', 'w').close()\n"
    "while not os.path.exists('go'):\n"
    "    time.sleep(0.02)\n"
    "open('mine', 'w').write(os.environ['JOB'])\n"
)
BARRIER_S = 120.0  # how long the test waits for all three to be running: a hang guard only


@pytest.mark.timeout(300)
def test_run_many_runs_in_parallel_with_per_run_limits(sandbox: Sandbox, source: Path) -> None:
    workspaces = [sandbox.prepare(source) for _ in range(4)]
    try:
        jobs = [
            RunJob(ws, (sandbox.python, "-c", SLEEPER), Limits(wall_s=BARRIER_S + 60),
                   env={"JOB": str(i)})
            for i, ws in enumerate(workspaces[:3])
        ]
        jobs.append(
            RunJob(workspaces[3], (sandbox.python, "-c", "while True: pass"), Limits(wall_s=1))
        )
        results: list[RunResult] = []
        runner = threading.Thread(target=lambda: results.extend(sandbox.run_many(jobs, parallel=4)))
        runner.start()
        started = [ws.path / "started" for ws in workspaces[:3]]
        deadline = time.monotonic() + BARRIER_S
        while not all(p.exists() for p in started) and time.monotonic() < deadline:
            time.sleep(0.02)
        running = [p.exists() for p in started]
        for ws in workspaces[:3]:
            (ws.path / "go").write_text("", encoding="utf-8")  # also releases a serial run
        runner.join()
        # Serial runs could never all have started before the first one was let go.
        assert running == [True, True, True], f"the runs did not overlap: {running}"
        assert [r.exit_code for r in results[:3]] == [0, 0, 0]
        assert results[3].timed_out and not any(r.timed_out for r in results[:3])
        for i, ws in enumerate(workspaces[:3]):
            assert (ws.path / "mine").read_text() == str(i)
    finally:
        for ws in workspaces:
            ws.cleanup()


def test_run_many_default_and_empty(sandbox: Sandbox, source: Path) -> None:
    assert sandbox.run_many([]) == []
    with sandbox.prepare(source) as ws:
        results = sandbox.run_many([RunJob(ws, ("true",)), RunJob(ws, ("false",))])
    assert [r.exit_code for r in results] == [0, 1]
