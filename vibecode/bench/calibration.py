"""Calibration maps: isotonic regression (pool-adjacent-violators) of correctness on raw
reliability, written as ``models/<id>.calibration.json`` for :class:`vibecode.clr.score.Calibration`.

The map's points are the ends of each fitted block: a block of raw values [a, b] with fitted rate
y becomes the points (a, y) and (b, y), so the map is flat across the data of a block and linear
between blocks (``Calibration`` interpolates, and clamps outside the data).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vibecode.clr.score import Calibration
from vibecode.errors import CalibrationError


@dataclass(frozen=True)
class Block:
    lower: float  # smallest x in the block
    upper: float  # largest x in the block
    value: float  # fitted y (the weighted mean of the block's y)
    weight: float  # number of points (or their total weight)


def pav(xs: Sequence[float], ys: Sequence[float], weights: Sequence[float] | None = None) -> list[Block]:
    """Isotonic (non-decreasing) least-squares fit of ys on xs, by pool-adjacent-violators.

    Points with equal x are pooled first (one x, one fitted value). Returns the blocks in
    increasing x; every point's fitted value is its block's value.
    """
    if len(xs) != len(ys) or (weights is not None and len(weights) != len(xs)):
        raise ValueError("xs, ys and weights must have the same length")
    w = list(weights) if weights is not None else [1.0] * len(xs)
    if any(v <= 0 for v in w):
        raise ValueError("weights must be positive")
    pooled: dict[float, list[float]] = {}
    for x, y, wt in zip(xs, ys, w, strict=True):
        acc = pooled.setdefault(float(x), [0.0, 0.0])
        acc[0] += wt * float(y)
        acc[1] += wt
    stack: list[list[float]] = []  # [lower, upper, weighted sum, weight]
    for x in sorted(pooled):
        total, weight = pooled[x]
        stack.append([x, x, total, weight])
        while len(stack) > 1 and stack[-2][2] / stack[-2][3] > stack[-1][2] / stack[-1][3]:
            top = stack.pop()
            below = stack[-1]
            below[1] = top[1]
            below[2] += top[2]
            below[3] += top[3]
    return [Block(lo, hi, total / weight, weight) for lo, hi, total, weight in stack]


def fit_map(xs: Sequence[float], ys: Sequence[float]) -> Calibration:
    """The calibration map of the isotonic fit (see the module doc)."""
    if not xs:
        raise CalibrationError("No data to fit a calibration map on.",
                               "Run a benchmark first; failed proposals do not count.")
    px: list[float] = []
    py: list[float] = []
    for b in pav(xs, ys):
        for x in (b.lower, b.upper):
            x = min(1.0, max(0.0, x))
            if px and x <= px[-1]:
                continue
            px.append(x)
            py.append(min(1.0, max(0.0, b.value)))
    return Calibration(tuple(px), tuple(py))


def calibration_json(cal: Calibration, xs: Sequence[float], ys: Sequence[float], source: str,
                     model: str | None) -> dict[str, Any]:
    """What the file holds: the map, and the data it came from."""
    return {
        "x": [round(v, 6) for v in cal.x],
        "y": [round(v, 6) for v in cal.y],
        "model": model,
        "fitted": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "method": "isotonic (pool-adjacent-violators) on raw reliability vs hidden-test correctness",
        "source": source,
        "data": {"raw": [round(v, 6) for v in xs], "correct": [int(bool(y)) for y in ys]},
    }


def write_map(path: Path, data: dict[str, Any]) -> None:
    Calibration.from_mapping(data)  # refuse to write a map that would not load
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        raise CalibrationError(f"Cannot write the calibration map {path}: {exc}.") from exc
