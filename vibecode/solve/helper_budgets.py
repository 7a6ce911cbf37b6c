"""What each helper request of a solve may spend: the brute-force oracle, the input generator and
the edge cases, each with a budget of its own, bounded as a share of the candidates' tokens.

On a CPU the batch is compute-bound from about 8 sequences on, so a helper costs its share of the
tokens generated. The helpers therefore answer without a long think (a model that thinks gets its
assistant turn prefilled with an empty think block, :data:`NO_THINK`) and together get at most
1/:data:`SHARE` of ``K x max_tokens``: each its floor (:data:`FLOORS`: a small answer must still
fit, so below ``SHARE x sum(FLOORS)`` candidate tokens the floors exceed the share), and what the
share leaves above the floors split towards :data:`NEEDS` (what a plain answer takes, the most).

The floors and needs are sized on the hand-written oracles and generators of the dev LeetCode
pools (tests/data/leetcode_pools/dev.jsonl, the tiny model's tokenizer, which the shape twins
share): median 100 and 85 tokens, at most 216 and 190.
"""

from __future__ import annotations

import dataclasses

from vibecode.types import Completion, SamplingParams

ORACLE = "oracle"
GENERATOR = "generator"
EDGE_CASES = "inputs"  # the edge-case request's purpose (and its replay kind)

NO_THINK = "<think>\n\n</think>\n\n"  # an empty think block: answer at once (Qwen's practice)
SHARE = 16  # all helpers together: at most K x max_tokens / SHARE tokens
NEEDS: dict[str, int] = {ORACLE: 384, GENERATOR: 256, EDGE_CASES: 256}  # enough for a plain answer
FLOORS: dict[str, int] = {ORACLE: 192, GENERATOR: 160, EDGE_CASES: 96}  # the least that still fits one


def helper_budget(role: str, k: int, max_tokens: int) -> int:
    """Tokens for helper ``role`` beside ``k`` candidates of ``max_tokens`` each."""
    spare = k * max_tokens // SHARE - sum(FLOORS.values())  # what the share leaves above the floors
    if spare <= 0:
        return FLOORS[role]
    room = sum(NEEDS.values()) - sum(FLOORS.values())
    return FLOORS[role] + (NEEDS[role] - FLOORS[role]) * min(spare, room) // room


def helper_request_params(role: str, base: SamplingParams, candidates: SamplingParams, k: int,
                          prefill: str = "") -> SamplingParams:
    """``base`` (the session's helper sampling) with ``role``'s budget and ``prefill``; a thinking
    budget only when nothing closes the think block already."""
    budget = helper_budget(role, k, candidates.max_tokens)
    think = None if prefill else budget // 2
    return dataclasses.replace(base, max_tokens=budget, max_think_tokens=think, prefill=prefill)


def cut_off(completion: Completion | None) -> str | None:
    """``"cut off at N tokens"`` when ``completion`` ran into its budget, else None."""
    if completion is None or completion.finish_reason != "length":
        return None
    return f"cut off at {completion.completion_tokens} tokens"
