"""Small-scope inputs (``clr.inputs_tiers.dense_inputs``, the ``dense`` mode of
``clr.inputs_values``; issue 14, held-out 101-125 examined on 2026-12-07): a real LeetCode
statement in its rendered form and hand-written answers of an examined pool's bug class, run in
the real harness. Drawn over the stated ranges (prices and offers up to 10 and 6 items, needs up
to 10), an offer rarely pays twice; over a few small values it often does, and an answer that uses
each offer once at most is told apart only there."""

from __future__ import annotations

from tests.clr.leetcode_real import outputs, real
from vibecode.clr.differential import EXTRA_SEEDS, differential_inputs
from vibecode.clr.inputs import generate_inputs, validate_input
from vibecode.clr.inputs_tiers import DENSE_INPUTS, dense_inputs
from vibecode.clr.inputs_values import DENSE_LENS

# every way to use the offers any number of times, then list prices for the rest: right
SHOP_RIGHT = """
from functools import lru_cache
class Solution:
    def shopping_offers(self, price: list[int], special: list[list[int]], needs: list[int]) -> int:
        @lru_cache(maxsize=None)
        def cost(left: tuple[int, ...]) -> int:
            best = sum(p * k for p, k in zip(price, left))
            for offer in special:
                rest = tuple(k - o for k, o in zip(left, offer))
                if min(rest) >= 0 and any(offer[:-1]):  # an empty offer: no step (and no input)
                    best = min(best, offer[-1] + cost(rest))
            return best
        return cost(tuple(needs))
"""
# each offer used once at most (a 0/1 choice per offer)
SHOP_ONCE = """
class Solution:
    def shopping_offers(self, price: list[int], special: list[list[int]], needs: list[int]) -> int:
        def cost(i: int, left: list[int]) -> int:
            if i == len(special):
                return sum(p * k for p, k in zip(price, left))
            best = cost(i + 1, left)
            rest = [k - o for k, o in zip(left, special[i])]
            if min(rest) >= 0:
                best = min(best, special[i][-1] + cost(i + 1, rest))
            return best
        return cost(0, list(needs))
"""


def test_dense_inputs_keep_the_constraints_and_stay_small() -> None:
    problem = real("shopping_offers")
    dense = dense_inputs(problem, seed=EXTRA_SEEDS[0])
    assert 10 <= len(dense) <= DENSE_INPUTS  # the filter drops many (special[i].length == n + 1)
    assert all(validate_input(x, problem) == [] for x in dense)
    assert all(len(x["price"]) <= max(DENSE_LENS) for x in dense)  # type: ignore[arg-type]
    assert len({str(x) for x in dense}) == len(dense)


def test_the_differential_search_now_tells_an_offer_used_once_apart() -> None:
    problem = real("shopping_offers")
    before = [dict(e.inputs) for e in problem.examples] + [dict(x) for x in generate_inputs(problem).inputs]
    for seed in EXTRA_SEEDS:  # what the differential search drew before the small-scope inputs
        before += [dict(x) for x in generate_inputs(problem, seed=seed).inputs]
    assert outputs(problem, SHOP_RIGHT, before) == outputs(problem, SHOP_ONCE, before)
    extra = differential_inputs(problem, None, before)
    right, wrong = outputs(problem, SHOP_RIGHT, extra), outputs(problem, SHOP_ONCE, extra)
    assert all(r.startswith("ok:") for r in right)
    assert any(a != b for a, b in zip(right, wrong, strict=True))


def test_a_design_problem_gets_no_small_scope_inputs() -> None:
    problem = real("min_stack")
    assert problem.signature.design
    assert dense_inputs(problem) == []
