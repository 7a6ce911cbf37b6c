#!/usr/bin/env python3
"""Benchmark the code index on a generated Python repository.

Generates N files (default 2,000) of realistic Python (classes, methods, functions calling one
another across modules, imports, docstrings), commits them to a fresh git repository in a
temporary folder, then times a cold build (empty cache), a warm build (everything cached) and a
warm build after one file changed, plus one repo map. Targets: cold < 10 s, warm < 1 s.

    python scripts/bench_index.py --json [--files 2000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vibecode.repo.code_index import CodeIndex

COLD_TARGET_S = 10.0
WARM_TARGET_S = 1.0


def _module(rng: random.Random, index: int, total: int) -> str:
    others = rng.sample(range(total), k=min(3, total))
    lines = [f'"""Module {index}: generated for the index benchmark."""', "", "import os", "import math"]
    lines += [f"from pkg{o % 20}.mod{o} import helper_{o}" for o in others if o != index]
    lines.append("")
    for c in range(3):
        lines += [
            "",
            f"class Thing{index}_{c}:",
            f'    """A thing number {c}."""',
            "",
            "    def __init__(self, size: int = 3) -> None:",
            "        self.size = size",
            "        self.items = [i * i for i in range(size)]",
            "",
        ]
        for m in range(4):
            call = rng.choice([f"helper_{o}" for o in others if o != index] or ["len"])
            lines += [
                f"    def method_{m}(self, value: int) -> int:",
                "        total = 0",
                "        for item in self.items:",
                f"            total += item * value + {m}",
                "        if total > 100:",
                f"            total = {call}(total)",
                "        return total + int(math.sqrt(abs(total)))",
                "",
            ]
    lines += [
        "",
        f"def helper_{index}(x: int) -> int:",
        "    # keep it small",
        "    value = x % 97",
        f"    return value + len(os.sep) + Thing{index}_0().method_1(value)",
        "",
    ]
    return "\n".join(lines) + "\n"


def generate(root: Path, files: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    for i in range(files):
        folder = root / f"pkg{i % 20}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"mod{i}.py").write_text(_module(rng, i, files), encoding="utf-8")
    for p in range(min(20, files)):
        (root / f"pkg{p}" / "__init__.py").write_text("", encoding="utf-8")
    git = ["git", "-c", "user.email=bench@example.com", "-c", "user.name=bench"]
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run([*git, "-C", str(root), "add", "-A"], check=True)
    subprocess.run([*git, "-C", str(root), "commit", "-q", "-m", "generated"], check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--keep", metavar="DIR", help="generate into DIR and keep it")
    args = parser.parse_args()
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="vibecode-bench-"))
    try:
        t0 = time.perf_counter()
        generate(root, args.files)
        generate_s = time.perf_counter() - t0
        cold = CodeIndex.build(root)
        warm = CodeIndex.build(root)
        changed = root / "pkg0" / "mod0.py"
        changed.write_text(changed.read_text(encoding="utf-8") + "\n\ndef added():\n    return 1\n", encoding="utf-8")
        warm_changed = CodeIndex.build(root)
        t1 = time.perf_counter()
        repo_map = warm.repo_map(focus=["pkg0/mod0.py"], max_tokens=1024)
        map_s = time.perf_counter() - t1
        lines = sum(p.read_text(encoding="utf-8").count("\n") for p in root.rglob("*.py"))
        result = {
            "files": cold.stats.files,
            "lines": lines,
            "definitions": sum(len(f.definitions) for f in cold.files.values()),
            "generate_s": round(generate_s, 3),
            "cold_s": round(cold.stats.seconds, 3),
            "warm_s": round(warm.stats.seconds, 3),
            "warm_one_changed_s": round(warm_changed.stats.seconds, 3),
            "warm_one_changed_parsed": warm_changed.stats.parsed,
            "repo_map_s": round(map_s, 3),
            "repo_map_chars": len(repo_map),
            "cold_target_s": COLD_TARGET_S,
            "warm_target_s": WARM_TARGET_S,
            "cold_ok": cold.stats.seconds < COLD_TARGET_S,
            "warm_ok": warm.stats.seconds < WARM_TARGET_S,
        }
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            print(f"{key:>26}: {value}")
    return 0 if result["cold_ok"] and result["warm_ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
