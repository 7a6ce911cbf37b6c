"""Issue 18: streaming verification and early stop (``--until``), through the paced replay
engine (``replay:FILE?tps=R``) and the real local sandbox."""

from __future__ import annotations

from pathlib import Path

from tests.solve.oracle_pools import generator_line, oracle_line, problem, right, wrong
from tests.solve.pools import write_pool
from vibecode.config import Settings
from vibecode.engine.replay import ReplayEngine
from vibecode.events import ProposalReady, StageStarted
from vibecode.sandbox import make_sandbox
from vibecode.session import Session
from vibecode.solve.report import result_json
from vibecode.types import SolveResult

RATE = 4000  # tokens/s per sequence
SLOW = 40000  # tokens of a slow line: 10 s at RATE, far longer than verifying the fast ones


def _solve(tmp_path: Path, lines: list[dict[str, object]], until: str, n: int) -> tuple[SolveResult, list[object]]:
    engine = ReplayEngine(f"{write_pool(tmp_path / f'{until}.jsonl', lines)}?tps={RATE}")  # type: ignore[arg-type]
    session = Session(engine, make_sandbox("local", Settings()), Settings(until=until))  # type: ignore[arg-type]
    events = list(session.solve(problem(), n=n))
    assert isinstance(events[-1], ProposalReady)
    return events[-1].result, events


def _slow(lines: list[dict[str, str]]) -> list[dict[str, object]]:
    return [{**line, "tokens": SLOW} for line in lines]


def test_confident_stops_once_three_agree_and_nothing_else_passes(tmp_path: Path) -> None:
    result, events = _solve(tmp_path, [*right(3), *_slow(wrong(2))], "confident", 5)
    assert result.sampling["sampled"] == 3 and result.sampling["asked"] == 5
    assert "3 candidates in one cluster pass every example" in str(result.sampling["stopped"])
    assert result.status == "verified" and len(result.candidates) == 3
    stages = [e.stage for e in events if isinstance(e, StageStarted)]
    assert stages.index("inputs") < stages.index("sample")  # inputs first, so candidates verify as they finish
    assert result_json(result)["sampling"]["until"] == "confident"


def test_all_samples_everything_and_sees_the_contest(tmp_path: Path) -> None:
    lines = [*right(3), *[{**x, "tokens": 400} for x in wrong(2)]]
    result, _ = _solve(tmp_path, lines, "all", 5)
    assert result.sampling["sampled"] == 5 and result.sampling["stopped"] == "every candidate was sampled"
    assert result.status == "plausible" and result.decision.reason.startswith("Contested")


def test_first_verified_stops_at_the_first_verified_decision(tmp_path: Path) -> None:
    lines = [*right(1), *_slow(right(1)), *_slow(wrong(2))]
    result, _ = _solve(tmp_path, lines, "first-verified", 4)
    assert result.sampling["sampled"] == 1
    assert "first verified decision" in str(result.sampling["stopped"])


def test_confident_stops_when_the_oracle_rejects_the_rival(tmp_path: Path) -> None:
    # a wrong candidate that passes the examples finishes early too; the validated oracle rejects
    # it, so the one still decoding cannot change the decision (too few for the cluster rule;
    # the lead rule without an oracle: test_solve_stream_batch.py)
    lines = [*right(2), *wrong(1), *_slow(right(1)), oracle_line(), generator_line()]
    result, _ = _solve(tmp_path, lines, "confident", 4)
    assert result.sampling["sampled"] == 3
    assert "the oracle rejects the 1 other finished candidate(s)" in str(result.sampling["stopped"])
    best = result.best
    assert result.status == "verified" and best is not None and best.index in (0, 1)
    assert "rejects the 1 other cluster" in result.decision.reason


def test_confident_waits_while_the_unfinished_could_overturn_the_lead(tmp_path: Path) -> None:
    lines = [*right(3), *wrong(2), *[{**x, "tokens": 20000} for x in right(2)]]
    result, _ = _solve(tmp_path, lines, "confident", 7)
    assert result.sampling["sampled"] == 7  # 3 against 2 with 2 still decoding: go on
    assert result.status == "plausible" and result.decision.reason.startswith("Contested")
