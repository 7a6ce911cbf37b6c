"""Compare outputs as LeetCode does, and canonical keys for clustering by behaviour.

- ``None``, bools, ints and strings compare exactly (``True`` is not ``1``);
- when either number is a float they compare with a tolerance of 1e-5 (absolute, or relative
  to the expected value's size when that is larger), recursively inside lists;
- lists (and tuples, which the runner turns into lists) compare element by element, unless the
  problem says the order does not matter: ``"any"`` compares the top-level list as a multiset,
  ``"any_nested"`` every level;
- dicts compare key by key.

:func:`canonical` gives a string key with the same notion of equality (floats rounded to 5
decimals, integral floats written as ints, unordered lists sorted), so candidates can be grouped
by a hash instead of pairwise comparisons; :func:`exact_key` keeps floats as printed.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

from vibecode.types import ANSWER_TOLERANCE, ExampleResult, InputResult, OutputOrder, Problem

TOLERANCE = ANSWER_TOLERANCE


def _is_num(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _close(a: float, b: float, tol: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    diff = abs(a - b)
    return diff <= tol or diff <= tol * abs(b)


def outputs_equal(actual: object, expected: object, order: OutputOrder = "exact", *, tol: float = TOLERANCE) -> bool:
    """Whether ``actual`` counts as ``expected`` under LeetCode's rules (see the module doc)."""
    return _eq(actual, expected, order != "exact", order == "any_nested", tol)


def _eq(a: object, b: object, any_here: bool, any_nested: bool, tol: float) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _is_num(a) and _is_num(b):
        if isinstance(a, float) or isinstance(b, float):
            return _close(float(a), float(b), tol)  # type: ignore[arg-type]
        return a == b
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) != len(b):
            return False
        if not any_here:
            return all(_eq(x, y, any_nested, any_nested, tol) for x, y in zip(a, b, strict=False))
        return _multiset_eq(list(a), list(b), any_nested, tol)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_eq(a[k], b[k], any_nested, any_nested, tol) for k in a)
    return a == b


def _multiset_eq(a: list[object], b: list[object], any_nested: bool, tol: float) -> bool:
    order: OutputOrder = "any_nested" if any_nested else "exact"
    ka = sorted(a, key=lambda v: canonical(v, order))
    kb = sorted(b, key=lambda v: canonical(v, order))
    if all(_eq(x, y, any_nested, any_nested, tol) for x, y in zip(ka, kb, strict=False)):
        return True
    if len(a) > 200:
        return False
    # Floats near a rounding boundary can sort differently: match greedily instead.
    left = list(b)
    for x in a:
        for n, y in enumerate(left):
            if _eq(x, y, any_nested, any_nested, tol):
                del left[n]
                break
        else:
            return False
    return True


def _normal(value: object, any_here: bool, any_nested: bool, exact: bool = False) -> object:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value) or exact:
            return repr(value)
        r = round(value, 5)
        return int(r) if r == int(r) and abs(r) < 2**53 else r
    if isinstance(value, (list, tuple)):
        items = [_normal(v, any_nested, any_nested, exact) for v in value]
        if any_here:
            items.sort(key=lambda v: json.dumps(v, sort_keys=True))
        return items
    if isinstance(value, dict):
        return {str(k): _normal(v, any_nested, any_nested, exact) for k, v in value.items()}
    return repr(value)


def canonical(value: object, order: OutputOrder = "exact") -> str:
    """A string that is equal for outputs that :func:`outputs_equal` considers equal (up to
    floats that round differently at the 5th decimal)."""
    return json.dumps(_normal(value, order != "exact", order == "any_nested"), sort_keys=True)


def exact_key(value: object, order: OutputOrder = "exact") -> str:
    """Like :func:`canonical`, but floats exactly as printed (``4.999999999999999`` is not ``5.0``):
    which members of a behaviour cluster give the very same output (the pick, ``clr.score``)."""
    return json.dumps(_normal(value, order != "exact", order == "any_nested", True), sort_keys=True)


def check_examples(problem: Problem, results: Sequence[InputResult]) -> tuple[ExampleResult, ...]:
    """Compare the first ``len(problem.examples)`` results with the examples' outputs."""
    out = []
    for n, ex in enumerate(problem.examples):
        r = results[n] if n < len(results) else None
        if r is None:
            out.append(ExampleResult(n, False, "not_run", ex.output, None, "not run"))
            continue
        passed = r.status == "ok" and outputs_equal(r.output, ex.output, problem.output_order)
        error = r.error if r.status != "ok" else ("" if passed else "wrong answer")
        out.append(ExampleResult(n, passed, r.status, ex.output, r.output, error))
    return tuple(out)
