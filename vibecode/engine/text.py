"""Per-sequence text bookkeeping shared by the engines.

:class:`SequenceText` turns the raw bytes of sampled tokens into text, tracks whether the
sequence is inside its ``<think>`` block, applies stop strings (holding back text that may be the
start of one, so streamed text never has to be taken back) and decides when budget forcing is due.
:func:`split_thinking` separates reasoning from answer in finished text.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field

from vibecode.types import Phase, SamplingParams

THINK_OPEN = "<think>"
THINK_CLOSE = "</think>"
# Injected when the thinking budget runs out: close the think block so the model answers.
BUDGET_FORCE_TEXT = "\n\nTime is up, so I will give my final answer now.\n" + THINK_CLOSE + "\n\n"


def split_thinking(text: str) -> tuple[str, str]:
    """Split text into (reasoning, answer).

    - ``<think>R</think>A`` gives ``(R, A)``; text before ``<think>`` is kept in the answer.
    - ``R</think>A`` (the template opened the block in the prompt) gives ``(R, A)``.
    - ``<think>R`` with no close (ran out of tokens while thinking) gives ``(R, "")``.
    - Text without think tags is all answer.
    """
    close = text.find(THINK_CLOSE)
    open_ = text.find(THINK_OPEN)
    if close == -1:
        if open_ == -1:
            return "", text.strip()
        return text[open_ + len(THINK_OPEN) :].strip(), text[:open_].strip()
    if open_ == -1 or open_ > close:
        return text[:close].strip(), text[close + len(THINK_CLOSE) :].strip()
    before = text[:open_]
    reasoning = text[open_ + len(THINK_OPEN) : close]
    answer = before + text[close + len(THINK_CLOSE) :]
    return reasoning.strip(), answer.strip()


@dataclass
class SequenceText:
    """The growing text of one sequence.

    ``feed`` takes the bytes of one sampled token and returns the text that may now be shown.
    """

    stop: tuple[str, ...] = ()
    max_think_tokens: int | None = None
    prefill: str = ""
    text: str = ""  # all text so far, prefill included, stop string excluded
    tokens: int = 0  # sampled tokens (forced tokens excluded)
    think_tokens: int = 0
    stopped: bool = False
    budget_forced: bool = False
    _emitted: int = 0
    _decoder: codecs.IncrementalDecoder = field(
        default_factory=lambda: codecs.getincrementaldecoder("utf-8")(errors="replace")
    )

    def __post_init__(self) -> None:
        self.text = self.prefill
        self._emitted = len(self.prefill)

    @property
    def phase(self) -> Phase:
        return "thinking" if self.in_thinking else "answer"

    @property
    def in_thinking(self) -> bool:
        open_ = self.text.rfind(THINK_OPEN)
        return open_ != -1 and self.text.find(THINK_CLOSE, open_) == -1

    def feed(self, piece: bytes) -> str:
        """Add one sampled token; return the newly visible text (may be empty)."""
        self.tokens += 1
        if self.in_thinking:
            self.think_tokens += 1
        self.text += self._decoder.decode(piece)
        return self._release()

    def force(self, text: str) -> str:
        """Add text the engine injected (budget forcing); return the newly visible text."""
        self.text += text
        return self._release()

    def needs_budget_forcing(self) -> bool:
        return (
            not self.budget_forced
            and self.max_think_tokens is not None
            and self.in_thinking
            and self.think_tokens >= self.max_think_tokens
        )

    def finish(self) -> str:
        """Flush the decoder and any held-back text; return what was not shown yet."""
        if not self.stopped:
            self.text += self._decoder.decode(b"", final=True)
        rest = self.text[self._emitted :]
        self._emitted = len(self.text)
        return rest

    def _release(self) -> str:
        for s in self.stop:
            at = self.text.find(s, max(0, self._emitted - len(s)))
            if s and at != -1:
                self.text = self.text[:at]
                self.stopped = True
                break
        hold = 0 if self.stopped else self._held_back()
        end = max(self._emitted, len(self.text) - hold)
        out = self.text[self._emitted : end]
        self._emitted = end
        return out

    def _held_back(self) -> int:
        """Length of the longest text suffix that is a proper prefix of a stop string."""
        stops = tuple(s for s in self.stop if s)
        return _partial_suffix(self.text, stops) if stops else 0


class ThinkSplitter:
    """Split streamed raw text into (phase, text) pieces with the think tags removed.

    For displays: ``feed`` returns the pieces that are safe to show; a tail that may be the start
    of a tag is held back until the next call or ``flush``.
    """

    def __init__(self) -> None:
        self.phase: Phase = "answer"
        self._pending = ""

    def feed(self, text: str) -> list[tuple[Phase, str]]:
        self._pending += text
        out: list[tuple[Phase, str]] = []
        while True:
            tag = THINK_CLOSE if self.phase == "thinking" else THINK_OPEN
            at = self._pending.find(tag)
            if at == -1:
                break
            if at:
                out.append((self.phase, self._pending[:at]))
            self._pending = self._pending[at + len(tag) :]
            self.phase = "answer" if self.phase == "thinking" else "thinking"
        keep = _partial_suffix(self._pending, (THINK_OPEN, THINK_CLOSE))
        ready = self._pending[: len(self._pending) - keep]
        if ready:
            out.append((self.phase, ready))
        self._pending = self._pending[len(ready) :]
        return out

    def flush(self) -> list[tuple[Phase, str]]:
        rest, self._pending = self._pending, ""
        return [(self.phase, rest)] if rest else []


def _partial_suffix(text: str, tags: tuple[str, ...]) -> int:
    """Length of the longest suffix of ``text`` that is a proper prefix of one of ``tags``."""
    for k in range(min(len(text), max(len(t) for t in tags) - 1), 0, -1):
        if any(t.startswith(text[-k:]) for t in tags):
            return k
    return 0


def thinking_budget(params: SamplingParams) -> int:
    """Thinking tokens allowed: the explicit budget, and always room left for the answer."""
    reserve = min(1024, params.max_tokens // 4)
    cap = max(1, params.max_tokens - reserve)
    return min(params.max_think_tokens, cap) if params.max_think_tokens is not None else cap
