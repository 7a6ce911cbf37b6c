"""Streaming verification and early stop (issue 18, items 3 and 4).

While the K sequences decode, each candidate that finishes is extracted and run on the shared
inputs in the background (:class:`Probe`); its results are reused by the verify stage, so a
candidate is verified while the others still decode. The helper requests of the same batch
(``vibecode.solve.batch``) add to the probe as they finish: the oracle's code is run on every
input, and new inputs (the model's edge cases, the generator's inputs) are run on every candidate
already probed and on the oracle. After each finished sequence (and every ``CHECK_EVERY_S`` while
tokens stream) the probe says whether sampling may stop. It never stops while a helper that may
still add inputs or the oracle is decoding, nor while a finished candidate's runs are incomplete:

- ``confident``: either (the oracle rule) a validated brute-force oracle (it passes every example)
  answered at least ``MIN_GENERATED`` generated inputs, a candidate that passes every example
  agrees with it on every input it answered, and every other finished candidate that passes the
  examples behaves exactly like that one; or (the cluster rule) one behaviour cluster passes every
  example and either no other does, or its lead in size over the next such cluster exceeds the
  number of candidates still decoding (they cannot overturn it; the result is contested either
  way); it has at least ``CONFIDENT_SIZE`` members, it answered at least ``MIN_GENERATED``
  generated inputs, and it either never crashed or timed out on a generated input, or agrees with
  a usable oracle on every input the oracle answered;
- ``first-verified``: the decision on the probed candidates (claims aside) is ``verified``;
- ``all``: never.

Stopping decides nothing by itself: the verify and score stages then judge what was sampled by
the same rules as after sampling everything.

A replay engine without a rate (``replay:FILE`` rather than ``replay:FILE?tps=R``) costs no
time to sample, so there every candidate is sampled and the output says so.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor

from vibecode.clr.compare import check_examples
from vibecode.clr.execute import CandidateRunner
from vibecode.clr.oracle import check_oracle
from vibecode.clr.score import FAILURE_TOKENS, MIN_GENERATED, behaviour_tokens, decide
from vibecode.engine.base import Engine
from vibecode.errors import ExtractionError
from vibecode.problems.entry_adapter import extract_entry
from vibecode.types import CandidateEvidence, Completion, InputResult, Problem

UNTIL = ("confident", "first-verified", "all")
CONFIDENT_SIZE = 3
CHECK_EVERY_S = 0.25
FREE_REPLAY = "the replay engine has no rate (replay:FILE?tps=R), so stopping early saves no time"


def samples_for_free(engine: Engine) -> bool:
    """A replay engine without a rate: sampling costs nothing."""
    return engine.info().backend == "replay" and not getattr(engine, "tps", None)


def input_key(args: dict[str, object]) -> str:
    return repr(sorted(args.items()))


class Probe:
    """Runs finished candidates (and the oracle) on the shared inputs in the background, runs
    inputs that arrive later on them too, and says when sampling may stop."""

    def __init__(self, runner: CandidateRunner, problem: Problem, shared: Sequence[dict[str, object]],
                 oracle_code: str | None, until: str, expected: int = 0, pending: int = 0) -> None:
        self.runner, self.problem, self.until = runner, problem, until
        self.shared = [dict(x) for x in shared]
        self.expected = expected  # candidates asked for
        self.pending = pending  # helper requests that may still add inputs or the oracle
        self.counts: dict[str, int] = {}  # inputs added later, by source
        self.notes: list[str] = []
        self._lock = threading.Lock()
        self._known = {input_key(x) for x in self.shared}
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="probe")
        self._runs: dict[str, list[Future[tuple[InputResult, ...]]]] = {}  # code -> runs of consecutive slices
        self._members: dict[int, str] = {}
        self._jobs: list[Future[object]] = []
        self.listeners: list[Callable[[Completion], None]] = []  # told of each finished candidate too
        self._oracle: str | None = None
        self._last_check = 0.0
        self.stopped: str | None = None
        if oracle_code:
            self.set_oracle(oracle_code)

    def _submit(self, code: str, inputs: list[dict[str, object]]) -> Future[tuple[InputResult, ...]]:
        return self._pool.submit(lambda: self.runner.run(self.problem.signature, {0: code}, {0: inputs})[0])

    def _start(self, code: str) -> None:
        """Run ``code`` on every input known so far (under the lock)."""
        if code not in self._runs:
            self._runs[code] = [self._submit(code, list(self.shared))]

    def add(self, completion: Completion) -> None:
        """A sequence finished: start verifying it."""
        for listener in self.listeners:
            listener(completion)
        try:
            code, _ = extract_entry(completion.answer, self.problem.signature)
        except ExtractionError:
            return
        with self._lock:
            self._members[completion.seq] = code
            self._start(code)

    def set_oracle(self, code: str) -> None:
        """The brute-force oracle's code arrived: run it on every input."""
        with self._lock:
            self._oracle = code
            self._start(code)

    def add_inputs(self, source: str, inputs: Sequence[dict[str, object]]) -> int:
        """New inputs from ``source``: keep the unseen ones and run them on everything probed so
        far; returns how many were new."""
        with self._lock:
            fresh = []
            for x in inputs:
                if input_key(dict(x)) not in self._known:
                    self._known.add(input_key(dict(x)))
                    fresh.append(dict(x))
            if fresh:
                self.shared += fresh
                for code, runs in self._runs.items():
                    runs.append(self._submit(code, fresh))
            self.counts[source] = self.counts.get(source, 0) + len(fresh)
            return len(fresh)

    def helper_done(self) -> None:
        with self._lock:
            self.pending = max(0, self.pending - 1)

    def submit(self, job: Callable[[], object]) -> None:
        """Run ``job`` (a generator's run, say) on the probe's workers."""
        self._jobs.append(self._pool.submit(job))

    def _results(self, code: str) -> tuple[InputResult, ...] | None:
        """``code``'s results on every shared input, or None while a run is going (or failed)."""
        runs = self._runs.get(code, [])
        if not runs or not all(f.done() and f.exception() is None for f in runs):
            return None
        return tuple(r for f in runs for r in f.result())

    def cached(self) -> dict[str, tuple[InputResult, ...]]:
        """Every probe's results by code (waits for the helper jobs, then the running ones)."""
        for job in self._jobs:
            job.exception()  # a job that failed added nothing
        self._pool.shutdown(wait=True)
        out = {}
        for code, runs in self._runs.items():
            if all(f.exception() is None for f in runs):
                out[code] = tuple(r for f in runs for r in f.result())
        return out

    def should_stop(self, force: bool = False) -> str | None:
        """Why sampling may stop now, or None; checked at most every ``CHECK_EVERY_S`` unless forced."""
        if self.until == "all" or self.stopped:
            return self.stopped
        now = time.monotonic()
        if not force and now - self._last_check < CHECK_EVERY_S:
            return None
        self._last_check = now
        with self._lock:
            if self.pending:
                return None  # a helper may still add inputs or the oracle
            evidence = self._evidence()
            if evidence is None or not evidence:
                return None
            oracle = self._oracle_tokens()
        if self.until == "first-verified":
            d = decide(evidence, k=len(evidence), oracle=oracle or None)
            if d.status == "verified":
                self.stopped = f"the first verified decision came after {len(self._members)} finished candidate(s)"
        else:
            self.stopped = self._agrees_with_oracle(evidence, oracle) or self._confident(evidence, oracle)
        return self.stopped

    def _evidence(self) -> list[CandidateEvidence] | None:
        """The finished candidates' evidence; None while one of them is still being run."""
        n = len(self.problem.examples)
        out = []
        for seq, code in sorted(self._members.items()):
            results = self._results(code)
            if results is None:
                return None
            passed = sum(e.passed for e in check_examples(self.problem, results[:n]))
            out.append(CandidateEvidence(seq, passed, n, behaviour_tokens(results, self.problem.output_order), ()))
        return out

    def _oracle_tokens(self) -> tuple[str, ...]:
        own = self._results(self._oracle) if self._oracle is not None else None
        if own is None:
            return ()
        done = [r for code in self._members.values() if (r := self._results(code)) is not None]
        answered = [i for i in range(len(self.shared)) if any(i < len(r) and r[i].status == "ok" for r in done)]
        if not check_oracle(self.problem, own, len(self.shared), answered).usable:
            return ()
        return behaviour_tokens(own, self.problem.output_order)

    def _agrees_with_oracle(self, evidence: list[CandidateEvidence], oracle: tuple[str, ...]) -> str | None:
        """The oracle rule: a candidate agrees with the validated oracle on every input it
        answered (at least ``MIN_GENERATED`` generated ones), and no finished candidate that passes
        the examples behaves differently."""
        n = len(self.problem.examples)
        judged = [i for i in range(n, len(oracle)) if oracle[i].startswith("ok:")]
        if not n or len(judged) < MIN_GENERATED:
            return None
        passing = [e for e in evidence if e.examples_passed == n]
        agreeing = [e for e in passing if all(i < len(e.behaviour) and e.behaviour[i] == oracle[i] for i in judged)]
        if not agreeing or any(e.behaviour != agreeing[0].behaviour for e in passing):
            return None
        return (f"{len(passing)} candidate(s) pass every example and agree with the brute-force oracle on all "
                f"{len(judged)} generated inputs it answered, and no other finished candidate passes the examples")

    def _confident(self, evidence: list[CandidateEvidence], oracle: tuple[str, ...]) -> str | None:
        n = len(self.problem.examples)
        if not n:
            return None
        passing: dict[tuple[str, ...], int] = {}
        for e in evidence:
            if e.examples_passed == n:
                passing[e.behaviour] = passing.get(e.behaviour, 0) + 1
        if not passing:
            return None
        ranked = sorted(passing.items(), key=lambda kv: -kv[1])
        key, size = ranked[0]
        rival = ranked[1][1] if len(ranked) > 1 else 0
        left = self.expected - len(self._members)
        # a rival that passes the examples: stop only when the unfinished candidates cannot
        # overturn the leader's size (the decision is contested either way)
        if size < CONFIDENT_SIZE or (rival and size - rival <= left):
            return None
        answered = [i for i in range(n, len(key)) if key[i].startswith("ok:")]
        if len(answered) < MIN_GENERATED:
            return None
        valid = [i for i in range(n, len(key)) if any(i < len(e.behaviour) and e.behaviour[i].startswith("ok:")
                                                       for e in evidence)]
        clean = not any(key[i] in FAILURE_TOKENS for i in valid)
        judged = [i for i in range(n, min(len(key), len(oracle))) if oracle[i].startswith("ok:")]
        agrees = bool(judged) and all(key[i] == oracle[i] for i in judged)
        if not (clean or agrees):
            return None
        why = "agree with the brute-force oracle" if agrees else "pass every generated input"
        if rival:
            return (f"{size} candidates in one cluster pass every example and {why}; a rival cluster of {rival} "
                    f"also passes the examples, and the {left} unfinished candidate(s) cannot overturn the lead")
        return (f"{size} candidates in one cluster pass every example and {why}, and no other finished "
                "candidate passes the examples")
