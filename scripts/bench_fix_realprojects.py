#!/usr/bin/env python3
"""`vibecode fix` on the real-project fixtures (tests/data/projects/): fixed?, ranks, time.

For each project: build it (a git repository at the commit before the real fix, with its own
.venv from pip), run ``vibecode fix --engine replay:<its pool> --n 6 --json`` with no other flag,
and report the status, which candidate won (its label), the rank of the real fix and of the test
edit (1 = the best; null when unranked), the tree and index untouched, and the wall time of the fix run
(plus vibecode's own timing breakdown). Prints one JSON object.

    .venv/bin/python scripts/bench_fix_realprojects.py [--only NAME ...] [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.fix.realprojects import NAMES, build, load, tree_and_index  # noqa: E402
from tests.repo.gitutil import GIT_ENV  # noqa: E402


def run_fix(root: Path, pool: Path) -> tuple[float, dict[str, Any], str]:
    env = {k: v for k, v in GIT_ENV.items() if k != "VIRTUAL_ENV"}
    env.update({"VIBECODE_CONFIG": os.devnull, "PYTHONPATH": str(ROOT)})
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "vibecode", "fix", "--engine", f"replay:{pool}", "--n", "6",
                           "--json"], cwd=root, env=env, capture_output=True, text=True, timeout=1200, check=False)
    took = time.monotonic() - started
    try:
        data = json.loads(done.stdout)
    except json.JSONDecodeError:
        data = {"status": "error", "reason": done.stderr[-2000:]}
    return took, data, done.stderr


def measure(name: str, work: Path, runs: int) -> dict[str, object]:
    project = load(name)
    started = time.monotonic()
    root = build(name, work / name)
    setup_s = time.monotonic() - started
    before = tree_and_index(root)
    walls: list[float] = []
    data: dict[str, Any] = {}
    for _ in range(runs):
        wall, data, _ = run_fix(root, project.pool)
        walls.append(wall)
    cands = {c["index"]: c for c in data.get("candidates", [])}
    best = data.get("best") or {}
    best_index = best.get("index") if isinstance(best, dict) else None

    def rank(label: str) -> object:
        cand = cands.get(project.index(label))
        if cand is None:
            return None
        if cand.get("duplicate_of") is not None:
            cand = cands.get(cand["duplicate_of"], cand)
        place = cand.get("rank")  # 0 = best in the JSON; the report counts from 1
        return place + 1 if isinstance(place, int) else None

    correct = project.indices("real_fix", "variant", "whitespace")
    return {
        "project": name,
        "fixed": data.get("status") == "verified" and best_index in correct,
        "status": data.get("status"),
        "chosen": project.labels[best_index] if isinstance(best_index, int) else None,
        "chosen_rank": 1 if best_index is not None else None,
        "real_fix_rank": rank("real_fix"),
        "variant_rank": rank("variant"),
        "test_edit_rank": rank("test_edit"),
        "regression_rank": rank("regression"),
        "test_edit_chosen": isinstance(best, dict) and bool(best.get("test_edit")),
        "tree_and_index_unchanged": tree_and_index(root) == before,
        "environment": (data.get("environment") or {}).get("kind"),
        "fix_wall_s": round(statistics.median(walls), 2),
        "fix_wall_s_runs": [round(w, 2) for w in walls],
        "timing": data.get("timing"),
        "setup_s": round(setup_s, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", choices=NAMES, help="these projects (default: all)")
    parser.add_argument("--runs", type=int, default=1, help="fix runs per project (the median wall time)")
    args = parser.parse_args()
    names = args.only or list(NAMES)
    with tempfile.TemporaryDirectory(prefix="vibecode-bench-real-") as tmp:
        results = [measure(name, Path(tmp), max(1, args.runs)) for name in names]
    summary = {"fixed": sum(1 for r in results if r["fixed"]), "projects": len(results),
               "test_edit_chosen": sum(1 for r in results if r["test_edit_chosen"])}
    print(json.dumps({"summary": summary, "results": results, "nproc": os.cpu_count()}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
