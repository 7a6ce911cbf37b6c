"""``vibecode fix``: the tests fail; propose verified patches (and apply the best on request).

This module also holds the rendering that ``vibecode precommit`` shares: progress lines for the
fix events, the ranked table, the compact report.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from vibecode.cli.cmd_sandbox import (
    add_isolation_arg,
    isolation_json,
    print_isolation,
    warn_isolation,
)
from vibecode.cli.common import (
    add_engine_args,
    open_engine,
    print_json,
    repo_root,
    settings_from_args,
)
from vibecode.cli.progress_route import add_progress_arg, progress_sink
from vibecode.errors import UsageError
from vibecode.termsafe import safe_stream

if TYPE_CHECKING:
    from vibecode.cli.eta import BudgetSource
    from vibecode.events import Event
    from vibecode.session import Session

ORDER = 6


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "fix",
        help="the tests fail: propose verified patches, ranked, with a reliability score",
        description=(
            "Run the tests in a sandbox on a copy of the working tree; when some fail, localize the "
            "bug, sample K patches, verify each distinct one in its own sandbox (the failing tests, "
            "then the tests that passed before), score and rank them, and save them as proposals "
            "(`vibecode apply ID`). Your files change only with --apply, and only for a verified "
            "proposal. Exit status: 0 when nothing fails or a fix passes everything checked "
            "(with --apply: when it was applied), 1 when no patch does, 2 and above for errors."
        ),
    )
    parser.add_argument("--repo", metavar="DIR", help="the working tree (default: the current folder)")
    parser.add_argument("--test-cmd", metavar="CMD", help="test command (default: pytest); a non-pytest command must write JUnit XML to $VIBECODE_JUNIT")
    parser.add_argument("--tests", metavar="SELECTOR", action="append", help="tests to run (pytest node ids or paths; repeatable)")
    parser.add_argument("--n", type=int, metavar="K", help="candidates to sample (default 8)")
    parser.add_argument("--sandbox", choices=["local", "docker"], help="where the tests run")
    add_isolation_arg(parser)
    parser.add_argument("--time-budget", type=float, metavar="S", help="stop sampling and verifying after S seconds")
    parser.add_argument("--timeout", type=float, default=600.0, metavar="S", help="limit for one test run (default 600)")
    parser.add_argument("--allow-test-edits", action="store_true", help="let patches that edit test files compete normally")
    parser.add_argument("--no-plugin-autoload", action="store_true", help="run pytest with PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 (faster; name needed plugins with -p in --test-cmd)")
    parser.add_argument("--no-model-checks", action="store_true", help="skip model verdicts on claims")
    parser.add_argument("--apply", action="store_true", help="apply the best proposal to your files if it is verified (undo with `vibecode undo`)")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    parser.add_argument("--json-events", action="store_true", help="stream the session's events as JSON lines")
    add_progress_arg(parser)
    add_engine_args(parser)
    parser.set_defaults(func=run)


def build_sandbox(kind: str, settings: Any, python: str | None) -> Any:
    """The sandbox. The tests run with the project's own interpreter (found by the fix pipeline,
    or the one the test command names), which only the local sandbox can see."""
    import re

    from vibecode.sandbox import make_sandbox

    if python is not None and kind != "local" and not re.match(r"^python(\d+(\.\d+)?)?$", Path(python).name):
        raise UsageError("A Python interpreter in --test-cmd works with the local sandbox only.",
                         "In Docker, put the project's dependencies in the image instead.")
    return make_sandbox(kind, settings)


def deferred_engine(settings: Any) -> Any:
    from vibecode.engine.deferred import DeferredEngine

    return DeferredEngine(lambda: open_engine(settings))


def run(args: argparse.Namespace) -> int:
    """``vibecode fix``; with --json an error is also one JSON object on stdout."""
    from vibecode.errors import VibecodeError

    try:
        return _run(args)
    except VibecodeError as exc:
        if getattr(args, "json", False):
            print_json({"status": "error", "mode": "fix", "error": exc.message, "hint": exc.hint,
                        "exit_code": exc.exit_code})
        raise


def _run(args: argparse.Namespace) -> int:
    from vibecode.events import FixReady
    from vibecode.fix.report import fix_json
    from vibecode.fix.suite import parse_test_cmd
    from vibecode.session import Session, event_json

    if args.n is not None and args.n < 1:
        raise UsageError(f"--n must be at least 1, got {args.n}.")
    root = repo_root(args)
    command = parse_test_cmd(args.test_cmd, autoload_plugins=not args.no_plugin_autoload)
    settings = settings_from_args(args, n=args.n, sandbox=args.sandbox, time_budget_s=args.time_budget,
                                  isolation=args.isolation)
    command = dataclasses.replace(command, nprocs=settings.sandbox_nprocs)
    sandbox = build_sandbox(settings.sandbox, settings, command.python)
    warn_isolation(sandbox)
    session = Session(deferred_engine(settings), sandbox, settings)
    progress = FixProgress(settings.n, budget=lambda: sample_budget_of(session))
    eta = progress.inner.eta

    def to_json(event: Event) -> dict[str, Any]:  # the time left in the sampling events too
        return eta.annotate(event, event_json(event))

    show = progress_sink(args, progress, to_json)
    result = None
    for event in session.fix(root, command=command, tests=tuple(args.tests) if args.tests else None,
                             allow_test_edits=args.allow_test_edits, timeout=args.timeout,
                             use_model_checks=not args.no_model_checks):
        show(event)
        if isinstance(event, FixReady):
            result = event.result
    if result is None:  # pragma: no cover - the pipeline always ends with FixReady
        raise UsageError("The run ended without a result.")
    applied = apply_best(root, result) if args.apply else None
    if args.json:
        print_json({**fix_json(result), "applied": applied, **isolation_json(sandbox)})
    elif not args.json_events:
        print_fix_result(result)
        print_isolation(sandbox)
        if applied is not None:
            print_applied(applied)
    if result.status == "passing":
        return 0
    if result.status == "no_tests":
        return 1
    if args.apply:
        return 0 if applied is not None and applied.get("applied") else 1
    return 1 if result.status == "failed" else 0


def apply_best(root: Path, result: Any) -> dict[str, Any]:
    """Apply the best proposal through the journal when it is verified; say why not otherwise."""
    from vibecode.repo.workspace import apply_patch

    best = result.best_candidate
    if result.status != "verified" or best is None or best.patch is None:
        why = "nothing fails" if result.status == "passing" else f"the best proposal is {result.status}, not verified"
        return {"applied": False, "reason": why}
    report = apply_patch(root, best.patch, description=f"vibecode fix proposal {best.proposal_id or best.index}")
    return {"applied": True, "files": list(report.files), "journal_id": report.journal_id,
            "proposal_id": best.proposal_id}


def print_applied(applied: dict[str, Any], out: TextIO | None = None) -> None:
    out = out or sys.stdout
    if applied.get("applied"):
        out.write(f"\nApplied to {', '.join(applied['files'])} (journal entry {applied['journal_id']}); "
                  "undo with `vibecode undo`.\n")
    else:
        out.write(f"\nNot applied: {applied['reason']}.\n")


# ---- rendering -------------------------------------------------------------------------------


FIX_STAGE_WORDS = {
    "tests": "running the tests",
    "localize": "localizing the failure",
    "extract": "extracting the edits",
    "verify": "verifying the patches in the sandbox",
    "claims": "checking claims",
    "score": "scoring",
}


class FixProgress:
    """Progress lines on stderr for the fix events; sampling progress as in solve."""

    def __init__(self, n: int, out: TextIO | None = None, budget: BudgetSource | None = None) -> None:
        from vibecode.cli.render import Progress

        self.out = out or sys.stderr
        self.inner = Progress(n, self.out, budget=budget)
        self.test_edits: set[int] = set()  # candidates whose patch edits a test file

    def __call__(self, event: Any) -> None:
        from vibecode.events import (
            BaselineTested,
            ContextBuilt,
            PatchParsed,
            PatchVerified,
            StageStarted,
        )

        if isinstance(event, BaselineTested):
            where = {"index": "the staged changes", "worktree": "the working tree"}.get(event.label, event.label)
            self._line(f"tests on {where}: {event.passed} passed, {len(event.failing)} failing ({event.duration_s:.1f} s)")
        elif isinstance(event, ContextBuilt):
            self._line(f"context: {event.tokens} tokens of {event.budget}; suspects: {', '.join(event.suspects[:4]) or 'none'}")
        elif isinstance(event, PatchParsed):
            if event.parsed and event.test_edit:
                self.test_edits.add(event.index)
            if not event.parsed:
                self._line(f"candidate {event.index} dropped: {_first_line(event.error)}")
            elif event.duplicate_of is not None:
                self._line(f"candidate {event.index}: same patch as candidate {event.duplicate_of}")
        elif isinstance(event, PatchVerified):
            extra = f"; {event.error}" if event.error else ""
            regress = f", regressions {len(event.regressions)}/{event.regression_run}" if event.fixed == event.failing_total else ""
            edits = " (its patch edits a test file)" if event.index in self.test_edits else ""
            self._line(f"candidate {event.index}: fixes {event.fixed}/{event.failing_total}{edits}{regress}{extra}")
        elif isinstance(event, StageStarted) and event.stage == "environment":
            self._line(f"environment: {event.detail}")
        elif isinstance(event, StageStarted) and event.stage in FIX_STAGE_WORDS:
            detail = f" ({event.detail})" if event.detail and event.stage == "verify" else ""
            self._line(FIX_STAGE_WORDS[event.stage] + detail)
        else:
            self.inner(event)

    def _line(self, text: str) -> None:
        self.inner._line(text)


def sample_budget_of(session: Session) -> tuple[int, dict[int, float], list[float]] | None:
    """max_tokens, the cached per-K rates and the recorded completion lengths of the session's
    model, once it is open; None for a replay engine that samples in no time (nothing to time)."""
    from vibecode.engine import lengths
    from vibecode.engine.plan import load_rates, model_key
    from vibecode.solve.streaming import samples_for_free

    if samples_for_free(session.engine):
        return None
    info = session.engine.info()
    key = model_key(info.model, info.backend)
    return session.params().max_tokens, load_rates(key), lengths.load(key)


def _first_line(text: str | None) -> str:
    return (text or "").strip().splitlines()[0][:200] if text and text.strip() else ""


def fix_table(result: Any) -> list[str]:
    """The ranked distinct patches: tests fixed x/y, regressions z, agreement, claims, proposal."""
    from vibecode.clr.claim_check import claim_counts

    by_index = {c.index: c for c in result.candidates}
    rows = [("rank", "cand", "fixed", "regr", "agree", "claims v/f/u", "files", "proposal")]
    for rank, index in enumerate(result.ranking):
        c = by_index[index]
        size = sum(m.cluster == c.cluster for m in result.candidates) if c.cluster is not None else 1
        regr = str(len(c.regressions)) if c.fixes_all else "-"
        if c.fixes_all and c.regression_scope != "all":
            regr += f" ({c.regression_scope})"
        v, f, u = claim_counts(c.claims)
        flag = " [edits tests]" if c.test_edit else ""
        files = ", ".join(c.patch.paths) if c.patch else ""
        rows.append((str(rank + 1), str(index), f"{c.fixed}/{c.failing_total}", regr, f"{size}/{result.k}",
                     f"{v}/{f}/{u}", files + flag, c.proposal_id or "-"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in rows]


def print_fix_result(result: Any, out: TextIO | None = None) -> None:
    from vibecode.cli.render import band

    out = safe_stream(out or sys.stdout)
    if result.status == "passing":
        out.write(f"Nothing to fix. {result.reason}\n")
        return
    if result.status == "no_tests":
        out.write(f"No tests: {result.reason} Check the test command and pytest's configuration "
                  "(testpaths, python_files), or select tests with --tests.\n")
        return
    cal = "" if result.calibrated else " (uncalibrated)"
    out.write(f"status: {result.status}    reliability: {result.reliability:.2f} ({band(result.reliability)}){cal}\n")
    out.write(f"why: {result.reason}\n")
    out.write(f"failing before: {len(result.failing)} test(s); {result.passed_before} passed\n")
    for case in result.failing[:10]:
        out.write(f"  {case.nodeid}\n")
    if result.ranking:
        out.write("\n" + "\n".join(fix_table(result)) + "\n")
    dropped = [c for c in result.candidates if not c.parsed]
    if dropped:
        out.write(f"\ndropped {len(dropped)} candidate(s): "
                  + "; ".join(f"{c.index}: {_first_line(c.error)[:120]}" for c in dropped[:4]) + "\n")
    best = result.best_candidate
    if best is not None and best.diff:
        out.write(f"\nbest patch (candidate {best.index}):\n\n")
        out.write(best.diff.encode("utf-8", "surrogateescape").decode("utf-8", "replace"))
        if not best.diff.endswith("\n"):
            out.write("\n")
        if best.proposal_id and result.status != "failed":
            out.write(f"\nApply it with `vibecode apply {best.proposal_id}` (undo with `vibecode undo`).\n")
        elif best.proposal_id:
            out.write(f"\nIt is not verified; look at it with `vibecode apply {best.proposal_id} --dry-run`.\n")
    for note in result.notes:
        out.write(f"note: {note}\n")
    timing = ", ".join(f"{k} {v:.1f}s" for k, v in result.timing.items())
    out.write(f"\ntiming: {timing}\n")
