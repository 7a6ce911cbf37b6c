"""The oracle's pure parts and its effect on the decision; differential input search."""

from __future__ import annotations

import json
from pathlib import Path

from vibecode.clr.differential import SKIPPED, differential_inputs, mutations, separating
from vibecode.clr.execute import CandidateRunner
from vibecode.clr.inputs import validate_input
from vibecode.clr.oracle import GENERATOR_SEEDS, check_oracle, generator_code, run_generator
from vibecode.clr.score import decide
from vibecode.config import Settings
from vibecode.problems.leetcode_data import from_json, render_markdown
from vibecode.problems.statement import parse_problem
from vibecode.sandbox import make_sandbox
from vibecode.types import CandidateEvidence, InputResult, Problem

DATA = Path(__file__).resolve().parents[1] / "data" / "leetcode"


def _problem(name: str) -> Problem:
    return parse_problem(render_markdown(from_json(json.loads((DATA / f"{name}.json").read_text()))))


def ev(index: int, behaviour: tuple[str, ...], passed: int = 2) -> CandidateEvidence:
    return CandidateEvidence(index, passed, 2, behaviour, ())


def ok(value: object) -> InputResult:
    return InputResult(0, "ok", value)


def test_generator_code_takes_the_block_that_defines_generate_input() -> None:
    answer = "Try:\n```python\nprint(1)\n```\nThen:\n```python\ndef generate_input(rng):\n    return {'s': 'a'}\n```\n"
    code = generator_code(answer)
    assert code is not None and code.startswith("import random\n") and "_vibecode_generate(seed)" in code
    assert generator_code("no code here") is None and generator_code(None) is None


def test_oracle_check_names_why_it_is_not_used() -> None:
    p = _problem("longest_substring_without_repeating_characters")  # examples answer 3, 1, 3
    good = [ok(3), ok(1), ok(3), ok(0), InputResult(0, "timeout", None, "slow")]
    assert check_oracle(p, good, 5, answered=[3, 4]).usable
    assert "judged 1 generated" in check_oracle(p, good, 5, answered=[3, 4]).reason
    wrong = [ok(3), ok(2), ok(3)]
    assert check_oracle(p, wrong, 3).reason == "no usable oracle: the brute-force solution fails example 2"
    slow = [ok(3), InputResult(0, "timeout", None, "t"), ok(3)]
    assert "times out on example 2" in check_oracle(p, slow, 3).reason
    crash = [ok(3), ok(1), ok(3), InputResult(0, "error", None, "IndexError")]
    assert "crashes on generated input 4" in check_oracle(p, crash, 4, answered=[3]).reason
    # a crash where no candidate answered either is an invalid input, not the oracle's fault
    assert not check_oracle(p, crash, 4, answered=[]).usable  # ... but then nothing was judged
    assert "answered no generated input" in check_oracle(p, crash, 4, answered=[]).reason
    # running out of memory on a large input (the process dies mid-input, or a MemoryError) is no
    # refusal of the input: like a timeout, it leaves the oracle usable
    for why in ("the process exited with code 137 while running this input",
                "the process was killed by signal 9 while running this input", "MemoryError"):
        died = [ok(3), ok(1), ok(3), InputResult(0, "error", None, why), ok(0)]
        assert check_oracle(p, died, 5, answered=[3, 4]).usable, why


def test_the_oracle_decides_between_contradicting_clusters() -> None:
    big_wrong = [ev(i, ("ok:1", "ok:2", "ok:9", "ok:4")) for i in range(3)]
    small_right = [ev(3 + i, ("ok:1", "ok:2", "ok:5", "ok:4")) for i in range(2)]
    plain = decide(big_wrong + small_right, k=5)
    assert plain.status == "plausible" and plain.best in (0, 1, 2) and plain.contested_input == 2
    judged = decide(big_wrong + small_right, k=5, oracle=("ok:1", "ok:2", "ok:5", "ok:4"))
    assert judged.best in (3, 4) and judged.status == "plausible"  # only 2 generated inputs: too few
    assert "only 2 generated input(s) ran" in judged.reason
    wide = [ev(i, ("ok:1", "ok:2", "ok:9", "ok:4", "ok:6", "ok:7")) for i in range(3)]
    wide += [ev(3 + i, ("ok:1", "ok:2", "ok:5", "ok:4", "ok:6", "ok:7")) for i in range(2)]
    verdict = decide(wide, k=5, oracle=("ok:1", "ok:2", "ok:5", "ok:4", "ok:6", "timeout"))
    assert verdict.status == "verified" and verdict.best in (3, 4)
    assert "rejects the 1 other cluster" in verdict.reason
    # the oracle agrees with no cluster on input 3: suspect, no verdict, but never verified either
    alone = decide(wide[:3], k=3, oracle=("ok:1", "ok:2", "ok:5", "ok:4", "ok:6", "ok:7"))
    assert alone.status == "plausible" and alone.contested_input == 2 and "(5 instead of 9)" in alone.reason
    # a candidate that fails an example but agrees with the oracle there makes it a verdict
    near = ev(3, ("ok:1", "ok:0", "ok:5", "ok:4", "ok:6", "ok:7"), passed=1)
    against = decide([*wide[:3], near], k=4, oracle=("ok:1", "ok:2", "ok:5", "ok:4", "ok:6", "ok:7"))
    assert against.status == "failed" and against.reliability == 0 and against.contested_input == 2
    assert "(9 instead of 5)" in against.reason


def test_contested_and_too_slow_lower_the_reliability() -> None:
    clean = decide([ev(0, ("ok:1", "ok:2", "ok:3", "ok:4", "ok:5"))] * 1, k=1)
    slow = decide([ev(0, ("ok:1", "ok:2", "ok:3", "ok:4", "ok:5", "timeout"))], k=1)
    contested = decide([ev(0, ("ok:1", "ok:2", "ok:3", "ok:4", "ok:5")),
                        ev(1, ("ok:1", "ok:2", "ok:3", "ok:4", "ok:6"))], k=1)
    assert clean.status == "verified"
    assert slow.reliability < 0.7 * clean.reliability
    assert contested.status == "plausible" and contested.reliability < 0.6 * clean.reliability


def test_skipped_columns_neither_contest_nor_count_as_crashes() -> None:
    top = [ev(0, ("ok:1", "ok:2", "ok:3", "ok:4", "ok:5"))]
    failing = [ev(1, ("ok:0", "ok:2", "ok:3", "ok:4", SKIPPED), passed=1)]
    d = decide(top + failing, k=2)
    assert d.status == "verified" and d.clusters[1].failure_rate == 0


def test_mutations_stay_valid_and_differ_from_the_input() -> None:
    p = _problem("two_sum")
    base = dict(p.examples[0].inputs)
    found = mutations(base, p)
    assert found and all(m != base for m in found)
    assert all(not validate_input(dict(m), p) for m in found)
    fresh = differential_inputs(p, base, [base, *found[:2]])
    assert fresh and base not in fresh and found[0] not in fresh


def test_separating_columns() -> None:
    assert separating([("ok:1", "ok:2", "ok:3"), ("ok:1", "ok:5", "error")]) == [1, 2]
    assert separating([("ok:1", "timeout"), ("ok:1", "timeout")]) == []


def test_the_generator_is_drawn_often_enough_to_reach_a_rare_input_and_its_repeats_are_dropped() -> None:
    # third_maximum_number: a generator that draws the separating [1, 2, -2^31] in about 8% of
    # calls (P6 report item 1) reaches it within GENERATOR_SEEDS draws; every repeat is kept once
    problem = _problem("third_maximum_number")
    answer = ("```python\ndef generate_input(rng):\n"
              "    return {'nums': [1, 2, -2**31] if rng.random() < 0.08 else [1, 2, 3]}\n```\n")
    runner = CandidateRunner(make_sandbox("local", Settings()))
    got = run_generator(runner, problem, answer)
    assert GENERATOR_SEEDS >= 32
    assert sorted(x["nums"] for x in got.inputs) == [[1, 2, -(2**31)], [1, 2, 3]]  # type: ignore[type-var]
    assert not got.notes
    few = run_generator(runner, problem, answer, seeds=8)
    assert [x["nums"] for x in few.inputs] == [[1, 2, 3]]  # eight draws miss it


def test_generator_arguments_spelled_in_snake_case_are_the_signatures() -> None:
    # shortest_word_distance_iii says wordsDict; a model writing Python names it words_dict
    problem = _problem("shortest_word_distance_iii")
    assert "wordsDict" in problem.signature.arg_names
    answer = ("```python\ndef generate_input(rng):\n"
              "    return {'words_dict': ['a', 'b', 'a'], 'word1': 'a', 'word2': 'b'}\n```\n")
    runner = CandidateRunner(make_sandbox("local", Settings()))
    got = run_generator(runner, problem, answer, seeds=2)
    assert list(got.inputs) == [{"wordsDict": ["a", "b", "a"], "word1": "a", "word2": "b"}] and not got.notes
    clash = answer.replace("'word2': 'b'", "'word2': 'b', 'Word1': 'a'")  # two spellings of one name: no guess
    dropped = run_generator(runner, problem, clash, seeds=2)
    assert not dropped.inputs and "argument names" in dropped.notes[0]
