#!/usr/bin/env python3
"""Time the verification stage (not sampling) for K candidates on a problem with 3 examples.

Runs examples/coin_change.md with K built-in candidates (correct ones written three ways, a
greedy one that is wrong on edge cases, one wrong on an example, one that crashes, one that
loops forever): type-driven inputs, one harness process per candidate, example checks,
behaviour clustering and the CLR decision. Candidates run in plain subprocesses here (the
executor is a parameter of ``run_job``; the session passes the sandbox's). Prints JSON with
``--json``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from vibecode.clr.compare import check_examples  # noqa: E402
from vibecode.clr.harness import HarnessJob, RawRun, build_job, run_job  # noqa: E402
from vibecode.clr.inputs import generate_inputs  # noqa: E402
from vibecode.clr.score import behaviour_tokens, decide  # noqa: E402
from vibecode.tasks.problem import parse_problem  # noqa: E402
from vibecode.types import CandidateEvidence  # noqa: E402

HEAD = "class Solution:\n    def coinChange(self, coins, amount):\n"
POOL = [
    HEAD + "        dp = [0] + [inf] * amount\n        for a in range(1, amount + 1):\n"
    "            for c in coins:\n                if c <= a:\n                    dp[a] = min(dp[a], dp[a - c] + 1)\n"
    "        return dp[amount] if dp[amount] != inf else -1\n",
    HEAD + "        seen, frontier, steps = {0}, [0], 0\n        while frontier:\n"
    "            if amount in frontier:\n                return steps\n            nxt = []\n"
    "            for t in frontier:\n                for c in coins:\n"
    "                    if t + c <= amount and t + c not in seen:\n"
    "                        seen.add(t + c)\n                        nxt.append(t + c)\n"
    "            frontier, steps = nxt, steps + 1\n        return -1\n",
    HEAD + "        best = [0] + [amount + 1] * amount\n        for c in coins:\n"
    "            for a in range(c, amount + 1):\n                best[a] = min(best[a], best[a - c] + 1)\n"
    "        return best[amount] if best[amount] <= amount else -1\n",
    HEAD + "        n = 0\n        for c in sorted(coins, reverse=True):\n"
    "            n += amount // c\n            amount %= c\n        return n if amount == 0 else -1\n",
    HEAD + "        return amount // max(coins)\n",
    HEAD + "        return coins[amount]\n",
    HEAD + "        while True:\n            pass\n",
]


def execute(job: HarnessJob) -> RawRun:
    with tempfile.TemporaryDirectory(prefix="vibecode-bench-") as tmp:
        work = Path(tmp)
        for name, text in job.files.items():
            (work / name).write_text(text, encoding="utf-8")
        argv = [sys.executable, *job.argv[1:]]
        try:
            proc = subprocess.run(argv, cwd=work, capture_output=True, text=True, timeout=job.timeout_s, check=False)
            code, stdout, stderr, timed_out = proc.returncode, proc.stdout, proc.stderr, False
        except subprocess.TimeoutExpired:
            code, stdout, stderr, timed_out = None, "", "", True
        result = work / job.result_file
        text = result.read_text(encoding="utf-8") if result.exists() else None
        return RawRun(stdout, stderr, code, None, timed_out, text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--k", type=int, default=8)
    parser.add_argument("--per-input-timeout", type=float, default=1.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    t0 = time.perf_counter()
    problem = parse_problem((REPO / "examples" / "coin_change.md").read_text(encoding="utf-8"))
    generated = generate_inputs(problem).inputs
    t_inputs = time.perf_counter()
    shared = [ex.inputs for ex in problem.examples] + list(generated)
    evidence = []
    for index in range(args.k):
        code = POOL[index % len(POOL)]
        job = build_job(problem.signature, code, shared, per_input_timeout_s=args.per_input_timeout)
        results = run_job(job, execute)
        examples = check_examples(problem, results)
        evidence.append(CandidateEvidence(index, sum(e.passed for e in examples), len(examples),
                                          behaviour_tokens(results, problem.output_order)))
    t_run = time.perf_counter()
    decision = decide(evidence, k=args.k)
    t_end = time.perf_counter()
    report = {
        "problem": "examples/coin_change.md",
        "k": args.k,
        "examples": len(problem.examples),
        "generated_inputs": len(generated),
        "executor": "subprocess (no sandbox)",
        "status": decision.status,
        "best": decision.best,
        "reliability": round(decision.reliability, 4),
        "clusters": [list(c.members) for c in decision.clusters],
        "seconds": {
            "parse_and_generate": round(t_inputs - t0, 4),
            "run_candidates": round(t_run - t_inputs, 4),
            "score": round(t_end - t_run, 4),
            "total": round(t_end - t0, 4),
        },
    }
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
