"""Claim extraction and checking on reasoning traces written with true and false claims."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.clr.local_exec import execute
from vibecode.clr.claim_check import (
    check_claims,
    check_io,
    claim_counts,
    io_inputs,
    parse_verdict,
    planned_method,
    verdict_prompt,
)
from vibecode.clr.claims import M, all_claims, extract_claims
from vibecode.clr.harness import build_job, run_job
from vibecode.problems.statement import parse_problem
from vibecode.types import ChatMessage, ExtractedClaim, InputResult

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
COIN = parse_problem((EXAMPLES / "coin_change.md").read_text(encoding="utf-8"))
TWO_SUM = parse_problem((EXAMPLES / "two_sum.md").read_text(encoding="utf-8"))

COIN_CODE = '''
class Solution:
    def coinChange(self, coins, amount):
        INF = float("inf")
        dp = [0] + [INF] * amount
        for a in range(1, amount + 1):
            for c in coins:
                if c <= a:
                    dp[a] = min(dp[a], dp[a - c] + 1)
        return -1 if dp[amount] == INF else dp[amount]
'''


@pytest.mark.parametrize(
    ("sentence", "args", "expected"),
    [
        ("coinChange([1, 2, 5], 11) = 3", {"coins": [1, 2, 5], "amount": 11}, 3),
        ("so coinChange([2], 3) == -1.", {"coins": [2], "amount": 3}, -1),
        ("Solution().coinChange(coins=[1], amount=0) -> 0", {"coins": [1], "amount": 0}, 0),
        ("f([3], 9) should return 3", {"coins": [3], "amount": 9}, 3),
        ("self.coinChange([5], 5) returns 1", {"coins": [5], "amount": 5}, 1),
        ("For coins = [1,2], amount = 4, the answer is 2.", {"coins": [1, 2], "amount": 4}, 2),
        ("with coins = [2, 3] and amount = 7 we get 3", {"coins": [2, 3], "amount": 7}, 3),
        ("Given `coins = [7]`, `amount = 1`, the output should be -1", {"coins": [7], "amount": 1}, -1),
        ("Input: coins = [1,3,4], amount = 6\nOutput: 2", {"coins": [1, 3, 4], "amount": 6}, 2),
        ("**Input:** coins = [2], amount = 4 **Output:** 2", {"coins": [2], "amount": 4}, 2),
    ],
)
def test_io_claim_forms(sentence: str, args: dict[str, object], expected: object) -> None:
    found = all_claims("Some reasoning. " + sentence + " More text.", COIN)["io"]
    assert [(c.args, c.expected) for c in found] == [(args, expected)]
    assert found[0].kind == "io"


@pytest.mark.parametrize(
    "sentence",
    [
        "helper([1, 2], 3) = 5",  # another function
        "coinChange(coins, amount) = dp[amount]",  # not literals
        "for each coin in coins, the answer is updated",
        "coinChange([1, 2]) = 3",  # wrong arity
        'coinChange("abc", 3) = 1',  # wrong type
        "for i = 0, the answer is 1",  # not an argument name
    ],
)
def test_not_io_claims(sentence: str) -> None:
    assert all_claims(sentence, COIN)["io"] == []


def test_single_argument_positional_for_claim() -> None:
    problem = parse_problem((EXAMPLES / "valid_parentheses.md").read_text(encoding="utf-8"))
    found = all_claims('For "([])" the answer is true, and for "(]" it returns false.', problem)["io"]
    assert [(c.args, c.expected) for c in found] == [({"s": "([])"}, True), ({"s": "(]"}, False)]


def test_math_and_other_claims() -> None:
    trace = """dp[i] is the minimum number of coins needed to make amount i.
We have 12 * 4 = 48 and 2^10 = 1024, also 3 * 4 = 13, and 5 + 5 + 1 = 11 = 22 / 2.
x = 3 × 4 = 12. dp[3] = dp[2] + 1 = 4. n^2 + 1 = 5.
(a+b)^2 expands to a^2 + 2ab + b^2, while (a+b)^2 = a^2 + b^2 is a classic mistake.
Solving 2x + 3 = 7 gives x = 2.
The time complexity is O(amount * len(coins)). Sorting makes this O(n log n).
The invariant: every dp entry is final once visited.
```python
total = 3 * 4  # = 12
```
"""
    found = all_claims(trace, COIN)
    arithmetic = [(c.lhs, c.relation, c.rhs) for c in found["arithmetic"]]
    assert arithmetic == [
        ("12 * 4", "=", "48"), ("2^10", "=", "1024"), ("3 * 4", "=", "13"), ("5 + 5 + 1", "=", "11"),
        ("11", "=", "22 / 2"), ("3 * 4", "=", "12"),
    ]
    assert [(c.lhs, c.rhs) for c in found["algebra"]] == [("(a+b)^2", "a^2 + 2ab + b^2"), ("(a+b)^2", "a^2 + b^2")]
    assert len(found["complexity"]) == 2 and "O(n log n)" in found["complexity"][1].text
    assert [c.text[:5] for c in found["invariant"]] == ["dp[i]", "The i"]


def test_extract_limits_to_m_and_mixes_kinds() -> None:
    trace = " ".join(f"coinChange([1], {n}) = {n}." for n in range(1, 9)) + " 2 + 2 = 4. dp[i] is the best count."
    chosen = extract_claims(trace, COIN)
    assert len(chosen) == M == 5
    kinds = [c.kind for c in chosen]
    assert kinds.count("io") == 3 and "arithmetic" in kinds and "invariant" in kinds
    assert [c.start for c in chosen] == sorted(c.start for c in chosen)
    assert extract_claims("", COIN) == ()
    assert all(c.kind in ("algebra", "arithmetic") for c in extract_claims(trace, None, mode="math"))


def test_check_claims_end_to_end() -> None:
    trace = """dp[i] is the minimum number of coins needed to make amount i.
For coins = [1,2,5] and amount = 11, the answer is 3 since 5 + 5 + 1 = 11.
Also coinChange([2], 3) should return 2.
Sorting makes this O(n^3).
"""
    claims = extract_claims(trace, COIN)
    assert [planned_method(c) for c in claims] == ["model", "execution", "sympy", "execution", "model"]

    def run(inputs: list[dict[str, object]]) -> list[InputResult]:
        return list(run_job(build_job(COIN.signature, COIN_CODE, inputs), execute))

    asked: list[list[ChatMessage]] = []

    def ask(prompts: list[list[ChatMessage]]) -> list[str | None]:
        asked.extend(prompts)
        return ["The definition matches.\nVERDICT: TRUE", "Sorting is n log n.\nVERDICT: FALSE"]

    checked = check_claims(claims, run=run, ask=ask, problem_text=COIN.statement)
    assert [(c.method, c.verdict) for c in checked] == [
        ("model", "verified"), ("execution", "verified"), ("sympy", "verified"), ("execution", "failed"), ("model", "failed"),
    ]
    assert "returns -1" in checked[3].detail
    assert len(asked) == 2 and "dp[i] is the minimum" in asked[0][0].content
    assert claim_counts(checked) == (3, 2, 0)

    unchecked = check_claims(claims)  # no runner, no model
    assert [c.verdict for c in unchecked] == ["unchecked", "unchecked", "verified", "unchecked", "unchecked"]
    assert all(c.method == "unchecked" for c in unchecked if c.verdict == "unchecked")
    unavailable = check_claims(claims, ask=lambda prompts: [None] * len(prompts))
    assert unavailable[0].verdict == "unchecked" and "unavailable" in unavailable[0].detail


def test_io_claims_as_inputs_of_the_candidates_job() -> None:
    trace = "twoSum([3, 3], 6) == [1, 0] and twoSum([1, 2], 5) == [0, 1]."
    claims = extract_claims(trace, TWO_SUM)
    inputs = io_inputs(claims)
    assert inputs == [{"nums": [3, 3], "target": 6}, {"nums": [1, 2], "target": 5}]
    code = "class Solution:\n    def twoSum(self, nums, target):\n        return [0, 1] if nums[0] + nums[1] == target else []\n"
    results = run_job(build_job(TWO_SUM.signature, code, inputs), execute)
    checked = check_claims(claims, order=TWO_SUM.output_order, io_results=dict(enumerate(results)))
    assert [c.verdict for c in checked] == ["verified", "failed"]  # any order: [1,0] == [0,1]
    crash = check_io(claims[0], InputResult(0, "error", error="IndexError: list index out of range"))
    assert crash.verdict == "failed" and "IndexError" in crash.detail
    assert check_io(claims[0], None).verdict == "unchecked"


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("Reasoning...\nVERDICT: TRUE", True),
        ("VERDICT: FALSE", False),
        ("verdict: **true**", True),
        ("At first I thought VERDICT: TRUE but no.\nVERDICT: FALSE", False),
        ("The claim holds. \\boxed{TRUE}", True),
        ("It is wrong.\n\nNo", False),
        ("Correct.", True),
        ("I am not sure.", None),
        ("", None),
        (None, None),
    ],
)
def test_parse_verdict(answer: str | None, verdict: bool | None) -> None:
    assert parse_verdict(answer) is verdict


def test_verdict_prompt() -> None:
    messages = verdict_prompt("Count coins.", ExtractedClaim("dp[i] is the count", "invariant"))
    assert len(messages) == 1 and messages[0].role == "user"
    assert "Count coins." in messages[0].content and "dp[i] is the count" in messages[0].content
    assert "VERDICT: TRUE" in messages[0].content


def test_claims_about_examples_are_judged_by_the_example() -> None:
    claims = extract_claims("coinChange([1,2,5], 11) = 4, and coinChange([2], 3) = -1.", COIN)
    checked = check_claims(claims, problem=COIN)  # no runner needed for example inputs
    assert [c.verdict for c in checked] == ["failed", "verified"]
    assert "Example 1" in checked[0].detail


def test_io_claims_about_dicts_with_mixed_key_types() -> None:
    """HumanEval/95's dicts mix str and int keys; sorting them for deduplication used to crash."""
    problem = parse_problem('def check(d: dict) -> bool:\n    """Keys.\n    >>> check({"a": 1})\n    True\n    """\n')
    claims = extract_claims("check({'a': 1, 8: 2}) == False. Again: check({'a': 1, 8: 2}) == False.", problem)
    assert [(c.args, c.expected) for c in claims if c.kind == "io"] == [({"d": {"a": 1, 8: 2}}, False)]


def test_a_recurrence_is_unchecked_never_failed() -> None:
    # issue 14, cause 6: "So f(n) = f(n-1) + f(n-2)." was judged "the identity does not hold"
    for text in ("So f(n) = f(n-1) + f(n-2).", "Hence dp[i] = dp[i-1] + dp[i-2].", "T(n) = 2T(n/2) + n"):
        checked = check_claims(extract_claims(text, COIN), problem=COIN)
        assert all(c.verdict != "failed" for c in checked), (text, checked)


def test_claims_are_read_from_the_answer_outside_code_blocks() -> None:
    from vibecode.clr.claims import claim_text

    answer = ("The DP table gives coinChange([1,2,5], 11) = 3 and 2 * 5 = 10.\n\n```python\n"
              "x = 7 * 7 = 50\n```\nDone.")
    text = claim_text("", answer)
    assert "2 * 5 = 10" in text and "7 * 7" not in text
    kinds = {c.kind for c in extract_claims(text, COIN)}
    assert "arithmetic" in kinds and "io" in kinds
    assert claim_text("<reasoning>", "") == "<reasoning>"


@pytest.mark.parametrize(("lhs", "rhs"), [
    ("(a+b)^2", "a^2 + 2*a*b + b^2"), ("(x-1)*(x+1)", "x^2 - 1"), ("n*(n+1)/2", "(n^2 + n)/2"),
    ("2^(n+1)", "2*2^n"), ("log(x*y)", "log(x) + log(y)"), ("sqrt(x^2)", "x"), ("(a+b)^3", "a^3+3*a^2*b+3*a*b^2+b^3"),
])
def test_a_true_identity_is_never_judged_failed(lhs: str, rhs: str) -> None:
    from vibecode.clr.math_check import is_identity

    assert is_identity(lhs, rhs) is not False
    claim = ExtractedClaim(f"{lhs} = {rhs}", "algebra", 0, lhs=lhs, rhs=rhs, relation="=")
    assert check_claims([claim])[0].verdict != "failed"
