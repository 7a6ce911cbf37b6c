"""Check extracted claims: by execution, by sympy, or by asking the model for a verdict.

Each :class:`~vibecode.types.ExtractedClaim` becomes a :class:`~vibecode.types.Claim` with a
method and a verdict:

- ``io`` claims -> ``execution``: the candidate's own code is run on the claimed input (the
  caller adds :func:`io_inputs` to the candidate's harness job) and its output is compared with
  the claimed one under the problem's comparison rules. A crash or timeout on that input means
  the claim is false. A claim about one of the problem's own examples is judged by the
  example's output instead.
- ``arithmetic`` / ``algebra`` -> ``sympy`` (:mod:`vibecode.clr.math_check`).
- anything else (``invariant``, ``complexity``) -> ``model``: :func:`verdict_prompt` asks for a
  binary verdict and :func:`parse_verdict` reads it.

When a method cannot decide (no runner, sympy cannot read the expression, the model is
unavailable or its answer has no clear verdict) the claim is recorded as ``unchecked``: it never
counts as verified. How unchecked claims weigh in the score is documented in
:mod:`vibecode.clr.score` (they are left out of the share, so they neither help nor hurt).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from vibecode.clr.compare import outputs_equal
from vibecode.types import (
    ChatMessage,
    Claim,
    ClaimMethod,
    ExtractedClaim,
    InputResult,
    OutputOrder,
    Problem,
)

_VERDICT = re.compile(r"verdict\s*[:=]?\s*\**\s*(true|false|correct|incorrect|yes|no)\b", re.I)
_BOXED = re.compile(r"\\boxed\{\s*(?:\\text\{)?\s*(true|false|correct|incorrect|yes|no)\b", re.I)
_WORD = re.compile(r"^\W*(true|false|correct|incorrect|yes|no)\W*$", re.I)
_POSITIVE = {"true", "correct", "yes"}


def planned_method(claim: ExtractedClaim) -> ClaimMethod:
    if claim.kind == "io":
        return "execution"
    if claim.kind in ("arithmetic", "algebra"):
        return "sympy"
    return "model"


def unchecked(claim: ExtractedClaim, why: str) -> Claim:
    return Claim(claim.text, claim.kind, "unchecked", "unchecked", why)


def io_inputs(claims: Sequence[ExtractedClaim]) -> list[dict[str, object]]:
    """The inputs of the io claims, in order (run them with the candidate's code)."""
    return [dict(c.args) for c in claims if c.kind == "io" and c.args is not None]


def check_io(
    claim: ExtractedClaim, result: InputResult | None, order: OutputOrder = "exact", problem: Problem | None = None
) -> Claim:
    """The verdict on an io claim given what the candidate's code did on its input.

    When ``problem`` is given and the claim's input is one of its examples, the example's output
    decides (the statement is the better oracle than the candidate's own code).
    """
    if problem is not None and claim.args is not None:
        for n, ex in enumerate(problem.examples):
            if ex.inputs == claim.args:
                ok = outputs_equal(claim.expected, ex.output, problem.output_order)
                return Claim(claim.text, "io", "execution", "verified" if ok else "failed",
                             f"Example {n + 1} of the problem says {ex.output!r:.120}")
    if result is None or result.status == "not_run":
        return unchecked(claim, "the input was not run")
    if result.status == "ok":
        if outputs_equal(result.output, claim.expected, order):
            return Claim(claim.text, "io", "execution", "verified", "the code returns the claimed output")
        return Claim(claim.text, "io", "execution", "failed", f"the code returns {result.output!r:.120}")
    return Claim(claim.text, "io", "execution", "failed", f"the code fails on this input: {result.error[:160]}")


def check_math(claim: ExtractedClaim) -> Claim:
    """Arithmetic (numbers) or algebra (an identity) with sympy."""
    from vibecode.clr.math_check import check_relation, is_identity

    if claim.lhs is None or claim.rhs is None:
        return unchecked(claim, "no expression to check")
    if claim.kind == "arithmetic":
        ok = check_relation(claim.lhs, claim.rhs, claim.relation)
    else:
        ok = is_identity(claim.lhs, claim.rhs)
    if ok is None:
        return unchecked(claim, "sympy could not read the expression")
    kind = "identity" if claim.kind == "algebra" else "equality"
    return Claim(claim.text, claim.kind, "sympy", "verified" if ok else "failed",
                 f"the {kind} {'holds' if ok else 'does not hold'}")


def verdict_prompt(problem_text: str, claim: ExtractedClaim | str) -> list[ChatMessage]:
    """A user message asking for a binary verdict on one claim (no system prompt, as VibeThinker
    expects). The answer ends with ``VERDICT: TRUE`` or ``VERDICT: FALSE``."""
    text = claim.text if isinstance(claim, ExtractedClaim) else claim
    return [
        ChatMessage(
            "user",
            "You are checking one claim that was made while solving the problem below.\n\n"
            f"Problem:\n{problem_text.strip()}\n\nClaim:\n{text.strip()}\n\n"
            "Is the claim correct for this problem? Think it through briefly, then end your answer "
            "with exactly one line: `VERDICT: TRUE` if the claim is correct, or `VERDICT: FALSE` "
            "if it is not.",
        )
    ]


def parse_verdict(answer: str | None) -> bool | None:
    """True/False from a verifier answer; None when it gives no clear verdict.

    Reads the last ``VERDICT: ...``, else the last ``\\boxed{...}``, else a last line that is
    only one of true/false/yes/no/correct/incorrect.
    """
    if not answer:
        return None
    found = _VERDICT.findall(answer) or _BOXED.findall(answer)
    if found:
        return found[-1].lower() in _POSITIVE
    lines = [line for line in answer.strip().splitlines() if line.strip()]
    if lines:
        m = _WORD.match(lines[-1])
        if m:
            return m.group(1).lower() in _POSITIVE
    return None


def model_verdict(claim: ExtractedClaim, answer: str | None) -> Claim:
    """The claim judged by the model's answer (None: the model was unavailable)."""
    if answer is None:
        return unchecked(claim, "the model was unavailable for a verdict")
    verdict = parse_verdict(answer)
    if verdict is None:
        return unchecked(claim, "the model's answer had no clear verdict")
    return Claim(claim.text, claim.kind, "model", "verified" if verdict else "failed",
                 "the model judged it " + ("correct" if verdict else "wrong"))


def check_claims(
    claims: Sequence[ExtractedClaim],
    *,
    order: OutputOrder = "exact",
    io_results: Mapping[int, InputResult] | None = None,
    run: Callable[[list[dict[str, object]]], Sequence[InputResult]] | None = None,
    ask: Callable[[list[list[ChatMessage]]], Sequence[str | None]] | None = None,
    problem_text: str = "",
    problem: Problem | None = None,
) -> tuple[Claim, ...]:
    """Check every claim, in order: execution, then sympy, then the model.

    Give io results either precomputed (``io_results``: claim position -> result, when the
    caller ran :func:`io_inputs` within the candidate's job) or a ``run`` callable that runs the
    candidate on a list of inputs. ``ask`` takes a batch of prompts and returns one answer per
    prompt (None where the model is unavailable). Missing pieces leave claims unchecked. With
    ``problem``, io claims about an example input are judged by the example's output, and
    ``order`` and ``problem_text`` default to the problem's.
    """
    if problem is not None:
        order = problem.output_order
        problem_text = problem_text or f"{problem.title}\n\n{problem.statement}"
    out: list[Claim | None] = [None] * len(claims)
    io_pos = [n for n, c in enumerate(claims) if c.kind == "io" and c.args is not None]
    results: dict[int, InputResult] = dict(io_results or {})
    if run is not None and io_pos and not results:
        got = run([dict(claims[n].args or {}) for n in io_pos])
        results = {n: r for n, r in zip(io_pos, got, strict=False)}
    model_pos: list[int] = []
    for n, claim in enumerate(claims):
        method = planned_method(claim)
        if method == "execution":
            out[n] = check_io(claim, results.get(n), order, problem)
        elif method == "sympy":
            out[n] = check_math(claim)
        else:
            model_pos.append(n)
    if model_pos:
        answers: Sequence[str | None] = [None] * len(model_pos)
        if ask is not None:
            answers = ask([verdict_prompt(problem_text, claims[n]) for n in model_pos])
        for n, answer in zip(model_pos, answers, strict=False):
            out[n] = model_verdict(claims[n], answer)
    return tuple(c if c is not None else unchecked(claims[n], "not checked") for n, c in enumerate(out))


def claim_counts(claims: Sequence[Claim]) -> tuple[int, int, int]:
    """(verified, failed, unchecked)."""
    v = sum(c.verdict == "verified" for c in claims)
    f = sum(c.verdict == "failed" for c in claims)
    return v, f, len(claims) - v - f
