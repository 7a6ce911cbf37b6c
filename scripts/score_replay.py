"""Capture what the scorer saw in a bench run, and score it again offline with another formula.

    # run a bench as usual, keeping every final decide() call's inputs and the hidden-test labels
    python scripts/score_replay.py capture /tmp/dev.pkl -- bench leetcode --pools tests/data/leetcode_pools \
        --part dev --orders 6 --out /tmp/dev --no-plot
    # AUROC, verified precision and the AUROC among verified picks, with this tree's score.py ...
    python scripts/score_replay.py evaluate /tmp/dev.pkl
    # ... or with the score.py of a git revision (e.g. main), and/or the "what if" of an input
    # that separates every wrong candidate (by the hidden tests) from the correct ones
    python scripts/score_replay.py evaluate /tmp/dev.pkl --score-from main --what-if
    # a split-half check: only the problems whose slug hashes to half 0 (or 1)
    python scripts/score_replay.py evaluate /tmp/dev.pkl --half 0

A record's ``results.jsonl`` line does not hold the oracle's answers, so ``vibecode bench
rescore`` cannot redo an oracle-decided decision; the capture does. The capture file is a pickle
of this machine's own run: load only captures you made.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import importlib.util
import inspect
import pickle
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def capture(out: Path, argv: list[str]) -> int:
    import vibecode.bench.runner as runner
    import vibecode.clr.stress as stress
    import vibecode.solve.pipeline as pipeline
    from vibecode.cli import main

    local = threading.local()
    rows: list[dict[str, Any]] = []
    decide, too_slow, build = pipeline.decide, stress.block_too_slow, runner.build_record

    def decide_seen(evidence: Any, **kw: Any) -> Any:
        local.last = (list(evidence), {k: v for k, v in kw.items() if k != "calibration"})
        return decide(evidence, **kw)

    def too_slow_seen(decision: Any, slow: Any) -> Any:
        local.slow = dict(slow)
        return too_slow(decision, slow)

    def build_seen(task_id: str, result: Any, labels: Any, **kw: Any) -> Any:
        record = build(task_id, result, labels, **kw)
        evidence, args = getattr(local, "last", (None, {}))
        rows.append({"task_id": task_id, "evidence": evidence, "kw": args, "too_slow": getattr(local, "slow", {}),
                     "passed": {i: p for i, (p, _) in labels.items()}, "status": record["status"]})
        local.last, local.slow = None, {}
        return record

    pipeline.decide, stress.block_too_slow, runner.build_record = decide_seen, too_slow_seen, build_seen  # type: ignore[assignment]
    try:
        return main(argv)
    finally:
        out.write_bytes(pickle.dumps(rows))
        print(f"captured {len(rows)} decisions in {out}", file=sys.stderr)


def score_module(ref: str | None) -> ModuleType:
    if ref is None:
        import vibecode.clr.score as score
        return score
    text = subprocess.run(["git", "show", f"{ref}:vibecode/clr/score.py"], cwd=REPO, capture_output=True,
                          text=True, check=True).stdout
    path = Path(tempfile.mkdtemp()) / "score_at_ref.py"
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("score_at_ref", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["score_at_ref"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def slug_half(task_id: str) -> int:
    """0 or 1 by the SHA-256 of the problem's slug (``LeetCode/two_sum@agree~o1`` -> ``two_sum``),
    so both orders and both pool modes of a problem fall in the same half."""
    slug = task_id.rsplit("/", 1)[-1].split("@", 1)[0]
    return hashlib.sha256(slug.encode()).digest()[0] % 2


def evaluate(path: Path, ref: str | None, what_if: bool, half: int | None = None) -> dict[str, Any]:
    from vibecode.bench.metrics import auroc

    score = score_module(ref)
    accepts = set(inspect.signature(score.decide).parameters)  # an older decide() lacks newer keywords
    rows = [r for r in pickle.loads(path.read_bytes()) if r["evidence"] is not None
            and (half is None or slug_half(r["task_id"]) == half)]
    rel, ok, verified = [], [], []
    for r in rows:
        evidence, kw = r["evidence"], {k: v for k, v in r["kw"].items() if k in accepts}
        if what_if:  # one more input: every wrong candidate answers it differently from the right ones
            evidence = [dataclasses.replace(e, behaviour=(*e.behaviour, "ok:right" if r["passed"].get(e.index)
                                                           else f"ok:bug{e.index % 2}")) for e in evidence]
            if kw.get("oracle"):
                kw["oracle"] = (*kw["oracle"], "ok:right")
            if kw.get("trusted"):
                kw["trusted"] = (*kw["trusted"], True)
        d = score.decide(evidence, **kw)
        if r["too_slow"]:
            d = score.block_too_slow(d, r["too_slow"])
        rel.append(d.raw_reliability)
        ok.append(bool(d.best is not None and r["passed"].get(d.best, False)))
        verified.append(d.status == "verified")
    ver = [i for i, v in enumerate(verified) if v]
    return {"score": ref or "this tree", "what_if": what_if, "half": half, "picks": len(rows), "wrong_picks": ok.count(False),
            "auroc": auroc(rel, ok), "verified": len(ver),
            "verified_precision": sum(ok[i] for i in ver) / len(ver) if ver else None,
            "auroc_verified": auroc([rel[i] for i in ver], [ok[i] for i in ver])}


def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] == "capture":
        rest = sys.argv[3:]
        return capture(Path(sys.argv[2]), rest[1:] if rest[:1] == ["--"] else rest)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    ev = sub.add_parser("evaluate")
    ev.add_argument("capture", type=Path)
    ev.add_argument("--score-from", default=None, help="a git revision whose vibecode/clr/score.py scores")
    ev.add_argument("--what-if", action="store_true", help="add an input that separates every wrong candidate")
    ev.add_argument("--half", type=int, choices=(0, 1), default=None,
                    help="only the problems whose slug hashes to this half (a split-half check)")
    sub.add_parser("capture", help="capture OUT.pkl -- <vibecode arguments>")
    args = parser.parse_args()
    if not args.capture.is_file():
        print(f"score_replay: no capture file {args.capture}.", file=sys.stderr)
        return 2
    import json
    print(json.dumps(evaluate(args.capture, args.score_from, args.what_if, args.half), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
