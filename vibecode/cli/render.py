"""Render session events for a terminal: progress while working, then the result.

Progress goes to stderr (a live rich display on a terminal, plain lines otherwise), so that
stdout carries only the result.
"""

from __future__ import annotations

import re
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from vibecode.cli.eta import BudgetSource, SamplingEta
from vibecode.clr.claim_check import claim_counts
from vibecode.engine.meter import Throughput
from vibecode.events import (
    CandidateParsed,
    CandidateSampled,
    CandidateTested,
    Event,
    InputsReady,
    SampleProgress,
    StageFinished,
    StageStarted,
    StepUnavailable,
)
from vibecode.termsafe import safe_stream, visible
from vibecode.types import SolveResult

FINAL_MIN_SPAN_S = 0.05  # a finished sampling span shorter than this gives no honest rate
SLOW_QUIET_STAGES = ("inputs", "claims", "extract", "score")  # stages that send no events while they work
STAGE_WORDS = {
    "sample": "sampling",
    "extract": "extracting code",
    "inputs": "building test inputs",
    "verify": "running candidates in the sandbox",
    "claims": "checking claims",
    "score": "scoring",
}


class Progress:
    """Shows tokens/s, candidates sampled and the time left while sampling (from K x
    ``max_tokens`` and the measured rate, shaped by ``plan_rates``, the cached per-K figures;
    with the likely time from ``seen``, this model's recorded completion lengths), and tests run
    while verifying."""

    def __init__(self, n: int, out: TextIO | None = None, *, rates: bool = True,
                 clock: Callable[[], float] | None = None, max_tokens: int | None = None,
                 plan_rates: Mapping[int, float] | None = None, budget: BudgetSource | None = None,
                 time_budget_s: float | None = None, seen: Sequence[float] = ()) -> None:
        self.out = out or sys.stderr
        self.n = n
        self.tty = self.out.isatty()
        self.tokens: dict[int, int] = {}
        self.sampled = 0
        self.tested = 0
        self.parsed = 0  # candidates that will be tested (duplicates included)
        self.rates = rates  # False for the replay engine: its "generation" takes no time
        self.meter = Throughput(clock)
        self.eta = SamplingEta(n, max_tokens, plan_rates, clock, budget, time_budget_s, seen)
        self.last_line = 0.0
        self._live: Any = None
        self.ticker = StageTicker(self.out) if self.tty else None

    def __call__(self, event: Event) -> None:
        if self.ticker is not None:
            self.ticker.stop()
        self.eta.observe(event)
        if isinstance(event, SampleProgress):
            self.tokens[event.index] = event.tokens
            self.meter.observe(sum(self.tokens.values()))
            self._sampling_status()
        elif isinstance(event, CandidateSampled):
            self.sampled += 1
            self._sampling_status()
        elif isinstance(event, StageStarted):
            words = f"{STAGE_WORDS.get(event.stage, event.stage)}" + (f" ({plural(event.detail)})" if event.detail else "")
            self._line(words)
            if self.ticker is not None and event.stage in SLOW_QUIET_STAGES:
                self.ticker.start(words)
        elif isinstance(event, StageFinished) and event.stage == "sample":
            self._line(f"sampled {count(self.sampled, 'candidate')}: {sum(self.tokens.values())} tokens"
                       + self._rate(" at ", final=True))
        elif isinstance(event, CandidateParsed):
            if event.parsed:
                self.parsed += 1
            else:
                self._line(f"candidate {event.index} dropped: {event.error}")
        elif isinstance(event, InputsReady):
            self._line("inputs: " + ", ".join(f"{v} {k}" for k, v in event.counts.items()))
        elif isinstance(event, CandidateTested):
            self.tested += 1
            passed = sum(e.passed for e in event.examples)
            self._line(f"tested {bar(self.tested, self.parsed)} {self.tested}/{self.parsed}: "
                       f"candidate {event.index}: examples {passed}/{len(event.examples)}, "
                       f"{event.inputs_run} inputs run, {event.failures} crashed or timed out")
        elif isinstance(event, StepUnavailable):
            self._line(f"note: {event.reason}")

    def _sampling_status(self) -> None:
        self._status(self.sampling_line())

    def sampling_line(self) -> str:
        """The live line: candidates sampled of K, tokens, tokens/s and the time left."""
        k = self.eta.k  # the sample stage's K: the plan may have lowered the one asked for
        left = self.eta.text() if self.rates else ""
        return (f"sampling {bar(self.sampled, k)} {self.sampled}/{k} candidates, "
                f"{sum(self.tokens.values())} tokens" + self._rate(", ") + (f", {left}" if left else ""))

    def _rate(self, lead: str, final: bool = False) -> str:
        if not self.rates:
            return ""
        rate = self.meter.rate(min_span=FINAL_MIN_SPAN_S) if final else self.meter.rate()
        return "" if rate is None else f"{lead}{rate:.1f} tokens/s"

    def _status(self, text: str) -> None:
        now = time.monotonic()
        if self.tty:
            if now - self.last_line > 0.1:
                self.out.write("\r\x1b[2K" + visible(text))
                self.out.flush()
                self.last_line = now
        elif now - self.last_line > 5.0:  # plain logs: a line every few seconds
            self.out.write(visible(text) + "\n")
            self.last_line = now

    def _line(self, text: str) -> None:
        if self.tty:
            self.out.write("\r\x1b[2K")
        self.out.write(text + "\n")
        self.out.flush()


def ordinal(n: int) -> str:
    """How ranks are written (1st, 2nd, ...); candidates are numbered from 0, as in the JSON."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def count(n: int, noun: str) -> str:
    """``1 candidate``, ``2 candidates``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def plural(detail: str) -> str:
    """A stage detail from the pipelines with its number agreeing: ``1 candidates`` -> ``1 candidate``."""
    return re.sub(r"\b1 ((?:distinct )?candidate|input|test|patch)(?:s|es)\b", r"1 \1", detail)


class StageTicker:
    """Shows that a quiet stage is still working: the elapsed seconds after its line, on a
    terminal, until the next event arrives (building test inputs can take a while and sends
    nothing meanwhile)."""

    def __init__(self, out: TextIO, every_s: float = 0.5) -> None:
        self.out, self.every_s = out, every_s
        self._stop: threading.Event | None = None
        self._thread: threading.Thread | None = None

    def start(self, words: str) -> None:
        self.stop()
        stop = threading.Event()
        started = time.monotonic()
        spinner = "|/-\\"

        def tick() -> None:
            n = 0
            while not stop.wait(self.every_s):
                n += 1
                self.out.write(f"\r\x1b[2K{spinner[n % 4]} {words}: {time.monotonic() - started:.0f} s")
                self.out.flush()

        self._stop = stop
        self._thread = threading.Thread(target=tick, name="vibecode-ticker", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._stop is not None and self._thread is not None:
            self._stop.set()
            self._thread.join()
            self.out.write("\r\x1b[2K")
            self._stop = self._thread = None


def bar(done: int, total: int, width: int = 20) -> str:
    filled = round(width * done / total) if total else width
    return "[" + "#" * filled + "-" * (width - filled) + "]"


def band(reliability: float) -> str:
    return "high" if reliability >= 0.8 else "medium" if reliability >= 0.5 else "low"


def print_result(result: SolveResult, out: TextIO | None = None) -> None:
    out = safe_stream(out or sys.stdout)
    d = result.decision
    best = result.best
    cal = "" if result.calibrated else " (uncalibrated)"
    out.write(f"status: {d.status}    reliability: {d.reliability:.2f} ({band(d.reliability)}){cal}\n")
    out.write(f"why: {d.reason}\n")
    if d.oracle:
        out.write(f"oracle: {d.oracle}\n")
    if result.sampling:
        s = result.sampling
        out.write(f"sampled: {s.get('sampled')} of {s.get('asked')} candidates (--until {s.get('until')}): "
                  f"{s.get('stopped')}\n")
    if best is not None:
        top = d.clusters[0] if d.clusters else None
        v, f, u = claim_counts(best.claims)
        evidence = []
        if best.examples:
            evidence.append(f"examples passed {sum(e.passed for e in best.examples)}/{len(best.examples)}")
        if top is not None:
            evidence.append(f"cluster {len(top.members)}/{d.k} candidates")
        evidence.append(f"claims verified {v}, failed {f}, unchecked {u}")
        out.write("evidence: " + "; ".join(evidence) + "\n")
        if result.mode == "math":
            out.write(f"\nanswer (candidate {best.index}): {best.answer}\n")
        else:
            out.write(f"\nsolution (candidate {best.index}):\n\n{(best.code or '').rstrip()}\n")
    else:
        out.write("\nno candidate produced usable code.\n")
    if len(d.clusters) > 1:
        out.write("\nrunner-up clusters:\n")
        for c in d.clusters[1:4]:
            out.write(f"  {ordinal(c.rank + 1)}: candidates {list(c.members)}, examples {c.examples_passed}/"
                      f"{c.examples_total}, score {c.score:.2f}\n")
    dropped = [c for c in result.candidates if not c.parsed]
    if dropped:
        out.write(f"\ndropped {len(dropped)} candidate(s): "
                  + "; ".join(f"{c.index}: {c.error}" for c in dropped[:4]) + "\n")
    for note in result.notes:
        out.write(f"note: {note}\n")
    timing = ", ".join(f"{k} {v:.1f}s" for k, v in result.timing.items())
    out.write(f"\ntiming: {timing}\n")
