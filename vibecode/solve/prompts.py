"""Prompts for the models: no system prompt (VibeThinker is trained without one), the problem,
then one instruction that asks for reasoning followed by a single final code block."""

from __future__ import annotations

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


ORACLE_INSTRUCTION = (
    "Write the simplest, obviously correct brute-force solution to this problem: try every "
    "possibility, ignore efficiency (it only runs on small inputs). Give it as exactly one "
    "complete ```python code block that defines {entry}."
)
GENERATOR_INSTRUCTION = (
    "Write a Python function `def generate_input(rng: random.Random) -> dict` that returns the "
    "keyword arguments ({names}) of one small, random, valid input for this problem: respect "
    "every constraint and keep every size at most 8. Give it as exactly one ```python code block."
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
