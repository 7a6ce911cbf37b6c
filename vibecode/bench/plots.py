"""The reliability diagram. The only module that imports matplotlib (lazily, headless)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from vibecode.errors import UsageError

Bins = Sequence[Mapping[str, Any]]
COLOURS = ("#4C72B0", "#DD8452", "#55A868")


def reliability_diagram(series: Sequence[tuple[str, Bins]], path: Path, title: str) -> Path:
    """Share correct against mean reliability per bin, one line per series (the first also as
    bars, with its bin counts below), and the diagonal of perfect calibration."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise UsageError("Plotting needs matplotlib.", "Install it: pip install 'vibecode[bench]'") from exc
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(5.5, 6.5), sharex=True,
                                      gridspec_kw={"height_ratios": [3, 1]})
    first = series[0][1] if series else []
    width = 1.0 / max(len(first), 1)
    filled = [b for b in first if b["count"]]
    top.bar([b["lower"] for b in filled], [b["accuracy"] for b in filled], width=width, align="edge",
            edgecolor="black", color=COLOURS[0], alpha=0.35)
    for n, (label, bins) in enumerate(series):
        points = [b for b in bins if b["count"]]
        top.plot([b["confidence"] for b in points], [b["accuracy"] for b in points], "o-",
                 color=COLOURS[n % len(COLOURS)], label=label)
    top.plot([0, 1], [0, 1], "--", color="gray", label="perfect calibration")
    top.set_xlim(0, 1)
    top.set_ylim(0, 1.02)
    top.set_ylabel("share correct (hidden tests)")
    top.set_title(title)
    top.legend(loc="lower right", fontsize=8)
    bottom.bar([b["lower"] for b in first], [b["count"] for b in first], width=width, align="edge",
               edgecolor="black", color="#999999")
    bottom.set_xlabel("reliability (mean per bin)")
    bottom.set_ylabel("records")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
