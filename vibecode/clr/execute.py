"""Run candidates on inputs in the sandbox: one harness process per candidate, in parallel."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from vibecode.clr.harness import HarnessJob, RawRun, build_job, raw_run, run_job
from vibecode.sandbox import Limits, Sandbox
from vibecode.sandbox.readback import read_back_text
from vibecode.types import FileChange, InputResult, Patch, Signature

RESULT_CAP = 32 << 20  # bytes of a result file read back (a candidate could write any size)


class CandidateRunner:
    def __init__(
        self,
        sandbox: Sandbox,
        *,
        per_input_timeout_s: float = 1.0,
        memory_mb: int = 1024,
        parallel: int | None = None,
    ) -> None:
        self.sandbox = sandbox
        self.per_input_timeout_s = per_input_timeout_s
        self.memory_mb = memory_mb
        self.parallel = parallel
        self._empty = Path(tempfile.mkdtemp(prefix="vibecode-empty-"))

    def run(
        self,
        signature: Signature,
        codes: Mapping[int, str],
        inputs: Mapping[int, Sequence[Mapping[str, object]]],
    ) -> dict[int, tuple[InputResult, ...]]:
        """Run candidate ``i`` (``codes[i]``) on ``inputs[i]``; results per candidate."""
        jobs = {
            i: build_job(signature, code, inputs[i], python=self.sandbox.python,
                         per_input_timeout_s=self.per_input_timeout_s)
            for i, code in codes.items()
        }
        if not jobs:
            return {}
        workers = max(1, min(self.parallel or len(jobs), len(jobs)))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="candidate") as pool:
            futures = {i: pool.submit(run_job, job, self._execute) for i, job in jobs.items()}
            return {i: tuple(f.result()) for i, f in futures.items()}

    def _execute(self, job: HarnessJob) -> RawRun:
        patch = Patch(tuple(FileChange(path, None, text) for path, text in job.files.items()))
        limits = Limits(wall_s=job.timeout_s, memory_mb=self.memory_mb, nprocs=32,
                        output_bytes=256 * 1024)
        with self.sandbox.prepare(self._empty, patch) as workspace:
            result = self.sandbox.run(workspace, job.argv, limits)
            text = read_back_text(workspace.path / job.result_file, RESULT_CAP)
        return raw_run(result, text)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._empty.rmdir()
