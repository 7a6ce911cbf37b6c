"""How often generated operation sequences tell the subtly wrong class of each design replay
pool (tests/solve/design_pools.py) from the correct ones, over several seeds; prints JSON.

Runs each class in a plain subprocess (no sandbox: the classes are the tests' own).

    .venv/bin/python scripts/design_separation.py [--seeds 20]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.clr.local_exec import execute
from tests.solve.design_pools import POOLS, load
from vibecode.clr.design_inputs import generate_design_inputs
from vibecode.clr.harness import build_job, run_job
from vibecode.problems.leetcode_data import render_markdown
from vibecode.problems.statement import parse_problem


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=20)
    opts = ap.parse_args()
    report: dict[str, dict[str, int]] = {}
    for slug, (right, wrong) in POOLS.items():
        problem = parse_problem(render_markdown(load(slug)))
        caught = split = 0
        for seed in range(opts.seeds):
            inputs = [dict(x) for x in generate_design_inputs(problem, seed=seed).inputs]
            outs = [[(r.status, r.output) for r in run_job(build_job(problem.signature, code, inputs), execute)]
                    for code in right + wrong]
            caught += any(o != outs[0] for o in outs[len(right):])
            split += any(o != outs[0] for o in outs[1 : len(right)])
        report[slug] = {"seeds": opts.seeds, "wrong_told_apart": caught, "correct_split": split}
    json.dump(report, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
