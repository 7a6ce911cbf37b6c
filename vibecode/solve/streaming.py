"""Streaming verification and early stop (issue 18, items 3 and 4).

While the K sequences decode, each candidate that finishes is extracted and run on the shared
inputs in the background (:class:`Probe`); its results are reused by the verify stage, so a
candidate is verified while the others still decode. After each finished candidate (and every
``CHECK_EVERY_S`` while tokens stream) the probe says whether sampling may stop:

- ``confident``: one behaviour cluster among the probed candidates passes every example and
  either no other does, or its lead in size over the next such cluster exceeds the number of
  candidates still decoding (they cannot overturn it; the result is contested either way); it
  has at least ``CONFIDENT_SIZE`` members, it answered at least ``MIN_GENERATED`` generated
  inputs, and it either never crashed or timed out on a generated input, or agrees with a usable
  brute-force oracle on every input the oracle answered;
- ``first-verified``: the decision on the probed candidates (claims aside) is ``verified``;
- ``all``: never.

A replay engine without a rate (``replay:FILE`` rather than ``replay:FILE?tps=R``) costs no
time to sample, so there every candidate is sampled and the output says so.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
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


class Probe:
    """Runs finished candidates on the shared inputs in the background; says when to stop."""

    def __init__(self, runner: CandidateRunner, problem: Problem, shared: Sequence[dict[str, object]],
                 oracle_code: str | None, until: str, expected: int = 0) -> None:
        self.runner, self.problem, self.shared, self.until = runner, problem, list(shared), until
        self.expected = expected  # candidates asked for
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="probe")
        self._futures: dict[str, Future[tuple[InputResult, ...]]] = {}
        self._members: dict[int, str] = {}
        self._oracle = self._pool.submit(self._run, oracle_code) if oracle_code else None
        if oracle_code and self._oracle is not None:
            self._futures[oracle_code] = self._oracle
        self._last_check = 0.0
        self.stopped: str | None = None

    def _run(self, code: str) -> tuple[InputResult, ...]:
        return self.runner.run(self.problem.signature, {0: code}, {0: self.shared})[0]

    def add(self, completion: Completion) -> None:
        """A sequence finished: start verifying it."""
        try:
            code, _ = extract_entry(completion.answer, self.problem.signature)
        except ExtractionError:
            return
        self._members[completion.seq] = code
        if code not in self._futures:
            self._futures[code] = self._pool.submit(self._run, code)

    def cached(self) -> dict[str, tuple[InputResult, ...]]:
        """Every probe's results by code (waits for the running ones)."""
        out = {}
        for code, future in self._futures.items():
            if future.exception() is None:
                out[code] = future.result()
        self._pool.shutdown(wait=True)
        return out

    def should_stop(self, force: bool = False) -> str | None:
        """Why sampling may stop now, or None; checked at most every ``CHECK_EVERY_S`` unless forced."""
        if self.until == "all" or self.stopped:
            return self.stopped
        now = time.monotonic()
        if not force and now - self._last_check < CHECK_EVERY_S:
            return None
        self._last_check = now
        evidence = self._evidence()
        if not evidence:
            return None
        oracle = self._oracle_tokens()
        if self.until == "first-verified":
            d = decide(evidence, k=len(evidence), oracle=oracle or None)
            if d.status == "verified":
                self.stopped = f"the first verified decision came after {len(self._members)} finished candidate(s)"
        else:
            self.stopped = self._confident(evidence, oracle)
        return self.stopped

    def _evidence(self) -> list[CandidateEvidence]:
        n = len(self.problem.examples)
        out = []
        for seq, code in sorted(self._members.items()):
            future = self._futures[code]
            if not future.done() or future.exception() is not None:
                continue
            results = future.result()
            passed = sum(e.passed for e in check_examples(self.problem, results[:n]))
            out.append(CandidateEvidence(seq, passed, n, behaviour_tokens(results, self.problem.output_order), ()))
        return out

    def _oracle_tokens(self) -> tuple[str, ...]:
        if self._oracle is None or not self._oracle.done() or self._oracle.exception() is not None:
            return ()
        own = self._oracle.result()
        done = [f.result() for f in self._futures.values()
                if f is not self._oracle and f.done() and f.exception() is None]
        answered = [i for i in range(len(self.shared)) if any(i < len(r) and r[i].status == "ok" for r in done)]
        if not check_oracle(self.problem, own, len(self.shared), answered).usable:
            return ()
        return behaviour_tokens(own, self.problem.output_order)

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
