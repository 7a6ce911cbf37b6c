"""The reliability diagram. The only module that imports matplotlib (lazily, headless)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from vibecode.errors import UsageError


def reliability_diagram(bins: Sequence[Mapping[str, Any]], path: Path, title: str) -> Path:
    """Accuracy against confidence per bin (bars), the diagonal, and the bin counts."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise UsageError("Plotting needs matplotlib.", "Install it: pip install 'vibecode[bench]'") from exc
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(5.5, 6.5), sharex=True,
                                      gridspec_kw={"height_ratios": [3, 1]})
    width = 1.0 / max(len(bins), 1)
    filled = [b for b in bins if b["count"]]
    top.bar([b["lower"] for b in filled], [b["accuracy"] for b in filled], width=width, align="edge",
            edgecolor="black", color="#4C72B0", label="observed share correct")
    top.plot([b["confidence"] for b in filled], [b["accuracy"] for b in filled], "o", color="#DD8452",
             label="mean reliability in bin")
    top.plot([0, 1], [0, 1], "--", color="gray", label="perfect calibration")
    top.set_xlim(0, 1)
    top.set_ylim(0, 1)
    top.set_ylabel("share correct (hidden tests)")
    top.set_title(title)
    top.legend(loc="upper left", fontsize=8)
    bottom.bar([b["lower"] for b in bins], [b["count"] for b in bins], width=width, align="edge",
               edgecolor="black", color="#999999")
    bottom.set_xlabel("reliability")
    bottom.set_ylabel("problems")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
