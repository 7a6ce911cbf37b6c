"""The figures: unbiased pass@k, expected calibration error, Brier score, reliability bins.

Pure functions of numbers; the records they come from are read in :mod:`vibecode.bench.summary`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

ECE_BINS = 10


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased estimator of pass@k from n samples of which c are correct (Chen et al. 2021):

        pass@k = 1 - C(n - c, k) / C(n, k)

    computed as a product, which stays exact in floating point for large n.
    """
    if not 0 <= c <= n:
        raise ValueError(f"need 0 <= c <= n, got n={n}, c={c}")
    if not 1 <= k <= n:
        raise ValueError(f"need 1 <= k <= n, got n={n}, k={k}")
    if n - c < k:
        return 1.0
    miss = 1.0
    for i in range(n - c + 1, n + 1):
        miss *= 1.0 - k / i
    return 1.0 - miss


@dataclass(frozen=True)
class Bin:
    lower: float
    upper: float
    count: int
    confidence: float  # mean predicted probability in the bin (0 when empty)
    accuracy: float  # observed share correct (0 when empty)


def reliability_bins(probs: Sequence[float], labels: Sequence[bool], bins: int = ECE_BINS) -> list[Bin]:
    """Equal-width bins over [0, 1]; a probability of exactly 1 falls in the last bin."""
    if len(probs) != len(labels):
        raise ValueError("probs and labels differ in length")
    if bins < 1:
        raise ValueError("bins must be at least 1")
    members: list[list[int]] = [[] for _ in range(bins)]
    for i, p in enumerate(probs):
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"probability {p} outside [0, 1]")
        members[min(int(p * bins), bins - 1)].append(i)
    out = []
    for b, idx in enumerate(members):
        conf = sum(probs[i] for i in idx) / len(idx) if idx else 0.0
        acc = sum(bool(labels[i]) for i in idx) / len(idx) if idx else 0.0
        out.append(Bin(b / bins, (b + 1) / bins, len(idx), conf, acc))
    return out


def ece(probs: Sequence[float], labels: Sequence[bool], bins: int = ECE_BINS) -> float:
    """Expected calibration error: sum over bins of (share of items) * |accuracy - confidence|."""
    if not probs:
        return 0.0
    total = len(probs)
    return sum(b.count / total * abs(b.accuracy - b.confidence) for b in reliability_bins(probs, labels, bins))


def brier(probs: Sequence[float], labels: Sequence[bool]) -> float:
    """Mean squared difference between the probability and the outcome (1 correct, 0 not)."""
    if len(probs) != len(labels):
        raise ValueError("probs and labels differ in length")
    if not probs:
        return 0.0
    return sum((p - float(bool(y))) ** 2 for p, y in zip(probs, labels, strict=True)) / len(probs)


def share(flags: Sequence[bool]) -> float | None:
    """The share of true values; None for no values (a figure that cannot be computed)."""
    return sum(map(bool, flags)) / len(flags) if flags else None


def auroc(scores: Sequence[float], labels: Sequence[bool]) -> float | None:
    """Area under the ROC curve of ``scores`` for separating true labels from false ones: the
    chance that a random true item scores above a random false one, ties counting one half
    (the Mann-Whitney statistic). None when either class is empty (it cannot be computed)."""
    if len(scores) != len(labels):
        raise ValueError("scores and labels differ in length")
    pos = [s for s, y in zip(scores, labels, strict=True) if y]
    neg = [s for s, y in zip(scores, labels, strict=True) if not y]
    if not pos or not neg:
        return None
    wins = 0.0
    for p in pos:
        for q in neg:
            wins += 1.0 if p > q else 0.5 if p == q else 0.0
    return wins / (len(pos) * len(neg))
