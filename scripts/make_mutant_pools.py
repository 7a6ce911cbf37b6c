#!/usr/bin/env python3
"""Make candidate pools with known correctness from HumanEval, for ``vibecode bench replay``.

Per problem: the canonical solution and ast mutants of it (operator and comparison swaps,
off-by-one in ranges and indices, boundary changes, dropped branches, ...), each labelled by
running the hidden tests in the sandbox, with reasoning whose claims are sometimes true and
sometimes false in the way the bug suggests. How pools are composed is documented in
``vibecode/bench/poolgen.py``. The same --seed gives the same pools.

    python scripts/make_mutant_pools.py --out pools.jsonl [--limit N] [--ids 0 17 ...] [--seed S]
                                        [--pools P]

Prints one JSON object: problems, candidates, share correct, time taken, and per-problem facts
with --verbose.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from vibecode.bench.dataset import load_humaneval, select_tasks  # noqa: E402
from vibecode.bench.poolgen import make_pools  # noqa: E402
from vibecode.clr.execute import CandidateRunner  # noqa: E402
from vibecode.config import Settings  # noqa: E402
from vibecode.errors import VibecodeError  # noqa: E402
from vibecode.sandbox import make_sandbox  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="pool file to write (JSONL)")
    parser.add_argument("--limit", type=int, help="only the first N problems")
    parser.add_argument("--ids", nargs="+", help="only these problems (HumanEval/17 or 17)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--pools", type=int, default=1, help="pools per problem, ids HumanEval/N@i (default 1)")
    parser.add_argument("--max-label", type=int, default=14, help="mutants labelled per problem (default 14)")
    parser.add_argument("--workers", type=int, default=2, help="problems at once (default 2)")
    parser.add_argument("--sandbox", default="local", choices=["local", "docker"])
    parser.add_argument("--verbose", action="store_true", help="include per-problem facts")
    args = parser.parse_args(argv)
    try:
        tasks = select_tasks(load_humaneval(), args.ids, args.limit)
        sandbox = make_sandbox(args.sandbox, Settings())
    except VibecodeError as exc:
        print(f"make_mutant_pools: {exc.message} {exc.hint or ''}".strip(), file=sys.stderr)
        return 2
    runner = CandidateRunner(sandbox, per_input_timeout_s=3.0)  # generous: load must not change the pools
    started = time.monotonic()
    load = os.getloadavg()[0]
    with ThreadPoolExecutor(max_workers=max(1, args.workers)) as pool:
        results = list(pool.map(lambda t: make_pools(t, sandbox, runner, seed=args.seed, count=args.pools,
                                                              max_label=args.max_label), tasks))
    runner.close()
    out = Path(args.out)
    with out.open("w", encoding="utf-8") as fh:
        for lines, _ in results:
            for line in lines:
                fh.write(json.dumps(line, ensure_ascii=False) + "\n")
    facts = [f for _, f in results]
    candidates = sum(f["candidates"] for f in facts)
    correct = sum(f["correct"] for f in facts)
    summary = {
        "out": str(out),
        "problems": len(facts),
        "pools": sum(f["pools"] for f in facts),
        "candidates": candidates,
        "share_correct": round(correct / candidates, 4) if candidates else None,
        "pools_without_correct": sum(f["pools_without_correct"] for f in facts),
        "mutants_found": sum(f["mutants"] for f in facts),
        "mutants_labelled": sum(f["labelled"] for f in facts),
        "equivalent_mutants": sum(f["equivalent"] for f in facts),
        "seconds": round(time.monotonic() - started, 1),
        "load_at_start": round(load, 2),
    }
    if args.verbose:
        summary["per_problem"] = facts
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
