"""Engines: chat messages, sampling parameters, completions, stream events, engine info."""

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
    """Streaming event: sequence ``seq`` produced ``text``; ``tokens`` generated so far.
    ``request`` is the index of the request in a batch (``Engine.stream_batch``), else 0."""

    seq: int
    text: str
    tokens: int
    phase: Phase
    budget_forced: bool = False
    request: int = 0


@dataclass(frozen=True)
class SequenceDone:
    """Streaming event: sequence ``seq`` (of request ``request`` in a batch) finished with
    ``completion``."""

    seq: int
    completion: Completion
    request: int = 0


@dataclass(frozen=True)
class RequestFailed:
    """Streaming event of a batch: request ``request`` could not be answered (``message``
    says why); the other requests of the batch go on."""

    request: int
    message: str
    error: Exception | None = field(default=None, compare=False, repr=False)  # the engine's own


StreamEvent = TokenDelta | SequenceDone | RequestFailed


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
