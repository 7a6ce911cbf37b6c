"""Prompts for the models: no system prompt (VibeThinker is trained without one), the problem,
then one instruction that asks for reasoning followed by a single final code block."""

from __future__ import annotations

import json

from vibecode.problems.literals import to_leetcode
from vibecode.types import ChatMessage, MathProblem, Problem

SOLVE_INSTRUCTION = (
    "Think the problem through step by step, check your idea against the examples, then give "
    "your final solution as exactly one complete ```python code block that defines {entry}."
)
MATH_INSTRUCTION = "Please reason step by step, and put your final answer within \\boxed{}."


def solve_messages(problem: Problem) -> list[ChatMessage]:
    methods = ", ".join(f"`{m.function}`" for m in problem.signature.methods)  # a design class
    entry = (
        f"`class {problem.signature.class_name}` with the methods {methods}" if methods
        else f"`class {problem.signature.class_name}` with the method `{problem.signature.function}`"
        if problem.signature.class_name
        else f"the function `{problem.signature.function}`"
    )
    if problem.style == "humaneval":
        body = (
            "Complete this Python function:\n\n```python\n" + problem.starter.rstrip() + "\n```"
        )
    else:
        body = problem.text.strip() or f"{problem.title}\n\n{problem.statement}"
        if problem.starter and problem.starter.strip() not in body:
            body += "\n\nStarter code:\n```python\n" + problem.starter.rstrip() + "\n```"
    return [ChatMessage("user", body + "\n\n" + SOLVE_INSTRUCTION.format(entry=entry))]


def math_messages(problem: MathProblem) -> list[ChatMessage]:
    return [ChatMessage("user", problem.question.strip() + "\n\n" + MATH_INSTRUCTION)]


def edge_case_messages(prompt: str) -> list[ChatMessage]:
    return [ChatMessage("user", prompt)]


# The helpers' instructions are short: each is a prompt suffix of its own in the candidates'
# batch, evaluated beside them (on a CPU, prompt tokens cost about 2/3 of a generated one).
ORACLE_INSTRUCTION = (
    "Write an obviously correct brute-force solution: try every possibility, ignore speed (the "
    "inputs are tiny). Give exactly one ```python block that defines {entry}."
)
GENERATOR_INSTRUCTION = (
    "Write `def generate_input(rng: random.Random) -> dict` returning the keyword arguments "
    "({names}) of one small random valid input: respect every constraint, every size at most 8. "
    "Give exactly one ```python block."
)


def _entry(problem: Problem) -> str:
    if problem.signature.class_name:
        return f"`class {problem.signature.class_name}` with the method `{problem.signature.function}`"
    return f"the function `{problem.signature.function}`"


def _body(problem: Problem) -> str:
    return solve_messages(problem)[0].content.rsplit("\n\n", 1)[0]


def oracle_messages(problem: Problem) -> list[ChatMessage]:
    """The brute-force oracle request: the same problem text (a shared prompt prefix)."""
    return [ChatMessage("user", _body(problem) + "\n\n" + ORACLE_INSTRUCTION.format(entry=_entry(problem)))]


def generator_messages(problem: Problem) -> list[ChatMessage]:
    names = ", ".join(problem.signature.arg_names) or "none"
    return [ChatMessage("user", _body(problem) + "\n\n" + GENERATOR_INSTRUCTION.format(names=names))]


EDGE_CASE_INSTRUCTION = (
    "List up to {count} tricky VALID inputs for {entry}: smallest and largest sizes, duplicates, "
    "negatives, extreme values, every constraint kept. One JSON object per line mapping each "
    "argument ({names}) to its value{example}; trees and linked lists as LeetCode arrays. No outputs."
)


def edge_case_batch_messages(problem: Problem, count: int = 8) -> list[ChatMessage]:
    """The edge-case request of the candidates' batch: the same problem text first (a shared
    prompt prefix), then the instruction, in the format ``parse_model_inputs`` reads."""
    names = ", ".join(problem.signature.arg_names) or "none"
    example = ""
    if problem.examples:
        pairs = ", ".join(f"{json.dumps(k)}: {to_leetcode(v)}" for k, v in problem.examples[0].inputs.items())
        example = ", for example {" + pairs + "}"
    text = EDGE_CASE_INSTRUCTION.format(count=count, entry=_entry(problem), names=names, example=example)
    return [ChatMessage("user", _body(problem) + "\n\n" + text)]
