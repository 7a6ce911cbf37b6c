"""Promise lines: "exactly one solution", "It is guaranteed that ...", "The input is generated
such that ...". :data:`BLOCKERS` finds them; :func:`promised` says what a promise promises as a
plain line, so that a property the readers know ("It is guaranteed that all parentheses are
balanced", "kill is guaranteed to be in pid") is checked like any other line. A promise no reader
knows stays a promise: named in the notes, not generated.
"""

from __future__ import annotations

import re

BLOCKERS = re.compile(
    r"exactly one (?:valid )?(?:solution|answer)|only one valid answer|it is guaranteed|"
    r"is guaranteed|are guaranteed|guaranteed that|there (?:is|will be) always|will always be|"
    r"at least one (?:valid )?(?:solution|answer) exists|(?:input|test ?cases?|tests) (?:is |are )?generated|"
    r"at least one valid answer|fits? (?:in|into|inside) an? 32[- ]bit|there will be at least one valid|"
    r"you may assume",
    re.I,
)

PROMISED = re.compile(  # the wording of a promise before what it promises
    r"^(?:it is|it's) guaranteed (?:that )?|^(?:the )?(?:input|inputs|tests?|test ?cases?|test data)(?: is| are)? generated "
    r"(?:such )?that |^you may assume (?:that )?", re.I)


def promised(line: str) -> str:
    """What a promise line promises, as a plain line: "It is guaranteed that all parentheses are
    balanced" -> "all parentheses are balanced", "kill is guaranteed to be in pid" -> "kill is in pid"."""
    text = PROMISED.sub("", line.strip())
    text = re.sub(r"\b(is|are) guaranteed to be\b", r"\1", text)
    text = re.sub(r"\b(is|are) guaranteed to\b ", "", text)
    return text[:1].lower() + text[1:] if text[:1].isupper() and not re.match(r"[A-Z]\w*[a-z]+[A-Z]|[A-Z]{2}", text) else text
