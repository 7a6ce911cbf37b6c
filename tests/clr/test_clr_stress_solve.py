"""The stress tier end to end: a replay pool on a REAL rendered statement through the real local
sandbox. An O(n^2) answer passes the examples and the edge/random tiers but is too slow for the
constraints on the stress tier, so it is never verified, and the reason reaches the result."""

from __future__ import annotations

import json
from pathlib import Path

from vibecode.config import Settings
from vibecode.engine.replay import ReplayEngine
from vibecode.events import ProposalReady
from vibecode.problems.leetcode_data import from_json, render_markdown
from vibecode.problems.statement import parse_problem
from vibecode.sandbox import make_sandbox
from vibecode.session import Session
from vibecode.solve.report import result_json
from vibecode.types import SolveResult

DATA = Path(__file__).resolve().parent.parent / "data" / "leetcode"
FENCE = "`" * 3
QUADRATIC = """
class Solution:
    def contains_duplicate(self, nums: list[int]) -> bool:
        for i in range(len(nums)):
            for j in range(i + 1, len(nums)):
                if nums[i] == nums[j]:
                    return True
        return False
"""
QUADRATIC_TOO = """
class Solution:
    def contains_duplicate(self, nums: list[int]) -> bool:
        seen = []
        for x in nums:
            if x in seen:
                return True
            seen.append(x)
        return False
"""
LINEAR = """
class Solution:
    def contains_duplicate(self, nums: list[int]) -> bool:
        return len(set(nums)) < len(nums)
"""


def _solve(tmp_path: Path, codes: list[str]) -> SolveResult:
    pool = tmp_path / "pool.jsonl"
    pool.write_text("".join(json.dumps({"kind": "candidate", "text": f"<think>\nscan\n</think>\n\n{FENCE}python\n"
                                        f"{code.strip()}\n{FENCE}\n"}) + "\n" for code in codes), encoding="utf-8")
    problem = parse_problem(render_markdown(from_json(json.loads((DATA / "contains_duplicate.json").read_text()))))
    session = Session(ReplayEngine(pool), make_sandbox("local", Settings()), Settings())  # type: ignore[arg-type]
    events = list(session.solve(problem, n=len(codes)))
    assert isinstance(events[-1], ProposalReady)
    return events[-1].result


def test_an_answer_too_slow_for_the_constraints_is_plausible_and_says_so(tmp_path: Path) -> None:
    result = _solve(tmp_path, [QUADRATIC, QUADRATIC_TOO])
    assert result.status == "plausible"
    assert "too slow for the constraints" in result.decision.reason
    assert any(n.startswith("stress tier:") and "too slow" in n for n in result.notes)
    shown = json.dumps(result_json(result))
    assert "too slow for the constraints" in shown


def test_a_fast_answer_passes_the_stress_tier(tmp_path: Path) -> None:
    result = _solve(tmp_path, [LINEAR])
    assert result.status == "verified" and "too slow" not in result.decision.reason
    assert not any(n.startswith("stress tier:") for n in result.notes)  # nothing to say
