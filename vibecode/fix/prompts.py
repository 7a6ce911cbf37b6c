"""Prompts of the fix flow: the fix request (SEARCH/REPLACE blocks, the most robust edit format
for small models), the one retry for an edit that did not apply, and the text that verdict
prompts show as "the problem"."""

from __future__ import annotations

from collections.abc import Sequence

from vibecode.types import ChatMessage, TestCaseResult

FENCE = "```"

FIX_INTRO = (
    "The test suite of this Python repository fails. Find the bug in the code under test and fix "
    "it, so that the failing tests pass and every other test still passes.\n\n"
)

FIX_INSTRUCTION = f"""
## How to answer

Think it through step by step. Then give the fix as one or more SEARCH/REPLACE blocks, each
preceded by the path of the file it edits:

path/to/file.py
{FENCE}python
<<<<<<< SEARCH
the current lines, copied exactly (same indentation)
=======
the new lines
>>>>>>> REPLACE
{FENCE}

The SEARCH part must match the file's current lines exactly and be long enough to be unique.
Fix the code under test: do not edit, skip or delete the tests.
"""

RETRY_INSTRUCTION = """Your edit could not be applied:

{error}

Give the whole fix again as SEARCH/REPLACE blocks whose SEARCH parts copy the file's current
lines exactly (the lines quoted above are the file's real content)."""


def fix_messages(context: str) -> list[ChatMessage]:
    """The fix request: no system prompt (VibeThinker is trained without one)."""
    return [ChatMessage("user", FIX_INTRO + context.rstrip() + "\n" + FIX_INSTRUCTION)]


def instruction_overhead() -> str:
    """The text every fix prompt adds around the context (for the token budget)."""
    return FIX_INTRO + FIX_INSTRUCTION


def retry_messages(messages: Sequence[ChatMessage], answer: str, error: str) -> list[ChatMessage]:
    """The conversation so far, the candidate's answer, and the apply error quoting the closest lines."""
    return [
        *messages,
        ChatMessage("assistant", answer),
        ChatMessage("user", RETRY_INSTRUCTION.format(error=error.strip())),
    ]


def problem_text(failing: Sequence[TestCaseResult]) -> str:
    """What a claim verdict prompt shows as the problem: the failing tests and their errors."""
    lines = ["Fix the code so that these failing tests pass:"]
    for case in failing[:5]:
        last = [ln for ln in case.message.strip().splitlines() if ln.strip()][-3:]
        lines.append(f"- {case.nodeid}: " + " / ".join(x.strip() for x in last)[:300])
    return "\n".join(lines)
