"""Edge cases the model proposes: the prompt that asks for them (:func:`edge_case_prompt`) and the
reader of its answer (:func:`parse_model_inputs`), which accepts one JSON object of arguments per
line, Python call lines (``twoSum(nums=[1,2], target=3)`` or positional) and LeetCode lines
(``nums = [1,2], target = 3``). Every input is checked against the signature's types and the
constraints; rejected lines are listed in ``notes``."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from vibecode.clr.inputs_check import key, validate_input
from vibecode.errors import ProblemError
from vibecode.problems.binding import bind_arguments
from vibecode.problems.constraints import parse_constraints
from vibecode.problems.literals import (
    LiteralError,
    parse_arguments,
    parse_value,
    read_call,
    to_leetcode,
)
from vibecode.problems.typespec import TypeSpec, parse_type
from vibecode.types import InputSet, Problem


def edge_case_prompt(problem: Problem, *, count: int = 8) -> str:
    """The user message asking the model for edge-case inputs in the format
    :func:`parse_model_inputs` reads."""
    sig = problem.signature
    if problem.examples:
        sample = problem.examples[0].inputs
    else:
        sample = {p.name: _placeholder(parse_type(p.type)) for p in sig.params}
    example_line = "{" + ", ".join(f"{json.dumps(k)}: {to_leetcode(v)}" for k, v in sample.items()) + "}"
    constraints = "\n".join(f"- {c}" for c in problem.constraints) or "- (none stated)"
    return (
        f"Here is a programming problem.\n\n# {problem.title}\n\n{problem.statement}\n\n"
        f"Constraints:\n{constraints}\n\nThe function is:\n```python\n{problem.starter.rstrip()}\n```\n\n"
        f"List up to {count} tricky but VALID inputs for `{sig.function}` that are likely to expose bugs: "
        "smallest and largest allowed sizes, duplicates, negative numbers, extremes of the allowed "
        "values. Every input must satisfy all the constraints and promises of the problem.\n"
        "Write each input on its own line as one JSON object that maps every argument name to its "
        "value, and nothing else on that line, for example:\n"
        f"{example_line}\n"
        "Write linked lists and binary trees as LeetCode arrays (trees level by level, null for a "
        "missing child). Do not write the expected outputs."
    )


def _placeholder(spec: TypeSpec) -> object:
    k = spec.base.kind
    return {"int": 1, "float": 1.5, "bool": True, "str": "ab"}.get(k, [1, 2])


def parse_model_inputs(text: str, problem: Problem, *, max_inputs: int = 10) -> InputSet:
    """Inputs proposed by the model, one per line, checked against the signature and constraints."""
    c = parse_constraints(problem)
    sig = problem.signature
    out: dict[str, dict[str, object]] = {}
    notes: list[str] = []
    for raw in text.splitlines():
        line = re.sub(r"^\s*(?:[-*•]|\d+[.)])\s+", "", raw.strip()).strip().rstrip(",;")
        line = re.sub(r"^(?:input|inputs)\s*:\s*", "", line, flags=re.I)
        if not line or line.startswith(("```", "#")):
            continue
        pairs = _read_line(line, sig.function, sig.arg_names)
        if pairs is None and " #" in line:
            pairs = _read_line(line[: line.rfind(" #")].strip(), sig.function, sig.arg_names)
        if pairs is None:
            continue
        try:
            args = bind_arguments(sig, pairs, "a proposed input")
        except ProblemError as exc:
            notes.append(f"rejected {line[:60]!r}: {exc.message}")
            continue
        problems = validate_input(args, problem, c)
        if problems:
            notes.append(f"rejected {line[:60]!r}: {problems[0]}")
            continue
        out.setdefault(key(args), args)
        if len(out) >= max_inputs:
            break
    return InputSet(tuple(out.values()), "model", tuple(notes))


def _read_line(line: str, function: str, names: Sequence[str]) -> list[tuple[str | None, object]] | None:
    if line.startswith("{"):
        try:
            obj = parse_value(line)
        except LiteralError:
            return None
        return [(str(k), v) for k, v in obj.items()] if isinstance(obj, dict) else None
    call = read_call(line)
    if call is not None and not line[call[3] :].strip() and call[0] in (function, "f", "solve", "solution"):
        if len(call[1]) > len(names):
            return None
        pairs: list[tuple[str | None, object]] = [(names[i], v) for i, v in enumerate(call[1])]
        return pairs + [(k, v) for k, v in call[2].items()]
    if re.match(r"^[A-Za-z_]\w*\s*=(?!=)", line):
        try:
            return parse_arguments(line)
        except LiteralError:
            return None
    return None
