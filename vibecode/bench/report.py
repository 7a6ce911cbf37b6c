"""``summary.md``, ``summary.json`` and ``reliability.png`` of a run, from its records."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from vibecode.bench.summary import STAGES, summarize

SELECTOR_WORDS = {
    "clr": "full CLR (examples + clusters + claims)",
    "no_claims": "CLR without claims (examples + clusters)",
    "examples_only": "examples only (first candidate passing them)",
    "majority": "majority vote (largest behaviour cluster)",
}


def _pct(v: float | None) -> str:
    return "n/a" if v is None else f"{100 * v:.1f}%"


def _num(v: float | None, digits: int = 3) -> str:
    return "n/a" if v is None else f"{v:.{digits}f}"


def summary_markdown(s: Mapping[str, Any], title: str) -> str:
    meta = s.get("meta", {})
    lines = [f"# {title}", ""]
    about = [f"{s['problems']} problems", f"K = {s['k']} candidates asked for"]
    for key in ("engine", "labels", "model_checks", "workers", "seed", "machine"):
        if meta.get(key) is not None:
            about.append(f"{key.replace('_', ' ')}: {meta[key]}")
    lines += ["; ".join(about) + ".", ""]
    lines += ["| figure | value |", "|---|---|"]
    rows = [("pass@1 (first sample)", _pct(s["pass@1_first_sample"]))]
    for k, v in s["pass@k"].items():
        rows.append((f"pass@{k} (unbiased, {v['problems']} problems)", _pct(v["value"])))
    rows += [
        ("CLR-selected accuracy (proposal passes the hidden tests)", _pct(s["clr_accuracy"])),
        ("majority-vote accuracy (no examples, no claims)", _pct(s["selectors"]["majority"]["accuracy"])),
        ("CLR without claims", _pct(s["selectors"]["no_claims"]["accuracy"])),
        ("some candidate correct (oracle)", _pct(s["any_correct"])),
        (f"precision of \"verified\" ({s['verified']} verified)", _pct(s["verified_precision"])),
        ("coverage (share verified)", _pct(s["coverage"])),
        (f"precision of \"plausible\" ({s['plausible']} plausible)", _pct(s["plausible_precision"])),
        ("failed (no candidate passes the examples)", str(s["failed"])),
        ("ECE, 10 bins" + (" (calibrated)" if s["calibrated"] else " (uncalibrated)"), _num(s["ece"])),
        ("Brier score", _num(s["brier"])),
        (f"AUROC of reliability, right vs wrong picks ({s.get('auroc_picks', 0)} picks)", _num(s.get("auroc"))),
        (f"AUROC of reliability, verified picks only ({s.get('verified', 0)})", _num(s.get("auroc_verified"))),
        (f"AUROC of reliability, plausible picks only ({s.get('plausible', 0)})", _num(s.get("auroc_plausible"))),
        ("tokens/s (engine time; n/a for a replay)", _num(s["tokens_per_s"], 1)),
        ("wall time of the run (s)", _num(s["wall_s"], 1)),
    ]
    lines += [f"| {a} | {b} |" for a, b in rows]
    lines += ["", "## Selectors (recomputed from the stored candidates)", "",
              "| selector | accuracy | verified precision | coverage | ECE (raw) |", "|---|---|---|---|---|"]
    for name, row in s["selectors"].items():
        lines.append(f"| {SELECTOR_WORDS.get(name, name)} | {_pct(row['accuracy'])} | "
                     f"{_pct(row.get('verified_precision'))} | {_pct(row.get('coverage'))} | {_num(row.get('ece'))} |")
    hold = s.get("holdout")
    if hold:
        lines += ["", "## Calibration, held out", "",
                  "An isotonic map fitted on the records of the even-numbered problems, measured on those of the "
                  "odd-numbered ones (and the other way round). Failed proposals keep reliability 0.", "",
                  "| fitted on | measured on | ECE raw | ECE calibrated | ECE calibrated, not failed | Brier raw | Brier calibrated |",
                  "|---|---|---|---|---|---|---|"]
        for h in (hold, hold.get("reverse")):
            if h:
                other = "odd" if h["fit"] == "even" else "even"
                lines.append(f"| {h['fit_records']} {h['fit']} | {h['test_records']} {other} | {_num(h['ece_raw'])} | "
                             f"{_num(h['ece_calibrated'])} | {_num(h['ece_calibrated_not_failed'])} | "
                             f"{_num(h['brier_raw'])} | {_num(h['brier_calibrated'])} |")
    lines += ["", "## Wall time per problem, mean seconds per stage", "",
              "| " + " | ".join(STAGES) + " |", "|" + "---|" * len(STAGES)]
    lines.append("| " + " | ".join(_num(s["stage_seconds_mean"].get(st), 2) for st in STAGES) + " |")
    lines += ["", "## Reliability diagram", "", "![reliability](reliability.png)", "",
              "| bin | problems | mean reliability | share correct |", "|---|---|---|---|"]
    for b in s["bins"]:
        if b["count"]:
            lines.append(f"| {b['lower']:.1f}-{b['upper']:.1f} | {b['count']} | {b['confidence']:.3f} | {b['accuracy']:.3f} |")
    return "\n".join(lines) + "\n"


def write_outputs(records: Sequence[Mapping[str, Any]], out: Path, meta: Mapping[str, Any], title: str,
                  plot: bool = True) -> dict[str, Any]:
    """Write summary.json, summary.md and (with ``plot``) reliability.png into ``out``."""
    from vibecode.bench.plots import reliability_diagram

    s = summarize(records, meta)
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(s, indent=1) + "\n", encoding="utf-8")
    (out / "summary.md").write_text(summary_markdown(s, title), encoding="utf-8")
    if plot:
        label = "calibrated" if s["calibrated"] else "raw reliability"
        series = [(f"{label}, all {s['problems']}", s["bins"])]
        hold = s.get("holdout")
        if hold and not s["calibrated"]:
            series.append((f"calibrated on the even half, measured on the {hold['test_records']} odd", hold["bins"]))
        reliability_diagram(series, out / "reliability.png", title)
    return s
