#!/usr/bin/env python3
"""Time input generation (every tier, stress included) on real LeetCode statements.

    scripts/bench_inputs.py [--slugs a b ...] [--sample N] [--seed S] [--json]

For each problem (the named slugs, plus N drawn from the 1,405 with ``--sample``): render it as a
user would paste it, parse it, and time ``generate_tiers`` with the bug-seeking and stress inputs
a solve asks for. Prints JSON: per problem the seconds, the inputs per tier and a digest of the
inputs (equal digests across commits: the same inputs), and the total. The default slugs are the
statements whose stress inputs (10^5 rows of pairs, a grid of 10^5 cells) were slowest to make.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

SLOW = ["brightest_position_on_street", "minimum_operations_to_make_a_uni_value_grid",
        "reorder_routes_to_make_all_paths_lead_to_the_city_zero"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slugs", nargs="*", default=SLOW)
    parser.add_argument("--sample", type=int, default=0, help="also this many problems drawn at random")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="(the output is always JSON)")
    args = parser.parse_args()

    from vibecode.clr.inputs_tiers import STRESS_INPUTS, generate_tiers
    from vibecode.problems.leetcode_data import load_all, render_markdown
    from vibecode.problems.statement import parse_problem

    every = {p.slug: p for p in load_all()}
    unknown = [s for s in args.slugs if s not in every]
    if unknown:
        print(f"bench_inputs: no such problem: {', '.join(unknown)}", file=sys.stderr)
        return 2
    drawn = sorted(set(every) - set(args.slugs))
    random.Random(args.seed).shuffle(drawn)
    rows: dict[str, dict[str, object]] = {}
    for slug in [*args.slugs, *drawn[:args.sample]]:
        problem = parse_problem(render_markdown(every[slug]))
        started = time.perf_counter()
        tiers = generate_tiers(problem, bugs=8, stress=STRESS_INPUTS)
        seconds = time.perf_counter() - started
        digest = hashlib.sha256(json.dumps([tiers.inputs, tiers.tiers], default=str, sort_keys=True).encode())
        rows[slug] = {"seconds": round(seconds, 2), "inputs": tiers.counts(), "digest": digest.hexdigest()[:16]}
        print(f"{slug}: {seconds:.2f} s", file=sys.stderr, flush=True)
    total = sum(float(str(r["seconds"])) for r in rows.values())
    print(json.dumps({"problems": rows, "total_s": round(total, 2)}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
