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
