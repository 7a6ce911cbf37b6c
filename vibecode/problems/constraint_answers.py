"""Lines that bound the *answer*, not an argument: "The answer is guaranteed to fit in a 32-bit
integer.", "The input is generated such that the answer is less than or equal to 10^9.", "The
testcases are generated such that the answer is in the range [0, 2^31 - 1] for the given n and k.",
"answer[i] is guaranteed to fit in a 32-bit integer" (every number of the answer). Built from dev
lines only.

No generator can make such inputs directly; they are read into ``Constraints.answer_bounds``, and
:func:`vibecode.clr.score.decide` drops a generated input on which no candidate that passes every
example answers within the bounds (and one does answer): if any of them is right, the input breaks
the promise. A candidate that answers within them keeps the input, so a wrong answer beyond the
bound is still a disagreement. A bound on intermediate results ("all intermediate calculations",
"every running calculation") cannot be seen in the answer and stays a promise.
"""

from __future__ import annotations

import re

from vibecode.problems.constraint_types import Constraints, number

INT32 = (-(2**31), 2**31 - 1)
_SUBJECT = r"(?:the )?(?:final )?(?:answer|result|output)(?:\[i\])?(?: for the given input)?"
_FITS = re.compile(rf"\b{_SUBJECT} (?:is |are )?(?:guaranteed to |will |is going to )?(?:always )?fits? "
                   r"(?:in|into|inside|within) an? (?:signed )?32[- ]?bits? (?:signed )?integer\b", re.I)
_AT_MOST = re.compile(rf"\b{_SUBJECT} (?:is |will be )?(?:guaranteed to be )?(less than or equal to|at most|less than) "
                      r"(\S+(?: [-+*] \S+)?)\s*\.?$", re.I)
_RANGE = re.compile(rf"\b{_SUBJECT} (?:is |will be )?(?:guaranteed to be )?in the range \[\s*([^,\]]+),\s*([^\]]+)\]", re.I)
_HIDDEN = re.compile(r"\bintermediate\b|\brunning calculation|\bnumerator\b|\bdenominator\b|\bevery number\b", re.I)


def answer_bound(line: str) -> tuple[float, float] | None:
    """The bound ``line`` puts on the answer, or None for any other line."""
    text = re.sub(r"`|\*\*", "", line).strip()
    if _HIDDEN.search(text):
        return None
    if _FITS.search(text):
        return INT32
    if m := _RANGE.search(text):
        lo, hi = number(m.group(1)), number(m.group(2))
        return (lo, hi) if lo is not None and hi is not None else None
    if m := _AT_MOST.search(text):
        hi = number(m.group(2))
        return None if hi is None else (float("-inf"), hi - 1 if m.group(1).lower() == "less than" else hi)
    return None


def read_answer_bound(line: str, c: Constraints) -> bool:
    """Add the bound ``line`` puts on the answer to ``c.answer_bounds``; False for any other line."""
    bound = answer_bound(line)
    if bound is None:
        return False
    if bound not in c.answer_bounds:  # the line and what it promises ("It is guaranteed that ...") say it once
        c.answer_bounds.append(bound)
    return True


__all__ = ["INT32", "answer_bound", "read_answer_bound"]
