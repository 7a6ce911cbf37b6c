"""The hidden HumanEval tests: run only in the sandbox, only after the pipeline has decided.

A candidate passes when the program ``prompt + code + test + check(entry_point)`` exits 0 and
prints a per-run marker after ``check`` returned (so a candidate that calls ``sys.exit(0)`` or
``os._exit(0)`` while loading does not pass). The prompt comes first so that its imports and
helper functions exist when the candidate's code leaves them out; the candidate's definitions
come after it and win.
"""

from __future__ import annotations

import secrets
import tempfile
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from vibecode.bench.dataset import HumanEvalTask
from vibecode.sandbox import Limits, Sandbox
from vibecode.types import FileChange, Patch

TEST_FILE = "hidden_test.py"
DEFAULT_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class HiddenResult:
    passed: bool
    detail: str  # "passed", "failed: AssertionError", "timeout", ...
    duration_s: float = 0.0


def hidden_program(task: HumanEvalTask, code: str, marker: str) -> str:
    return (
        f"{task.prompt}\n\n{code}\n\n\n{task.test}\n\n"
        f"check({task.entry_point})\nprint({marker!r}, flush=True)\n"
    )


def _detail(stderr: str) -> str:
    lines = [line.strip() for line in stderr.strip().splitlines() if line.strip()]
    return lines[-1][:200] if lines else ""


def run_hidden(
    sandbox: Sandbox,
    task: HumanEvalTask,
    codes: Mapping[int, str],
    *,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    parallel: int | None = None,
) -> dict[int, HiddenResult]:
    """Run the hidden tests on each code (key: candidate index), in parallel, in the sandbox."""
    return run_programs(sandbox, codes, lambda code, marker: hidden_program(task, code, marker),
                        timeout_s=timeout_s, parallel=parallel)


def run_programs(
    sandbox: Sandbox,
    codes: Mapping[int, str],
    program: Callable[[str, str], str],
    *,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    parallel: int | None = None,
) -> dict[int, HiddenResult]:
    """Run ``program(code, marker)`` for each code in its own empty workspace, in parallel, in the
    sandbox. A code passes when the program exits 0 and prints the run's secret marker last."""
    if not codes:
        return {}
    empty = Path(tempfile.mkdtemp(prefix="vibecode-hidden-"))

    def one(code: str) -> HiddenResult:
        marker = "@@hidden-pass-" + secrets.token_hex(8)
        patch = Patch((FileChange(TEST_FILE, None, program(code, marker)),))
        limits = Limits(wall_s=timeout_s, memory_mb=1024, nprocs=32, output_bytes=64 * 1024)
        with sandbox.prepare(empty, patch) as workspace:
            run = sandbox.run(workspace, (sandbox.python, "-I", TEST_FILE), limits)
        if run.timed_out:
            return HiddenResult(False, "timeout", run.duration_s)
        if run.oom:
            return HiddenResult(False, "out of memory", run.duration_s)
        if run.exit_code == 0 and marker in run.stdout:
            return HiddenResult(True, "passed", run.duration_s)
        why = _detail(run.stderr) or f"exit status {run.exit_code}"
        return HiddenResult(False, f"failed: {why}", run.duration_s)

    try:
        workers = max(1, min(parallel or len(codes), len(codes), 8))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="hidden") as pool:
            futures = {i: pool.submit(one, code) for i, code in codes.items()}
            return {i: f.result() for i, f in futures.items()}
    finally:
        empty.rmdir()
