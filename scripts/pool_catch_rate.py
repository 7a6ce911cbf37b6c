#!/usr/bin/env python3
"""How many of the pools' wrong pieces vibecode's generated inputs tell apart from a correct
piece, with and without the differential search's small-scope inputs (JSON).

    scripts/pool_catch_rate.py tests/data/leetcode_pools/src/held-out-5.txt [more .txt ...]

For each problem of each pool source (``=== slug`` blocks, ``--- role note`` pieces; see
``scripts/make_leetcode_pools.py``), design classes aside, it draws what the solve pipeline draws
before its differential step (``generate_inputs``) plus the differential search's fresh inputs
without the small-scope ones, then the small-scope inputs (``dense_inputs``, seed
``EXTRA_SEEDS[0]`` as the pipeline uses). A wrong piece is *caught* by a set of inputs when, on
one of them, every correct piece gives one answer and the wrong piece gives another or raises (an
input where a correct piece times out or raises, or the wrong one times out, does not count). Only the project's own pool pieces run, in this
process forked per problem (a piece that raises the recursion limit may crash it: that problem is
then counted as ``crashed``), with a 0.5 s alarm per call: a measuring tool, not the sandbox.

Prints ``{"wrong": N, "caught_before": N, "caught_only_by_dense": N, "missed": N, "crashed": [slug,
...], "by_dense": [[slug, role, note], ...]}``. Never run it on the part still held out.
"""

from __future__ import annotations

import argparse
import copy
import json
import multiprocessing
import signal
import sys
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_leetcode_pools import parse_source

from vibecode.bench.leetcode import PREFIX, select
from vibecode.clr.differential import EXTRA_SEEDS, differential_inputs
from vibecode.clr.inputs import generate_inputs
from vibecode.clr.inputs_tiers import dense_inputs
from vibecode.problems.statement import parse_problem
from vibecode.types import Problem

PRELUDE = ("import math, random, collections, heapq, bisect, itertools, functools\nfrom typing import *\n"
           "from collections import *\nfrom functools import *\nfrom itertools import *\nfrom heapq import *\n"
           "from bisect import *\n")
NOT_AN_ANSWER = ("timeout", "error")


class _Timeout(Exception):
    pass


def _alarm(*_: object) -> None:
    raise _Timeout


def answers(code: str, entry: str, inputs: list[dict[str, object]]) -> list[str]:
    """A piece's answers as JSON text, ``timeout`` or ``error``."""
    ns: dict[str, object] = {}
    try:
        exec(PRELUDE + code, ns)
        solve: Callable[..., object] = getattr(ns["Solution"](), entry)  # type: ignore[operator]
    except Exception:
        return ["error"] * len(inputs)
    out = []
    for args in inputs:
        signal.setitimer(signal.ITIMER_REAL, 0.5)
        try:
            out.append(json.dumps(solve(**copy.deepcopy(args)), sort_keys=True, default=str))
        except _Timeout:
            out.append("timeout")
        except Exception:
            out.append("error")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    return out


def caught(right: list[list[str]], wrong: list[str]) -> bool:
    for j, got in enumerate(wrong):
        agreed = {r[j] for r in right}
        if len(agreed) == 1 and not agreed & set(NOT_AN_ANSWER) and got != "timeout" and got != next(iter(agreed)):
            return True
    return False


def before_dense(problem: Problem) -> list[dict[str, object]]:
    """The pipeline's inputs before the small-scope ones: the tiers and the differential search's
    other fresh inputs."""
    drawn = [dict(x) for x in generate_inputs(problem).inputs]
    return drawn + differential_inputs(problem, None, drawn, small=False)


def judge(problem: Problem, pieces: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """(role, note, verdict) for each wrong piece: ``caught_before``, ``caught_only_by_dense`` or
    ``missed``."""
    signal.signal(signal.SIGALRM, _alarm)
    entry = problem.signature.function
    before, dense = before_dense(problem), dense_inputs(problem, seed=EXTRA_SEEDS[0])
    right = [code for role, _, code in pieces if role == "correct"]
    right_before = [answers(c, entry, before) for c in right]
    right_dense = [answers(c, entry, dense) for c in right]
    out = []
    for role, note, code in pieces:
        if role.startswith("wrong"):
            if caught(right_before, answers(code, entry, before)):
                out.append((role, note, "caught_before"))
            elif caught(right_dense, answers(code, entry, dense)):
                out.append((role, note, "caught_only_by_dense"))
            else:
                out.append((role, note, "missed"))
    return out


def _child(problem: Problem, pieces: list[tuple[str, str, str]], conn: Connection) -> None:
    conn.send(judge(problem, pieces))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sources", nargs="+", type=Path,
                    help="pool sources, tests/data/leetcode_pools/src/<part>.txt; never the part still held out")
    args = ap.parse_args(argv)
    counts = {"wrong": 0, "caught_before": 0, "caught_only_by_dense": 0, "missed": 0}
    crashed: list[str] = []
    by_dense: list[list[str]] = []
    fork = multiprocessing.get_context("fork")
    for src in args.sources:
        pieces_of = parse_source(src.read_text(encoding="utf-8"))
        tasks = {t.task_id: t for t in select(ids=list(pieces_of), part="all").tasks}
        for slug, pieces in pieces_of.items():
            task = tasks.get(PREFIX + slug)
            if task is None:
                continue
            problem = parse_problem(task.prompt)
            if problem.signature.design:
                continue
            mine, its = fork.Pipe(duplex=False)
            child = fork.Process(target=_child, args=(problem, pieces, its))
            child.start()
            its.close()
            try:
                verdicts = mine.recv()
            except EOFError:  # the child died without an answer (a segfault)
                crashed.append(slug)
                continue
            finally:
                child.join()
            for role, note, verdict in verdicts:
                counts["wrong"] += 1
                counts[verdict] += 1
                if verdict == "caught_only_by_dense":
                    by_dense.append([slug, role, note])
    print(json.dumps({**counts, "crashed": crashed, "by_dense": by_dense}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
