"""Frozen values that cross module boundaries.

Keep this module free of behaviour beyond small derived properties: it is imported by every
layer, so it must stay cheap and dependency-free.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Role = Literal["system", "user", "assistant"]
FinishReason = Literal["stop", "length", "cancelled"]
Phase = Literal["thinking", "answer"]


@dataclass(frozen=True)
class ChatMessage:
    role: Role
    content: str


@dataclass(frozen=True)
class SamplingParams:
    """How to sample. ``top_k=0`` and ``min_p=0`` disable those filters."""

    temperature: float = 0.7
    top_p: float = 0.95
    top_k: int = 0
    min_p: float = 0.0
    max_tokens: int = 1024
    # Thinking longer than this closes the think block and forces the answer (budget forcing).
    max_think_tokens: int | None = None
    stop: tuple[str, ...] = ()
    seed: int | None = None
    ignore_eos: bool = False
    # Text appended after the assistant header, before generation (e.g. "<think>\n").
    # It counts as generated text for the think/answer split.
    prefill: str = ""
    # Sum the chosen tokens' log-probabilities into Completion.logprob. It costs one pass over
    # the vocabulary per token, so it is off unless asked for.
    logprobs: bool = False


@dataclass(frozen=True)
class Completion:
    """One sampled sequence.

    ``text`` is everything the model produced (after any prefill), including the think block;
    ``reasoning`` is the text inside ``<think>...</think>`` and ``answer`` the rest.
    """

    text: str
    reasoning: str
    answer: str
    finish_reason: FinishReason
    prompt_tokens: int
    completion_tokens: int
    reasoning_tokens: int = 0
    logprob: float | None = None
    seed: int | None = None
    budget_forced: bool = False
    seq: int = 0
    duration_s: float = 0.0


@dataclass(frozen=True)
class TokenDelta:
    """Streaming event: sequence ``seq`` produced ``text``; ``tokens`` generated so far."""

    seq: int
    text: str
    tokens: int
    phase: Phase
    budget_forced: bool = False


@dataclass(frozen=True)
class SequenceDone:
    """Streaming event: sequence ``seq`` finished with ``completion``."""

    seq: int
    completion: Completion


StreamEvent = TokenDelta | SequenceDone


@dataclass(frozen=True)
class EngineInfo:
    engine: str  # "llama", "openai", "replay"
    model: str  # model id or path or URL
    backend: str  # "CPU", "CUDA", "Metal", "Vulkan", "remote", "replay"
    gpu_layers: int
    n_ctx: int
    n_ctx_train: int | None = None
    n_threads: int | None = None
    extra: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class FileChange:
    """A whole-file change. ``old is None``: created; ``new is None``: deleted."""

    path: str  # repository-relative, POSIX separators
    old: str | None
    new: str | None


@dataclass(frozen=True)
class Patch:
    changes: tuple[FileChange, ...]

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(c.path for c in self.changes)


@dataclass(frozen=True)
class RunResult:
    """What one sandboxed command did."""

    exit_code: int | None  # None when killed by a signal
    signal: int | None
    timed_out: bool
    oom: bool
    stdout: str  # tail, capped
    stderr: str  # tail, capped
    stdout_bytes: int  # total size produced, before capping
    stderr_bytes: int
    duration_s: float
    peak_memory_mb: float | None
    backend: str  # "local" | "docker"
    # Protection name -> whether it was active for this run ("network", "readonly_root", ...).
    protections: dict[str, bool] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out and not self.oom


TestOutcome = Literal["passed", "failed", "error", "skipped"]


@dataclass(frozen=True)
class TestCaseResult:
    nodeid: str  # e.g. "tests/test_x.py::test_y"
    outcome: TestOutcome
    duration_s: float = 0.0
    message: str = ""  # failure message / traceback text


@dataclass(frozen=True)
class TestReport:
    """Per-test outcomes of one pytest run, read from JUnit XML (never invented)."""

    cases: tuple[TestCaseResult, ...]
    run: RunResult
    collection_error: str | None = None  # set when collection broke
    complete: bool = True  # False when the report was missing/corrupt and outcomes are partial

    @property
    def passed(self) -> tuple[str, ...]:
        return tuple(c.nodeid for c in self.cases if c.outcome == "passed")

    @property
    def failed(self) -> tuple[str, ...]:
        return tuple(c.nodeid for c in self.cases if c.outcome in ("failed", "error"))


ClaimMethod = Literal["execution", "sympy", "model", "unchecked"]
ClaimVerdict = Literal["verified", "failed", "unchecked"]


@dataclass(frozen=True)
class Claim:
    text: str
    kind: str  # "io", "arithmetic", "algebra", "complexity", "invariant", ...
    method: ClaimMethod = "unchecked"
    verdict: ClaimVerdict = "unchecked"
    detail: str = ""
