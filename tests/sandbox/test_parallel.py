"""Parallel runs: M at once, each isolated, with its own limits."""

from __future__ import annotations

import time
from pathlib import Path

from vibecode.sandbox.base import Limits, RunJob, Sandbox


def test_run_many_runs_in_parallel_with_per_run_limits(sandbox: Sandbox, source: Path) -> None:
    workspaces = [sandbox.prepare(source) for _ in range(4)]
    try:
        sleep = "import os, time; time.sleep(1.5); open('mine', 'w').write(os.environ['JOB'])"
        jobs = [
            RunJob(ws, (sandbox.python, "-c", sleep), Limits(wall_s=20), env={"JOB": str(i)})
            for i, ws in enumerate(workspaces[:3])
        ]
        jobs.append(
            RunJob(workspaces[3], (sandbox.python, "-c", "while True: pass"), Limits(wall_s=1))
        )
        start = time.monotonic()
        results = sandbox.run_many(jobs, parallel=4)
        elapsed = time.monotonic() - start
        assert [r.exit_code for r in results[:3]] == [0, 0, 0]
        assert results[3].timed_out and not any(r.timed_out for r in results[:3])
        # Serial would take 3 x 1.5 s + 1 s; in parallel the sleeps overlap.
        assert elapsed < 4.5, f"{elapsed:.1f} s: the runs did not overlap"
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
