"""Issue 14: which sentences of a statement promise something about its inputs (vibecode.clr.trust),
and timeouts as evidence in the ranking (vibecode.clr.score).

The statements are real (tests/data/leetcode, dev part of the LeetCode corpus). A sentence that
asks the question, defines a term or states what the solver may assume about itself promises
nothing about the inputs, so vibecode's own inputs stay trusted there; real input promises still
set them aside. The nim_game pool is the dev pools' own (tests/data/leetcode_pools/dev.jsonl), run
end to end through the replay engine and the real local sandbox.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from tests.solve.pools import dev_pool, solve_pool
from vibecode.clr.inputs import generate_inputs
from vibecode.clr.score import decide
from vibecode.clr.trust import (
    defined_terms,
    definition_items,
    description,
    input_trust,
    promise,
    sentences,
    tiers_vouched,
)
from vibecode.problems.constraints import parse_constraints
from vibecode.problems.leetcode_data import from_json, render_markdown
from vibecode.problems.statement import parse_problem
from vibecode.types import CandidateEvidence, Problem

DATA = Path(__file__).resolve().parents[1] / "data"


def _problem(name: str) -> Problem:
    return parse_problem(render_markdown(from_json(json.loads((DATA / "leetcode" / f"{name}.json").read_text()))))


def _sentence(problem: Problem, start: str) -> str:
    found = [s for s in sentences(description(problem)) if s.startswith(start)]
    assert len(found) == 1, sentences(description(problem))
    return found[0]


@pytest.mark.parametrize(("slug", "start"), [
    # the question, not a promise
    ("palindrome_permutation", "Given a string s, return true if a permutation of the string could form a palindrome"),
    # a definition of the answer
    ("word_pattern_ii", "A bijective mapping means that no two characters map to the same string"),
    # game rules and the question
    ("flip_game_ii", "Return true if the starting player can guarantee a win"),
    ("flip_game", "Return all possible states of the string currentState after one valid move"),
    # about the solver's coins, not a property of the input values
    ("coin_change", "You may assume that you have an infinite number of each kind of coin"),
    # a definition of a tree; the input's own promise is a constraint line, checked (below)
    ("minimum_height_trees", "A tree is an undirected graph in which any two vertices are connected by exactly one path"),
    ("minimum_height_trees", "In other words, any connected graph without simple cycles is a tree"),
    # "exactly one more than": a difference of one, not one of a kind (held-out 101-125, examined)
    ("split_array_into_consecutive_subsequences", "Each subsequence is a consecutive increasing sequence"),
])
def test_a_sentence_that_promises_nothing_about_the_inputs(slug: str, start: str) -> None:
    problem = _problem(slug)
    assert promise(_sentence(problem, start)) is None
    assert tiers_vouched(problem) is None  # every constraint line understood, and no promise


@pytest.mark.parametrize(("slug", "word"), [
    ("score_of_parentheses", "balanced"),  # "Given a balanced parentheses string s, return the score"
    ("minimum_window_substring", "generated"),  # "The testcases will be generated such that the answer is unique."
    ("majority_element", "assume"),  # "You may assume that the majority element always exists in the array."
    ("insert_interval", "non-overlapping"),  # "You are given an array of non-overlapping intervals ..."
])
def test_a_real_input_promise_still_sets_vibecodes_inputs_aside(slug: str, word: str) -> None:
    assert word in (tiers_vouched(_problem(slug)) or "").lower()


@pytest.mark.parametrize(("text", "promised"), [
    # verbatim sentences of dev statements (clone_graph, most_common_word, decode_string,
    # smallest_rectangle_enclosing_black_pixels, global_and_local_inversions, predict_the_winner,
    # guess_number_higher_or_lower_ii, course_schedule_ii, valid_palindrome)
    ("Given a reference of a node in a **connected** undirected graph.", True),
    ("It is **guaranteed** there is **at least one word** that is not banned, and that the answer is **unique**.", True),
    ("You may assume that the input string is always valid; there are no extra white spaces, square brackets "
     "are well-formed, etc.", True),
    ("The black pixels are connected (i.e., there is only one black region).", True),
    ("You are given an integer array nums of length n which represents a permutation of all the integers in "
     "the range [0, n - 1].", True),
    ("You may assume that both players are playing optimally.", False),
    ("Each row of the grid holds exactly one 1.", True),  # one of a kind: a promise
    ("Each integer is exactly one more than the previous integer.", False),  # a difference: none
    ("Given a particular n, return the minimum amount of money you need to guarantee a win regardless of what "
     "number I pick.", False),
    ("If there are many valid answers, return **any** of them.", False),
    ("A phrase is a **palindrome** if, after converting all uppercase letters into lowercase letters and "
     "removing all non-alphanumeric characters, it reads the same forward and backward.", False),
])
def test_which_sentences_promise(text: str, promised: bool) -> None:
    assert [promise(s) is not None for s in sentences(text)] == [promised]


def test_guaranteed_to_be_a_tree_is_checked_so_vibecodes_inputs_are_trees() -> None:
    # "The given input is guaranteed to be a tree and there will be no repeated edges.": read as a
    # valid-tree check (it used to be read as "no repeated edges" only, and vibecode generated
    # graphs with cycles); every input vibecode keeps is a tree, so the promise is met
    problem = _problem("minimum_height_trees")
    c = parse_constraints(problem)
    tree = [ch for ch in c.checks if ch.kind == "valid tree"]
    assert tree and c.skipped == [] and c.promises == []
    assert tree[0].test({"n": 4, "edges": [[1, 0], [1, 2], [1, 3]]}) is True
    assert tree[0].test({"n": 5, "edges": [[1, 4], [0, 1], [3, 4], [4, 0]]}) is False  # a cycle, node 2 alone
    inputs = generate_inputs(problem).inputs
    assert len(inputs) > len(problem.examples)
    for args in inputs:
        n, edges = args["n"], args["edges"]
        assert isinstance(n, int) and isinstance(edges, list) and len(edges) == n - 1
        seen, todo = {0}, [0]
        while todo:
            x = todo.pop()
            for a, b in edges:
                for u, v in ((a, b), (b, a)):
                    if u == x and v not in seen:
                        seen.add(v)
                        todo.append(v)
        assert seen == set(range(n))


def ev(index: int, behaviour: tuple[str, ...]) -> CandidateEvidence:
    return CandidateEvidence(index, 2, 2, behaviour, ())


FAST = ("ok:true", "ok:false", "ok:true", "ok:false", "ok:true", "ok:true")
SLOW = ("ok:true", "ok:false", "ok:true", "ok:false", "timeout", "timeout")


def test_timeouts_where_a_rival_answers_rank_a_cluster_below_it() -> None:
    # nim_game@wrong-majority: three exact but slow DPs time out on the stress inputs where a lone
    # closed form answers; the faster cluster is picked, plausible (the timeouts do not verify it)
    d = decide([ev(0, SLOW), ev(1, FAST), ev(2, SLOW), ev(3, SLOW)], k=4)
    assert d.best == 1 and d.status == "plausible"
    assert "times out on input 5" in d.reason and d.contested_input == 4
    # the oracle agrees with the faster answer where it answered (a small input): the same pick
    oracle = ("ok:true", "ok:false", "ok:true", "ok:false", "error", "error")
    assert decide([ev(0, SLOW), ev(1, FAST), ev(2, SLOW), ev(3, SLOW)], k=4, oracle=oracle).best == 1


def test_timeouts_are_no_evidence_where_the_oracle_contradicts_the_faster_answer() -> None:
    oracle = ("ok:true", "ok:false", "ok:true", "ok:false", "ok:false", "ok:false")  # not the fast answers
    d = decide([ev(0, SLOW), ev(1, FAST), ev(2, SLOW), ev(3, SLOW)], k=4, oracle=oracle, trusted=(False,) * 6)
    assert d.best in (0, 2, 3) and d.status != "verified"  # a timeout-only difference never verifies the slow one


def test_timeouts_on_inputs_vibecode_cannot_vouch_for_are_no_evidence() -> None:
    # fraction_to_recurring_decimal@agree: "the answer has fewer than 10^4 characters" is a promise
    # vibecode's own inputs may break; there a huge denominator makes the right answers time out
    # and a wrong one answer fast. Those timeouts must not rank the wrong one first.
    untrusted = (True, True, True, True, False, False)  # the examples, then two own inputs
    d = decide([ev(0, SLOW), ev(1, FAST), ev(2, SLOW), ev(3, SLOW)], k=4, trusted=untrusted)
    assert d.best in (0, 2, 3) and d.status == "plausible"
    assert "times out" not in d.reason
    # the same timeouts on inputs it vouches for rank the faster cluster first (as above)
    assert decide([ev(0, SLOW), ev(1, FAST), ev(2, SLOW), ev(3, SLOW)], k=4, trusted=(True,) * 6).best == 1


def test_a_timeout_no_cluster_answers_past_changes_nothing() -> None:
    slow = ("ok:true", "ok:false", "ok:true", "ok:false", "ok:true", "timeout")
    fast = ("ok:true", "ok:false", "ok:true", "ok:false", "ok:false", "timeout")  # differs, and times out too
    d = decide([ev(0, slow), ev(1, slow), ev(2, fast)], k=3)
    assert d.best == 0 and d.status == "plausible" and d.reason.startswith("Contested")




def test_nim_game_wrong_majority_picks_the_closed_form(tmp_path: Path) -> None:
    lines = dev_pool("LeetCode/nim_game@wrong-majority")
    result = solve_pool(tmp_path, _problem("nim_game"), lines)
    # before: the three slow DPs (failure rate 0.195 on the stress inputs) outscored the closed form
    assert result.best is not None and result.best.code is not None and "n % 4" in result.best.code
    # the timeouts alone never verify it; where the brute force answered those inputs in time (it
    # may, or may time out too: the machine's load decides) its agreement is what verifies
    if result.status == "verified":
        assert "the brute-force oracle agrees" in result.decision.reason
    else:
        assert result.status == "plausible" and "times out" in result.decision.reason


def test_palindrome_permutation_wrong_majority_is_rejected_by_the_oracle(tmp_path: Path) -> None:
    # the question "if a permutation of the string could form a palindrome" promises nothing, so
    # vibecode's own inputs are trusted; the brute force over every permutation runs out of memory
    # on the long ones (no refusal: like a timeout) and rejects "exactly one odd count" on "aabb"
    lines = dev_pool("LeetCode/palindrome_permutation@wrong-majority")
    result = solve_pool(tmp_path, _problem("palindrome_permutation"), lines)
    assert result.best is not None and result.best.code is not None and "<= 1" in result.best.code
    assert result.status == "verified" and "rejects the 1 other cluster" in result.decision.reason


def test_how_one_input_was_made_from_another_is_a_promise_unless_it_is_generated() -> None:
    # find_the_difference: blind draws honour only t.length == s.length + 1 (s="ddd", t="kkkk"),
    # where a correct count-based answer crashes; the sentence is a promise, and since vibecode
    # makes t from s as it says (vibecode.problems.constraint_made), its own inputs are vouched for
    problem = _problem("find_the_difference")
    sentence = _sentence(problem, "String t is generated by random shuffling string s")
    assert promise(sentence, problem.signature.arg_names) == "t is generated"
    assert promise(sentence) is None  # without the arguments' names the sentence names no input
    assert tiers_vouched(problem) is None
    assert input_trust(problem, {"type": 3, "model": 2}, len(problem.examples) + 6) == (True,) * (len(problem.examples) + 6)
    # made some other way, which vibecode does not generate: a promise that keeps them unvouched
    other = dataclasses.replace(problem, statement=problem.statement.replace("random shuffling", "reversing"))
    assert "'t is generated'" in (tiers_vouched(other) or "")
    trusted = input_trust(other, {"type": 3, "model": 2}, len(problem.examples) + 6)
    assert trusted == (True,) * len(problem.examples) + (False,) * 3 + (True,) * 2 + (False,)


@pytest.mark.parametrize("text", [
    # made from another input, but the question (interleaving_string), or a definition whose
    # subject is no input (is_subsequence, maximum_binary_tree_ii's "a list a")
    "Given strings s1, s2, and s3, find whether s3 is formed by an interleaving of s1 and s2.",
    "Determine whether t is formed from s by deleting letters.",
    "A subsequence of a string is a new string that is formed from the original string s by deleting some (can be "
    "none) of the characters without disturbing the relative positions of the remaining characters.",
    "Just as in the previous problem, the given tree was constructed from a list a (root = Construct(a)) recursively.",
])
def test_a_made_from_sentence_that_promises_nothing(text: str) -> None:
    assert [promise(s, ("s", "t", "s1", "s2", "s3", "a", "root", "val")) for s in sentences(text)] == [None]


def test_a_list_of_illustrations_of_the_answers_rule_promises_nothing() -> None:
    # valid_word_abbreviation: "The following are not valid abbreviations:" lists invalid
    # abbreviations the answer must reject ("s010n"), not a property of the inputs
    problem = _problem("valid_word_abbreviation")
    assert promise(_sentence(problem, "The following are not valid abbreviations")) is None
    assert tiers_vouched(problem) is None
    # an explicit promise that introduces a list is still one
    assert promise("The following are guaranteed:") is not None


def test_the_conditions_listed_under_a_definition_promise_nothing() -> None:
    """shortest_path_in_binary_matrix (held-out 176-200, examined): "A clear path ... is a path ...
    such that:" lists its conditions ("All the adjacent cells of the path are 8-directionally
    connected"); "connected" there is the term's rule. Read as a promise, it set every generated
    input aside, and the oracle could not overrule a wrong majority that answers -1 on [[0]]."""
    problem = _problem("shortest_path_in_binary_matrix")
    item = _sentence(problem, "All the adjacent cells of the path are 8-directionally connected")
    assert item in definition_items(description(problem))
    assert promise(item) is not None  # on its own it reads as one
    assert tiers_vouched(problem) is None
    # a list under a sentence that defines nothing still promises
    assert definition_items("You are given a grid such that:\n- All the cells are connected.\n") == set()


def test_a_validity_the_statement_defines_is_its_rule_not_a_promise() -> None:
    """minimum_genetic_mutation: "A gene must be in bank to make it a valid gene string" defines
    valid, so "records all the valid gene mutations" promises nothing about the inputs. Read as a
    promise, it set the oracle's verdicts aside and a wrong majority was picked."""
    problem = _problem("minimum_genetic_mutation")
    bank = _sentence(problem, "There is also a gene bank")
    assert promise(bank) == "valid"  # alone, the word reads as a promise
    assert defined_terms(description(problem)) == {"valid"}
    assert promise(bank, defined={"valid"}) is None
    assert tiers_vouched(problem) is None
    # an explicit or a given promise of validity stays one where the statement defines valid
    assert promise("Given a valid parentheses string s, return its depth.", defined={"valid"}) == "valid"
    assert promise("It is guaranteed that s is a valid roman numeral.", defined={"valid"}) is not None
    assert tiers_vouched(_problem("score_of_parentheses")) is not None


def test_valid_and_invalid_instances_side_by_side_illustrate_the_rule() -> None:
    # validate_ip_address (blind dev pools 151-165): '"192.168.1.1" and "192.168.1.0" are valid
    # IPv4 addresses while "192.168.01.1", ... are invalid' is the rule the answer applies; read
    # as a promise it left vibecode's inputs untrusted and the oracle could not reject the wrong
    # majority that accepts leading zeros
    problem = _problem("validate_ip_address")
    for start in ('For example, "192.168.1.1"', 'For example, "2001:0db8'):
        assert promise(_sentence(problem, start)) is None
    assert tiers_vouched(problem) is None
    # an explicit promise about validity is still one
    assert promise("It is guaranteed that s is a valid IP address, never an invalid one.") is not None


def test_an_order_or_a_list_of_properties_in_the_description_is_a_promise_unless_generated() -> None:
    # search_a_2d_matrix: "with the following two properties:" (rows sorted, each row above the next)
    # named no promise word, so vibecode's unsorted matrices were vouched for and the oracle's
    # answers on them failed a correct pick; the properties are not generated, so they are no verdict
    matrix = _problem("search_a_2d_matrix")
    why = tiers_vouched(matrix)
    assert why is not None and "following two properties" in why
    sentence = _sentence(matrix, "You are given an m x n integer matrix")
    assert promise(sentence) == "following two properties"
    # an order the constraint reader generates is no bar ("nums is guaranteed to be rotated at some
    # pivot" is made so), but merge_sorted_array's nums1 is not drawn sorted (its padding zeros
    # break the reading), so "nums1 and nums2, sorted in non-decreasing order" is a promise
    assert tiers_vouched(_problem("search_in_rotated_sorted_array_ii")) is None
    why = tiers_vouched(_problem("merge_sorted_array"))
    assert why is not None and "sorted in" in why
    # the order covered, the rest of the sentence is still read
    assert promise("nums is sorted and is a permutation of [0, n).") == "is sorted"
    assert promise("nums   and is a permutation of [0, n).") == "permutation"
    assert promise("The letter-logs are not sorted.") is None
    assert promise("You are given a sorted array consisting of only integers.") == "sorted"


def test_a_generated_order_does_not_hide_another_promise_of_the_same_sentence() -> None:
    def statement(sentence: str) -> Problem:
        return parse_problem(
            f"# Find It\n\n{sentence} Return the index of target.\n\n**Example 1:**\n\n```\nInput: nums = [1,2,3], "
            "target = 2\nOutput: 1\n```\n\n**Constraints:**\n\n- `1 <= nums.length <= 10`\n- `-10 <= nums[i] <= 10`\n"
            "- `nums` is sorted in ascending order.\n- `-10 <= target <= 10`\n\n```python\nclass Solution:\n"
            "    def find(self, nums: list[int], target: int) -> int:\n        ...\n```\n")
    assert "nums" in parse_constraints(statement("Given nums.")).sorted
    assert tiers_vouched(statement("You are given an array nums that is sorted.")) is None
    why = tiers_vouched(statement("You are given an array nums that is sorted and is a permutation of [0, n)."))
    assert why is not None and "permutation" in why
