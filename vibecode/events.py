"""What a session reports while it works. The CLI renders these, the TUI turns them into
messages, ``--json-events`` prints them as JSON lines (:func:`event_json`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from vibecode.types import (
    CandidateReport,
    Claim,
    Completion,
    ExampleResult,
    Phase,
    SolveResult,
)

# Pipeline stages, in order.
STAGES = ("prompt", "sample", "extract", "inputs", "verify", "claims", "score")


@dataclass(frozen=True)
class StageStarted:
    stage: str
    detail: str = ""


@dataclass(frozen=True)
class StageFinished:
    stage: str
    duration_s: float


@dataclass(frozen=True)
class SampleProgress:
    """Sequence ``index`` grew by ``text``; it now has ``tokens`` tokens."""

    index: int
    text: str
    tokens: int
    phase: Phase
    budget_forced: bool = False


@dataclass(frozen=True)
class CandidateSampled:
    index: int
    completion: Completion


@dataclass(frozen=True)
class CandidateParsed:
    index: int
    parsed: bool
    duplicate_of: int | None
    error: str | None
    code: str | None


@dataclass(frozen=True)
class InputsReady:
    """Shared inputs every candidate runs on, by source ("example", "type", "model")."""

    counts: dict[str, int]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class CandidateTested:
    index: int
    examples: tuple[ExampleResult, ...]
    inputs_run: int
    failures: int  # crashes and timeouts on the shared inputs


@dataclass(frozen=True)
class ClaimsChecked:
    index: int
    claims: tuple[Claim, ...]
    r: float


@dataclass(frozen=True)
class StepUnavailable:
    """An optional step could not run (the model could not answer, the budget ran out)."""

    step: str
    reason: str


@dataclass(frozen=True)
class ProposalReady:
    result: SolveResult


Event = (
    StageStarted
    | StageFinished
    | SampleProgress
    | CandidateSampled
    | CandidateParsed
    | InputsReady
    | CandidateTested
    | ClaimsChecked
    | StepUnavailable
    | ProposalReady
)


def event_json(event: Event) -> dict[str, Any]:
    """A JSON-able form: ``{"event": "<ClassName>", ...fields}``."""
    from vibecode.tasks.report import result_json

    if isinstance(event, ProposalReady):
        return {"event": "ProposalReady", "result": result_json(event.result)}
    return {"event": type(event).__name__, **_plain(dataclasses.asdict(event))}


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return repr(value)


__all__ = [
    "STAGES",
    "CandidateParsed",
    "CandidateReport",
    "CandidateSampled",
    "CandidateTested",
    "ClaimsChecked",
    "Event",
    "InputsReady",
    "ProposalReady",
    "SampleProgress",
    "StageFinished",
    "StageStarted",
    "StepUnavailable",
    "event_json",
]
