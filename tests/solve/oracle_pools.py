"""Replay pools on a real LeetCode statement (Longest Substring Without Repeating Characters,
rendered from tests/data/leetcode as a user would paste it) for the oracle and differential
tests: a wrong sliding window that passes every example, correct answers, a brute-force oracle
and an input generator in the replay contract's ``oracle`` / ``generator`` lines."""

from __future__ import annotations

import json
from pathlib import Path

from tests.solve.pools import FENCE, candidate
from vibecode.problems.leetcode_data import from_json, render_markdown
from vibecode.problems.statement import parse_problem
from vibecode.types import Problem

DATA = Path(__file__).resolve().parents[1] / "data" / "leetcode"

CORRECT = '''
class Solution:
    def length_of_longest_substring(self, s: str) -> int:
        seen: dict[str, int] = {}
        left = best = 0
        for i, c in enumerate(s):
            if c in seen and seen[c] >= left:
                left = seen[c] + 1
            seen[c] = i
            best = max(best, i - left + 1)
        return best
'''

CORRECT_SET = '''
class Solution:
    def length_of_longest_substring(self, s: str) -> int:
        window = set()
        left = best = 0
        for right, ch in enumerate(s):
            while ch in window:
                window.remove(s[left])
                left += 1
            window.add(ch)
            best = max(best, right - left + 1)
        return best
'''

# issue 14: the left edge moves back on "abba" (no max with the current left): passes all three
# examples, wrong on inputs where a character was last seen before the window
WRONG = '''
class Solution:
    def length_of_longest_substring(self, s: str) -> int:
        last = {}
        start = 0
        answer = 0
        for i, c in enumerate(s):
            if c in last:
                start = last[c] + 1
            last[c] = i
            answer = max(answer, i - start + 1)
        return answer
'''

WRONG_RENAMED = WRONG.replace("answer", "longest")

BRUTE = '''
class Solution:
    def length_of_longest_substring(self, s: str) -> int:
        best = 0
        for i in range(len(s)):
            for j in range(i, len(s)):
                if len(set(s[i:j + 1])) == j - i + 1:
                    best = max(best, j - i + 1)
        return best
'''

# a "brute force" that is wrong on example 3 (counts distinct characters): must not be used
BAD_BRUTE = '''
class Solution:
    def length_of_longest_substring(self, s: str) -> int:
        return len(set(s))
'''

GENERATOR = '''
import random

def generate_input(rng: random.Random) -> dict:
    n = rng.randint(0, 8)
    return {"s": "".join(rng.choice("abc") for _ in range(n))}
'''


def problem() -> Problem:
    data = json.loads((DATA / "longest_substring_without_repeating_characters.json").read_text())
    return parse_problem(render_markdown(from_json(data)))


def oracle_line(code: str = BRUTE) -> dict[str, str]:
    return {"kind": "oracle", "text": f"A direct check of every substring.\n\n{FENCE}python\n{code.strip()}\n{FENCE}\n"}


def generator_line(code: str = GENERATOR) -> dict[str, str]:
    return {"kind": "generator", "text": f"{FENCE}python\n{code.strip()}\n{FENCE}\n"}


def wrong(n: int) -> list[dict[str, str]]:
    codes = [WRONG, WRONG_RENAMED]
    return [candidate("Sliding window: jump start past the last occurrence.", codes[i % 2]) for i in range(n)]


def right(n: int) -> list[dict[str, str]]:
    codes = [CORRECT, CORRECT_SET]
    return [candidate("Sliding window that never moves its left edge back.", codes[i % 2]) for i in range(n)]
