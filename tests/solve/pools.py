"""Candidate pools for pipeline tests, in the replay format: what a reasoning model might say."""

from __future__ import annotations

import json
from pathlib import Path

from vibecode.config import Settings
from vibecode.engine.replay import ReplayEngine
from vibecode.events import ProposalReady
from vibecode.sandbox import make_sandbox
from vibecode.session import Session
from vibecode.types import Problem, SolveResult

FENCE = "```"


def candidate(reasoning: str, code: str, lang: str = "python") -> dict[str, str]:
    return {"kind": "candidate", "text": f"<think>\n{reasoning}\n</think>\n\n{FENCE}{lang}\n{code.strip()}\n{FENCE}\n"}


DP = '''
class Solution:
    def coinChange(self, coins: List[int], amount: int) -> int:
        best = [0] + [float("inf")] * amount
        for value in range(1, amount + 1):
            for coin in coins:
                if coin <= value and best[value - coin] + 1 < best[value]:
                    best[value] = best[value - coin] + 1
        return best[amount] if best[amount] != float("inf") else -1
'''

DP_RENAMED = '''
class Solution:
    def coinChange(self, coins: List[int], amount: int) -> int:
        # same idea, other names
        dp = [0] + [float("inf")] * amount
        for a in range(1, amount + 1):
            for c in coins:
                if c <= a and dp[a - c] + 1 < dp[a]:
                    dp[a] = dp[a - c] + 1
        return dp[amount] if dp[amount] != float("inf") else -1
'''

BFS = '''
from collections import deque

class Solution:
    def coinChange(self, coins: List[int], amount: int) -> int:
        if amount == 0:
            return 0
        seen = {0}
        queue = deque([(0, 0)])
        while queue:
            total, steps = queue.popleft()
            for coin in coins:
                nxt = total + coin
                if nxt == amount:
                    return steps + 1
                if nxt < amount and nxt not in seen:
                    seen.add(nxt)
                    queue.append((nxt, steps + 1))
        return -1
'''

GREEDY = '''
class Solution:
    def coinChange(self, coins: List[int], amount: int) -> int:
        count = 0
        for coin in sorted(coins, reverse=True):
            take = amount // coin
            count += take
            amount -= take * coin
        return count if amount == 0 else -1
'''

WRONG_ON_EXAMPLE = '''
class Solution:
    def coinChange(self, coins: List[int], amount: int) -> int:
        return amount // max(coins)
'''

CRASHES = '''
class Solution:
    def coinChange(self, coins: List[int], amount: int) -> int:
        return coins[amount]
'''

LOOPS = '''
class Solution:
    def coinChange(self, coins: List[int], amount: int) -> int:
        n = 0
        while True:
            n += 1
'''

SYNTAX_ERROR = '''
class Solution:
    def coinChange(self, coins: List[int], amount: int) -> int:
        return min(coins for
'''

TRUE_CLAIMS = (
    "Let me check: coinChange([1,2,5], 11) = 3 because 11 = 5 + 5 + 1.\n"
    "For coins = [2], amount = 3, the answer is -1.\n"
    "Using dp[i] as the fewest coins for amount i gives O(amount * len(coins))."
)
DECOY_REASONING = (
    "First idea:\n```python\nclass Solution:\n    def coinChange(self, coins, amount):\n"
    "        return -1\n```\nWait, that's wrong, it ignores the coins. Let me redo it with DP.\n"
    "coinChange([1,2,5], 11) = 3."
)


def coin_change_pool() -> list[dict[str, str]]:
    """Index: what it is."""
    return [
        candidate(TRUE_CLAIMS, DP),  # 0 correct
        candidate("BFS over amounts. coinChange([2], 3) = -1.", BFS),  # 1 correct, other way
        candidate("Same DP. 3 * 4 = 12 is irrelevant but true.", DP_RENAMED),  # 2 duplicate of 0
        candidate("Greedy works: coinChange([1,2,5], 11) = 3.", GREEDY),  # 3 wrong on edge cases
        candidate("Just divide. For coins = [1,2,5], amount = 11, the answer is 2.", WRONG_ON_EXAMPLE),  # 4
        candidate("Index by amount.", CRASHES),  # 5 crashes
        candidate("Loop until done.", LOOPS),  # 6 infinite loop
        candidate("Oops.", SYNTAX_ERROR),  # 7 syntax error
        candidate(DECOY_REASONING, DP),  # 8 decoy in reasoning, correct answer (dup of 0)
    ]


CORRECT = {0, 1, 2, 8}


def write_pool(path: Path, lines: list[dict[str, str]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


DEV_POOLS = Path(__file__).resolve().parents[1] / "data" / "leetcode_pools" / "dev.jsonl"


def dev_pool(pool_id: str) -> list[dict[str, object]]:
    """The lines of one dev LeetCode pool (``tests/data/leetcode_pools/dev.jsonl``), as stored."""
    lines = [json.loads(line) for line in DEV_POOLS.read_text().splitlines() if line]
    return [line for line in lines if line["task_id"] == pool_id]


def solve_pool(tmp_path: Path, problem: Problem, lines: list[dict[str, object]]) -> SolveResult:
    """Solve ``problem`` on a pool's lines replayed, in the real local sandbox, every candidate asked for."""
    rows = [{"kind": str(line["kind"]), "text": str(line["text"])} for line in lines]
    engine = ReplayEngine(write_pool(tmp_path / "pool.jsonl", rows))
    session = Session(engine, make_sandbox("local", Settings()), Settings())  # type: ignore[arg-type]
    n = sum(line["kind"] == "candidate" for line in lines)
    events = list(session.solve(problem, n=n))
    assert isinstance(events[-1], ProposalReady)
    return events[-1].result
