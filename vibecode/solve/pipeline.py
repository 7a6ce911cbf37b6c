"""The solve pipeline: sample K candidates, extract and dedupe their code, run them on the
examples and on generated inputs in the sandbox, check the claims their reasoning made, and
choose a proposal with a reliability score (``vibecode.clr.score``).

Each stage is a function of its own; :func:`solve` strings them together as a generator of
session events that ends with :class:`~vibecode.events.ProposalReady`.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Generator, Mapping, Sequence
from typing import Any

from vibecode.clr.claim_check import check_claims, io_inputs
from vibecode.clr.claims import claim_text, extract_claims
from vibecode.clr.compare import check_examples
from vibecode.clr.oracle import ORACLE_INDEX
from vibecode.clr.score import behaviour_tokens, decide, exact_tokens, trajectory_weight
from vibecode.clr.stress import check_stress
from vibecode.clr.trust import TRUSTED_SOURCES, input_trust
from vibecode.engine.plan import planned_request
from vibecode.engine.sampling import ask_model
from vibecode.errors import ExtractionError, SandboxError
from vibecode.events import (
    CandidateParsed,
    CandidateTested,
    ClaimsChecked,
    Event,
    ProposalReady,
    StepUnavailable,
)
from vibecode.patch.normalize import dedupe
from vibecode.problems.constraints import parse_constraints
from vibecode.problems.entry_adapter import extract_entry
from vibecode.problems.literals import to_leetcode
from vibecode.solve.context import SolveContext, Stage
from vibecode.solve.oracle_stage import (
    OracleState,
    differential,
    judge_oracle,
    skipped,
)
from vibecode.solve.sample_stage import planned_helpers, sample_stage
from vibecode.solve.verdicts import EarlyVerdicts
from vibecode.types import (
    CandidateEvidence,
    CandidateReport,
    ChatMessage,
    Completion,
    Decision,
    ExtractedClaim,
    InputResult,
    Problem,
    SolveResult,
)

MAX_MODEL_VERDICTS = 12  # verdict prompts per request, at most


def solve(ctx: SolveContext, problem: Problem, n: int) -> Generator[Event, None, SolveResult]:
    started = time.monotonic()
    # A measured speed that cannot fit --time-budget lowers K or the thinking budget, named.
    n, ctx.params, eta = planned_request(ctx.engine.info(), n, ctx.params, ctx.budget.seconds,
                                         helpers=planned_helpers(ctx, problem))
    # One batch of the candidates and the helpers, each candidate verified as it finishes; a free
    # replay or streaming = False keeps the old order (vibecode.solve.sample_stage).
    sampled = yield from sample_stage(ctx, problem, n, eta, MAX_MODEL_VERDICTS)
    completions, shared, counts, oracle, stopped = (sampled.completions, sampled.shared, sampled.counts,
                                                    sampled.oracle, sampled.stopped)
    reports = yield from _extract(ctx, problem, completions)
    ctx.sampling = {"asked": n, "sampled": len(completions), "until": ctx.until,
                    "stopped": stopped or ("every candidate was sampled" if len(completions) >= n
                                           else "the time budget ran out")}

    stage = Stage(ctx, "verify")
    yield stage.start(f"{sum(r.parsed and r.duplicate_of is None for r in reports.values())} distinct candidates")
    claims = {i: extract_claims(claim_text(r.completion.reasoning, r.completion.answer), problem)
              for i, r in reports.items() if r.parsed}
    tiers = {source: count for source, count in counts.items() if source != "example"}
    results = run_candidates(ctx, problem, reports, shared, claims, oracle.code, sampled.cache,
                             oracle_blocks(len(problem.examples), tiers, len(shared)))
    judge_oracle(oracle, problem, results, len(shared), input_trust(problem, tiers, len(shared)))
    n_examples = len(problem.examples)
    for i, r in reports.items():
        if r.parsed:
            own = results[_original(r)]
            examples = check_examples(problem, own[:n_examples])
            reports[i] = _replace(r, examples=examples)
            failures = sum(x.status in ("error", "timeout") for x in own[: len(shared)])
            yield CandidateTested(i, examples, len(shared), failures)
    yield stage.finish()

    stage = Stage(ctx, "claims")
    yield stage.start()
    early = sampled.verdicts  # verdicts started as candidates finished (vibecode.solve.verdicts)
    verdicts_left = [MAX_MODEL_VERDICTS - (early.started if early is not None else 0)]
    for i, r in reports.items():
        if not r.parsed:
            continue
        checked = check_claims(
            claims[i],
            problem=problem,
            io_results=_io_results(claims[i], results[_original(r)], len(shared), _claim_offset(i, reports, claims)),
            ask=_verdict_asker(ctx, verdicts_left, early),
        )
        reports[i] = _replace(reports[i], claims=checked, r=trajectory_weight(checked))
        yield ClaimsChecked(i, checked, trajectory_weight(checked))
    if early is not None:
        early.close()
    if ctx.use_model_verdicts and (verdicts_left[0] < 0 or (early is not None and early.failed)):
        yield StepUnavailable("claims", "the model could not give verdicts; those claims stay unchecked")
    yield stage.finish()

    stage = Stage(ctx, "score")
    yield stage.start()
    decision, behaviour = _decide(ctx, problem, reports, results, shared, tiers, oracle, n)
    if ctx.runner is not None:  # the stress tier: a proposal too slow for the constraints is not verified
        began = time.monotonic()
        decision, _, stress_notes = check_stress(ctx.runner, problem, reports, decision)
        ctx.timing["stress"] = round(time.monotonic() - began, 3)
        ctx.notes.extend(stress_notes)
    final = tuple(
        _replace(r, cluster=decision.cluster_of.get(r.index), behaviour=behaviour.get(r.index, ()))
        for r in sorted(reports.values(), key=lambda c: c.index)
    )
    yield stage.finish()
    ctx.timing["total"] = round(time.monotonic() - started, 3)
    result = SolveResult("code", problem, decision, final, dict(ctx.timing), ctx.calibration is not None,
                         tuple(ctx.notes), dict(ctx.sampling))
    yield ProposalReady(result)
    return result


def _extract(ctx: SolveContext, problem: Problem, completions: Sequence[Completion],
             ) -> Generator[Event, None, dict[int, CandidateReport]]:
    stage = Stage(ctx, "extract")
    yield stage.start()
    reports = extract_and_dedupe(problem, completions)
    for r in reports.values():
        yield CandidateParsed(r.index, r.parsed, r.duplicate_of, r.error, r.code)
    yield stage.finish()
    return reports


def _decide(ctx: SolveContext, problem: Problem, reports: dict[int, CandidateReport],
            results: dict[int, tuple[InputResult, ...]], shared: list[dict[str, object]], tiers: dict[str, int],
            oracle: OracleState, n: int) -> tuple[Decision, dict[int, tuple[str, ...]]]:
    """Score; when clusters that pass every example disagree, run differential inputs on them
    (and the oracle) and score again. The reason names the distinguishing input and the oracle."""
    n_examples = len(problem.examples)
    behaviour = {i: behaviour_tokens(results[i][: len(shared)], problem.output_order)
                 for i, r in reports.items() if r.parsed and r.duplicate_of is None}
    # floats exactly as printed, on the shared inputs: the pick within a cluster (clr.score)
    exact = {i: exact_tokens(results[i][: len(shared)], problem.output_order) for i in behaviour}
    inputs = list(shared)
    bounds = parse_constraints(problem).answer_bounds  # "the answer fits in a 32-bit integer"
    decision = _score(ctx, reports, behaviour, n_examples, tiers, oracle.tokens, n, exact, bounds,
                      *_trust(problem, tiers, len(inputs)))
    extra_note = ""
    # Different programs in the proposal's cluster agree only on the inputs run so far: search
    # for more inputs between them too, or a wrong member could be the one shown as verified.
    shared_cluster = len(_distinct_members(decision, behaviour)) > 1
    if (decision.contested_input is not None or shared_cluster) and decision.status != "failed" and ctx.runner is not None:
        passing = {i: reports[i].code or "" for i in behaviour
                   if sum(e.passed for e in reports[i].examples) == n_examples}
        contested = decision.contested_input is not None
        start = inputs[decision.contested_input] if decision.contested_input is not None else None
        began = time.monotonic()
        extra, tokens, differ = differential(ctx.runner, problem, passing, oracle, start, inputs)
        ctx.timing["differential"] = round(time.monotonic() - began, 3)
        if extra and (contested or differ):
            inputs += extra
            behaviour = {i: b + tokens.get(i, skipped(len(extra))) for i, b in behaviour.items()}
            oracle_tokens = oracle.tokens + tokens.get(ORACLE_INDEX, skipped(len(extra))) if oracle.tokens else ()
            tiers = {**tiers, "differential": len(extra)}
            decision = _score(ctx, reports, behaviour, n_examples, tiers, oracle_tokens, n, exact, bounds,
                              *_trust(problem, tiers, len(inputs)))
            what = "the clusters" if contested else "programs that had agreed on every earlier input"
            extra_note = f" Differential search: {differ} of {len(extra)} further inputs separate {what}."
    if decision.contested_input is not None and decision.contested_input < len(inputs):
        shown = ", ".join(f"{k} = {to_leetcode(v)}" for k, v in inputs[decision.contested_input].items())
        decision = dataclasses.replace(decision, reason=f"{decision.reason} Distinguishing input: {shown}")
    decision = dataclasses.replace(decision, reason=decision.reason + extra_note, oracle=oracle.check.reason)
    return decision, {i: behaviour[_original(r)] for i, r in reports.items() if r.parsed}


def _distinct_members(decision: Decision, behaviour: dict[int, tuple[str, ...]]) -> list[int]:
    """The distinct programs (not duplicates) in the proposal's cluster."""
    if decision.best is None or decision.best not in decision.cluster_of:
        return []
    top = decision.cluster_of[decision.best]
    return [i for i in behaviour if decision.cluster_of.get(i) == top]


def _trust(problem: Problem, tiers: dict[str, int], total: int) -> tuple[tuple[bool, ...], tuple[bool, ...] | None]:
    """Per shared input, whether the oracle's answer there is a verdict (``clr.trust``), and the
    inputs ``verified`` must count on: the same where the statement states guarantees, else all."""
    trust = input_trust(problem, tiers, total)
    return trust, trust if problem.constraints else None


def _score(ctx: SolveContext, reports: dict[int, CandidateReport], behaviour: dict[int, tuple[str, ...]],
           n_examples: int, tiers: dict[str, int], oracle: Sequence[str], n: int,
           exact: Mapping[int, tuple[str, ...]] | None = None, bounds: Sequence[tuple[float, float]] = (),
           trusted: Sequence[bool] | None = None, sound: Sequence[bool] | None = None) -> Decision:
    evidence = [
        CandidateEvidence(index=i, examples_passed=sum(e.passed for e in r.examples), examples_total=n_examples,
                          behaviour=behaviour[_original(r)], claims=r.claims,
                          exact=(exact or {}).get(_original(r), ()))
        for i, r in reports.items()
        if r.parsed
    ]
    return decide(evidence, k=max(n, len(reports)), calibration=ctx.calibration, tiers=tiers,
                  oracle=oracle or None, trusted=trusted, answer_bounds=bounds, sound=sound)


def extract_and_dedupe(problem: Problem, completions: Sequence[Completion]) -> dict[int, CandidateReport]:
    """Extract each candidate's code from its answer; drop what does not parse; mark duplicates."""
    reports: dict[int, CandidateReport] = {}
    codes: list[str] = []
    owners: list[int] = []
    for c in completions:
        try:
            code, note = extract_entry(c.answer, problem.signature)
        except ExtractionError as exc:
            reports[c.seq] = CandidateReport(c.seq, c, error=exc.message)
            continue
        reports[c.seq] = CandidateReport(c.seq, c, code=code, note=note)
        codes.append(code)
        owners.append(c.seq)
    for result, owner in zip(dedupe(codes), owners, strict=True):
        report = reports[owner]
        if result.error is not None:
            reports[owner] = _replace(report, error=f"syntax error: {result.error}")
        else:
            dup = owners[result.duplicate_of] if result.duplicate_of is not None else None
            reports[owner] = _replace(report, parsed=True, duplicate_of=dup)
    return reports


def oracle_blocks(n_examples: int, tiers: dict[str, int], total: int) -> tuple[int, ...]:
    """The lengths of the consecutive blocks of the shared inputs that the oracle runs as jobs of
    their own: the examples and vibecode's ``type`` tiers, then the model's edge cases and the
    generator's inputs (:func:`vibecode.clr.trust.input_trust`'s layout), then any other.

    A brute force is expected to time out on large inputs, and the harness gives up on a job
    after two timeouts (the rest are reported as timeouts, not run). In one job, two of
    vibecode's large tier inputs would cost the oracle the small inputs the model's generator
    wrote for it, the very ones where its answer is a verdict."""
    typed = n_examples + tiers.get("type", 0)
    model = sum(tiers.get(s, 0) for s in TRUSTED_SOURCES)
    blocks = (typed, model, total - typed - model)
    return tuple(b for b in blocks if b > 0)


def run_candidates(
    ctx: SolveContext,
    problem: Problem,
    reports: dict[int, CandidateReport],
    shared: list[dict[str, object]],
    claims: dict[int, tuple[ExtractedClaim, ...]],
    oracle_code: str | None = None,
    cache: dict[str, tuple[InputResult, ...]] | None = None,
    blocks: Sequence[int] = (),
) -> dict[int, tuple[InputResult, ...]]:
    """Run each distinct candidate once on the shared inputs plus the io-claim inputs of itself
    and of its duplicates (appended in candidate order); the oracle, when given, on the shared
    inputs under ``ORACLE_INDEX``, as one job per block of ``blocks`` (:func:`oracle_blocks`;
    one job when empty)."""
    codes: dict[int, str] = {}
    inputs: dict[int, list[dict[str, object]]] = {}
    for i, r in sorted(reports.items()):
        if not r.parsed:
            continue
        original = _original(r)
        if r.duplicate_of is None:
            codes[i] = r.code or ""
            inputs[i] = list(shared)
        inputs[original] += io_inputs(claims[i])
    if ctx.runner is None:
        raise SandboxError("Solving code problems needs a sandbox to run the candidates in.")
    # what streaming verification already ran on the shared inputs is not run again
    known = {i: (cache or {})[c] for i, c in codes.items() if c in (cache or {}) and len((cache or {})[c]) == len(shared)}
    rest = {i: inputs[i][len(shared):] for i in known}
    todo = {i: c for i, c in codes.items() if i not in known or rest[i]}
    jobs = {i: rest[i] if i in known else inputs[i] for i in todo}
    oracle_known = oracle_code is not None and len((cache or {}).get(oracle_code, ())) == len(shared)
    split = [len(shared)] if sum(blocks) != len(shared) else list(blocks)
    if oracle_code is not None and not oracle_known:
        start = 0
        for b, size in enumerate(split):  # keys ORACLE_INDEX, ORACLE_INDEX - 1, ...: never a candidate's
            todo[ORACLE_INDEX - b], jobs[ORACLE_INDEX - b] = oracle_code, shared[start:start + size]
            start += size
    ran = ctx.runner.run(problem.signature, todo, jobs)
    out = {i: known[i] + ran.get(i, ()) if i in known else ran[i] for i in codes}
    if oracle_code is not None:
        out[ORACLE_INDEX] = ((cache or {})[oracle_code] if oracle_known
                             else tuple(r for b in range(len(split)) for r in ran[ORACLE_INDEX - b]))
    return out


def _claim_offset(index: int, reports: dict[int, CandidateReport], claims: dict[int, tuple[ExtractedClaim, ...]]) -> int:
    """Where candidate ``index``'s io-claim inputs start after the shared ones in its job."""
    original = _original(reports[index])
    offset = 0
    for i in sorted(reports):
        r = reports[i]
        if r.parsed and _original(r) == original:
            if i == index:
                return offset
            offset += len(io_inputs(claims[i]))
    return offset


def _io_results(
    claims: Sequence[ExtractedClaim], results: Sequence[InputResult], n_shared: int, offset: int
) -> dict[int, InputResult]:
    positions = [n for n, c in enumerate(claims) if c.kind == "io" and c.args is not None]
    start = n_shared + offset
    return {n: results[start + k] for k, n in enumerate(positions) if start + k < len(results)}


def _verdict_asker(ctx: SolveContext, left: list[int], early: EarlyVerdicts | None = None,
                   ) -> Callable[[list[list[ChatMessage]]], list[str | None]]:
    """An ``ask`` callable for check_claims that respects the verdict budget; ``left[0]`` goes
    negative once the model failed to answer. Verdicts ``early`` started are taken from it."""

    def ask(prompts: list[list[ChatMessage]]) -> list[str | None]:
        answers: list[str | None] = []
        for prompt in prompts:
            started, answer = early.take(prompt) if early is not None else (False, None)
            if started:
                answers.append(answer)
                continue
            if not ctx.use_model_verdicts or left[0] <= 0 or ctx.budget.exhausted or (early is not None and early.failed):
                answers.append(None)
                continue
            answer = ask_model(ctx.engine, prompt, ctx.helper_params, "verdict")
            left[0] = left[0] - 1 if answer is not None else -1
            answers.append(answer)
        return answers

    return ask


def _original(report: CandidateReport) -> int:
    return report.duplicate_of if report.duplicate_of is not None else report.index


def _replace(report: CandidateReport, **changes: Any) -> CandidateReport:
    return dataclasses.replace(report, **changes)
