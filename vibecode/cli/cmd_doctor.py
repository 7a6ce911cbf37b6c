"""``vibecode doctor``: what works on this machine, and how to fix what does not."""

from __future__ import annotations

import argparse
from typing import Any

from vibecode.cli.common import print_json

ORDER = 90


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "doctor",
        help="check Python, the llama.cpp build, models, sandbox and git",
        description="Report what this machine can do; each problem comes with a one-line fix.",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vibecode.doctor import run_doctor

    report = run_doctor()
    if args.json:
        print_json({section: [c.to_json() for c in checks] for section, checks in report.items()})
        return 0
    for section, checks in report.items():
        print(section)
        for check in checks:
            mark = "ok " if check.ok else "!! "
            print(f"  {mark}{check.name}: {check.detail}")
            if not check.ok and check.fix:
                print(f"     fix: {check.fix}")
    return 0
