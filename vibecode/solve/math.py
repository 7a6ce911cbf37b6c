"""Math mode: CLR as the VibeThinker report applies it to math. Answers come from
``\\boxed{}``, candidates cluster by sympy equivalence, arithmetic and algebra claims are
checked with sympy and the rest by the model's verdict."""

from __future__ import annotations

import time
from collections.abc import Generator

from vibecode.clr.claim_check import check_claims
from vibecode.clr.claims import extract_claims
from vibecode.clr.mathmode import boxed_answer, math_evidence
from vibecode.clr.score import decide, trajectory_weight
from vibecode.engine.sampling import sample_candidates
from vibecode.events import (
    CandidateParsed,
    ClaimsChecked,
    Event,
    ProposalReady,
    SampleBudget,
    StageFinished,
    StageStarted,
)
from vibecode.solve.pipeline import MAX_MODEL_VERDICTS, SolveContext, _verdict_asker
from vibecode.solve.prompts import math_messages
from vibecode.types import CandidateReport, MathProblem, SolveResult


def solve_math(ctx: SolveContext, problem: MathProblem, n: int) -> Generator[Event, None, SolveResult]:
    started = time.monotonic()
    yield StageStarted("sample", f"{n} candidates", SampleBudget(n, ctx.params.max_tokens))
    t = time.monotonic()
    completions = yield from sample_candidates(ctx.engine, math_messages(problem), ctx.params, n, ctx.budget)
    ctx.timing["sample"] = round(time.monotonic() - t, 3)
    yield StageFinished("sample", ctx.timing["sample"])

    yield StageStarted("claims")
    t = time.monotonic()
    left = [MAX_MODEL_VERDICTS]
    reports: list[CandidateReport] = []
    for c in completions:
        answer = boxed_answer(c.answer) or boxed_answer(c.text)
        claims = check_claims(
            extract_claims(c.reasoning or c.answer, mode="math"),
            problem_text=problem.question,
            ask=_verdict_asker(ctx, left),
        )
        report = CandidateReport(
            c.seq, c, parsed=answer is not None, claims=claims, r=trajectory_weight(claims),
            answer=answer, error=None if answer is not None else "no \\boxed{} answer",
        )
        reports.append(report)
        yield CandidateParsed(c.seq, report.parsed, None, report.error, answer)
        yield ClaimsChecked(c.seq, claims, report.r or 0.0)
    ctx.timing["claims"] = round(time.monotonic() - t, 3)
    yield StageFinished("claims", ctx.timing["claims"])

    evidence = math_evidence([r.answer for r in reports], [r.claims for r in reports], [r.index for r in reports])
    decision = decide(evidence, k=max(n, len(reports)), mode="math", calibration=ctx.calibration)
    final = tuple(
        CandidateReport(**{**r.__dict__, "cluster": decision.cluster_of.get(r.index)}) for r in reports
    )
    ctx.timing["total"] = round(time.monotonic() - started, 3)
    result = SolveResult("math", problem, decision, final, dict(ctx.timing), ctx.calibration is not None,
                         tuple(ctx.notes))
    yield ProposalReady(result)
    return result
