"""LeetCode replay pools: reading them, serving them in several candidate orders, and the pool
figures of the issue (a correct pick in every pool whose largest behaviour cluster is correct, in
every order; a correct pick in wrong-majority pools that carry an oracle line).

A pool file holds lines ``{"task_id": "LeetCode/two_sum@agree", "kind": "candidate" | "oracle" |
"generator", "text": "...", "correct": true}`` (``correct`` on candidate lines, written by
``scripts/label_leetcode_pools.py`` from the hidden tests). Order 0 is the file's order, order 1
the reverse, further orders seeded shuffles; order k > 0 runs under the id ``<pool>~o<k>``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vibecode.bench.dataset import base_id
from vibecode.bench.metrics import auroc
from vibecode.errors import UsageError


@dataclass(frozen=True)
class PoolSet:
    lines: dict[str, list[dict[str, Any]]]  # pool id -> its lines, in file order
    oracle: set[str]  # pool ids with an oracle line

    @property
    def slugs(self) -> list[str]:
        return list(dict.fromkeys(base_id(t) for t in self.lines))


def pool_files(path: Path) -> list[Path]:
    if path.is_dir():
        files = sorted(path.glob("*.jsonl"))
        if not files:
            raise UsageError(f"The pool folder {path} holds no .jsonl files.")
        return files
    if path.is_file():
        return [path]
    raise UsageError(f"The pool file or folder {path} does not exist.",
                     "The LeetCode pools are in tests/data/leetcode_pools/.")


def read_pool_set(path: Path) -> PoolSet:
    lines: dict[str, list[dict[str, Any]]] = {}
    for file in pool_files(path):
        for number, raw in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise UsageError(f"Line {number} of {file} is not JSON: {exc.msg}.") from exc
            if not isinstance(obj, dict) or not isinstance(obj.get("task_id"), str) \
                    or not isinstance(obj.get("text"), str):
                raise UsageError(f'Line {number} of {file} needs "task_id" and "text".',
                                 'Pool lines look like {"task_id": "LeetCode/two_sum@agree", '
                                 '"kind": "candidate", "text": "..."}.')
            if "~" in obj["task_id"]:
                raise UsageError(f"Line {number} of {file}: a pool id may not contain '~' (it marks orders).")
            lines.setdefault(obj["task_id"], []).append(obj)
    if not any(x.get("kind", "candidate") == "candidate" for ls in lines.values() for x in ls):
        raise UsageError(f"The pools in {path} hold no candidates.")
    oracle = {t for t, ls in lines.items() if any(x.get("kind") == "oracle" for x in ls)}
    return PoolSet(lines, oracle)


def order_id(pool_id: str, k: int) -> str:
    return pool_id if k == 0 else f"{pool_id}~o{k}"


def pool_of(task_id: str) -> str:
    return task_id.split("~", 1)[0]


def ordered(lines: Sequence[dict[str, Any]], pool_id: str, k: int) -> list[dict[str, Any]]:
    """The pool's lines with its candidates in order ``k`` (0: as stored, 1: reversed, then
    shuffles seeded by the pool id); other lines keep their place after the candidates."""
    cands = [x for x in lines if x.get("kind", "candidate") == "candidate"]
    rest = [x for x in lines if x.get("kind", "candidate") != "candidate"]
    if k == 1:
        cands = cands[::-1]
    elif k > 1:
        cands = cands[:]
        random.Random(f"{pool_id}:{k}").shuffle(cands)
    return cands + rest


def write_replay(pools: PoolSet, pool_ids: Sequence[str], orders: int, target: Path) -> list[str]:
    """Write every chosen pool in ``orders`` orders as one replay file; returns the run ids."""
    ids: list[str] = []
    with target.open("w", encoding="utf-8") as fh:
        for pid in pool_ids:
            for k in range(orders):
                tid = order_id(pid, k)
                ids.append(tid)
                for x in ordered(pools.lines[pid], pid, k):
                    fh.write(json.dumps({"task_id": tid, "kind": x.get("kind", "candidate"), "text": x["text"]}) + "\n")
    return ids


def _groups(record: Mapping[str, Any]) -> tuple[int, int, int]:
    """(correct candidates, wrong candidates, size of the largest group of wrong candidates that
    fail the same way) by the hidden tests: the failing detail names the first failing case and
    the answer given, which stands in for behaviour."""
    cands = [c for c in record["candidates"] if c["parsed"]]
    right = sum(bool(c["passed"]) for c in cands)
    wrong: dict[str, int] = {}
    for c in cands:
        if not c["passed"]:
            wrong[str(c.get("hidden", ""))] = wrong.get(str(c.get("hidden", "")), 0) + 1
    return right, len(cands) - right, max(wrong.values(), default=0)


def pool_figures(records: Sequence[Mapping[str, Any]], oracle: set[str]) -> dict[str, Any]:
    """The pool modes of the issue's "Done when", from the hidden-test outcome of each candidate."""
    modes: dict[str, list[Mapping[str, Any]]] = {"largest_cluster_correct": [], "wrong_majority_oracle": [],
                                                 "wrong_majority_no_oracle": [], "other": []}
    for r in records:
        right, wrong, top_wrong = _groups(r)
        if right > top_wrong and right > 0:
            modes["largest_cluster_correct"].append(r)
        elif wrong > right:
            key = "wrong_majority_oracle" if pool_of(r["task_id"]) in oracle else "wrong_majority_no_oracle"
            modes[key].append(r)
        else:
            modes["other"].append(r)
    out: dict[str, Any] = {}
    for mode, rs in modes.items():
        bad = [r["task_id"] for r in rs if not r["passed"]]
        pools = {pool_of(r["task_id"]) for r in rs}
        picked = [r for r in rs if r.get("best") is not None]
        out[mode] = {"records": len(rs), "pools": len(pools), "correct_picks": len(rs) - len(bad),
                     "share": (len(rs) - len(bad)) / len(rs) if rs else None,
                     "pools_correct_in_every_order": len(pools - {pool_of(t) for t in bad}),
                     # reliability, right vs wrong picks of this mode (None: one side is empty)
                     "auroc": auroc([float(r["reliability"]) for r in picked], [bool(r["passed"]) for r in picked]),
                     "wrong": bad}
    return out


def seal(figures: Mapping[str, Any]) -> dict[str, Any]:
    """The pool figures without the ids of the wrong picks (a count, ``wrong_sealed``, instead):
    for a held-out part nobody has examined yet, whose figures may be read but not its failures."""
    return {mode: {**{k: v for k, v in row.items() if k != "wrong"}, "wrong_sealed": len(row["wrong"])}
            for mode, row in figures.items()}
