"""Run ONE candidate on MANY inputs in ONE process, with a timeout per input.

The harness does not run anything itself. :func:`build_job` returns a :class:`HarnessJob`: the
files to write into an empty workspace (``solution.py``, the runner script, its spec) and the
argv to run there. Whoever runs it (the sandbox, or a plain subprocess in tests) hands back a
:class:`RawRun` (stdout, stderr, exit status, and the text of ``job.result_file`` when it can be
read), and :func:`parse_results` turns that into one :class:`~vibecode.types.InputResult` per
input. :func:`run_job` does both with an ``execute`` callable and restarts the process for the
inputs it never reached when a candidate killed it (``os.kill``, a segfault, a hard hang that
the sandbox timeout stopped).

Protocol (see ``_runner.py``): JSON event lines, with a per-job nonce, written both to the result
file and to stdout after a marker; the candidate's own prints are captured separately. Inputs and
outputs use LeetCode's serialization: linked lists and trees are lists, converted to
``ListNode``/``TreeNode`` according to the parameter types, and back.

Threat model: this keeps results intact against accidents (prints, ``sys.exit``, ``os._exit``,
crashes, infinite loops). Isolation from the host is the sandbox's job; code written to forge
results is out of scope.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from vibecode.problems.design import runner_spec
from vibecode.problems.solution_file import complete_solution
from vibecode.problems.typespec import parse_type, runner_plan
from vibecode.types import InputResult, InputStatus, RunResult, Signature

SOLUTION_FILE = "solution.py"
RUNNER_FILE = "_vibecode_runner.py"
SPEC_FILE = "_vibecode_spec.json"
RESULT_FILE = "_vibecode_results.jsonl"
MARKER = "@@vibecode"
LOAD_ALLOWANCE_S = 5.0  # time to start Python and load the candidate's module


def runner_source() -> str:
    return (Path(__file__).with_name("_runner.py")).read_text(encoding="utf-8")


@dataclass(frozen=True)
class HarnessJob:
    files: dict[str, str]  # workspace-relative path -> text to write
    argv: tuple[str, ...]
    result_file: str  # workspace-relative path of the results (read it back after the run)
    timeout_s: float  # wall-clock limit for the whole process (give it to the sandbox)
    per_input_timeout_s: float
    nonce: str
    signature: Signature
    code: str
    inputs: tuple[Mapping[str, object], ...]
    indices: tuple[int, ...]  # the original index of each input this job runs
    python: str = "python3"
    load_timeout_s: float = LOAD_ALLOWANCE_S
    max_timeouts: int = 2


@dataclass(frozen=True)
class RawRun:
    """What running ``job.argv`` produced."""

    stdout: str
    stderr: str = ""
    exit_code: int | None = 0
    signal: int | None = None
    timed_out: bool = False
    result_text: str | None = None  # contents of job.result_file, None when unreadable


def build_job(
    signature: Signature,
    code: str,
    inputs: Sequence[Mapping[str, object]],
    *,
    per_input_timeout_s: float = 1.0,
    python: str = "python3",
    indices: Sequence[int] | None = None,
    load_timeout_s: float = LOAD_ALLOWANCE_S,
    max_timeouts: int = 2,
) -> HarnessJob:
    """The files and command that run ``code`` on every input (argument name -> value).

    ``code`` is completed into the self-contained solution file first (imports it uses, a plain
    function made a method; idempotent, see :mod:`vibecode.problems.solution_file`): the runner
    executes exactly ``job.code``, with no hidden prelude.

    ``timeout_s`` of the job (for the sandbox) is ``load_timeout_s`` + one ``per_input_timeout_s``
    per input + 1 s; it only matters when a candidate defeats the per-input timer. After
    ``max_timeouts`` timeouts (0: no limit) the remaining inputs are reported as timeouts without
    running them, so a candidate that loops forever costs a few timeouts, not one per input.
    """
    code = complete_solution(code, signature)
    names = signature.arg_names
    for n, args in enumerate(inputs):
        missing = [a for a in names if a not in args]
        if missing:
            raise ValueError(f"input {n} lacks argument(s) {missing}")
    nonce = secrets.token_hex(8)
    returns_arg = 0 if (signature.returns or "").strip() == "None" and names else None
    spec = {
        "nonce": nonce,
        "solution": SOLUTION_FILE,
        "result_file": RESULT_FILE,
        "class_name": signature.class_name,
        "function": signature.function,
        "plans": [runner_plan(parse_type(p.type)) for p in signature.params],
        "returns_arg": returns_arg,
        "returns_plan": runner_plan(parse_type(signature.returns)),
        "design": runner_spec(signature) if signature.design else None,  # an operation sequence per input
        "load_timeout_s": load_timeout_s,
        "max_timeouts": max_timeouts,
        "timeout_s": per_input_timeout_s,
        "inputs": [[args[a] for a in names] for args in inputs],
    }
    files = {
        SOLUTION_FILE: code,
        RUNNER_FILE: runner_source(),
        SPEC_FILE: json.dumps(spec),
    }
    return HarnessJob(
        files=files,
        argv=(python, "-I", RUNNER_FILE, SPEC_FILE),
        result_file=RESULT_FILE,
        timeout_s=load_timeout_s + per_input_timeout_s * max(1, len(inputs)) + 1.0,
        per_input_timeout_s=per_input_timeout_s,
        nonce=nonce,
        signature=signature,
        code=code,
        inputs=tuple(inputs),
        indices=tuple(indices) if indices is not None else tuple(range(len(inputs))),
        python=python,
        load_timeout_s=load_timeout_s,
        max_timeouts=max_timeouts,
    )


def _events(text: str, nonce: str, marked: bool) -> list[dict[str, object]]:
    out = []
    prefix = f"{MARKER} {nonce} "
    for line in text.splitlines():
        if marked:
            at = line.find(prefix)
            if at < 0:
                continue
            line = line[at + len(prefix) :]
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and event.get("nonce") == nonce:
            out.append(event)
    return out


def _ending(run: RawRun) -> str:
    if run.timed_out:
        return "the process was stopped at the time limit"
    if run.signal:
        return f"the process was killed by signal {run.signal}"
    return f"the process exited with code {run.exit_code}"


def parse_results(job: HarnessJob, run: RawRun) -> tuple[InputResult, ...]:
    """One result per input of ``job`` (indexed by ``job.indices``), never raising."""
    events = _events(run.result_text, job.nonce, marked=False) if run.result_text else []
    if not events:
        events = _events(run.stdout, job.nonce, marked=True)
    results: dict[int, InputResult] = {}
    started: list[int] = []
    load_error: str | None = None
    loaded = False
    for ev in events:
        kind = ev.get("event")
        i = ev.get("i")
        if kind == "loaded":
            loaded = True
        elif kind == "load_error":
            load_error = str(ev.get("error", "the code did not load"))
        elif kind == "start" and isinstance(i, int):
            started.append(i)
        elif kind == "result" and isinstance(i, int) and 0 <= i < len(job.indices):
            status = ev.get("status")
            if not isinstance(status, str) or status not in ("ok", "error", "timeout"):
                continue
            dur = ev.get("duration_s")
            results[i] = InputResult(
                index=job.indices[i],
                status=_status(status),
                output=ev.get("output"),
                error=str(ev.get("error") or ""),
                duration_s=float(dur) if isinstance(dur, (int, float)) else 0.0,
                stdout=str(ev.get("stdout") or ""),
            )
    out = []
    for local, orig in enumerate(job.indices):
        if local in results:
            out.append(results[local])
        elif load_error is not None:
            out.append(InputResult(orig, "error", error=f"the code did not load: {load_error}"))
        elif not loaded and not events:
            tail = run.stderr.strip().splitlines()[-1:] if run.stderr.strip() else []
            why = f": {tail[0][:300]}" if tail else ""
            out.append(InputResult(orig, "error", error=f"the runner produced no results ({_ending(run)}){why}"))
        elif not loaded:
            out.append(InputResult(orig, "error", error=f"{_ending(run)} while loading the code"))
        elif started and local == started[-1]:
            died: InputStatus = "timeout" if run.timed_out else "error"
            out.append(InputResult(orig, died, error=f"{_ending(run)} while running this input"))
        else:
            out.append(InputResult(orig, "not_run", error=f"not reached: {_ending(run)} earlier"))
    return tuple(out)


def _status(value: object) -> InputStatus:
    return "ok" if value == "ok" else "timeout" if value == "timeout" else "error"


def remaining_job(job: HarnessJob, results: Sequence[InputResult]) -> HarnessJob | None:
    """A job over the inputs that were not reached, or None when every input has a result."""
    todo = [n for n, r in enumerate(results) if r.status == "not_run"]
    if not todo:
        return None
    return build_job(
        job.signature,
        job.code,
        [job.inputs[n] for n in todo],
        per_input_timeout_s=job.per_input_timeout_s,
        python=job.python,
        indices=[job.indices[n] for n in todo],
        load_timeout_s=job.load_timeout_s,
        max_timeouts=job.max_timeouts,
    )


def run_job(
    job: HarnessJob, execute: Callable[[HarnessJob], RawRun], *, max_restarts: int = 3
) -> tuple[InputResult, ...]:
    """Execute the job; restart it (up to ``max_restarts`` times) for inputs never reached."""
    final: dict[int, InputResult] = {}
    current: HarnessJob | None = job
    attempts = 0
    while current is not None:
        results = parse_results(current, execute(current))
        for r in results:
            final[r.index] = r
        attempts += 1
        current = remaining_job(current, results) if attempts <= max_restarts else None
    return tuple(final[i] for i in job.indices)


def raw_run(run: RunResult, result_text: str | None) -> RawRun:
    """Adapt the sandbox's :class:`~vibecode.types.RunResult` (plus the result file's text)."""
    return RawRun(
        stdout=run.stdout,
        stderr=run.stderr,
        exit_code=run.exit_code,
        signal=run.signal,
        timed_out=run.timed_out,
        result_text=result_text,
    )
