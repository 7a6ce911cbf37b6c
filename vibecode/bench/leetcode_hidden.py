"""The LeetCode bench's hidden tests: the package's test cases, run in the sandbox after the
pipeline has decided, compared the way the problem's assert helper says.

One program per candidate: LeetCode's usual imports (its judge has them in scope), the candidate's
code, then each case ``(arguments..., expected)`` read with ``ast.literal_eval`` and called as
``Solution().<entry>(*arguments)``; the answer is compared by vibecode's own comparison of the
spec's kind. The program prints a per-run marker only after the last case, so a candidate that
exits early does not pass. The first failing case is named in the detail.
"""

from __future__ import annotations

from collections.abc import Mapping

from vibecode.bench.dataset import HumanEvalTask
from vibecode.bench.hidden import HiddenResult, run_programs
from vibecode.bench.leetcode import HiddenSpec
from vibecode.sandbox import Sandbox

PRELUDE = """\
from typing import *
import bisect, collections, functools, heapq, itertools, math, operator, re, string
from collections import Counter, defaultdict, deque, OrderedDict
from functools import cache, lru_cache, reduce
from heapq import heapify, heappop, heappush
from itertools import accumulate, combinations, permutations, product
from math import inf
"""

CHECK = """\
import ast as _ast, copy as _copy, sys as _sys

def _canon(v):
    if isinstance(v, tuple):
        return [_canon(x) for x in v]
    if isinstance(v, list):
        return [_canon(x) for x in v]
    return v

def _key(v):
    return repr(v)

def _same(kind, tol, result, expected):
    result, expected = _canon(result), _canon(expected)
    if kind == "exact":
        return result == expected
    if kind == "float":
        try:
            return abs(result - expected) < tol
        except TypeError:
            return False
    if not isinstance(result, list) or not isinstance(expected, list):
        return False
    if kind == "set":
        return sorted(set(map(_key, result))) == sorted(set(map(_key, expected)))
    if kind == "nested":
        if not all(isinstance(g, list) for g in result):
            return False
        result = [sorted(g, key=_key) for g in result]
        expected = [sorted(g, key=_key) for g in expected]
    return sorted(result, key=_key) == sorted(expected, key=_key)

def _run_design(cls, methods, void, cases, marker):
    for number, case in enumerate(cases):
        operations, inputs, expected = _ast.literal_eval(case)
        got, obj = [], None
        for op, args in zip(operations, inputs):
            if obj is None:
                obj = globals()[cls](*_copy.deepcopy(args))
                got.append(None)
                continue
            out = getattr(obj, methods[op])(*_copy.deepcopy(args))
            got.append(None if methods[op] in void else out)
        if _canon(got) != _canon(expected):
            print(f"case {number + 1} of {len(cases)}: got {repr(got)[:120]}, expected {expected!r:.120}", file=_sys.stderr)
            raise SystemExit(1)
    print(marker, flush=True)

def _run(entry, kind, tol, cases, marker):
    for number, case in enumerate(cases):
        *args, expected = _ast.literal_eval(case)
        result = getattr(Solution(), entry)(*_copy.deepcopy(args))
        if not _same(kind, tol, result, expected):
            shown = repr(result)
            print(f"case {number + 1} of {len(cases)}: got {shown[:120]}, expected {expected!r:.120}", file=_sys.stderr)
            raise SystemExit(1)
    print(marker, flush=True)
"""


def hidden_program(spec: HiddenSpec, code: str, marker: str) -> str:
    if spec.compare == "design":
        return (f"{PRELUDE}\n\n{code}\n\n\n{CHECK}\n_run_design({spec.entry!r}, {dict(spec.methods)!r}, "
                f"{set(spec.void)!r}, {list(spec.cases)!r}, {marker!r})\n")
    return (f"{PRELUDE}\n\n{code}\n\n\n{CHECK}\n"
            f"_run({spec.entry!r}, {spec.compare!r}, {spec.tolerance!r}, {list(spec.cases)!r}, {marker!r})\n")


def run_leetcode_hidden(
    sandbox: Sandbox,
    task: HumanEvalTask,
    codes: Mapping[int, str],
    *,
    timeout_s: float = 10.0,
    parallel: int | None = None,
) -> dict[int, HiddenResult]:
    """Run the hidden test cases on each code (key: candidate index), in the sandbox."""
    if not codes:
        return {}
    spec = HiddenSpec.from_json(task.test)
    return run_programs(sandbox, codes, lambda code, marker: hidden_program(spec, code, marker),
                        timeout_s=timeout_s, parallel=parallel)
