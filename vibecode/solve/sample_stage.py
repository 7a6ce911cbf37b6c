"""The solve pipeline's sampling stage: the K candidates, the helper requests (a brute-force
oracle, an input generator, the model's edge cases) and the shared inputs.

- **One batch** (a paced or real engine, ``streaming``): the candidates and the helpers go out in
  one ``Engine.stream_batch``; their prompts share the problem text as a prefix. As each helper
  finishes, what it yields goes to the :class:`~vibecode.solve.streaming.Probe`: the oracle is run
  on every input, new inputs are run on the candidates already verified. A helper that fails is a
  skipped step, named as before. The generator is asked whatever the oracle gives.
- **Separate requests** (a free replay, ``streaming = False``, or a batch that does not fit the
  context): the helpers one after the other, before sampling (streaming) or after it.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass

from vibecode.clr.design_inputs import generate_design_inputs
from vibecode.clr.inputs import edge_case_prompt, generate_inputs, parse_model_inputs
from vibecode.clr.oracle import OracleCheck, run_generator
from vibecode.engine.base import Request
from vibecode.engine.plan import Helpers, planned_request
from vibecode.engine.sampling import ask_model, sample_batch, sample_candidates
from vibecode.errors import ContextOverflow, ExtractionError
from vibecode.events import Event, InputsReady, SampleBudget, StepUnavailable
from vibecode.problems.entry_adapter import extract_entry
from vibecode.solve.context import SolveContext, Stage
from vibecode.solve.helper_budgets import (
    EDGE_CASES,
    GENERATOR,
    ORACLE,
    cut_off,
    helper_budget,
    helper_request_params,
)
from vibecode.solve.oracle_stage import OracleState, request_oracle
from vibecode.solve.prompts import (
    edge_case_batch_messages,
    edge_case_messages,
    generator_messages,
    oracle_messages,
    solve_messages,
)
from vibecode.solve.streaming import FREE_REPLAY, Probe, input_key, samples_for_free
from vibecode.solve.verdicts import EarlyVerdicts
from vibecode.types import Completion, InputResult, InputSet, Problem, SamplingParams

__all__ = ["EDGE_CASES", "Sampled", "helper_params", "planned_helpers", "sample_stage", "shared_inputs"]


@dataclass
class Sampled:
    """What sampling gave: the candidates, every shared input (by source in ``counts``), the
    oracle, the runs streaming verification already made (by code), and why sampling stopped."""

    completions: list[Completion]
    shared: list[dict[str, object]]
    counts: dict[str, int]
    oracle: OracleState
    cache: dict[str, tuple[InputResult, ...]]
    stopped: str | None
    verdicts: EarlyVerdicts | None = None  # claim verdicts started during sampling


def sample_stage(ctx: SolveContext, problem: Problem, n: int, eta: str, verdict_limit: int = 0,
                 ) -> Generator[Event, None, Sampled]:
    if not _streams(ctx):  # sample everything, then the helpers
        completions = yield from _sample(ctx, problem, n, None, eta)
        shared, counts, oracle = yield from _helpers_apart(ctx, problem, n)
        stopped = FREE_REPLAY if ctx.until != "all" and ctx.streaming else None
        return Sampled(completions, shared, counts, oracle, {}, stopped)
    if _in_one_batch(ctx):
        try:
            return (yield from _batched(ctx, problem, n, eta, verdict_limit))
        except ContextOverflow as exc:
            ctx.notes.append(f"The candidates and the helper requests did not fit in one batch ({exc.message}); "
                             "the helpers ran as separate requests before sampling.")
            eta = planned_request(ctx.engine.info(), n, ctx.params, None)[2]  # the candidates alone now
    shared, counts, oracle = yield from _helpers_apart(ctx, problem, n)
    probe = Probe(ctx.runner, problem, shared, oracle.code, ctx.until, n) if ctx.runner is not None else None
    completions = yield from _sample(ctx, problem, n, probe, eta)
    cache = probe.cached() if probe is not None else {}
    return Sampled(completions, shared, counts, oracle, cache, probe.stopped if probe is not None else None)


def _sample(ctx: SolveContext, problem: Problem, n: int, probe: Probe | None, eta: str,
            ) -> Generator[Event, None, list[Completion]]:
    stage = Stage(ctx, "sample")
    yield stage.start(f"{n} candidates" + (f"; {eta}" if eta else ""), SampleBudget(n, ctx.params.max_tokens))
    completions = yield from sample_candidates(ctx.engine, solve_messages(problem), ctx.params, n, ctx.budget, probe)
    yield stage.finish()
    return completions


def planned_helpers(ctx: SolveContext, problem: Problem) -> Helpers | None:
    """The helper requests :func:`sample_stage` will make, as the plan counts them: their budgets
    for any K, in the candidates' batch or apart (a batch that overflows the context is found only
    when it is sent; the sampling ETA is then given again without them)."""
    roles = [ORACLE, GENERATOR] if _asks_oracle(ctx) else []
    if _asks_edge_cases(ctx, problem):
        roles.append(EDGE_CASES)
    if not roles:
        return None
    batched = _in_one_batch(ctx)
    return Helpers(lambda k, max_tokens: [helper_budget(role, k, max_tokens) for role in roles], batched)


def helper_params(ctx: SolveContext, role: str, n: int) -> SamplingParams:
    """The sampling of helper ``role`` beside ``n`` candidates: its own budget and prefix."""
    return helper_request_params(role, ctx.helper_params, ctx.params, n, ctx.helper_prefill)


def _helpers_apart(ctx: SolveContext, problem: Problem, n: int,
                   ) -> Generator[Event, None, tuple[list[dict[str, object]], dict[str, int], OracleState]]:
    """The oracle and generator, then the edge cases, each as a request of its own."""
    oracle = OracleState()
    if _asks_oracle(ctx):
        assert ctx.runner is not None  # _asks_oracle checked it
        stage = Stage(ctx, "oracle")
        yield stage.start("a brute-force solution and an input generator")
        oracle = request_oracle(ctx.engine, ctx.runner, problem, helper_params(ctx, ORACLE, n),
                                helper_params(ctx, GENERATOR, n))
        yield stage.finish()
    stage = Stage(ctx, "inputs")
    yield stage.start()
    shared, counts, notes = yield from shared_inputs(ctx, problem, n=n)
    known = {input_key(x) for x in shared}
    fresh = [dict(x) for x in oracle.generated.inputs if input_key(dict(x)) not in known]
    shared += fresh
    counts[GENERATOR] = len(fresh)
    notes += list(oracle.generated.notes)
    yield InputsReady(counts, tuple(notes))
    yield stage.finish()
    return shared, counts, oracle


def shared_inputs(
    ctx: SolveContext, problem: Problem, ask: bool = True, n: int = 1
) -> Generator[Event, None, tuple[list[dict[str, object]], dict[str, int], list[str]]]:
    """The examples, then type-driven inputs, then (``ask``) the model's edge cases."""
    shared = [dict(e.inputs) for e in problem.examples]
    generated = generate_design_inputs(problem) if problem.signature.design else generate_inputs(problem)
    notes = list(generated.notes)
    shared += [dict(x) for x in generated.inputs]
    counts = {"example": len(problem.examples), "type": len(generated.inputs), "model": 0}
    if ask and _asks_edge_cases(ctx, problem):
        answer = ask_model(ctx.engine, edge_case_messages(edge_case_prompt(problem)), helper_params(ctx, EDGE_CASES, n),
                           EDGE_CASES)
        if answer is None:
            ctx.notes.append("The model could not propose edge-case inputs.")
            yield StepUnavailable("inputs", "the model could not propose edge-case inputs")
        else:
            proposed = parse_model_inputs(answer, problem)
            known = {input_key(x) for x in shared}
            fresh = [dict(x) for x in proposed.inputs if input_key(dict(x)) not in known]
            shared += fresh
            counts["model"] = len(fresh)
            notes += list(proposed.notes)
    return shared, counts, notes


def _streams(ctx: SolveContext) -> bool:
    """Whether sampling streams (a paced or real engine, streaming on)."""
    return ctx.streaming and not samples_for_free(ctx.engine)


def _in_one_batch(ctx: SolveContext) -> bool:
    """Whether the helpers decode in the candidates' batch (until the batch overflows the context)."""
    return _streams(ctx) and ctx.runner is not None


def _asks_oracle(ctx: SolveContext) -> bool:
    return ctx.use_model_inputs and ctx.runner is not None and not ctx.budget.exhausted


def _asks_edge_cases(ctx: SolveContext, problem: Problem) -> bool:
    return ctx.use_model_inputs and not ctx.budget.exhausted and not problem.signature.design  # no design prompt yet


def _batched(ctx: SolveContext, problem: Problem, n: int, eta: str, verdict_limit: int,
             ) -> Generator[Event, None, Sampled]:
    """The candidates and the helpers in one batch, streaming verification on the way."""
    assert ctx.runner is not None
    stage = Stage(ctx, "inputs")
    yield stage.start()
    shared, counts, notes = yield from shared_inputs(ctx, problem, ask=False)
    yield stage.finish()
    helpers: list[tuple[str, Request]] = []
    if _asks_oracle(ctx):
        helpers += [(ORACLE, Request(oracle_messages(problem), helper_params(ctx, ORACLE, n), 1, ORACLE)),
                    (GENERATOR, Request(generator_messages(problem), helper_params(ctx, GENERATOR, n), 1, GENERATOR))]
    if _asks_edge_cases(ctx, problem):
        helpers.append((EDGE_CASES, Request(edge_case_batch_messages(problem), helper_params(ctx, EDGE_CASES, n), 1,
                                            EDGE_CASES)))
    probe = Probe(ctx.runner, problem, shared, None, ctx.until, n, pending=len(helpers))
    verdicts = None
    if ctx.use_model_verdicts and verdict_limit > 0:
        verdicts = EarlyVerdicts(ctx.engine, ctx.helper_params, problem, ctx.budget, verdict_limit)
        probe.listeners.append(verdicts.add)
    oracle = OracleState()
    if helpers:
        oracle.check = OracleCheck(False, "no usable oracle: the model's brute-force solution never came")
    stage = Stage(ctx, "sample")
    named = {ORACLE: "a brute-force oracle", GENERATOR: "an input generator", EDGE_CASES: "edge cases"}
    also = f" with {', '.join(named[role] for role, _ in helpers)} in the same batch" if helpers else ""
    yield stage.start(f"{n} candidates{also}" + (f"; {eta}" if eta else ""),
                      SampleBudget(n, ctx.params.max_tokens, len(helpers),
                                   max((r.params.max_tokens for _, r in helpers), default=0)))
    on_helper = _HelperSink(ctx, problem, probe, oracle, [role for role, _ in helpers])
    try:
        completions = yield from sample_batch(ctx.engine, solve_messages(problem), ctx.params, n, ctx.budget,
                                              [r for _, r in helpers], on_helper, probe)
    except ContextOverflow:
        if verdicts is not None:
            verdicts.close()
        yield stage.finish()
        raise
    yield stage.finish()
    cache = probe.cached()
    counts["model"] = probe.counts.get("model", 0)
    counts[GENERATOR] = probe.counts.get(GENERATOR, 0)
    notes += list(oracle.generated.notes) + probe.notes
    yield InputsReady(counts, tuple(notes))
    return Sampled(completions, probe.shared, counts, oracle, cache, probe.stopped, verdicts)


class _HelperSink:
    """Takes each finished helper request of the batch into the probe and the oracle state."""

    def __init__(self, ctx: SolveContext, problem: Problem, probe: Probe, oracle: OracleState,
                 roles: Sequence[str]) -> None:
        self.ctx, self.problem, self.probe, self.oracle, self.roles = ctx, problem, probe, oracle, list(roles)

    def __call__(self, h: int, completion: Completion | None, why: str) -> list[Event]:
        role = self.roles[h]
        answer = completion.answer if completion is not None else None
        cut = cut_off(completion)
        if role == GENERATOR:
            if answer is None:
                self.oracle.generated = InputSet((), GENERATOR, (f"the model gave no input generator: {why}",))
                self.probe.helper_done()
            else:
                self.probe.submit(lambda: self._generate(answer, cut))
            return []
        events: list[Event] = []
        if role == ORACLE:
            self._take_oracle(answer, why, cut)
        elif answer is None:
            self.ctx.notes.append(f"The model could not propose edge-case inputs: {why}.")
            events.append(StepUnavailable("inputs", f"the model could not propose edge-case inputs: {why}"))
        else:
            proposed = parse_model_inputs(answer, self.problem)
            self.probe.add_inputs("model", proposed.inputs)
            self.probe.notes.extend(proposed.notes)
            if cut is not None:
                self.probe.notes.append(f"the model's edge-case list was {cut} ({len(proposed.inputs)} input(s) kept)")
        self.probe.helper_done()
        return events

    def _take_oracle(self, answer: str | None, why: str, cut: str | None) -> None:
        if answer is None:
            self.oracle.check = OracleCheck(False, f"no usable oracle: the model gave no brute-force solution ({why})")
            return
        try:
            self.oracle.code, _ = extract_entry(answer, self.problem.signature)
        except ExtractionError as exc:
            self.oracle.check = OracleCheck(False, f"no usable oracle: {cut}" if cut else f"no usable oracle: {exc.message}")
            return
        self.oracle.check = OracleCheck(False, "no usable oracle: it was not judged")  # judge_oracle decides
        self.probe.set_oracle(self.oracle.code)

    def _generate(self, answer: str, cut: str | None) -> None:
        try:
            assert self.ctx.runner is not None
            generated = run_generator(self.ctx.runner, self.problem, answer)
            if cut is not None and not generated.inputs:
                generated = InputSet((), GENERATOR, (f"no usable input generator: {cut}", *generated.notes))
            self.oracle.generated = generated
            self.probe.add_inputs(GENERATOR, self.oracle.generated.inputs)
        finally:
            self.probe.helper_done()
