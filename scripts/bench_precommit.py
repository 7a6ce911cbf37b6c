#!/usr/bin/env python3
"""Measure what ``vibecode precommit`` costs beyond the test run itself, on a passing commit.

Builds a git repository in a temporary folder (a package of ``--modules`` modules with a test
file each), stages a one-line change to one module, and runs ``python -m vibecode precommit
--json`` as the hook does, ``--runs`` times. For each run it takes the process's wall time and
the sandboxed pytest run's own duration (from the JSON timing); the overhead is the difference:
Python start-up, imports, the export of the index, choosing the tests, preparing the sandbox
workspace, reading the report. The target is under 1 s.

Wall times swell on a busy machine, so it also reports ``cpu_s``: the CPU seconds (user +
system) that the kernel charges to the check's process tree. With the bwrap sandbox (or Docker)
the sandboxed test processes are not among them (they are reaped inside their own PID
namespace), so on such machines ``cpu_s`` is vibecode's own work: a load-independent measure of
the overhead. ``load_average`` says how busy the machine was. Prints JSON.

    scripts/bench_precommit.py [--modules 50] [--runs 5] [--plugins]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
GIT_ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "bench@example.com",
    "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
}


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, env=GIT_ENV, check=True, capture_output=True)


def build(root: Path, modules: int) -> None:
    (root / "pkg").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    for n in range(modules):
        (root / "pkg" / f"mod_{n}.py").write_text(
            f'"""Module {n}."""\n\n\ndef value_{n}(x):\n    return x + {n}\n\n\ndef twice_{n}(x):\n    return 2 * value_{n}(x)\n')
        (root / "tests" / f"test_mod_{n}.py").write_text(
            f"from pkg.mod_{n} import twice_{n}, value_{n}\n\n\ndef test_value():\n    assert value_{n}(1) == {n + 1}\n\n\n"
            f"def test_twice():\n    assert twice_{n}(1) == {2 * (n + 1)}\n")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "initial")
    target = root / "pkg" / "mod_0.py"
    target.write_text(target.read_text() + "\n# a staged change\n")
    git(root, "add", "pkg/mod_0.py")


def cpu_of(cmd: list[str], root: Path, env: dict[str, str]) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """(wall s, CPU s of the process tree, the finished process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--modules", type=int, default=50)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--plugins", action="store_true", help="let pytest autoload the installed plugins")
    args = parser.parse_args()
    env = {**GIT_ENV, "PYTHONPATH": str(REPO), "VIBECODE_CONFIG": os.devnull}
    cmd = [sys.executable, "-m", "vibecode", "precommit", "--json"] + ([] if args.plugins else ["--no-plugin-autoload"])
    runs = []
    with tempfile.TemporaryDirectory(prefix="vibecode-bench-precommit-") as tmp:
        root = Path(tmp) / "repo"
        build(root, args.modules)
        for _ in range(args.runs + 1):  # the first run warms the code index cache
            wall, cpu, done = cpu_of(cmd, root, env)
            if done.returncode != 0:
                print(json.dumps({"error": done.stderr[-2000:] or done.stdout[-2000:]}))
                return 1
            data = json.loads(done.stdout)
            timing = data["timing"]
            runs.append({"wall_s": round(wall, 3), "test_run_s": timing["test_run"],
                         "overhead_s": round(wall - timing["test_run"], 3), "cpu_s": round(cpu, 3),
                         "tests_run": data["tests_run"], "selection": data["selection"], "timing": timing})
    measured = runs[1:]
    print(json.dumps({
        "command": " ".join(cmd[1:]),
        "modules": args.modules,
        "tests": measured[0]["tests_run"],
        "selection": measured[0]["selection"],
        "runs": len(measured),
        "median_wall_s": round(statistics.median(r["wall_s"] for r in measured), 3),
        "median_test_run_s": round(statistics.median(r["test_run_s"] for r in measured), 3),
        "median_overhead_s": round(statistics.median(r["overhead_s"] for r in measured), 3),
        "max_overhead_s": round(max(r["overhead_s"] for r in measured), 3),
        "median_cpu_s": round(statistics.median(r["cpu_s"] for r in measured), 3),
        "load_average": round(os.getloadavg()[0], 2),
        "target_overhead_s": 1.0,
        "cold_run": runs[0],
        "detail": measured,
    }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
