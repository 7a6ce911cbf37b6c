"""Structural bug-seeking inputs (issue 14, the dev pools 26-45): for each strategy of
``clr.inputs_bugs_struct``, a real LeetCode statement in its rendered form and a hand-written
wrong answer (the one the dev pool carries) that agrees with a correct answer on the examples and
on every other generated input, and is told apart by the strategy's inputs. Both answers run in
the real harness (a subprocess per run); every generated input keeps the parsed constraints."""

from __future__ import annotations

import dataclasses

import pytest

from tests.clr.leetcode_real import outputs, real
from vibecode.clr.inputs import generate_inputs, validate_input
from vibecode.clr.inputs_bugs_struct import struct_candidates
from vibecode.clr.inputs_tiers import bug_bases
from vibecode.problems.constraint_types import acyclic
from vibecode.problems.constraints import parse_constraints
from vibecode.problems.leetcode_data import load_all, render_markdown
from vibecode.problems.statement import parse_problem

TRIANGLE_RIGHT = """
class Solution:
    def minimum_total(self, triangle: list[list[int]]) -> int:
        best = list(triangle[-1])
        for row in reversed(triangle[:-1]):
            best = [v + min(best[j], best[j + 1]) for j, v in enumerate(row)]
        return best[0]
"""
TRIANGLE_GREEDY = """
class Solution:
    def minimum_total(self, triangle: list[list[int]]) -> int:
        j, total = 0, triangle[0][0]
        for row in triangle[1:]:
            if row[j + 1] < row[j]:
                j += 1
            total += row[j]
        return total
"""

BREAK_RIGHT = """
class Solution:
    def word_break(self, s: str, wordDict: list[str]) -> bool:
        ok = [True] + [False] * len(s)
        for i in range(1, len(s) + 1):
            ok[i] = any(ok[j] and s[j:i] in wordDict for j in range(i))
        return ok[len(s)]
"""
BREAK_GREEDY = """
class Solution:
    def word_break(self, s: str, wordDict: list[str]) -> bool:
        i = 0
        while i < len(s):
            fits = [w for w in wordDict if s.startswith(w, i)]
            if not fits:
                return False
            i += len(max(fits, key=len))
        return True
"""

INTERLEAVE_RIGHT = """
class Solution:
    def is_interleave(self, s1: str, s2: str, s3: str) -> bool:
        from functools import lru_cache
        if len(s1) + len(s2) != len(s3):
            return False

        @lru_cache(None)
        def go(i: int, j: int) -> bool:
            if i + j == len(s3):
                return True
            k = i + j
            return (i < len(s1) and s1[i] == s3[k] and go(i + 1, j)) or (
                j < len(s2) and s2[j] == s3[k] and go(i, j + 1))

        return go(0, 0)
"""
INTERLEAVE_NO_LENGTH = """
class Solution:
    def is_interleave(self, s1: str, s2: str, s3: str) -> bool:
        from functools import lru_cache

        @lru_cache(None)
        def go(i: int, j: int) -> bool:
            if i == len(s1) and j == len(s2):
                return True
            k = i + j
            if k >= len(s3):
                return False
            return (i < len(s1) and s1[i] == s3[k] and go(i + 1, j)) or (
                j < len(s2) and s2[j] == s3[k] and go(i, j + 1))

        return go(0, 0)
"""

EDIT_RIGHT = """
class Solution:
    def is_one_edit_distance(self, s: str, t: str) -> bool:
        if len(s) > len(t):
            s, t = t, s
        if len(t) - len(s) > 1:
            return False
        for i in range(len(s)):
            if s[i] != t[i]:
                return s[i + 1:] == t[i + 1:] if len(s) == len(t) else s[i:] == t[i + 1:]
        return len(t) - len(s) == 1
"""
EDIT_ANY_LENGTH = """
class Solution:
    def is_one_edit_distance(self, s: str, t: str) -> bool:
        if len(s) > len(t):
            s, t = t, s
        for i in range(len(s)):
            if s[i] != t[i]:
                return s[i + 1:] == t[i + 1:] if len(s) == len(t) else s[i:] == t[i + 1:]
        return len(t) > len(s)
"""

DECODE_RIGHT = """
class Solution:
    def num_decodings(self, s: str) -> int:
        ways = [1] + [0] * len(s)
        for i in range(1, len(s) + 1):
            if s[i - 1] != "0":
                ways[i] += ways[i - 1]
            if i >= 2 and s[i - 2] != "0" and int(s[i - 2:i]) <= 26:
                ways[i] += ways[i - 2]
        return ways[len(s)]
"""
DECODE_27 = DECODE_RIGHT.replace("<= 26", "<= 27")

STOCK_RIGHT = """
class Solution:
    def max_profit(self, prices: list[int]) -> int:
        low, best = prices[0], 0
        for p in prices:
            low = min(low, p)
            best = max(best, p - low)
        return best
"""
STOCK_LATE = """
class Solution:
    def max_profit(self, prices: list[int]) -> int:
        low, best = prices[0], 0
        for i in range(2, len(prices)):
            low = min(low, prices[i - 1])
            best = max(best, prices[i] - low)
        return best
"""
MUTATION_RIGHT = """
from collections import deque


class Solution:
    def min_mutation(self, startGene: str, endGene: str, bank: list[str]) -> int:
        genes = set(bank)
        if startGene == endGene:
            return 0
        if endGene not in genes:
            return -1
        seen, todo = {startGene}, deque([(startGene, 0)])
        while todo:
            gene, steps = todo.popleft()
            if gene == endGene:
                return steps
            for i in range(len(gene)):
                for ch in "ACGT":
                    nxt = gene[:i] + ch + gene[i + 1:]
                    if nxt in genes and nxt not in seen:
                        seen.add(nxt)
                        todo.append((nxt, steps + 1))
        return -1
"""
# the blind dev pools' wrong-majority (verified in both orders before ``membership``): it returns
# on meeting endGene without looking it up in the bank
MUTATION_UNBANKED = """
from collections import deque


class Solution:
    def min_mutation(self, startGene: str, endGene: str, bank: list[str]) -> int:
        genes = set(bank)
        seen, todo = {startGene}, deque([(startGene, 0)])
        while todo:
            gene, steps = todo.popleft()
            if gene == endGene:
                return steps
            for i in range(len(gene)):
                for ch in "ACGT":
                    nxt = gene[:i] + ch + gene[i + 1:]
                    if nxt == endGene:
                        return steps + 1
                    if nxt in genes and nxt not in seen:
                        seen.add(nxt)
                        todo.append((nxt, steps + 1))
        return -1
"""

CASES = [
    ("triangle", "staircase", TRIANGLE_RIGHT, TRIANGLE_GREEDY),
    ("word_break", "segments", BREAK_RIGHT, BREAK_GREEDY),
    ("interleaving_string", "joined", INTERLEAVE_RIGHT, INTERLEAVE_NO_LENGTH),
    ("one_edit_distance", "near_pairs", EDIT_RIGHT, EDIT_ANY_LENGTH),
    ("decode_ways", "named_numbers", DECODE_RIGHT, DECODE_27),
    ("best_time_to_buy_and_sell_stock", "short_lists", STOCK_RIGHT, STOCK_LATE),
    ("minimum_genetic_mutation", "membership", MUTATION_RIGHT, MUTATION_UNBANKED),
]


@pytest.mark.parametrize(("slug", "strategy", "right", "wrong"), CASES, ids=[c[0] for c in CASES])
def test_a_bug_the_structural_strategy_catches_and_the_plain_tiers_miss(slug: str, strategy: str, right: str, wrong: str) -> None:
    problem = real(slug)
    made = [dict(x) for x in generate_inputs(problem).inputs]
    assert all(validate_input(x, problem) == [] for x in made)
    bases = bug_bases([dict(x) for x in generate_inputs(problem, bugs=0).inputs])
    proposed = struct_candidates(problem, parse_constraints(problem), bases)[strategy]
    mine = [x for x in made if x in proposed]
    # the examples and the plain tiers (no bug-seeking inputs) miss it; another strategy may
    # catch it too (best_time_to_buy_and_sell_stock: the digit prefixes [12, 121] rise as well)
    plain = [dict(x) for x in generate_inputs(problem, bugs=0).inputs]
    others = [dict(e.inputs) for e in problem.examples] + [x for x in plain if x not in proposed]
    assert mine and len(others) > len(problem.examples)
    assert outputs(problem, right, others) == outputs(problem, wrong, others)
    a, b = outputs(problem, right, mine), outputs(problem, wrong, mine)
    assert all(r.startswith("ok:") for r in a)  # the correct answer runs on every new input
    assert any(ra != rb for ra, rb in zip(a, b, strict=True)), f"the {strategy} inputs miss the bug in {slug}"


def test_a_triangle_example_keeps_the_constraints_and_staircases_grow_by_one() -> None:
    problem = real("triangle")  # "triangle[0].length == 1" is about the first row only
    assert all(validate_input(dict(e.inputs), problem) == [] for e in problem.examples)
    rows = [x["triangle"] for x in generate_inputs(problem).inputs]
    assert rows and all(isinstance(t, list) and [len(r) for r in t] == list(range(1, len(t) + 1)) for t in rows)
    assert any(len(t) >= 4 for t in rows if isinstance(t, list))


def test_named_numbers_reach_just_past_the_largest_code() -> None:
    problem = real("decode_ways")  # the statement maps "1".."26"; "27" is one past it
    texts = {x["s"] for x in generate_inputs(problem).inputs}
    assert {"26", "27"} <= texts
    assert all(isinstance(t, str) and t.isdigit() for t in texts)


def test_an_edge_list_the_statement_calls_a_tree_is_drawn_as_random_trees() -> None:
    """minimum_height_trees (real statement): "The given input is guaranteed to be a tree": the
    generator draws trees on n nodes instead of filtering blind draws (it kept about 4)."""
    [lp] = [p for p in load_all() if p.slug == "minimum_height_trees"]
    p = parse_problem(render_markdown(lp))
    got = generate_inputs(p, seed=0, bugs=0)
    assert len(got.inputs) >= 15
    sizes = set()
    for args in got.inputs:
        n, edges = args["n"], args["edges"]
        assert isinstance(n, int) and isinstance(edges, list) and 1 <= n <= 2 * 10**4
        assert len(edges) == n - 1 and all(0 <= a < n and 0 <= b < n for a, b in edges)
        assert acyclic([(a, b) for a, b in edges])  # n - 1 edges, no cycle: a tree
        assert validate_input(args, p) == []
        sizes.add(n)
    assert len(sizes) >= 5


def test_membership_takes_a_scalar_out_of_the_list_it_is_in_and_puts_one_in_where_it_is_not() -> None:
    problem = real("minimum_genetic_mutation")
    made = struct_candidates(problem, parse_constraints(problem), [])
    assert made == {}  # no bases, no strategy
    made = struct_candidates(problem, parse_constraints(problem), [dict(problem.examples[0].inputs)])["membership"]
    assert {"startGene": "AACCGGTT", "endGene": "AACCGGTA", "bank": []} in made  # endGene taken out
    assert {"startGene": "AACCGGTT", "endGene": "AACCGGTA", "bank": ["AACCGGTA", "AACCGGTT"]} in made  # startGene put in


def test_membership_leaves_a_list_alone_where_a_sentence_promises_the_value_is_in_it() -> None:
    """"It is guaranteed that target is in nums": taking target out would break the promise."""
    problem = real("minimum_genetic_mutation")
    promised = dataclasses.replace(problem, statement=problem.statement.replace(
        "Note that the starting point", "It is guaranteed that `endGene` is in `bank`. Note that the starting point"))
    made = struct_candidates(promised, parse_constraints(promised), [dict(problem.examples[0].inputs)])["membership"]
    assert made and all(x["endGene"] in x["bank"] for x in made)  # only startGene's variants are left
