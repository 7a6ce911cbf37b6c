"""One JSONL record per problem: every candidate with its evidence and its hidden-test outcome.

A record holds what :func:`vibecode.clr.score.decide` needs (examples passed, behaviour tokens,
checked claims, K), so :mod:`vibecode.bench.rescore` can decide again without a model or a
sandbox; and every candidate's hidden-test outcome, so pass@k and the other selectors need no
rerun. The fields (``"version": 1``):

- ``task_id``, ``entry_point``, ``examples`` (how many the pipeline parsed), ``n`` (asked for),
  ``k`` (K the decision used), ``labels`` ("hidden": HumanEval's tests; "pool": a stored label);
- ``status``, ``reliability`` (calibrated when ``calibrated``), ``raw_reliability``, ``reason``,
  ``evidence`` (what the reliability was computed from, ``clr.reliability.Evidence``; null when
  failed), ``decided_with`` (what else the scorer was given: the oracle's tokens, the trusted and
  sound inputs, the answer's bounds, the tiers, each candidate's exact tokens; ``Decision.inputs``,
  absent in records written before it), ``best`` (candidate index or null), ``passed`` (the proposal passed the hidden tests);
- ``clusters``: rank, members, best, score, examples_passed, examples_total, failure_rate;
- ``candidates``: index, text, code, parsed, duplicate_of, error, cluster, r, examples_passed,
  examples_total, behaviour, claims (text, kind, method, verdict, detail), tokens,
  finish_reason, passed, hidden (the hidden-test detail);
- ``completions``: the other model calls (edge cases, verdicts) as replay lines;
- ``timing`` (seconds per stage, plus ``hidden``, ``engine`` and ``wall``), ``tokens``, ``notes``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from vibecode.clr.report import claim_json
from vibecode.errors import UsageError
from vibecode.types import CandidateEvidence, CandidateReport, Claim, ClusterScore, SolveResult

VERSION = 1


def candidate_record(c: CandidateReport, passed: bool, hidden: str) -> dict[str, Any]:
    return {
        "index": c.index,
        "text": c.completion.text,
        "code": c.code,
        "parsed": c.parsed,
        "duplicate_of": c.duplicate_of,
        "error": c.error,
        "cluster": c.cluster,
        "r": None if c.r is None else round(c.r, 6),
        "examples_passed": sum(e.passed for e in c.examples),
        "examples_total": len(c.examples),
        "behaviour": list(c.behaviour),
        "claims": [claim_json(x) for x in c.claims],
        "tokens": c.completion.completion_tokens,
        "finish_reason": c.completion.finish_reason,
        "passed": passed,
        "hidden": hidden,
    }


def cluster_record(c: ClusterScore) -> dict[str, Any]:
    return {"rank": c.rank, "members": list(c.members), "best": c.best, "score": round(c.score, 6),
            "examples_passed": c.examples_passed, "examples_total": c.examples_total,
            "failure_rate": round(c.failure_rate, 6)}


def build_record(
    task_id: str,
    result: SolveResult,
    labels: Mapping[int, tuple[bool, str]],
    *,
    n: int,
    label_source: str,
    completions: Iterable[dict[str, Any]] = (),
    timing: Mapping[str, float] | None = None,
) -> dict[str, Any]:
    """The record of one solved problem. ``labels``: candidate index -> (passed, detail)."""
    d = result.decision
    problem = result.problem
    entry = getattr(getattr(problem, "signature", None), "entry_point", "")
    examples = len(getattr(problem, "examples", ()))
    candidates = [candidate_record(c, *labels.get(c.index, (False, "not run"))) for c in result.candidates]
    best = d.best
    passed = bool(best is not None and labels.get(best, (False, ""))[0])
    return {
        "version": VERSION,
        "task_id": task_id,
        "entry_point": entry,
        "examples": examples,
        "n": n,
        "k": d.k,
        "labels": label_source,
        "status": d.status,
        "reliability": round(d.reliability, 6),
        "raw_reliability": round(d.raw_reliability, 6),
        "calibrated": result.calibrated,
        "reason": d.reason,
        "evidence": d.evidence,
        "decided_with": d.inputs,
        "best": best,
        "passed": passed,
        "clusters": [cluster_record(c) for c in d.clusters],
        "candidates": candidates,
        "completions": list(completions),
        "timing": dict(timing if timing is not None else result.timing),
        "tokens": sum(c.completion.completion_tokens for c in result.candidates),
        "notes": list(result.notes),
    }


def evidence_of(record: Mapping[str, Any]) -> list[CandidateEvidence]:
    """The scorer's input, rebuilt from a record (parsed candidates only, in index order)."""
    exact = (record.get("decided_with") or {}).get("exact") or {}
    out = []
    for c in sorted(record["candidates"], key=lambda c: c["index"]):
        if not c["parsed"]:
            continue
        claims = tuple(Claim(x["text"], x["kind"], x["method"], x["verdict"], x.get("detail", ""))
                       for x in c.get("claims", ()))
        out.append(CandidateEvidence(c["index"], c["examples_passed"], record["examples"],
                                     tuple(c.get("behaviour", ())), claims,
                                     tuple(exact.get(str(c["index"]), ()))))
    return out


def candidate_passed(record: Mapping[str, Any], index: int | None) -> bool:
    if index is None:
        return False
    return any(c["index"] == index and bool(c["passed"]) for c in record["candidates"])


def read_records(path: Path) -> list[dict[str, Any]]:
    """The records of a results file; a torn last line (an interrupted write) is dropped."""
    return list(iter_records(path))


def iter_records(path: Path) -> Iterator[dict[str, Any]]:
    if not path.is_file():
        raise UsageError(f"The results file {path} does not exist.")
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            if number == len(lines):
                return  # interrupted while writing the last line
            raise UsageError(f"Line {number} of {path} is not JSON: {exc.msg}.") from exc
        if not isinstance(obj, dict) or "task_id" not in obj or "candidates" not in obj:
            raise UsageError(
                f"Line {number} of {path} is not a benchmark record.",
                "Give the results.jsonl that `vibecode bench humaneval` or `bench replay` wrote.",
            )
        yield obj


def append_record(path: Path, record: Mapping[str, Any]) -> None:
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(record, ensure_ascii=False) + "\n")
        fh.flush()
