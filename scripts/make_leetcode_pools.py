"""Build the LeetCode replay pools from their hand-written sources and label every candidate by
the hidden tests (the package's test cases, run in the sandbox); never by hand.

    python scripts/make_leetcode_pools.py [--part dev] [--src tests/data/leetcode_pools/src] [--out tests/data/leetcode_pools]

A source file (``src/<part>.txt``) holds blocks: ``=== <slug>`` starts a problem; ``--- <role>
<note>`` starts a piece of code, role one of ``correct`` (written to be right), ``wrong`` (a subtle
bug, the note says which), ``wrong-majority`` (the bug the wrong-majority pool repeats), ``oracle``
(a brute force) and ``generator`` (``generate_input(rng)``). Two pools per problem:

- ``LeetCode/<slug>@agree``: every correct and wrong piece once (the largest behaviour cluster is
  the correct one when at least two correct pieces agree);
- ``LeetCode/<slug>@wrong-majority``: the first correct piece, the wrong-majority piece three times
  (as repeated samples of a model, each with its own reasoning), the oracle and the generator.

Prints JSON: per pool the candidates, and where a hidden label differs from the author's role.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from vibecode.bench.leetcode import PREFIX, select
from vibecode.bench.leetcode_hidden import run_leetcode_hidden
from vibecode.config import Settings
from vibecode.sandbox import make_sandbox

ROLES = ("correct", "wrong", "wrong-majority", "oracle", "generator")
SAMPLE_WORDS = ("", "Let me double-check the loop bounds once more. ", "Checking the examples again, this works. ")


def parse_source(text: str) -> dict[str, list[tuple[str, str, str]]]:
    """slug -> [(role, note, code)] in file order."""
    out: dict[str, list[list[str]]] = {}
    slug: str | None = None
    for line in text.splitlines():
        if line.startswith("=== "):
            slug = line[4:].strip()
            out[slug] = []
        elif line.startswith("--- "):
            if slug is None:
                raise SystemExit(f"a piece before any problem: {line}")
            role, _, note = line[4:].strip().partition(" ")
            if role not in ROLES:
                raise SystemExit(f"unknown role {role!r} in {slug}")
            out[slug].append([role, note.strip(), ""])
        elif slug is not None and out[slug]:
            out[slug][-1][2] += line + "\n"
    return {s: [(r, n, c.strip("\n") + "\n") for r, n, c in ps] for s, ps in out.items()}


def answer(role: str, note: str, code: str, variant: int = 0) -> str:
    if role == "oracle":
        return f"A simple brute force, obviously correct on small inputs: {note}\n\n```python\n{code}```\n"
    if role == "generator":
        return f"An input generator for small valid inputs: {note}\n\n```python\nimport random\n\n{code}```\n"
    thought = f"<think>Approach: {note}. {SAMPLE_WORDS[variant % len(SAMPLE_WORDS)]}</think>"
    return f"{thought}\n\nHere is my solution.\n\n```python\n{code}```\n"


def build(slug: str, pieces: list[tuple[str, str, str]]) -> dict[str, list[dict[str, object]]]:
    def line(pool: str, role: str, note: str, code: str, variant: int = 0) -> dict[str, object]:
        kind = role if role in ("oracle", "generator") else "candidate"
        out: dict[str, object] = {"task_id": f"{PREFIX}{slug}@{pool}", "kind": kind,
                                  "text": answer(role, note, code, variant)}
        if kind == "candidate":
            out["role"] = role
            out["note"] = note
        return out

    right = [p for p in pieces if p[0] == "correct"]
    wrong = [p for p in pieces if p[0] in ("wrong", "wrong-majority")]
    major = [p for p in pieces if p[0] == "wrong-majority"]
    extra = [p for p in pieces if p[0] in ("oracle", "generator")]
    agree = [line("agree", *p) for p in right + wrong]
    pools = {"agree": agree}
    if right and major:
        wm = [line("wrong-majority", *major[0], variant=v) for v in range(3)]
        wm.insert(1, line("wrong-majority", *right[0]))
        pools["wrong-majority"] = wm + [line("wrong-majority", *p) for p in extra]
    return pools


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--src", default="tests/data/leetcode_pools/src")
    ap.add_argument("--out", default="tests/data/leetcode_pools")
    ap.add_argument("--part", default="all",
                    help="build only this part's source (dev: src/dev.txt, held-out-3: src/held-out-3.txt); default all")
    args = ap.parse_args(argv)
    settings = Settings()
    sandbox = make_sandbox(settings.sandbox, settings)
    report: dict[str, object] = {}
    for src in sorted(Path(args.src).glob("*.txt")):
        if args.part != "all" and src.stem != args.part:
            continue
        problems = parse_source(src.read_text(encoding="utf-8"))
        tasks = {t.task_id: t for t in select(ids=list(problems), part="all").tasks}
        lines_out: list[dict[str, object]] = []
        for slug, pieces in problems.items():
            task = tasks.get(PREFIX + slug)
            if task is None:
                print(f"{slug}: not a problem the bench runs", file=sys.stderr)
                return 2
            pools = build(slug, pieces)
            codes = {i: p[2] for i, p in enumerate(pieces) if p[0] not in ("generator",)}
            ran = run_leetcode_hidden(sandbox, task, codes)
            verdict = {code: ran[i] for i, code in codes.items()}
            mismatches = [f"{p[0]} {p[1]}: {ran[i].detail}" for i, p in enumerate(pieces)
                          if i in ran and ran[i].passed != (p[0] in ("correct", "oracle"))]
            for pool_lines in pools.values():
                for x in pool_lines:
                    if x["kind"] == "candidate":
                        code = str(x["text"]).split("```python\n", 1)[1].rsplit("```", 1)[0]
                        x["correct"] = verdict[code].passed
                        x["hidden"] = verdict[code].detail
                    lines_out.append(x)
            report[slug] = {"pools": {k: sum(x["kind"] == "candidate" for x in v) for k, v in pools.items()},
                            "mismatches": mismatches}
        target = Path(args.out) / f"{src.stem}.jsonl"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("".join(json.dumps(x) + "\n" for x in lines_out), encoding="utf-8")
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
