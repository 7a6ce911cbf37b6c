"""The reliability as a function of the evidence (vibecode/clr/reliability.py): each feature moves
it the documented way, and the status rules around it (contested is never verified; a contest the
oracle decided may be)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vibecode.clr.reliability import TOO_SLOW_FACTOR, Evidence, parts, reliability
from vibecode.clr.score import block_too_slow, decide
from vibecode.types import CandidateEvidence

BASE = Evidence(examples=2, k=4, cluster=2, passing=2, generated=12, oracle_agreed=0, contested=False,
                failure_rate=0.0, claims_verified=0, claims_failed=0)


def ev(index: int, behaviour: tuple[str, ...], passed: int = 2) -> CandidateEvidence:
    return CandidateEvidence(index, passed, 2, behaviour, ())


def more(**changes: object) -> float:
    return reliability(dataclasses.replace(BASE, **changes))  # type: ignore[arg-type]


def test_each_feature_moves_the_reliability_the_documented_way() -> None:
    base = reliability(BASE)
    assert 0 < base < 1
    assert more(cluster=3, passing=3) > base  # more of the sample agrees
    assert more(generated=24) > base > more(generated=3) > more(generated=0)  # more inputs tested it
    assert more(oracle_agreed=12) > base and more(oracle_agreed=24) > more(oracle_agreed=6)
    # inputs the oracle disputes (no verdict, but it sides with a rival there) lower R, more the more
    assert base > more(oracle_disputed=1) > more(oracle_disputed=16)
    assert more(oracle_agreed=12, oracle_disputed=1) > more(oracle_agreed=12, oracle_disputed=12)
    assert more(examples=3) > base > more(examples=1)
    assert more(claims_verified=2) > base > more(claims_failed=1)
    assert more(failure_rate=0.25) < base
    assert more(too_slow=True) == pytest.approx(TOO_SLOW_FACTOR * base)
    # contested: lower than the same evidence uncontested, and lower for a minority of the
    # candidates that pass every example than for a majority
    majority = more(cluster=2, passing=3, contested=True)
    minority = more(cluster=2, passing=5, contested=True)
    assert more(cluster=2, passing=3) > majority > minority
    # the documented terms
    p = parts(dataclasses.replace(BASE, contested=True, passing=4))
    assert p["Q"] == pytest.approx(0.5) and p["O"] == 0 and p["B"] == p["A"] and p["X"] == 1
    assert parts(dataclasses.replace(BASE, oracle_agreed=3, oracle_disputed=4))["X"] == pytest.approx(0.5)
    assert p["A"] == pytest.approx(2 / 4 * (1 + (1 - 2 ** -(12 / 4))) / 2)


def test_the_oracle_and_the_vote_do_not_add_up() -> None:
    # the stronger of the two counts (they come from the same model): an oracle that agreed on
    # many inputs lifts a lone candidate to about where a unanimous sample stands
    lone = more(cluster=1, passing=1, generated=20, oracle_agreed=20)
    unanimous = more(cluster=4, passing=4, generated=20)
    both = more(cluster=4, passing=4, generated=20, oracle_agreed=20)
    assert lone > more(cluster=1, passing=1, generated=20)
    assert abs(lone - unanimous) < 0.05 and both == pytest.approx(max(lone, unanimous))


def test_examples_only_evidence_stays_low() -> None:
    unanimous_examples_only = more(cluster=4, passing=4, generated=0)
    assert unanimous_examples_only <= 0.5
    assert more(cluster=1, passing=1, generated=0) < 0.2
    d = decide([ev(i, ("ok:1", "ok:2")) for i in range(4)], k=4)  # nothing beyond the examples ran
    assert d.status == "plausible" and d.raw_reliability <= 0.5
    tested = decide([ev(i, ("ok:1", "ok:2", *(f"ok:{j}" for j in range(3, 15)))) for i in range(4)], k=4)
    assert tested.status == "verified" and tested.raw_reliability > d.raw_reliability + 0.3


def test_decide_records_the_evidence_it_scored() -> None:
    gen = tuple(f"ok:{j}" for j in range(3, 9))
    pool = [ev(0, ("ok:1", "ok:2", *gen)), ev(1, ("ok:1", "ok:2", *gen)), ev(2, ("ok:1", "ok:9", *gen), passed=1)]
    d = decide(pool, k=4)
    seen = d.evidence or {}
    assert (seen["k"], seen["cluster"], seen["passing"], seen["generated"], seen["contested"]) == (4, 2, 2, 6, False)
    assert d.raw_reliability == pytest.approx(reliability(Evidence(**seen)))  # type: ignore[arg-type]
    failed = decide([ev(0, ("ok:0", "ok:0"), passed=0)], k=1)
    assert failed.evidence is None and failed.raw_reliability == 0


def test_a_minority_cluster_that_is_contested_scores_below_a_contested_majority() -> None:
    gen = ("ok:3", "ok:4", "ok:5", "ok:6")
    a = ("ok:1", "ok:2", *gen)
    b = ("ok:1", "ok:2", "ok:7", *gen[1:])
    big = decide([ev(0, a), ev(1, a), ev(2, a), ev(3, b)], k=4)
    even = decide([ev(0, a), ev(1, a), ev(2, b), ev(3, b)], k=4)
    assert big.status == even.status == "plausible" and big.reason.startswith("Contested")
    assert (big.evidence or {})["contested"] and big.raw_reliability > even.raw_reliability


def test_a_contest_the_oracle_decided_is_not_lowered_and_may_be_verified() -> None:
    gen = ("ok:3", "ok:4", "ok:5", "ok:6", "ok:7")
    right = [ev(i, ("ok:1", "ok:2", *gen)) for i in range(2)]
    wrong = [ev(2 + i, ("ok:1", "ok:2", "ok:9", *gen[1:])) for i in range(2)]
    oracle = ("ok:1", "ok:2", *gen)
    decided = decide(right + wrong, k=4, oracle=oracle)
    alone = decide(right, k=4, oracle=oracle)  # the same cluster, no rival (two did not parse)
    assert decided.status == "verified" and decided.best in (0, 1)
    assert decided.evidence is not None and not decided.evidence["contested"] and decided.evidence["rivals_rejected"] == 1
    assert decided.raw_reliability == pytest.approx(alone.raw_reliability)
    undecided = decide(right + wrong, k=4)  # no oracle: the same pool is contested
    assert undecided.status == "plausible" and undecided.raw_reliability < decided.raw_reliability / 2


@given(st.lists(st.sampled_from(["ok:5", "ok:6", "ok:7", "error"]), min_size=2, max_size=6),
       st.integers(min_value=1, max_value=3), st.integers(min_value=1, max_value=3),
       st.booleans())
def test_a_contested_result_is_never_verified(rival_tail: list[str], n_top: int, n_rival: int,
                                              rival_first: bool) -> None:
    top = ("ok:1", "ok:2", "ok:3", "ok:4", "ok:5", "ok:6")
    rival = ("ok:1", "ok:2", *rival_tail, *top[2 + len(rival_tail):])[: len(top)]
    pool = [ev(i, top) for i in range(n_top)]
    others = [ev(10 + i, rival) for i in range(n_rival)]
    d = decide(others + pool if rival_first else pool + others, k=n_top + n_rival)
    contradicts = any(b.startswith("ok:") and a != b for a, b in zip(top, rival, strict=True)) or any(
        a == "error" and b.startswith("ok:") for a, b in zip(top, rival, strict=True))
    if contradicts:
        assert d.status != "verified" and d.reason.startswith("Contested")
        assert (d.evidence or {})["contested"] is True


def test_too_slow_on_the_stress_tier_lowers_the_reliability_once() -> None:
    gen = tuple(f"ok:{j}" for j in range(3, 9))
    d = decide([ev(0, ("ok:1", "ok:2", *gen))], k=1)
    slow = block_too_slow(d, {0: "too slow for the constraints (n = 100000)"})
    assert slow.status == "plausible" and slow.raw_reliability == pytest.approx(TOO_SLOW_FACTOR * d.raw_reliability)
    assert (slow.evidence or {})["too_slow"] is True
    already = decide([ev(0, ("ok:1", "ok:2", *gen, "timeout"))], k=1)  # timed out on a generated input
    assert already.status == "verified"
    assert block_too_slow(already, {0: "too slow"}).raw_reliability == pytest.approx(already.raw_reliability)


def test_a_dispute_a_rival_backs_lowers_the_reliability_more_than_the_oracle_alone() -> None:
    # the terms: a backed dispute halves X (BACKED_HALF = 1), a lone one counts as before
    assert parts(dataclasses.replace(BASE, oracle_disputed=4, oracle_backed=1))["X"] == pytest.approx(2 ** -(3 / 4 + 1))
    assert more(oracle_disputed=2, oracle_backed=0) > more(oracle_disputed=2, oracle_backed=1) > more(
        oracle_disputed=2, oracle_backed=2)
    assert more(oracle_disputed=3, oracle_backed=2) > more(oracle_disputed=4, oracle_backed=2)  # a lone one still lowers R
    assert more(oracle_disputed=1, oracle_backed=5) == pytest.approx(more(oracle_disputed=1, oracle_backed=1))  # D_b <= D
    # decide(): the oracle answers the last input as the rival that passes every example does (an
    # input vibecode cannot vouch for, so no verdict), or as no candidate does
    top = ("ok:1", "ok:2", "ok:3", "ok:4", "ok:5", "ok:6")
    pool = [ev(i, top) for i in range(3)] + [ev(3, (*top[:5], "ok:9"))]
    untrusted_last = (True,) * 5 + (False,)
    backed = decide(pool, k=4, oracle=(*top[:5], "ok:9"), trusted=untrusted_last)
    alone = decide(pool, k=4, oracle=(*top[:5], "ok:7"), trusted=untrusted_last)
    for d in (backed, alone):
        assert d.status == "plausible" and d.best in (0, 1, 2)
    seen_backed, seen_alone = backed.evidence or {}, alone.evidence or {}
    assert (seen_backed["oracle_disputed"], seen_backed["oracle_backed"]) == (1, 1)
    assert (seen_alone["oracle_disputed"], seen_alone["oracle_backed"]) == (1, 0)
    assert backed.raw_reliability < alone.raw_reliability


def test_a_rival_the_oracle_rejected_backs_no_dispute() -> None:
    # the rival answers the disputed input as the oracle does, but the oracle rejected it on a
    # trusted input: it is no second program against the proposal
    top = ("ok:1", "ok:2", "ok:3", "ok:4", "ok:5", "ok:6")
    pool = [ev(i, top) for i in range(3)] + [ev(3, ("ok:1", "ok:2", "ok:8", "ok:4", "ok:5", "ok:9"))]
    d = decide(pool, k=4, oracle=(*top[:5], "ok:9"), trusted=(True,) * 5 + (False,))
    seen = d.evidence or {}
    assert seen["rivals_rejected"] == 1 and (seen["oracle_disputed"], seen["oracle_backed"]) == (1, 0)


def test_one_answer_to_every_generated_input_is_not_verified_and_counts_as_one_input() -> None:
    # matchsticks_to_square (held-out-4): 36 random stick lists, none makes a square; a greedy
    # that misses the squares it should find answered false on every one, as the correct ones did
    same = ("ok:true", "ok:false", *("ok:false",) * 36)
    d = decide([ev(0, same), ev(1, same)], k=2)
    assert d.status == "plausible" and "same answer, false" in d.reason
    assert d.evidence["one_answer"] is True
    varied = ("ok:true", "ok:false", *("ok:false",) * 35, "ok:true")
    v = decide([ev(0, varied), ev(1, varied)], k=2)
    assert v.status == "verified" and v.evidence["one_answer"] is False
    assert d.reliability < v.reliability
    # G and J count as one input each: as if a single generated input had run
    assert more(one_answer=True) == more(generated=1) < reliability(BASE)
    assert more(one_answer=True, oracle_agreed=30) == more(generated=1, oracle_agreed=1)


def test_verified_needs_three_generated_inputs_known_to_keep_the_guarantees() -> None:
    # minimum_index_sum_of_two_lists@agree (held-out-5, examined): "There is at least a common
    # string between list1 and list2" is not read, so 14 of vibecode's 15 lists shared no string
    # (answer []), and a wrong answer that agreed on them was verified
    rows = ("ok:1", "ok:2", *("ok:[]",) * 14, 'ok:["a"]')
    evidence = [ev(0, rows), ev(1, rows)]
    untrusted = (True, True, *(False,) * 15)
    d = decide(evidence, k=2, trusted=untrusted, sound=untrusted)
    assert d.status == "plausible" and "only 0 of them keep the statement's guarantees" in d.reason
    two = (True, True, True, True, *(False,) * 13)  # two of the generated inputs are the model's
    assert "only 2 of them" in decide(evidence, k=2, sound=two).reason
    three = (True, True, True, True, True, *(False,) * 12)
    assert decide(evidence, k=2, sound=three).status == "verified"
    assert decide(evidence, k=2, trusted=untrusted).status == "verified"  # no sound inputs asked for (no stated guarantees)
