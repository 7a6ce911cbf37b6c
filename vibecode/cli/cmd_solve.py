"""``vibecode solve PROBLEM``: sample K candidates, verify them, propose the best one."""

from __future__ import annotations

import argparse
import ast
import os
import sys
from pathlib import Path
from typing import Any

from vibecode.cli.cmd_sandbox import (
    add_isolation_arg,
    isolation_json,
    print_isolation,
    warn_isolation,
)
from vibecode.cli.common import add_engine_args, open_engine, print_json, settings_from_args
from vibecode.cli.progress_route import add_progress_arg, progress_sink
from vibecode.errors import UsageError

ORDER = 5


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "solve",
        help="solve a LeetCode-style or HumanEval-style problem with verified candidates",
        description=(
            "Sample K candidate solutions, run them on the problem's examples and on generated "
            "inputs in a sandbox, check the claims their reasoning made, and propose the best "
            "with a reliability score. Exit status: 0 when a proposal passes everything that "
            "could be checked (verified or plausible), 1 when no candidate does (failed), "
            "2 and above for errors."
        ),
    )
    parser.add_argument("problem", help="problem file (.md/.txt/.py), or '-' for stdin; with --math also the question itself")
    parser.add_argument("--n", type=int, metavar="K", help="candidates to sample (default 8)")
    parser.add_argument("--sandbox", choices=["local", "docker"], help="where candidates run")
    add_isolation_arg(parser)
    parser.add_argument("--time-budget", type=float, metavar="S", help="stop sampling after S seconds and verify what is there")
    parser.add_argument("--until", choices=["confident", "first-verified", "all"],
                        help="when to stop sampling: once more candidates cannot change the decision "
                             "(confident, the default), at the first verified decision, or never (all)")
    parser.add_argument("--math", action="store_true", help="a math question: answers from \\boxed{}, clustered with sympy")
    parser.add_argument("--no-model-checks", action="store_true", help="skip model-proposed inputs and model verdicts")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    parser.add_argument("--json-events", action="store_true", help="stream the session's events as JSON lines")
    add_progress_arg(parser)
    parser.add_argument("--out", metavar="FILE", help="also write the proposed solution to FILE")
    add_engine_args(parser)
    parser.set_defaults(func=run)


MAX_PROBLEM_BYTES = 256 * 1024  # LeetCode statements are a few KB; more is the wrong file


def read_problem_text(arg: str, allow_inline: bool = False) -> str:
    if arg == "-":
        return _checked(sys.stdin.read(), "stdin")
    path = Path(arg)
    if path.is_dir():
        raise UsageError(f"{arg} is a folder, not a problem file.",
                         "Give the problem's .md, .txt or .py file, or '-' for stdin.")
    if path.is_file():
        if path.stat().st_size > MAX_PROBLEM_BYTES:
            raise UsageError(
                f"The problem file {arg} is {path.stat().st_size / 1e6:.1f} MB; a problem statement is at "
                f"most {MAX_PROBLEM_BYTES // 1024} KB.",
                "Give the file that holds just the problem (title, statement, examples, starter code).",
            )
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"Cannot read the problem file {arg}: {exc}.") from exc
        return _checked(text, arg) if path.suffix == ".py" else text
    if allow_inline and not path.suffix:
        return arg
    raise UsageError(f"The problem file {arg} does not exist.", "Give a .md, .txt or .py file, or '-' for stdin.")


def _checked(text: str, where: str) -> str:
    """A .py problem (a HumanEval-style prompt) must be Python: say where it is not."""
    if where != "stdin" and len(text.encode("utf-8")) <= MAX_PROBLEM_BYTES:
        try:
            ast.parse(text)
        except SyntaxError as exc:
            raise UsageError(
                f"The problem file {where} is not valid Python: {exc.msg} at line {exc.lineno}.",
                "A .py problem is a function signature with a docstring; fix that line, or save "
                "a LeetCode-style statement as .md.",
            ) from None
    return text


def check_out_path(out: Path) -> None:
    """Fail before sampling, not after the whole run, when ``--out`` cannot be written."""
    folder = out.parent if str(out.parent) else Path(".")
    if out.is_dir():
        raise UsageError(f"--out {out} is a folder.", "Give a file name, for example --out solution.py.")
    if not folder.is_dir():
        raise UsageError(
            f"--out {out}: the folder {folder} does not exist.",
            f"Create it first (mkdir -p {folder}) or choose another path.",
        )
    if not os.access(folder, os.W_OK) or (out.exists() and not os.access(out, os.W_OK)):
        raise OutNotWritable(
            f"--out {out} cannot be written: {folder if not out.exists() else out} is not writable by you.",
            "Choose a path in a folder you can write to, or fix its permissions.",
        )


class OutNotWritable(UsageError):
    exit_code = 8


def run(args: argparse.Namespace) -> int:
    from vibecode.cli.render import Progress, print_result
    from vibecode.engine import lengths
    from vibecode.engine.plan import load_rates, model_key
    from vibecode.events import Event, ProposalReady
    from vibecode.problems.math import parse_math
    from vibecode.problems.statement import parse_problem
    from vibecode.sandbox import make_sandbox
    from vibecode.session import Session, event_json
    from vibecode.solve.report import result_json
    from vibecode.solve.streaming import samples_for_free

    if args.n is not None and args.n < 1:
        raise UsageError(f"--n must be at least 1, got {args.n}.")
    if args.out:
        check_out_path(Path(args.out))
    text = read_problem_text(args.problem, allow_inline=args.math)
    problem = None if args.math else parse_problem(text)
    math_problem = parse_math(text) if args.math else None
    settings = settings_from_args(args, n=args.n, sandbox=args.sandbox, time_budget_s=args.time_budget,
                                  isolation=args.isolation, until=args.until)
    sandbox = None if args.math else make_sandbox(settings.sandbox, settings)
    warn_isolation(sandbox)
    opened = open_engine(settings)
    session = Session(opened.engine, sandbox, settings, opened.manifest)
    if math_problem is not None:
        events = session.solve_math(math_problem)
    else:
        assert problem is not None
        events = session.solve(problem, use_model_checks=not args.no_model_checks)
    info = opened.engine.info()
    # a replay engine without a rate samples in no time: no tokens/s, no time left to show
    free = samples_for_free(opened.engine)
    progress = Progress(settings.n, rates=not free, max_tokens=None if free else session.params().max_tokens,
                        plan_rates=load_rates(model_key(info.model, info.backend)),
                        time_budget_s=settings.time_budget_s,
                        seen=lengths.load(model_key(info.model, info.backend)))
    eta = progress.eta

    def to_json(event: Event) -> dict[str, Any]:  # the time left in the sampling events too
        return eta.annotate(event, event_json(event))

    show = progress_sink(args, progress, to_json)
    result = None
    for event in events:
        show(event)
        if isinstance(event, ProposalReady):
            result = event.result
    if result is None:  # pragma: no cover - the pipeline always ends with ProposalReady
        raise UsageError("The run ended without a result.")
    if args.json:
        print_json({**result_json(result), **isolation_json(sandbox)})
    elif not args.json_events:
        print_result(result)
        print_isolation(sandbox)
    best = result.best
    if args.out and best is not None and (best.code or best.answer):
        # the code is the verified solution file, byte for byte (problems/solution_file.py)
        text = best.code if best.code is not None else (best.answer or "").rstrip() + "\n"
        Path(args.out).write_bytes(text.encode("utf-8"))
    return 1 if result.status == "failed" else 0
