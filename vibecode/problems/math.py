"""Math questions for ``vibecode solve --math``: the question text and an optional reference."""

from __future__ import annotations

import re

from vibecode.errors import ProblemError
from vibecode.types import MathProblem

_ANSWER = re.compile(r"^\s*(?:\*\*)?\s*(?:final\s+)?answer\s*(?:\*\*)?\s*:\s*(?:\*\*)?\s*(.+?)\s*(?:\*\*)?\s*$", re.I)


def parse_math(text: str) -> MathProblem:
    """The question; a heading line becomes the title; a last line ``Answer: ...`` becomes the
    reference answer (kept out of the question, for evaluation only)."""
    if not text or not text.strip():
        raise ProblemError("The math question is empty.", "Give the question as text or a file.")
    lines = text.replace("\r\n", "\n").strip().split("\n")
    title = ""
    if lines[0].lstrip().startswith("#"):
        title = lines[0].lstrip("# ").strip()
        lines = lines[1:]
    reference = None
    while lines and not lines[-1].strip():
        lines.pop()
    if lines:
        m = _ANSWER.match(lines[-1])
        if m:
            reference = m.group(1).strip()
            lines = lines[:-1]
    question = "\n".join(lines).strip()
    if not question:
        raise ProblemError("The math file has no question, only a title or an answer.",
                           "Write the question text.")
    return MathProblem(question=question, title=title, reference=reference)
