#!/usr/bin/env python3
"""Sandbox overhead and parallel throughput, as JSON.

1. Overhead per run, for each backend, on a generated repository of 1,000 files (5 MB) with a
   git history: prepare a workspace, run a trivial command (`true`), tear the workspace down.
   Target: local < 300 ms per run.
2. Throughput of 8 pytest runs of a small test suite in parallel against the same 8 serially.
3. How promptly a run ends: past its 1 s wall limit for a 30 s sleep (the tests assert only that
   it is killed at the limit), and after its main process exits leaving a 60 s daemon.

    scripts/bench_sandbox.py --json [--backends local,docker] [--runs 20] [--parallel 8]
                             [--limit-runs 5]

Run it on a quiet machine: it measures wall-clock time.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypedDict, final

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vibecode.config import Settings
from vibecode.errors import SandboxError
from vibecode.sandbox import make_sandbox, run_pytest
from vibecode.sandbox.base import Limits, Sandbox

DAEMON = (
    "import os, time\n"
    "if os.fork() == 0:\n"
    "    os.setsid()\n"
    "    if os.fork() == 0:\n"
    "        time.sleep(60)\n"
    "    os._exit(0)\n"
)

Stats = dict[str, float]


class Overhead(TypedDict):
    runs: int
    linked_files: int
    copied_files: int
    in_memory: bool
    prepare: Stats
    run_true: Stats
    teardown: Stats
    total: Stats


class Throughput(TypedDict):
    runs: int
    serial_s: float
    parallel_s: float
    serial_runs_per_s: float
    parallel_runs_per_s: float
    speedup: float
    per_run_serial: Stats
    per_run_parallel: Stats


class Promptness(TypedDict):
    runs: int
    past_1s_wall_limit: Stats
    daemon_left_behind: Stats


@final
class Backend(TypedDict):
    isolation: str
    protections: dict[str, bool]
    overhead: Overhead
    pytest: Throughput
    promptness: Promptness


@final
class BackendError(TypedDict):
    error: str


def make_repo(root: Path, files: int = 1000, total_bytes: int = 5 << 20) -> None:
    size = total_bytes // files
    for i in range(files):
        path = root / f"pkg{i % 25}" / f"sub{i % 8}" / f"mod_{i}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        line = f"VALUE_{i} = {i}  # padding to a realistic source line length.............\n"
        path.write_text((line * (size // len(line) + 1))[:size], encoding="utf-8")
    git = ["git", "-c", "user.name=bench", "-c", "user.email=b@example.com"]
    subprocess.run([*git, "init", "-q"], cwd=root, check=True)
    subprocess.run([*git, "add", "-A"], cwd=root, check=True)
    subprocess.run([*git, "commit", "-qm", "bench"], cwd=root, check=True)


def make_suite(root: Path, files: int = 5, tests: int = 10) -> None:
    (root / "tests").mkdir(parents=True)
    for f in range(files):
        body = "".join(
            f"def test_{t}():\n    assert sum(range({t * 1000})) == {sum(range(t * 1000))}\n\n"
            for t in range(tests)
        )
        (root / "tests" / f"test_m{f}.py").write_text(body, encoding="utf-8")


def stats(values: list[float]) -> Stats:
    ms = sorted(v * 1000 for v in values)
    return {
        "mean_ms": round(statistics.fmean(ms), 1),
        "median_ms": round(statistics.median(ms), 1),
        "p90_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.9))], 1),
        "min_ms": round(ms[0], 1),
    }


def overhead(sandbox: Sandbox, repo: Path, runs: int) -> Overhead:
    prepare, run, teardown, total = [], [], [], []
    linked = copied = 0
    in_memory = False
    for i in range(runs + 1):
        t0 = time.perf_counter()
        ws = sandbox.prepare(repo)
        t1 = time.perf_counter()
        result = sandbox.run(ws, ["true"])
        t2 = time.perf_counter()
        if i == 0:
            linked, copied, in_memory = ws.linked, ws.copied, ws.quota_mb is not None
        ws.cleanup()
        t3 = time.perf_counter()
        if result.exit_code != 0:
            raise SystemExit(f"`true` failed in the {sandbox.name} sandbox: {result}")
        if i == 0:
            continue  # warm-up
        prepare.append(t1 - t0)
        run.append(t2 - t1)
        teardown.append(t3 - t2)
        total.append(t3 - t0)
    return {
        "runs": runs,
        "linked_files": linked,
        "copied_files": copied,
        "in_memory": in_memory,
        "prepare": stats(prepare),
        "run_true": stats(run),
        "teardown": stats(teardown),
        "total": stats(total),
    }


def throughput(sandbox: Sandbox, suite: Path, n: int) -> Throughput:
    def one() -> float:
        start = time.perf_counter()
        with sandbox.prepare(suite) as ws:
            report = run_pytest(sandbox, ws, timeout=300, autoload_plugins=False)
        if not report.complete or report.failed or len(report.passed) == 0:
            raise SystemExit(f"the benchmark suite did not pass in {sandbox.name}: {report}")
        return time.perf_counter() - start

    one()  # warm-up
    start = time.perf_counter()
    serial = [one() for _ in range(n)]
    serial_s = time.perf_counter() - start
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=n) as pool:
        parallel = list(pool.map(lambda _: one(), range(n)))
    parallel_s = time.perf_counter() - start
    return {
        "runs": n,
        "serial_s": round(serial_s, 2),
        "parallel_s": round(parallel_s, 2),
        "serial_runs_per_s": round(n / serial_s, 2),
        "parallel_runs_per_s": round(n / parallel_s, 2),
        "speedup": round(serial_s / parallel_s, 2),
        "per_run_serial": stats(serial),
        "per_run_parallel": stats(parallel),
    }


def promptness(sandbox: Sandbox, source: Path, runs: int) -> Promptness:
    """Seconds from ``run`` to its return beyond the wall limit, and after a daemon is left."""
    overrun, daemon = [], []
    with sandbox.prepare(source) as ws:
        for _ in range(runs):
            start = time.perf_counter()
            result = sandbox.run(ws, [sandbox.python, "-c", "import time; time.sleep(30)"],
                                 Limits(wall_s=1))
            overrun.append(time.perf_counter() - start - 1)
            if not result.timed_out:
                raise SystemExit(f"the 1 s wall limit did not stop a 30 s sleep: {result}")
            start = time.perf_counter()
            result = sandbox.run(ws, [sandbox.python, "-c", DAEMON], Limits(wall_s=10))
            daemon.append(time.perf_counter() - start)
            if result.exit_code != 0 or result.timed_out:
                raise SystemExit(f"the daemon run did not end with its main process: {result}")
    return {"runs": runs, "past_1s_wall_limit": stats(overrun), "daemon_left_behind": stats(daemon)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--backends", default="local,docker")
    parser.add_argument("--runs", type=int, default=20, help="overhead runs per backend")
    parser.add_argument("--parallel", type=int, default=8, help="pytest runs, serial and parallel")
    parser.add_argument("--limit-runs", type=int, default=5, help="runs stopped at a wall limit")
    args = parser.parse_args()

    out: dict[str, object] = {
        "machine": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
            "root": os.geteuid() == 0,
        },
        "repo": {"files": 1000, "bytes": 5 << 20, "git": True},
        "suite": {"files": 5, "tests": 50, "pytest_plugin_autoload": False},
        "backends": {},
    }
    tmp = Path(
        tempfile.mkdtemp(
            prefix="vibecode-bench-", dir="/var/tmp" if os.path.isdir("/var/tmp") else None
        )
    )
    backends: dict[str, Backend | BackendError] = {}
    try:
        repo, suite = tmp / "repo", tmp / "suite"
        repo.mkdir()
        make_repo(repo)
        make_suite(suite)
        for name in [b.strip() for b in args.backends.split(",") if b.strip()]:
            try:
                sandbox = make_sandbox(name, Settings())
            except SandboxError as exc:
                backends[name] = {"error": str(exc)}
                continue
            entry: Backend = {
                "isolation": getattr(sandbox, "isolation", name),
                "protections": sandbox.protections(),
                "overhead": overhead(
                    sandbox, repo, args.runs if name == "local" else max(3, args.runs // 2)
                ),
                "pytest": throughput(sandbox, suite, args.parallel),
                "promptness": promptness(sandbox, suite, args.limit_runs),
            }
            backends[name] = entry
        out["backends"] = backends
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for name, result in backends.items():
            if "error" in result:
                print(f"{name}: {result['error']}")
                continue
            total = result["overhead"]["total"]
            py = result["pytest"]
            print(
                f"{name}: prepare+true+teardown median {total['median_ms']} ms; "
                f"{py['runs']} pytest runs: serial {py['serial_s']} s, parallel {py['parallel_s']} s "
                f"(x{py['speedup']}); ended {result['promptness']['past_1s_wall_limit']['median_ms']} ms "
                f"past a 1 s wall limit, {result['promptness']['daemon_left_behind']['median_ms']} ms "
                "with a daemon left"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
