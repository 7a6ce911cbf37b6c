"""Figures: unbiased pass@k, ECE, Brier, reliability bins; isotonic fitting (PAV) and its map."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vibecode.bench.calibration import calibration_json, fit_map, pav, write_map
from vibecode.bench.metrics import brier, ece, pass_at_k, reliability_bins
from vibecode.clr.score import Calibration
from vibecode.errors import CalibrationError


def brute_pass_at_k(n: int, c: int, k: int) -> float:
    samples = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(range(n), k))
    return sum(any(samples[i] for i in s) for s in subsets) / len(subsets)


def test_pass_at_k_matches_brute_force() -> None:
    for n in range(1, 8):
        for c in range(n + 1):
            for k in range(1, n + 1):
                assert pass_at_k(n, c, k) == pytest.approx(brute_pass_at_k(n, c, k)), (n, c, k)
    assert pass_at_k(200, 1, 1) == pytest.approx(0.005)
    assert 0.0 < pass_at_k(1000, 3, 10) < 1.0
    for bad in ((3, 4, 1), (3, 1, 0), (3, 1, 4), (3, -1, 1)):
        with pytest.raises(ValueError):
            pass_at_k(*bad)


def test_ece_brier_and_bins_on_known_inputs() -> None:
    probs = [0.1, 0.1, 0.9, 0.9]
    labels = [False, True, True, True]
    # bin 1: confidence 0.1, accuracy 0.5; bin 9: confidence 0.9, accuracy 1.0; half the items each.
    assert ece(probs, labels) == pytest.approx(0.5 * 0.4 + 0.5 * 0.1)
    assert brier(probs, labels) == pytest.approx((0.01 + 0.81 + 0.01 + 0.01) / 4)
    assert ece([1.0, 0.0], [True, False]) == 0.0 and brier([1.0, 0.0], [True, False]) == 0.0
    assert ece([0.7] * 10, [True] * 7 + [False] * 3) == pytest.approx(0.0)
    bins = reliability_bins([0.0, 0.05, 0.1, 0.999, 1.0], [True] * 5)
    assert [b.count for b in bins] == [2, 1, 0, 0, 0, 0, 0, 0, 0, 2]  # 1.0 falls in the last bin
    assert bins[0].confidence == pytest.approx(0.025) and bins[9].accuracy == 1.0
    assert ece([], []) == 0.0
    with pytest.raises(ValueError):
        reliability_bins([1.5], [True])
    with pytest.raises(ValueError):
        brier([0.5], [])


def reference_isotonic(ys: list[float]) -> list[float]:
    """The min-max formula of isotonic regression: fit(i) = max_{k<=i} min_{j>=i} mean(y[k..j])."""
    n = len(ys)

    def mean(a: int, b: int) -> float:
        return sum(ys[a : b + 1]) / (b - a + 1)

    return [max(min(mean(k, j) for j in range(i, n)) for k in range(i + 1)) for i in range(n)]


def fitted(xs: list[float], ys: list[float]) -> list[float]:
    blocks = pav(xs, ys)
    return [next(b.value for b in blocks if b.lower <= x <= b.upper) for x in xs]


def test_pav_small_cases() -> None:
    assert fitted([1, 2, 3, 4], [1, 0, 1, 1]) == [0.5, 0.5, 1.0, 1.0]
    assert fitted([1, 2, 3], [0, 0.5, 1]) == [0, 0.5, 1]  # already monotone: unchanged
    assert fitted([1, 2, 3], [1, 0.5, 0]) == [0.5, 0.5, 0.5]  # reversed: one block
    # Equal x values are pooled before fitting.
    blocks = pav([0.2, 0.2, 0.5], [1, 0, 1])
    assert [(b.lower, b.upper, b.value, b.weight) for b in blocks] == [(0.2, 0.2, 0.5, 2.0), (0.5, 0.5, 1.0, 1.0)]
    # Weights count as repeated points.
    assert fitted([1, 2], [1, 0]) == [0.5, 0.5]
    assert [b.value for b in pav([1, 2], [1, 0], [3, 1])] == [0.75]
    with pytest.raises(ValueError):
        pav([1, 2], [1])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=9))
def test_pav_equals_reference_and_is_monotone(values: list[int]) -> None:
    ys = [v / 4 for v in values]
    xs = [float(i) for i in range(len(ys))]
    got = fitted(xs, ys)
    assert got == pytest.approx(reference_isotonic(ys))
    assert all(a <= b + 1e-12 for a, b in itertools.pairwise(got))


def test_fit_map_is_a_loadable_monotone_calibration(tmp_path: Path) -> None:
    xs = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    ys = [0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0]
    cal = fit_map(xs, ys)
    assert list(cal.x) == sorted(set(cal.x)) and all(a <= b for a, b in itertools.pairwise(cal.y))
    # Blocks: {0.1} -> 0, {0.2..0.4} -> 1/3, {0.5..0.7} -> 2/3, {0.8} -> 1; linear in between.
    assert list(cal.x) == [0.1, 0.2, 0.4, 0.5, 0.7, 0.8]
    assert cal(0.1) == 0.0 and cal(0.3) == pytest.approx(1 / 3) and cal(0.6) == pytest.approx(2 / 3)
    assert cal(0.45) == pytest.approx(0.5) and cal(0.8) == 1.0
    assert cal(0.05) == cal.y[0] and cal(0.95) == cal.y[-1]
    path = tmp_path / "m.calibration.json"
    write_map(path, calibration_json(cal, xs, ys, "test", "m"))
    data = json.loads(path.read_text())
    assert data["data"]["raw"] == xs and data["data"]["correct"] == [int(y) for y in ys] and data["model"] == "m"
    loaded = Calibration.load(path)
    assert loaded.x == cal.x and loaded.y == pytest.approx(cal.y, abs=1e-6)
    with pytest.raises(CalibrationError):
        fit_map([], [])
