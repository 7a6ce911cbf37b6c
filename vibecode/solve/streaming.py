"""Streaming verification and early stop (issue 18, items 3 and 4).

While the K sequences decode, each candidate that finishes is extracted and run on the shared
inputs in the background (:class:`Probe`); its results are reused by the verify stage, so a
candidate is verified while the others still decode. The helper requests of the same batch
(``vibecode.solve.batch``) add to the probe as they finish: the oracle's code is run on every
input, and new inputs (the model's edge cases, the generator's inputs) are run on every candidate
already probed and on the oracle. After each finished sequence, at the first token after a run or
a helper finished, and otherwise every ``CHECK_EVERY_S`` while tokens stream, the probe says
whether sampling may stop (and keeps in ``trace`` what happened when, and in ``waiting`` why it
went on: the bench's breakdown). It never stops while a helper that may still add inputs or the
oracle is decoding, nor while a finished candidate's runs are incomplete:

- ``confident``: either (the oracle rule) a validated brute-force oracle (it passes every example)
  answered at least ``MIN_GENERATED`` generated inputs, a candidate that passes every example
  agrees with it on every input it answered, and every other finished candidate that passes the
  examples behaves exactly like that one or is rejected by the oracle (it answers one of those
  inputs otherwise: the scorer then ranks it below and it cannot contest, so more candidates
  cannot change the pick's cluster or its status); or (the cluster rule) one behaviour cluster
  passes every example and either no other does, or its lead in size over the next such cluster exceeds the
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
from vibecode.clr.score import FAILURE_TOKENS, MIN_GENERATED, behaviour_tokens, decide, exact_tokens
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
        self._blocks = [len(self.shared)]  # the lengths of the shared inputs as they arrived, by source
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="probe")
        self._runs: dict[str, list[Future[tuple[InputResult, ...]]]] = {}  # code -> runs of consecutive slices
        self._members: dict[int, str] = {}
        self._jobs: list[Future[object]] = []
        self.listeners: list[Callable[[Completion], None]] = []  # told of each finished candidate too
        self._oracle: str | None = None
        self._last_check = 0.0
        self._fresh = threading.Event()  # a run or a helper finished since the last check
        self.stopped: str | None = None
        self.waiting = ""  # why the last check did not stop
        self.trace: list[tuple[float, str]] = []  # (time.monotonic(), what happened), for the bench's breakdown
        self._labels: dict[str, str] = {}  # code -> "candidate 3" / "oracle"
        if oracle_code:
            self.set_oracle(oracle_code)

    def _note(self, what: str) -> None:
        self.trace.append((time.monotonic(), what))

    def _submit(self, code: str, inputs: list[dict[str, object]]) -> Future[tuple[InputResult, ...]]:
        future = self._pool.submit(lambda: self.runner.run(self.problem.signature, {0: code}, {0: inputs})[0])
        label = self._labels.get(code, "code")
        future.add_done_callback(lambda _: self._ran(f"ran {label} on {len(inputs)} input(s)"))
        return future

    def _ran(self, what: str) -> None:
        """A run finished: the next check may not wait (the stop rules look again at once)."""
        self._note(what)
        self._fresh.set()

    def _start(self, code: str) -> None:
        """Run ``code`` on every input known so far (under the lock). The oracle runs them as one
        job per source, as they arrived (``vibecode.solve.pipeline.oracle_blocks`` says why)."""
        if code in self._runs:
            return
        if code != self._oracle:
            self._runs[code] = [self._submit(code, list(self.shared))]
            return
        runs, start = [], 0
        for size in self._blocks:
            if size:
                runs.append(self._submit(code, self.shared[start:start + size]))
            start += size
        self._runs[code] = runs or [self._submit(code, [])]

    def add(self, completion: Completion) -> None:
        """A sequence finished: start verifying it."""
        for listener in self.listeners:
            listener(completion)
        try:
            code, _ = extract_entry(completion.answer, self.problem.signature)
        except ExtractionError:
            self._note(f"candidate {completion.seq} finished (no code)")
            return
        with self._lock:
            self._members[completion.seq] = code
            self._labels.setdefault(code, f"candidate {completion.seq}")
            self._note(f"candidate {completion.seq} finished")
            self._start(code)

    def set_oracle(self, code: str) -> None:
        """The brute-force oracle's code arrived: run it on every input."""
        with self._lock:
            self._oracle = code
            self._labels.setdefault(code, "oracle")
            self._note("the oracle arrived")
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
                self._blocks.append(len(fresh))
                for code, runs in self._runs.items():
                    runs.append(self._submit(code, fresh))
            self.counts[source] = self.counts.get(source, 0) + len(fresh)
            self._note(f"{len(fresh)} new input(s) from {source}")
            return len(fresh)

    def helper_done(self) -> None:
        with self._lock:
            self.pending = max(0, self.pending - 1)
            self._note(f"a helper finished ({self.pending} still decoding)")
        self._fresh.set()

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
        """Why sampling may stop now, or None. Checked at once after a sequence finished
        (``force``), a run finished or a helper finished; otherwise at most every ``CHECK_EVERY_S``."""
        if self.until == "all" or self.stopped:
            return self.stopped
        now = time.monotonic()
        if not force and not self._fresh.is_set() and now - self._last_check < CHECK_EVERY_S:
            return None
        self._fresh.clear()
        self._last_check = now
        with self._lock:
            if self.pending:
                self._wait(f"{self.pending} helper(s) still decoding")  # it may still add inputs or the oracle
                return None
            evidence = self._evidence()
            if not evidence:
                self._wait("a finished candidate's runs are incomplete" if evidence is None
                           else "no finished candidate has code")
                return None
            oracle = self._oracle_tokens()
        if self.until == "first-verified":
            d = decide(evidence, k=len(evidence), oracle=oracle or None)
            if d.status == "verified":
                self.stopped = f"the first verified decision came after {len(self._members)} finished candidate(s)"
            else:
                self._wait(f"the decision so far is {d.status}")
        else:
            why_not: list[str] = []
            self.stopped = (self._agrees_with_oracle(evidence, oracle, why_not)
                            or self._confident(evidence, oracle, why_not))
            if not self.stopped:
                self._wait("; ".join(why_not))
        if self.stopped:
            self._note(f"stop: {self.stopped}")
        return self.stopped

    def _wait(self, why: str) -> None:
        """Record why sampling goes on (in the trace when it changed)."""
        if why != self.waiting:
            self.waiting = why
            self._note(f"go on: {why}")

    def _evidence(self) -> list[CandidateEvidence] | None:
        """The finished candidates' evidence; None while one of them is still being run."""
        n = len(self.problem.examples)
        out = []
        for seq, code in sorted(self._members.items()):
            results = self._results(code)
            if results is None:
                return None
            passed = sum(e.passed for e in check_examples(self.problem, results[:n]))
            order = self.problem.output_order
            out.append(CandidateEvidence(seq, passed, n, behaviour_tokens(results, order), (), exact_tokens(results, order)))
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

    def _agrees_with_oracle(self, evidence: list[CandidateEvidence], oracle: tuple[str, ...],
                            why_not: list[str]) -> str | None:
        """The oracle rule: a candidate agrees with the validated oracle on every generated input
        the oracle answered (at least ``MIN_GENERATED``), and every other finished candidate that
        passes the examples either behaves exactly like it or is rejected by the oracle (its
        output differs from the oracle's on one of those inputs, so the scorer ranks it below and
        it cannot contest the proposal)."""
        n = len(self.problem.examples)
        judged = [i for i in range(n, len(oracle)) if oracle[i].startswith("ok:")]
        if not n or len(judged) < MIN_GENERATED:
            why_not.append("no usable oracle that answered enough generated inputs" if not judged or not n
                           else f"the oracle answered only {len(judged)} generated input(s)")
            return None
        passing = [e for e in evidence if e.examples_passed == n]

        def agrees(e: CandidateEvidence) -> bool:
            return all(i < len(e.behaviour) and e.behaviour[i] == oracle[i] for i in judged)

        agreeing = [e for e in passing if agrees(e)]
        if not agreeing:
            why_not.append("no finished candidate agrees with the oracle")
            return None
        others = [e for e in passing if e.behaviour != agreeing[0].behaviour]
        if any(agrees(e) or len(e.behaviour) < len(oracle) for e in others):
            why_not.append("a finished candidate that passes the examples behaves otherwise and the oracle "
                           "does not reject it")
            return None
        same = len(passing) - len(others)
        rejected = f"; the oracle rejects the {len(others)} other finished candidate(s) that pass the examples" \
            if others else ", and no other finished candidate passes the examples"
        return (f"{same} candidate(s) pass every example and agree with the brute-force oracle on all "
                f"{len(judged)} generated inputs it answered{rejected}")

    def _confident(self, evidence: list[CandidateEvidence], oracle: tuple[str, ...],
                   why_not: list[str]) -> str | None:
        n = len(self.problem.examples)
        if not n:
            why_not.append("the problem has no examples")
            return None
        passing: dict[tuple[str, ...], int] = {}
        for e in evidence:
            if e.examples_passed == n:
                passing[e.behaviour] = passing.get(e.behaviour, 0) + 1
        if not passing:
            why_not.append("no finished candidate passes the examples")
            return None
        ranked = sorted(passing.items(), key=lambda kv: -kv[1])
        key, size = ranked[0]
        rival = ranked[1][1] if len(ranked) > 1 else 0
        left = self.expected - len(self._members)
        # a rival that passes the examples: stop only when the unfinished candidates cannot
        # overturn the leader's size (the decision is contested either way)
        if size < CONFIDENT_SIZE:
            why_not.append(f"the largest cluster that passes the examples has {size} < {CONFIDENT_SIZE}")
            return None
        if rival and size - rival <= left:
            why_not.append(f"a rival cluster of {rival} against {size}, {left} unfinished")
            return None
        answered = [i for i in range(n, len(key)) if key[i].startswith("ok:")]
        if len(answered) < MIN_GENERATED:
            why_not.append(f"the cluster answered only {len(answered)} generated input(s)")
            return None
        valid = [i for i in range(n, len(key)) if any(i < len(e.behaviour) and e.behaviour[i].startswith("ok:")
                                                       for e in evidence)]
        clean = not any(key[i] in FAILURE_TOKENS for i in valid)
        judged = [i for i in range(n, min(len(key), len(oracle))) if oracle[i].startswith("ok:")]
        agrees = bool(judged) and all(key[i] == oracle[i] for i in judged)
        if not (clean or agrees):
            why_not.append("the cluster crashed on a generated input and no oracle agrees")
            return None
        why = "agree with the brute-force oracle" if agrees else "pass every generated input"
        if rival:
            return (f"{size} candidates in one cluster pass every example and {why}; a rival cluster of {rival} "
                    f"also passes the examples, and the {left} unfinished candidate(s) cannot overturn the lead")
        return (f"{size} candidates in one cluster pass every example and {why}, and no other finished "
                "candidate passes the examples")
