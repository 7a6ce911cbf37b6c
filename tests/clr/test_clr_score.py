"""CLR scoring: trajectory weights, clusters, statuses, reliability, calibration."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vibecode.clr.reliability import INPUT_HALF
from vibecode.clr.score import Calibration, M, behaviour_tokens, decide, trajectory_weight
from vibecode.errors import CalibrationError
from vibecode.types import CandidateEvidence, Claim, InputResult

V = Claim("v", "io", "execution", "verified")
F = Claim("f", "io", "execution", "failed")
U = Claim("u", "invariant", "unchecked", "unchecked")


def ev(index: int, behaviour: tuple[str, ...], passed: int = 2, total: int = 2, claims: tuple[Claim, ...] = ()) -> CandidateEvidence:
    return CandidateEvidence(index, passed, total, behaviour, claims)


def test_trajectory_weight() -> None:
    assert M == 5
    assert trajectory_weight([]) == 1.0
    assert trajectory_weight([U, U]) == 1.0
    assert trajectory_weight([V, V, V]) == 1.0
    assert trajectory_weight([V, V, V, V, F]) == pytest.approx(0.8**5)
    assert trajectory_weight([F]) == 0.0
    assert trajectory_weight([V, U, U, U, U]) > trajectory_weight([V, V, V, V, F])


claim_lists = st.lists(st.sampled_from([V, F, U]), max_size=M)


@given(claim_lists, claim_lists)
def test_all_checkable_claims_holding_outranks_any_failure(a: list[Claim], b: list[Claim]) -> None:
    if F not in a and F in b:
        assert trajectory_weight(a) > trajectory_weight(b)
        # Same behaviour otherwise: the proposal is the one whose claims hold.
        d = decide([ev(0, ("ok:1", "ok:2"), claims=tuple(b)), ev(1, ("ok:1", "ok:2"), claims=tuple(a))], k=2)
        assert d.best == 1


@given(st.integers(min_value=2, max_value=12), st.integers(min_value=1, max_value=11))
def test_unanimous_pool_scores_above_a_split_pool(k: int, agree: int) -> None:
    agree = min(agree, k - 1)
    # issue 14: verified now also needs MIN_GENERATED generated inputs, so the pools carry three
    gen = ("ok:3", "ok:4", "ok:5")
    unanimous = [ev(i, ("ok:1", "ok:2", *gen)) for i in range(k)]
    split = [ev(i, ("ok:1", "ok:2", *gen) if i < agree else ("ok:1", "ok:3", *gen)) for i in range(k)]
    a, b = decide(unanimous, k=k), decide(split, k=k)
    assert a.status == "verified"
    assert a.reliability > b.reliability


def test_clusters_statuses_and_evidence() -> None:
    pool = [
        ev(0, ("ok:[0,1]", "ok:5", "ok:7")),
        ev(1, ("ok:[0,1]", "ok:5", "ok:7"), claims=(V, V)),
        ev(2, ("ok:[0,1]", "ok:5", "ok:8")),  # wrong on a generated input
        ev(3, ("ok:[1,1]", "ok:5", "ok:7"), passed=1),  # wrong on an example
        ev(4, ("error", "error", "error"), passed=0),  # crashes
        ev(5, ("ok:[0,1]", "ok:5", "timeout")),  # times out on a generated input
        ev(6, ("ok:[0,1]", "ok:5", "ok:7"), claims=(F,)),  # right code, refuted reasoning
    ]
    d = decide(pool, k=9)  # two more candidates did not parse
    # issue 14: candidate 2 passes every example but answers input 3 differently, so the evidence
    # is contested (the old assertion said "verified")
    assert d.status == "plausible" and d.reason.startswith("Contested") and d.contested_input == 2
    assert d.best == 1
    top = d.clusters[0]
    assert top.members == (0, 1, 6) and top.examples_passed == 2 and top.failure_rate == 0
    assert top.r_sum == pytest.approx(2.0)
    assert d.cluster_of[2] != d.cluster_of[0] and d.cluster_of[5] != d.cluster_of[0]
    assert d.clusters[-1].members == (4,)
    ranks = {c.members: c.rank for c in d.clusters}
    assert ranks[(2,)] < ranks[(5,)]  # a timeout counts against
    assert d.r[6] == 0.0
    # contested: the behaviour term is scaled by the cluster's share of the 5 candidates that pass
    # every example (0, 1, 2, 5, 6), Q = 3/5; one generated input ran (I = 1 - 2^-(1/4)); rho =
    # (2 + 1) / (2 + 1 + 2) from the cluster's pooled claims (V, V against F)
    agreement = 3 / 9 * (1 + (1 - 2 ** -(1 / INPUT_HALF))) / 2
    expected = (1 - 2**-3) * (0.8 * agreement * 3 / 5 + 0.2 * 3 / 5)
    assert d.raw_reliability == pytest.approx(expected)


def test_a_larger_wrong_cluster_against_a_smaller_correct_one_is_contested() -> None:
    # issue 14, cause 3: both clusters pass the examples and disagree on generated inputs
    wrong = [ev(i, ("ok:1", "ok:2", "ok:9", "ok:4", "ok:5")) for i in range(3)]
    right = [ev(i, ("ok:1", "ok:2", "ok:3", "ok:4", "ok:5")) for i in range(3, 5)]
    for pool in (wrong + right, right + wrong):
        d = decide(pool, k=5)
        assert d.status == "plausible" and "Contested" in d.reason and d.contested_input == 2
        assert "input 3" in d.reason


def test_verified_needs_generated_inputs_and_no_contradicting_rival() -> None:
    only_examples = [ev(i, ("ok:1", "ok:2")) for i in range(3)]
    d = decide(only_examples, k=3)
    assert d.status == "plausible" and "only 0 generated" in d.reason
    full = ("ok:1", "ok:2", "ok:3", "ok:4", "ok:5")
    d = decide([ev(0, full), ev(1, full)], k=2, tiers={"edge": 2, "random": 1})
    assert d.status == "verified" and "2 edge, 1 random" in d.reason and d.contested_input is None
    # a rival that only crashes where the proposal answers does not contradict it
    crash = ("ok:1", "ok:2", "error", "ok:4", "ok:5")
    d = decide([ev(0, full), ev(1, full), ev(2, crash)], k=3)
    assert d.status == "verified" and d.best in (0, 1)
    # but a rival that answers where the proposal crashed does
    d = decide([ev(0, crash), ev(1, crash), ev(2, full)], k=3)
    assert d.status == "plausible" and d.contested_input == 2


def test_failing_an_example_is_never_verified() -> None:
    pool = [ev(0, ("ok:1", "ok:9"), passed=1, claims=(V, V, V)), ev(1, ("ok:2", "ok:9"), passed=0)]
    d = decide(pool, k=2)
    assert d.status == "failed" and d.reliability == 0.0 and d.raw_reliability == 0.0
    assert d.best == 0  # the closest candidate
    assert "1" in d.reason


def test_no_candidates_and_no_output() -> None:
    d = decide([], k=4)
    assert (d.status, d.best, d.reliability) == ("failed", None, 0.0)
    silent = decide([ev(0, ("error", "timeout"), 0, 0), ev(1, ("error", "error"), 0, 0)], k=2)
    assert silent.status == "failed" and silent.reliability == 0.0


def test_no_examples_is_at_best_plausible() -> None:
    d = decide([ev(i, ("ok:1",), 0, 0) for i in range(4)], k=4)
    assert d.status == "plausible"
    assert 0 < d.reliability <= 0.5


def test_tied_top_clusters_are_only_plausible() -> None:
    d = decide([ev(0, ("ok:1", "ok:1")), ev(1, ("ok:1", "ok:2"))], k=2)
    assert d.status == "plausible" and d.best == 0


def test_inputs_where_nobody_answers_are_ignored() -> None:
    pool = [ev(0, ("ok:1", "error")), ev(1, ("ok:1", "timeout")), ev(2, ("ok:1", "error"))]
    d = decide(pool, k=3)
    assert len(d.clusters) == 1 and d.clusters[0].failure_rate == 0.0


def test_behaviour_tokens() -> None:
    results = [InputResult(0, "ok", [2, 1]), InputResult(1, "error"), InputResult(2, "timeout"), InputResult(3, "not_run")]
    assert behaviour_tokens(results, "any") == ("ok:[1, 2]", "error", "timeout", "error")
    assert behaviour_tokens(results[:1]) == ("ok:[2, 1]",)


def test_calibration(tmp_path: Path) -> None:
    path = tmp_path / "cal.json"
    path.write_text(json.dumps({"x": [0.0, 0.5, 1.0], "y": [0.0, 0.2, 0.9]}))
    cal = Calibration.load(path)
    assert cal(0.25) == pytest.approx(0.1)
    assert cal(0.75) == pytest.approx(0.55)
    assert cal(-1) == 0.0 and cal(2) == 0.9
    d = decide([ev(i, ("ok:1",)) for i in range(3)], k=3, calibration=cal)
    assert d.reliability == pytest.approx(cal(d.raw_reliability)) and d.reliability != d.raw_reliability
    failed = decide([ev(0, ("ok:1",), passed=0)], k=1, calibration=Calibration((0.0, 1.0), (0.3, 1.0)))
    assert failed.reliability == 0.0
    for bad in [{"x": [0.5, 0.2], "y": [0.1, 0.2]}, {"x": [0, 1], "y": [0.5, 0.1]}, {"x": [0, 2], "y": [0, 1]}, {"x": [0]}, [1, 2]]:
        with pytest.raises(CalibrationError):
            Calibration.from_mapping(bad)
    with pytest.raises(CalibrationError):
        Calibration.load(tmp_path / "missing.json")
