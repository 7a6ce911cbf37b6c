"""Issue 14: the brute-force oracle judges only on inputs it can trust (vibecode.clr.trust).

Real statements (tests/data/leetcode, dev part of the LeetCode corpus) whose guarantee the
constraint reader cannot express: Roman to Integer ("s is a valid roman numeral") and Insert
Interval ("non-overlapping intervals"). vibecode's own tier inputs break those guarantees; there a
correct answer and the brute force differ, which must not reject the correct answer. The pools are
the dev pools' own lines (tests/data/leetcode_pools/dev.jsonl), run end to end through the replay
engine and the real local sandbox.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.solve.pools import dev_pool, solve_pool
from vibecode.clr.oracle import check_oracle
from vibecode.clr.score import decide
from vibecode.clr.trust import input_trust, tiers_vouched
from vibecode.problems.leetcode_data import from_json, render_markdown
from vibecode.problems.statement import parse_problem
from vibecode.types import CandidateEvidence, InputResult, Problem

DATA = Path(__file__).resolve().parents[1] / "data"


def _problem(name: str) -> Problem:
    return parse_problem(render_markdown(from_json(json.loads((DATA / "leetcode" / f"{name}.json").read_text()))))




def ev(index: int, behaviour: tuple[str, ...], passed: int = 2) -> CandidateEvidence:
    return CandidateEvidence(index, passed, 2, behaviour, ())


def test_which_problems_vouch_for_vibecodes_own_inputs() -> None:
    roman, insert = _problem("roman_to_integer"), _problem("insert_interval")
    assert "valid roman numeral" in (tiers_vouched(roman) or "")
    assert "non-overlapping" in (tiers_vouched(insert) or "").lower()
    assert tiers_vouched(_problem("multiply_strings")) is None  # every constraint line understood
    # examples, 2 type inputs, 1 model, 2 generator, then 1 differential
    trust = input_trust(roman, {"type": 2, "model": 1, "generator": 2, "differential": 1}, 3 + 6)
    assert trust == (True, True, True, False, False, True, True, True, False)
    plain = _problem("multiply_strings")
    assert all(input_trust(plain, {"type": 4, "differential": 2}, len(plain.examples) + 6))


def test_a_disagreement_on_an_untrusted_input_contests_but_never_rejects() -> None:
    right = [ev(0, ("ok:1", "ok:2", "ok:5", "ok:4", "ok:6", "ok:7"))]
    wrong = [ev(i, ("ok:1", "ok:2", "ok:5", "ok:9", "ok:6", "ok:8")) for i in (1, 2, 3)]
    oracle = ("ok:1", "ok:2", "ok:3", "ok:4", "ok:6", "ok:7")  # differs from everyone on input 3
    # input 3 is a tier input the problem cannot vouch for; 4-6 came from the model's generator
    trusted = (True, True, False, True, True, True)
    d = decide(right + wrong, k=4, oracle=oracle, trusted=trusted)
    assert d.best == 0 and d.status == "plausible" and d.reliability > 0
    assert d.reason.startswith("Contested") and "input 3 (3 instead of 5)" in d.reason
    assert d.contested_input == 2
    # trusted everywhere, the oracle still rejects the wrong majority on input 4 ...
    assert decide(right + wrong, k=4, oracle=oracle).best == 0
    # ... and without the untrusted dispute the right pick is verified
    agreeing = ("ok:1", "ok:2", "ok:5", "ok:4", "ok:6", "ok:7")
    assert decide(right + wrong, k=4, oracle=agreeing, trusted=trusted).status == "verified"
    # an untrusted disagreement never rejects: the lone cluster stays plausible, not failed
    alone = decide(wrong, k=3, oracle=agreeing, trusted=(True, True, False, False, False, False))
    assert alone.status == "plausible" and alone.best in (1, 2, 3) and alone.reliability > 0
    # the same on trusted inputs where another candidate agrees with the oracle is a verdict
    near = ev(4, ("ok:1", "ok:0", "ok:5", "ok:4", "ok:6", "ok:7"), passed=1)
    assert decide([*wrong, near], k=4, oracle=agreeing).status == "failed"


def test_roman_to_integer_right_pick_is_not_failed_on_an_invalid_numeral(tmp_path: Path) -> None:
    problem = _problem("roman_to_integer")
    lines = dev_pool("LeetCode/roman_to_integer@wrong-majority")
    right = next(str(x["text"]) for x in lines if x.get("correct") is True)
    result = solve_pool(tmp_path, problem, lines)
    # the wrong majority (3 of 4) is rejected by the oracle on the generator's valid numerals ...
    assert result.best is not None and result.best.code is not None and result.best.code.strip() in right
    # ... and the brute force's disagreement on vibecode's own invalid numerals is no verdict
    assert result.status != "failed" and result.decision.reliability > 0
    assert result.status == "plausible" and "cannot judge there" in result.decision.reason
    assert "Distinguishing input: s = " in result.decision.reason


def test_insert_interval_right_pick_is_not_failed_on_overlapping_intervals(tmp_path: Path) -> None:
    problem = _problem("insert_interval")
    lines = dev_pool("LeetCode/insert_interval@wrong-majority")
    right = next(str(x["text"]) for x in lines if x.get("correct") is True)
    result = solve_pool(tmp_path, problem, lines)
    assert result.best is not None and result.best.code is not None and result.best.code.strip() in right
    assert result.status != "failed" and result.decision.reliability > 0
    wrong = [r for r in result.candidates if r.code and r.code.strip() not in right]
    assert wrong and all(r.cluster != result.decision.cluster_of[result.best.index] for r in wrong)


def test_a_crash_on_an_untrusted_input_leaves_the_oracle_usable() -> None:
    problem = _problem("compare_version_numbers")
    n = len(problem.examples)
    runs = [InputResult(i, "ok", ex.output) for i, ex in enumerate(problem.examples)]
    runs += [InputResult(n, "error", error="ValueError"), InputResult(n + 1, "ok", 0)]
    answered = [n, n + 1]  # some candidate answered both
    assert not check_oracle(problem, runs, n + 2, answered).usable  # every input counts
    untrusted = (True,) * n + (False, True)
    assert check_oracle(problem, runs, n + 2, answered, untrusted).usable
    assert not check_oracle(problem, runs, n + 2, answered, (True,) * (n + 2)).usable


def test_an_input_the_oracle_and_a_passing_rival_refuse_contests_the_proposal() -> None:
    top = [ev(i, ("ok:1", "ok:2", "ok:0", "ok:-1", "ok:3", "ok:4")) for i in (0, 1, 2)]
    rival = [ev(3, ("ok:1", "ok:2", "error", "ok:-1", "ok:3", "ok:4"))]
    oracle = ("ok:1", "ok:2", "error", "ok:-1", "ok:3", "ok:4")  # it crashes where the rival does
    trusted = (True, True, False, True, True, True)
    d = decide(top + rival, k=4, oracle=oracle, trusted=trusted)
    assert d.status == "plausible" and d.best in (0, 1, 2) and d.reliability > 0
    assert "crashes on it, as a candidate that passes every example does" in d.reason
    assert d.evidence["oracle_disputed"] == 1
    # a crash that no candidate passing the examples shares is no dispute: verified
    failing = [ev(3, ("ok:1", "ok:0", "error", "ok:-1", "ok:3", "ok:4"), passed=1)]
    assert decide(top + failing, k=4, oracle=oracle, trusted=trusted).status == "verified"


def test_compare_version_numbers_wrong_majority_is_not_verified(tmp_path: Path) -> None:
    # the wrong majority never reads the longer version's tail, so it answers vibecode's invalid
    # versions where the brute force and the correct answer crash: contested, never verified
    problem = _problem("compare_version_numbers")
    result = solve_pool(tmp_path, problem, dev_pool("LeetCode/compare_version_numbers@wrong-majority"))
    assert result.status == "plausible" and "crashes on it" in result.decision.reason
    assert result.decision.reliability < 0.5


def test_a_promise_in_the_description_leaves_vibecodes_inputs_untrusted() -> None:
    # "You may assume that the majority element always exists in the array.": vibecode's inputs
    # may have no majority; there Boyer-Moore and a brute force differ, and both may
    majority = _problem("majority_element")
    assert "assume" in (tiers_vouched(majority) or "")
    right = [ev(0, ("ok:1", "ok:2", "ok:3", "ok:7"))]
    oracle = ("ok:1", "ok:2", "ok:3", "ok:5")  # no majority in input 3: any answer goes
    assert len(majority.examples) == 2
    trusted = input_trust(majority, {"type": 1, "generator": 1}, 4)
    assert trusted == (True, True, False, True)  # the tier input is no verdict, the generator's is
    d = decide(right, k=1, oracle=oracle, trusted=trusted)
    assert d.status != "failed" and d.best == 0
