"""``vibecode doctor``: what works on this machine, and how to fix what does not."""

from __future__ import annotations

import argparse
from typing import Any

from vibecode.cli.common import print_json

ORDER = 90
MARKS = {"ok": "ok ", "warn": "~~ ", "fail": "!! "}


def register(sub: Any) -> None:
    from vibecode.doctor import FAILED_EXIT

    parser = sub.add_parser(
        "doctor",
        help="check Python, the llama.cpp build, models, sandbox and git",
        description=(
            "Report what this machine can do; each problem comes with a one-line fix. A failed "
            "check is marked !! when vibecode needs it, ~~ (a warning) when only an optional "
            "feature is off: GPU offload, a model not downloaded while another is, the sandbox "
            f"backend the settings do not use. Exit status: {FAILED_EXIT} when any check fails, "
            "0 when all pass or only warn (with --json too; each check's \"level\" is ok, warn "
            "or fail)."
        ),
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vibecode.doctor import exit_status, levels, run_doctor

    report = run_doctor()
    graded = levels(report)
    status = exit_status(graded)
    if args.json:
        print_json({section: [{**c.to_json(), "level": lv} for c, lv in zip(checks, graded[section], strict=True)]
                    for section, checks in report.items()})
        return status
    for section, checks in report.items():
        print(section)
        for check, lv in zip(checks, graded[section], strict=True):
            print(f"  {MARKS[lv]}{check.name}: {check.detail}")
            if not check.ok and check.fix:
                print(f"     fix: {check.fix}")
    failed = sum(marks.count("fail") for marks in graded.values())
    warned = sum(marks.count("warn") for marks in graded.values())
    if failed:
        print(f"\n{failed} check{'s' if failed != 1 else ''} failed (exit status {status}); fix the lines marked !!.")
    elif warned:
        print(f"\nAll required checks pass; {warned} warning{'s' if warned != 1 else ''} (~~): optional features that are off.")
    else:
        print("\nAll checks pass.")
    return status
