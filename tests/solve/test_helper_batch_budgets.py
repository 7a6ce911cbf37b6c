"""Issue 18: the helpers of the candidates' batch (oracle, generator, edge cases) are cheap in
tokens: each has its own budget, bounded as a share of the candidates', and a model that thinks
gets an empty think block before them. Checked on what the engine is sent (a real paced replay
engine), on the real llama engine with the tiny model, and on the cut-off wording."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from tests.solve.oracle_pools import generator_line, oracle_line, problem, right, wrong
from tests.solve.pools import write_pool
from vibecode.clr.execute import CandidateRunner
from vibecode.config import Settings
from vibecode.engine.base import Request
from vibecode.engine.llama import LlamaCppEngine
from vibecode.engine.replay import ReplayEngine
from vibecode.engine.sampling import Budget
from vibecode.events import ProposalReady
from vibecode.models import get_manifest
from vibecode.sandbox import make_sandbox
from vibecode.session import Session
from vibecode.solve.context import SolveContext
from vibecode.solve.helper_budgets import (
    EDGE_CASES,
    FLOORS,
    GENERATOR,
    NEEDS,
    NO_THINK,
    ORACLE,
    SHARE,
    cut_off,
    helper_budget,
    helper_request_params,
)
from vibecode.solve.oracle_stage import OracleState, request_oracle
from vibecode.solve.prompts import oracle_messages
from vibecode.solve.sample_stage import _HelperSink
from vibecode.solve.streaming import Probe
from vibecode.types import SamplingParams, SequenceDone, StreamEvent

ROLES = (ORACLE, GENERATOR, EDGE_CASES)


def test_the_shipped_budget_keeps_all_helpers_within_a_sixteenth_of_the_candidates() -> None:
    # VibeThinker's manifests: K = 8 candidates of 4096 tokens
    budgets = {role: helper_budget(role, 8, 4096) for role in ROLES}
    assert budgets == NEEDS
    assert sum(budgets.values()) <= 8 * 4096 // SHARE


@pytest.mark.parametrize(("k", "max_tokens"), [(1, 768), (8, 256), (8, 512), (16, 1024), (8, 1024), (4, 4096)])
def test_each_budget_lies_between_its_floor_and_its_need_and_the_share_binds_above_the_floors(
        k: int, max_tokens: int) -> None:
    budgets = {role: helper_budget(role, k, max_tokens) for role in ROLES}
    for role in ROLES:
        assert FLOORS[role] <= budgets[role] <= NEEDS[role]
    share = k * max_tokens // SHARE
    if share >= sum(FLOORS.values()):
        assert sum(budgets.values()) <= share
    else:
        assert budgets == FLOORS


class _Spy(ReplayEngine):
    """A real paced replay engine that keeps the requests of each batch it is sent."""

    def __init__(self, path: Path, tps: float) -> None:
        super().__init__(path, tps)
        self.batches: list[list[Request]] = []

    def stream_batch(self, requests: Sequence[Request], *, cancel: threading.Event | None = None,
                     ) -> Iterator[StreamEvent]:
        self.batches.append(list(requests))
        return super().stream_batch(requests, cancel=cancel)


@pytest.mark.parametrize(("model", "prefill"), [("vibethinker-3b", NO_THINK), ("tiny", "")])
def test_the_helpers_are_sent_with_their_own_budget_and_the_models_prefix(
        tmp_path: Path, model: str, prefill: str) -> None:
    lines = [*right(1), *wrong(1), oracle_line(), generator_line()]
    engine = _Spy(write_pool(tmp_path / "pool.jsonl", lines), tps=20000)  # type: ignore[arg-type]
    manifest = get_manifest(model)
    session = Session(engine, make_sandbox("local", Settings()), Settings(until="all"), manifest)
    events = list(session.solve(problem(), n=2))
    assert isinstance(events[-1], ProposalReady)
    [batch] = engine.batches
    sent = {r.purpose: r.params for r in batch[1:]}
    assert set(sent) == set(ROLES)
    candidates = batch[0].params
    assert batch[0].purpose == "candidate" and candidates.prefill == ""
    for role, params in sent.items():
        assert params.max_tokens == helper_budget(role, 2, candidates.max_tokens)
        assert params.prefill == prefill
        assert params.max_think_tokens == (None if prefill else params.max_tokens // 2)
        assert params.temperature == candidates.temperature  # the session's sampling otherwise
    # the pool's oracle still judges: the replay contract's oracle line answered the request
    oracle = events[-1].result.decision.oracle
    assert oracle is not None and oracle.startswith("a brute-force oracle passes")


def test_the_tiny_model_continues_after_the_empty_think_block_and_a_cut_off_is_named(
        tmp_path: Path, tiny_engine: LlamaCppEngine) -> None:
    base = SamplingParams(temperature=0.7, top_k=40, seed=3, ignore_eos=True)
    params = helper_request_params(ORACLE, base, SamplingParams(max_tokens=16), 1, NO_THINK)
    params = dataclasses.replace(params, max_tokens=12)  # a cut-off, cheaply
    messages = oracle_messages(problem())
    events = list(tiny_engine.stream_batch([Request(messages, params, 1, ORACLE)]))
    expected_prompt = len(tiny_engine.prompt_tokens(messages, NO_THINK))
    [done] = [e for e in events if isinstance(e, SequenceDone)]
    completion = done.completion
    assert completion.text.startswith(NO_THINK)  # the prefix is part of the prompt, and of the text
    assert completion.reasoning == "" and "<think>" not in completion.answer
    assert completion.prompt_tokens == expected_prompt
    assert completion.finish_reason == "length" and completion.completion_tokens == 12
    assert cut_off(completion) == "cut off at 12 tokens"
    # the solve names it: the oracle is not silently dropped
    sandbox = make_sandbox("local", Settings())
    runner = CandidateRunner(sandbox)
    replay = ReplayEngine(write_pool(tmp_path / "pool.jsonl", right(1)))  # type: ignore[arg-type]
    ctx = SolveContext(replay, runner, SamplingParams(), base, Budget(None))
    p = problem()
    probe = Probe(runner, p, [], None, "all", 1, pending=1)
    state = OracleState()
    assert _HelperSink(ctx, p, probe, state, [ORACLE])(0, completion, "") == []
    apart = request_oracle(tiny_engine, runner, p, params)  # the separate request names it too
    assert apart.code is None and apart.check.reason == "no usable oracle: cut off at 12 tokens"
    assert state.code is None  # twelve tokens hold no complete brute force
    assert state.check.reason == "no usable oracle: cut off at 12 tokens"
    assert not state.check.usable and probe.pending == 0


def test_the_first_estimate_counts_the_helpers_of_the_batch(tmp_path: Path) -> None:
    """The sample stage's ETA, from this engine's cached speed, includes the oracle, the generator
    and the edge cases at their own budgets, and a time budget the candidates alone would fit
    but not with them lowers K, named."""
    from vibecode.engine.plan import model_key, record
    from vibecode.events import StageStarted

    lines = [*right(2), *wrong(2), oracle_line(), generator_line()]
    pool = write_pool(tmp_path / "pool.jsonl", lines)  # type: ignore[arg-type]
    engine = ReplayEngine(pool, tps=20000)
    info = engine.info()
    record(model_key(info.model, info.backend), 4, 400, 100.0)  # 4 tokens/s at K=4 (test cache dir)
    settings = Settings(until="all", max_tokens=1000)
    session = Session(engine, make_sandbox("local", settings), settings, get_manifest("tiny"))
    events = list(session.solve(problem(), n=4))
    [sample] = [e for e in events if isinstance(e, StageStarted) and e.stage == "sample"]
    helpers = sum(helper_budget(role, 4, 1000) for role in ROLES)
    assert f"for 4 x 1000 tokens and 3 helpers ({helpers} tokens)" in sample.detail
    # the same request within a time budget that 4 x 1000 tokens alone would fit (1,000 s)
    tight = Settings(until="all", max_tokens=1000, time_budget_s=1050.0)
    session = Session(ReplayEngine(pool, tps=20000), make_sandbox("local", tight), tight, get_manifest("tiny"))
    events = list(session.solve(problem(), n=4))
    [sample] = [e for e in events if isinstance(e, StageStarted) and e.stage == "sample"]
    assert "over the" in sample.detail and "helpers" in sample.detail, sample.detail
