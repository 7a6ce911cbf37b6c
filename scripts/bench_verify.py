#!/usr/bin/env python3
"""Time the verification stage (everything after sampling) of one solve.

    scripts/bench_verify.py --json [--sandbox local|docker] [--repeat 3]

Runs examples/coin_change.md (3 examples) through the real pipeline with K=8 recorded
candidates (the replay engine, so sampling costs nothing): correct solutions written three ways,
a greedy one that is wrong on edge cases, one wrong on an example, one that crashes, one that
loops forever, one with a syntax error. Reports the wall time of extraction, input generation,
sandboxed runs, claim checks and scoring, per repeat and their median. Target: < 5 s with the
local sandbox.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

HEAD = "class Solution:\n    def coinChange(self, coins: List[int], amount: int) -> int:\n"
POOL = [
    HEAD + "        dp = [0] + [float('inf')] * amount\n        for a in range(1, amount + 1):\n"
    "            for c in coins:\n                if c <= a:\n                    dp[a] = min(dp[a], dp[a - c] + 1)\n"
    "        return dp[amount] if dp[amount] != float('inf') else -1\n",
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
    HEAD + "        return (\n",
]
REASONING = "coinChange([1,2,5], 11) = 3 since 5 + 5 + 1 = 11. For coins = [2], amount = 3, the answer is -1."
STAGES = ("extract", "inputs", "verify", "claims", "score")


def once(sandbox_kind: str) -> dict[str, float]:
    from vibecode.config import Settings
    from vibecode.engine.replay import ReplayEngine
    from vibecode.events import ProposalReady
    from vibecode.problems.statement import parse_problem
    from vibecode.sandbox import make_sandbox
    from vibecode.session import Session

    with tempfile.TemporaryDirectory() as tmp:
        pool = Path(tmp) / "pool.jsonl"
        pool.write_text("".join(
            json.dumps({"kind": "candidate", "text": f"<think>{REASONING}</think>\n```python\n{code}```\n"}) + "\n"
            for code in POOL
        ))
        settings = Settings()
        session = Session(ReplayEngine(pool), make_sandbox(sandbox_kind, settings), settings)
        problem = parse_problem((REPO / "examples" / "coin_change.md").read_text())
        result = None
        for event in session.solve(problem, n=len(POOL), use_model_checks=False):
            if isinstance(event, ProposalReady):
                result = event.result
        assert result is not None and result.status == "verified", result
        timing = {k: result.timing.get(k, 0.0) for k in STAGES}
        timing["verification_s"] = round(sum(timing.values()), 3)
        return timing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sandbox", default="local", choices=["local", "docker"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    runs = [once(args.sandbox) for _ in range(args.repeat)]
    report = {
        "k": len(POOL),
        "examples": 3,
        "sandbox": args.sandbox,
        "runs": runs,
        "median_verification_s": round(statistics.median(r["verification_s"] for r in runs), 3),
        "target_s": 5.0,
    }
    report["meets_target"] = report["median_verification_s"] < 5.0
    print(json.dumps(report, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
