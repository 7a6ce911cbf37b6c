#!/usr/bin/env python3
"""How fast does ``vibecode --help`` answer? (Target: < 0.5 s.)

    scripts/bench_startup.py --json [--runs 10]

Runs ``python -m vibecode --help`` RUNS times in fresh processes and prints the median and
minimum wall time, and the heavy modules (llama_cpp, huggingface_hub, docker, git, textual,
tree_sitter, sympy) that got imported (there should be none).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HEAVY = ("llama_cpp", "huggingface_hub", "docker", "git", "textual", "tree_sitter", "sympy")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    times = []
    for _ in range(args.runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "vibecode", "--help"], cwd=REPO, check=True,
                       stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    probe = ("import sys\nfrom vibecode.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n"
             f"    pass\nprint(sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)\n")
    loaded = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True,
                            check=True).stderr.strip().splitlines()[-1]
    report = {"median_s": round(statistics.median(times), 3), "min_s": round(min(times), 3),
              "runs": args.runs, "heavy_modules_imported": json.loads(loaded.replace("'", '"')),
              "target_s": 0.5}
    report["meets_target"] = report["median_s"] < 0.5 and not report["heavy_modules_imported"]
    print(json.dumps(report, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
