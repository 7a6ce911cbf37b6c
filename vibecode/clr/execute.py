"""Run candidates on inputs in the sandbox: one harness process per candidate, in parallel.

The per-input time limit of these runs is a cap for answers, not a speed verdict (that is the
stress tier's, ``clr.stress``, with a LeetCode-like limit). So an input on which a candidate
timed out is run once more with ``RETRY_FACTOR`` times the time (up to ``RETRY_INPUTS`` inputs a
candidate): on a busy machine a correct answer near the limit would otherwise time out on one run
and answer on another, and two correct candidates would fall into different behaviour clusters.

Each candidate runs its inputs smallest first (by the length of their JSON), and the results come
back in the given order. After a few timeouts the harness stops running a candidate's inputs
(``harness.build_job``'s ``max_timeouts``); smallest first, what it skips are inputs at least as
large as the ones it timed out on, not the small ones that happened to come later. A brute-force
oracle, which is meant to time out on the large tiers, so still answers every small input."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from vibecode.clr.harness import HarnessJob, RawRun, build_job, raw_run, run_job
from vibecode.sandbox import Limits, Sandbox
from vibecode.sandbox.readback import read_back_text
from vibecode.types import FileChange, InputResult, Patch, Signature

RESULT_CAP = 32 << 20  # bytes of a result file read back (a candidate could write any size)
RETRY_INPUTS = 4  # timed-out inputs of one candidate run again, at most
RETRY_FACTOR = 3.0  # their time limit, against the first run's


class CandidateRunner:
    def __init__(
        self,
        sandbox: Sandbox,
        *,
        per_input_timeout_s: float = 1.0,
        memory_mb: int = 1024,
        parallel: int | None = None,
        retry_timeouts: bool = True,
        retry_factor: float = RETRY_FACTOR,
    ) -> None:
        self.sandbox = sandbox
        self.per_input_timeout_s = per_input_timeout_s
        self.memory_mb = memory_mb
        self.parallel = parallel
        self.retry_timeouts = retry_timeouts  # False where a timeout is the verdict (clr.stress)
        self.retry_factor = retry_factor

    def run(
        self,
        signature: Signature,
        codes: Mapping[int, str],
        inputs: Mapping[int, Sequence[Mapping[str, object]]],
    ) -> dict[int, tuple[InputResult, ...]]:
        """Run candidate ``i`` (``codes[i]``) on ``inputs[i]``; results per candidate."""
        orders = {i: smallest_first(inputs[i]) for i in codes}
        jobs = {
            i: build_job(signature, code, [inputs[i][k] for k in orders[i]], python=self.sandbox.python,
                         per_input_timeout_s=self.per_input_timeout_s, indices=orders[i])
            for i, code in codes.items()
        }
        if not jobs:
            return {}
        workers = max(1, min(self.parallel or len(jobs), len(jobs)))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="candidate") as pool:
            futures = {i: pool.submit(run_job, job, self._execute) for i, job in jobs.items()}
            results = {i: tuple(sorted(f.result(), key=lambda r: r.index)) for i, f in futures.items()}
        return self._retried(signature, codes, inputs, results) if self.retry_timeouts else results

    def _retried(
        self,
        signature: Signature,
        codes: Mapping[int, str],
        inputs: Mapping[int, Sequence[Mapping[str, object]]],
        results: dict[int, tuple[InputResult, ...]],
    ) -> dict[int, tuple[InputResult, ...]]:
        """``results`` with up to ``RETRY_INPUTS`` timed-out inputs per candidate run once more,
        with ``retry_factor`` times the time; what they answer then replaces the timeout."""
        again = {i: [j for j, r in enumerate(rs) if r.status == "timeout"][:RETRY_INPUTS] for i, rs in results.items()}
        again = {i: js for i, js in again.items() if js}
        if not again:
            return results
        longer = CandidateRunner(self.sandbox, per_input_timeout_s=self.per_input_timeout_s * self.retry_factor,
                                 memory_mb=self.memory_mb, parallel=self.parallel, retry_timeouts=False)
        rerun = longer.run(signature, {i: codes[i] for i in again},
                           {i: [inputs[i][j] for j in js] for i, js in again.items()})
        out = dict(results)
        for i, js in again.items():
            merged = list(results[i])
            for j, r in zip(js, rerun.get(i, ()), strict=False):
                merged[j] = r
            out[i] = tuple(merged)
        return out

    def _execute(self, job: HarnessJob) -> RawRun:
        patch = Patch(tuple(FileChange(path, None, text) for path, text in job.files.items()))
        limits = Limits(wall_s=job.timeout_s, memory_mb=self.memory_mb, nprocs=32,
                        output_bytes=256 * 1024)
        # the workspace starts empty: the job's files are all it holds
        with tempfile.TemporaryDirectory(prefix="vibecode-empty-") as empty, \
                self.sandbox.prepare(Path(empty), patch) as workspace:
            result = self.sandbox.run(workspace, job.argv, limits)
            text = read_back_text(workspace.path / job.result_file, RESULT_CAP)
        return raw_run(result, text)


def smallest_first(inputs: Sequence[Mapping[str, object]]) -> list[int]:
    """The indices of ``inputs`` by the length of their JSON, ties in the given order."""
    return sorted(range(len(inputs)), key=lambda k: len(json.dumps(inputs[k], default=str)))
