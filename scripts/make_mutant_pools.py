#!/usr/bin/env python3
"""Make candidate pools with known correctness from HumanEval, for ``vibecode bench replay``.

Per problem: the canonical solution and ast mutants of it (operator and comparison swaps,
off-by-one in ranges and indices, boundary changes, dropped branches, ...), each labelled by
running the hidden tests in the sandbox, with reasoning whose claims are sometimes true and
sometimes false in the way the bug suggests. How pools are composed is documented in
``vibecode/bench/poolgen.py``. The same --seed gives the same pools.

Each pool also gets the two helper lines that solve asks for in the candidates' batch (issue 18),
each with a ``"tokens"`` length drawn from [--helper-min-tokens, --helper-max-tokens] (400-1,200):

- an ``oracle`` line: one of the pool's own candidates, drawn uniformly, served as the model's
  "brute-force" answer. It is therefore correct exactly as often as the pool's correct share
  says (its ``correct`` key records which), like an oracle the model would write; the canonical
  solution is never used, since that would be an oracle better than the model's.
- a ``generator`` line: a ``generate_input(rng)`` written from the problem's examples (each
  argument drawn like the example values: integers and floats between 0 and the example value,
  strings from the example's characters, lists of 1-8 items like the example's items), the
  kind of type-driven generator a model writes. Problems without examples get none (the solve
  names the missing generator).

--no-helpers leaves both out.

    python scripts/make_mutant_pools.py --out pools.jsonl [--limit N] [--ids 0 17 ...] [--seed S]
                                        [--pools P]

Prints one JSON object: problems, candidates, share correct, time taken, and per-problem facts
with --verbose.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from vibecode.bench.dataset import HumanEvalTask, load_humaneval, select_tasks  # noqa: E402
from vibecode.bench.poolgen import make_pools  # noqa: E402
from vibecode.clr.execute import CandidateRunner  # noqa: E402
from vibecode.config import Settings  # noqa: E402
from vibecode.errors import VibecodeError  # noqa: E402
from vibecode.problems.statement import parse_problem  # noqa: E402
from vibecode.sandbox import make_sandbox  # noqa: E402

GENERATOR_TEMPLATE = '''import random

EXAMPLES = {examples!r}


def _like(value, rng):
    if isinstance(value, bool):
        return rng.choice([True, False])
    if isinstance(value, int):
        return rng.randint(min(0, value), max(1, value))
    if isinstance(value, float):
        return round(rng.uniform(min(0.0, value), max(1.0, value)), 2)
    if isinstance(value, str):
        chars = value or "ab"
        return "".join(rng.choice(chars) for _ in range(rng.randint(0 if not value else 1, min(8, len(value) + 2))))
    if isinstance(value, list):
        if not value:
            return []
        return [_like(rng.choice(value), rng) for _ in range(rng.randint(1, min(8, len(value) + 2)))]
    return value


def generate_input(rng: random.Random) -> dict:
    example = rng.choice(EXAMPLES)
    return {{name: _like(value, rng) for name, value in example.items()}}
'''


def helper_lines(task: HumanEvalTask, lines: list[dict[str, object]], rng: random.Random,
                 lo: int, hi: int) -> list[dict[str, object]]:
    """The oracle and generator lines of each pool in ``lines`` (see the module doc)."""
    pools: dict[str, list[dict[str, object]]] = {}
    for line in lines:
        pools.setdefault(str(line["task_id"]), []).append(line)
    examples = [dict(e.inputs) for e in parse_problem(task.prompt).examples]
    extra: list[dict[str, object]] = []
    for pool_id, pool in pools.items():
        drawn = rng.choice(pool)
        answer = str(drawn["text"]).split("</think>")[-1].strip()
        extra.append({"task_id": pool_id, "kind": "oracle", "correct": drawn["correct"], "tokens": rng.randint(lo, hi),
                      "text": f"A direct solution, no shortcuts:\n\n{answer}\n"})
        if examples:
            code = GENERATOR_TEMPLATE.format(examples=examples)
            extra.append({"task_id": pool_id, "kind": "generator", "tokens": rng.randint(lo, hi),
                          "text": f"```python\n{code}```\n"})
    return extra


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
    parser.add_argument("--helper-min-tokens", type=int, default=400, help="shortest oracle/generator line (400)")
    parser.add_argument("--helper-max-tokens", type=int, default=1200, help="longest oracle/generator line (1200)")
    parser.add_argument("--no-helpers", action="store_true", help="no oracle and generator lines")
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
    out = Path(args.out)
    rng = random.Random(args.seed)
    helpers = 0
    with out.open("w", encoding="utf-8") as fh:
        for task, (lines, _) in zip(tasks, results, strict=True):
            extra = [] if args.no_helpers else helper_lines(task, lines, rng, args.helper_min_tokens,
                                                             args.helper_max_tokens)
            helpers += len(extra)
            for line in [*lines, *extra]:
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
        "helper_lines": helpers,
        "seconds": round(time.monotonic() - started, 1),
        "load_at_start": round(load, 2),
    }
    if args.verbose:
        summary["per_problem"] = facts
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
