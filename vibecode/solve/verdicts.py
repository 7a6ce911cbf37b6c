"""Claim verdicts started as each candidate finishes (issue 18, item 3).

In the batched sampling path, each finished candidate whose code extracts has its claims read at
once; the claims that only the model can judge (``planned_method`` "model") get their verdict
requests started on a worker thread, while the other candidates still decode, up to the solve's
verdict budget (``MAX_MODEL_VERDICTS`` in all, in the order the candidates finish). The claims
stage then takes those answers instead of asking again; a verdict that was not started is asked
there as before. An engine that serves one request at a time (llama.cpp in-process holds a lock)
answers them after the batch, as before; a server or a paced replay answers them in parallel.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor

from vibecode.clr.claim_check import planned_method, verdict_prompt
from vibecode.clr.claims import claim_text, extract_claims
from vibecode.engine.base import Engine
from vibecode.engine.sampling import Budget, ask_model
from vibecode.errors import ExtractionError
from vibecode.problems.entry_adapter import extract_entry
from vibecode.types import ChatMessage, Completion, Problem, SamplingParams

VERDICT = "verdict"  # the requests' purpose (and replay kind)


def prompt_key(prompt: Sequence[ChatMessage]) -> str:
    return "\x00".join(f"{m.role}:{m.content}" for m in prompt)


class EarlyVerdicts:
    """Starts the model's claim verdicts of each finished candidate; hands them to the claims stage."""

    def __init__(self, engine: Engine, params: SamplingParams, problem: Problem, budget: Budget, limit: int) -> None:
        self.engine, self.params, self.problem, self.budget = engine, params, problem, budget
        self.left = limit
        self.failed = False  # the model could not give a verdict: ask no more
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="verdicts")
        self._answers: dict[str, Future[str | None]] = {}

    @property
    def started(self) -> int:
        return len(self._answers)

    def add(self, completion: Completion) -> None:
        """A candidate finished: start the verdicts its claims need."""
        try:
            extract_entry(completion.answer, self.problem.signature)
        except ExtractionError:
            return  # no code, so no claims checked for it
        text = f"{self.problem.title}\n\n{self.problem.statement}"
        for claim in extract_claims(claim_text(completion.reasoning, completion.answer), self.problem):
            if planned_method(claim) != "model":
                continue
            prompt = verdict_prompt(text, claim)
            with self._lock:
                key = prompt_key(prompt)
                if key in self._answers or self.left <= 0 or self.failed:
                    continue
                self.left -= 1
                self._answers[key] = self._pool.submit(self._ask, prompt)

    def _ask(self, prompt: list[ChatMessage]) -> str | None:
        if self.failed or self.budget.exhausted:
            return None
        answer = ask_model(self.engine, prompt, self.params, VERDICT)
        if answer is None:
            self.failed = True
        return answer

    def take(self, prompt: Sequence[ChatMessage]) -> tuple[bool, str | None]:
        """(True, the answer) for a verdict started here (waits for it); (False, None) otherwise."""
        future = self._answers.get(prompt_key(prompt))
        if future is None:
            return False, None
        return True, future.result()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
