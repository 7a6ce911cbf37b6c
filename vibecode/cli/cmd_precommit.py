"""``vibecode precommit``: the git hook's entry point (see ``vibecode hook install``)."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Any, TextIO

from vibecode.cli.common import add_engine_args, print_json, settings_from_args
from vibecode.cli.progress_route import add_progress_arg, progress_sink
from vibecode.errors import UsageError, VibecodeError

ORDER = 7


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "precommit",
        help="check the staged changes: run the affected tests, suggest a verified fix when they fail",
        description=(
            "Export exactly what is staged, run the tests that depend on the staged files (the "
            "whole suite when that is cheap or cannot be narrowed), and exit 0 when they pass. When "
            "they fail, look for a verified fix within --budget seconds, print the failing tests, "
            "the proposal's diff and reliability, and `vibecode apply ID` to take it. Exit status: "
            "hard mode 1 when tests fail (blocking the commit), soft mode 0 with a warning. "
            "vibecode's own failures never block in soft mode; in hard mode they do when no test "
            "could be run. Your working tree and index are never changed."
        ),
    )
    parser.add_argument("--mode", choices=["soft", "hard"], default="hard", help="hard: failing tests block the commit (default); soft: warn only")
    parser.add_argument("--budget", type=float, default=120.0, metavar="S", help="seconds to look for a fix when tests fail (default 120)")
    parser.add_argument("--n", type=int, metavar="K", help="candidates to sample (default 8)")
    parser.add_argument("--repo", metavar="DIR", help="the repository (default: the current folder)")
    parser.add_argument("--test-cmd", metavar="CMD", help="test command (default: pytest)")
    parser.add_argument("--tests", metavar="SELECTOR", action="append", help="run these tests instead of choosing the affected ones (pytest node ids or paths; repeatable)")
    parser.add_argument("--sandbox", choices=["local", "docker"], help="where the tests run")
    parser.add_argument("--no-plugin-autoload", action="store_true", help="run pytest with PYTEST_DISABLE_PLUGIN_AUTOLOAD=1")
    parser.add_argument("--no-fix", action="store_true", help="only run the tests; do not look for a fix")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    add_progress_arg(parser)
    add_engine_args(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.n is not None and args.n < 1:
        raise UsageError(f"--n must be at least 1, got {args.n}.")
    if args.budget <= 0:
        raise UsageError(f"--budget must be positive, got {args.budget}.")
    try:
        return _run(args)
    except VibecodeError as exc:
        # Anything that stopped the check before it had a result: say so; block only in hard mode.
        code = 1 if args.mode == "hard" else 0
        tail = "The commit is blocked (hard mode); `git commit --no-verify` skips the check." if code else \
            "The commit goes ahead (soft mode)."
        print(f"vibecode precommit: could not check the staged changes: {exc} {tail}", file=sys.stderr)
        if args.json:
            print_json({"outcome": "error", "mode": args.mode, "exit_code": code, "message": str(exc)})
        return code


def _nothing_staged(root: Path) -> bool:
    """True in a git repository whose index equals HEAD (a commit would record no change)."""
    from vibecode.repo.git import find_repo

    repo = find_repo(root) if root.is_dir() else None
    return repo is not None and not repo.status().staged


def _run(args: argparse.Namespace) -> int:
    from vibecode.cli.cmd_fix import FixProgress, build_sandbox, deferred_engine, sample_budget_of
    from vibecode.events import BaselineTested, Event, PrecommitReady
    from vibecode.fix.suite import parse_test_cmd
    from vibecode.precommit.check import PrecommitOptions
    from vibecode.precommit.report import precommit_json
    from vibecode.session import Session, event_json

    root = Path(args.repo or ".").resolve()
    if _nothing_staged(root):
        message = ("nothing is staged, so there is nothing to check; `git add` the changes to commit, "
                   "then commit (the hook checks what is staged).")
        print(f"vibecode precommit: {message}", file=sys.stderr)
        if args.json:
            print_json({"outcome": "nothing_staged", "mode": args.mode, "exit_code": 0, "message": message})
        return 0
    command = parse_test_cmd(args.test_cmd, autoload_plugins=not args.no_plugin_autoload)
    settings = settings_from_args(args, n=args.n, sandbox=args.sandbox)
    command = dataclasses.replace(command, nprocs=settings.sandbox_nprocs)
    sandbox = build_sandbox(settings.sandbox, settings, command.python)
    session = Session(deferred_engine(settings), sandbox, settings)
    options = PrecommitOptions(mode=args.mode, budget_s=args.budget, n=settings.n, command=command, fix=not args.no_fix,
                               allow_no_tests=settings.precommit_allow_no_tests,
                               tests=tuple(args.tests) if args.tests else None)
    progress = FixProgress(settings.n, budget=lambda: sample_budget_of(session))
    eta = progress.inner.eta

    def to_json(event: Event) -> dict[str, Any]:  # the time left in the sampling events too
        return eta.annotate(event, event_json(event))

    # With --json, progress goes to stderr as fix's does: lines on a terminal, events with --progress.
    json_progress = progress_sink(args, progress, to_json) if args.json else None
    show = False
    result = None
    for event in session.precommit(root, options):
        if json_progress is not None:
            json_progress(event)
        elif isinstance(event, BaselineTested):
            show = bool(event.failing) and not args.json
            if show and not args.no_fix:
                print(f"vibecode: {len(event.failing)} test(s) fail on the staged changes; looking for a fix "
                      f"(up to {args.budget:.0f} s)...", file=sys.stderr)
        elif show:
            progress(event)
        if isinstance(event, PrecommitReady):
            result = event.result
    if result is None:  # pragma: no cover - the check always ends with PrecommitReady
        raise UsageError("The check ended without a result.")
    if args.json:
        print_json(precommit_json(result))
    else:
        print_report(result)
    return result.exit_code


def print_report(result: Any, out: TextIO | None = None) -> None:
    """The compact report: failing tests, the top proposal's diff and reliability, how to take it."""
    out = out or sys.stdout
    took = result.timing.get("total", 0.0)
    if result.outcome == "passed":
        scope = "affected " if result.selection == "affected" else ""
        print(f"vibecode: {result.tests_run} {scope}test(s) pass on the staged changes ({took:.1f} s).", file=sys.stderr)
        return
    if result.outcome in ("error", "no_tests"):
        print(f"vibecode precommit: {result.message}", file=sys.stderr)
        return
    out.write(f"vibecode: {len(result.failing)} test(s) fail on the staged changes:\n")
    for case in result.failing[:10]:
        first = [ln for ln in case.message.strip().splitlines() if ln.strip()][:1] or [""]
        out.write(f"  {case.nodeid}: {first[0].strip()[:160]}\n")
    if len(result.failing) > 10:
        out.write(f"  ... and {len(result.failing) - 10} more\n")
    fixed = result.fix
    best = fixed.best_candidate if fixed is not None else None
    if fixed is not None and best is not None and fixed.status in ("verified", "plausible") and best.diff:
        out.write(f"\nProposed fix ({fixed.status}, reliability {fixed.reliability:.2f}): "
                  f"fixes {best.fixed}/{best.failing_total}, regressions {len(best.regressions)} "
                  f"({best.regression_run} checked, {best.regression_scope}).\n\n")
        out.write(best.diff.encode("utf-8", "surrogateescape").decode("utf-8", "replace"))
        if not best.diff.endswith("\n"):
            out.write("\n")
        if result.proposal_id:
            out.write(f"\nTake it with: vibecode apply {result.proposal_id}\n")
    else:
        out.write(f"\nNo fix proposed: {result.message}\n")
        for note in (fixed.notes if fixed is not None else ()):
            out.write(f"note: {note}\n")
    if result.exit_code:
        out.write("\nvibecode: the commit is blocked (hard mode). Skip the check once with `git commit --no-verify`.\n")
    else:
        out.write("\nvibecode: warning: committing with failing tests (soft mode).\n")
    out.flush()
