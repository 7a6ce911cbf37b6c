"""``vibecode tui [PATH]`` (also a bare ``vibecode``): the terminal UI."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from vibecode.cli.common import add_engine_args, settings_from_args
from vibecode.errors import UsageError

ORDER = 1


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "tui",
        help="open the terminal UI (what a bare `vibecode` runs)",
        description=(
            "Open the terminal UI in PATH (default: the current folder): solve a problem file, "
            "a pasted problem or a math question, fix the failing tests of PATH's git working "
            "tree, ask a free question, watch the candidates and their checks, and apply the "
            "proposal with undo. PATH may also be a problem file, which is solved right away."
        ),
    )
    parser.add_argument("path", nargs="?", default=".", help="folder to work in, or a problem file to solve")
    parser.add_argument("--solution", metavar="FILE",
                        help="the file that apply writes the proposed solution to (default: solution.py)")
    parser.add_argument("--n", type=int, metavar="K", help="candidates to sample (default 8)")
    parser.add_argument("--sandbox", choices=["local", "docker"], help="where candidates run")
    parser.add_argument("--time-budget", type=float, metavar="S", help="stop sampling after S seconds")
    add_engine_args(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.n is not None and args.n < 1:
        raise UsageError(f"--n must be at least 1, got {args.n}.")
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError("The terminal UI needs a terminal.",
                         "Use `vibecode solve FILE` (or --json) in scripts and pipes.")
    path = Path(args.path).expanduser()
    if not path.exists():
        raise UsageError(f"{args.path} does not exist.", "Give a folder, or a problem file (.md, .txt, .py).")
    # A problem file is solved right away, in the current folder (where apply writes).
    root, problem = (Path.cwd(), path.resolve()) if path.is_file() else (path, None)
    settings = settings_from_args(args, n=args.n, sandbox=args.sandbox, time_budget_s=args.time_budget)
    from vibecode.tui import run_tui

    solution = Path(args.solution) if args.solution else None
    return run_tui(root, settings, solution=solution, problem=problem)
