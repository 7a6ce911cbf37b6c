"""The solve pipeline's oracle and differential steps (``vibecode.clr.oracle``,
``vibecode.clr.differential``): ask the model for a brute-force solution and an input generator,
and, when clusters that pass every example disagree, run more inputs to tell them apart."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from vibecode.clr.differential import SKIPPED, differential_inputs, separating, shrink, size
from vibecode.clr.execute import CandidateRunner
from vibecode.clr.inputs_check import key
from vibecode.clr.oracle import ORACLE_INDEX, OracleCheck, check_oracle, run_generator
from vibecode.clr.score import behaviour_tokens
from vibecode.engine.base import Engine
from vibecode.errors import EngineError, ExtractionError
from vibecode.problems.entry_adapter import extract_entry
from vibecode.solve.helper_budgets import GENERATOR, ORACLE, cut_off
from vibecode.solve.prompts import generator_messages, oracle_messages
from vibecode.types import ChatMessage, Completion, InputResult, InputSet, Problem, SamplingParams

SHRUNK = 2  # separating inputs shrunk for the oracle, at most

__all__ = ["GENERATOR", "ORACLE", "OracleState", "differential", "judge_oracle", "request_oracle", "skipped"]


@dataclass
class OracleState:
    """What the oracle step found: the oracle's code, the generator's inputs, the verdict."""

    code: str | None = None
    generated: InputSet = field(default_factory=lambda: InputSet((), GENERATOR))
    check: OracleCheck = field(default_factory=lambda: OracleCheck(False, "no usable oracle: it was not asked for"))
    tokens: tuple[str, ...] = ()


def request_oracle(engine: Engine, runner: CandidateRunner, problem: Problem,
                   params: SamplingParams, generator_params: SamplingParams | None = None) -> OracleState:
    """Ask for the brute-force solution (``params``) and the input generator (``generator_params``,
    else ``params``); run the generator."""
    state = OracleState()
    completion = _ask(engine, oracle_messages(problem), params, ORACLE)
    if completion is None:
        state.check = OracleCheck(False, "no usable oracle: the model gave no brute-force solution")
    else:
        try:
            state.code, _ = extract_entry(completion.answer, problem.signature)
        except ExtractionError as exc:
            cut = cut_off(completion)
            state.check = OracleCheck(False, f"no usable oracle: {cut}" if cut else f"no usable oracle: {exc.message}")
    if state.code is not None:
        generator = _ask(engine, generator_messages(problem), generator_params or params, GENERATOR)
        state.generated = run_generator(runner, problem, generator.answer if generator is not None else None)
        cut = cut_off(generator)
        if cut is not None and not state.generated.inputs:
            state.generated = InputSet((), GENERATOR, (f"no usable input generator: {cut}", *state.generated.notes))
    return state


def _ask(engine: Engine, messages: Sequence[ChatMessage], params: SamplingParams, purpose: str) -> Completion | None:
    """One optional helper request, its completion kept (a cut-off is named); None when the
    engine cannot answer, as ``ask_model``."""
    try:
        [completion] = engine.sample(messages, params, 1, purpose=purpose)
    except EngineError:  # ModelUnavailable and ReplayExhausted included
        return None
    return completion


def judge_oracle(state: OracleState, problem: Problem, results: dict[int, tuple[InputResult, ...]],
                 n_shared: int, trusted: Sequence[bool] | None = None) -> None:
    """Take the oracle's run out of ``results`` and decide whether it may judge (a crash counts
    against it only on an input that ``trusted`` vouches for; see :func:`check_oracle`)."""
    own = results.pop(ORACLE_INDEX, None)
    if state.code is None or own is None:
        return
    answered = [i for i in range(n_shared) if any(i < len(r) and r[i].status == "ok" for r in results.values())]
    state.check = check_oracle(problem, own, n_shared, answered, trusted)
    if state.check.usable:
        state.tokens = behaviour_tokens(own[:n_shared], problem.output_order)


def differential(runner: CandidateRunner, problem: Problem, codes: Mapping[int, str], state: OracleState,
                 distinguishing: dict[str, object] | None, seen: Sequence[dict[str, object]],
                 ) -> tuple[list[dict[str, object]], dict[int, tuple[str, ...]], int]:
    """Run new inputs on the disagreeing candidates ``codes`` (and a usable oracle): the inputs,
    each candidate's behaviour tokens on them (the oracle's under ``ORACLE_INDEX``), and on how
    many of them the candidates differ. With a usable oracle, the ``SHRUNK`` smallest inputs that
    separate the candidates are also shrunk (``clr.differential.shrink``) and the smallest found
    added, so that the oracle, which may be too slow on the large ones, can judge."""
    extra = differential_inputs(problem, distinguishing, seen)
    if not extra or not codes:
        return [], {}, 0
    results = runner.run(problem.signature, codes, {i: extra for i in codes})
    tokens = {i: behaviour_tokens(r, problem.output_order) for i, r in results.items()}
    differ = separating(list(tokens.values()))
    if not (state.check.usable and state.code is not None):
        return extra, tokens, len(differ)
    known = {key(x) for x in [*seen, *extra]}
    small: list[dict[str, object]] = []
    for col in sorted(differ, key=lambda j: size(list(extra[j].values())))[:SHRUNK]:
        found = shrink(extra[col], problem, lambda batch: _separates(runner, problem, codes, batch))
        if key(found) not in known:
            known.add(key(found))
            small.append(found)
    jobs: dict[int, str] = {**{i: c for i, c in codes.items() if small}, ORACLE_INDEX: state.code}
    # the oracle runs the small inputs first: after a few timeouts (on the large ones) the
    # harness reports the remaining inputs as timeouts without running them
    inputs = {i: small if i != ORACLE_INDEX else [*small, *extra] for i in jobs}
    more = runner.run(problem.signature, jobs, inputs)
    for i, r in more.items():
        got = behaviour_tokens(r, problem.output_order)
        if i == ORACLE_INDEX:
            got = got[len(small):] + got[:len(small)]
        tokens[i] = tokens.get(i, ()) + got
    differ = separating([t for i, t in tokens.items() if i != ORACLE_INDEX])
    return [*extra, *small], tokens, len(differ)


def _separates(runner: CandidateRunner, problem: Problem, codes: Mapping[int, str],
               batch: Sequence[dict[str, object]]) -> list[bool]:
    """On which inputs of ``batch`` the candidates ``codes`` answer differently."""
    results = runner.run(problem.signature, codes, {i: batch for i in codes})
    tokens = [behaviour_tokens(r, problem.output_order) for r in results.values()]
    cols = set(separating(tokens))
    return [j in cols for j in range(len(batch))]


def skipped(n: int) -> tuple[str, ...]:
    return (SKIPPED,) * n
