"""Math mode: final answers from ``\\boxed{}``, clustered by sympy equivalence.

:func:`boxed_answer` takes the last ``\\boxed{...}`` (or ``\\fbox{...}``; nested braces are fine;
``\\boxed 5`` too). :func:`cluster_answers` groups answers that :func:`~vibecode.clr.math_check.
equivalent` says are equal (``1/2``, ``0.5``, ``2/4``, ``\\frac{1}{2}``), and :func:`math_evidence`
turns answers and checked claims into the scorer's input, so ``decide(..., mode="math")`` ranks
answers by the sum of their trajectories' r_k exactly as for code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from vibecode.clr.math_check import brace_group
from vibecode.types import CandidateEvidence, Claim

_BOXED = re.compile(r"\\(?:boxed|fbox)\s*")


def boxed_answers(text: str) -> list[str]:
    """Every ``\\boxed{...}`` content, in order."""
    out = []
    for m in _BOXED.finditer(text):
        i = m.end()
        if i < len(text) and text[i] == "{":
            group = brace_group(text, i)
            if group is not None:  # an unclosed box has no answer
                out.append(group[0].strip())
        else:
            token = re.match(r"[^\s$.,;]+", text[i:])
            if token:
                out.append(token.group(0))
    return [a for a in out if a]


def boxed_answer(text: str) -> str | None:
    """The last boxed answer, or None."""
    found = boxed_answers(text)
    return found[-1] if found else None


def cluster_answers(answers: Sequence[str | None]) -> list[int | None]:
    """A cluster id per answer (None for a missing answer); equivalent answers share an id."""
    from vibecode.clr.math_check import equivalent

    reps: list[str] = []
    ids: list[int | None] = []
    for answer in answers:
        if answer is None:
            ids.append(None)
            continue
        for n, rep in enumerate(reps):
            if equivalent(answer, rep):
                ids.append(n)
                break
        else:
            reps.append(answer)
            ids.append(len(reps) - 1)
    return ids


def math_evidence(
    answers: Sequence[str | None], claims: Sequence[Sequence[Claim]], indices: Sequence[int] | None = None
) -> list[CandidateEvidence]:
    """Evidence for :func:`vibecode.clr.score.decide` with ``mode="math"``: the behaviour is the
    answer's cluster (``error`` when there is no boxed answer)."""
    ids = cluster_answers(answers)
    idx = list(indices) if indices is not None else list(range(len(answers)))
    return [
        CandidateEvidence(
            index=i,
            examples_passed=0,
            examples_total=0,
            behaviour=(f"ok:answer-{cid}" if cid is not None else "error",),
            claims=tuple(cl),
        )
        for i, cid, cl in zip(idx, ids, claims, strict=False)
    ]
