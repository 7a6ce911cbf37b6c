"""Running pytest in a sandbox and reading per-test outcomes that never invent a pass.

The run writes two reports into a hidden folder of the workspace (``.vibecode-run/``, deleted
afterwards): pytest's JUnit XML, written once at the end of the session, and an event log that a
small plugin appends to as each test starts and reports. The XML is the source of truth when the
session finished (the plugin's last event comes after the XML is written). When the candidate
broke the run (``os._exit``, a crash, a timeout, a deleted or garbled report), the outcomes come
from the event log instead: tests that reported are listed as they reported, the test that was
running becomes an error, tests that never ran are not listed, and the report is marked
``complete=False``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import secrets
from collections.abc import Sequence

from vibecode.errors import SandboxError, VibecodeError
from vibecode.sandbox.base import Limits, Sandbox
from vibecode.sandbox.junit import (
    MAX_REPORT_BYTES,
    NODEID_PROPERTY,
    cases_from_events,
    parse_events,
    parse_junit,
)
from vibecode.sandbox.readback import read_back
from vibecode.sandbox.workspace import Workspace
from vibecode.types import RunResult, TestReport

RUN_DIR = ".vibecode-run"
PLUGIN_MODULE = "_vibecode_pytest_events"
_EXIT_MEANING = {
    2: "pytest was interrupted (for example by errors during collection)",
    3: "pytest hit an internal error",
    4: "pytest was called wrongly (a usage error, for example a test path that does not exist)",
}

# Loaded into the sandboxed pytest with -p; works with pytest 7 and 8, imports nothing of ours.
PLUGIN_SOURCE = f'''"""vibecode: report each pytest event as one JSON line, as it happens."""
import json
import os

import pytest

_PATH = os.environ.get("VIBECODE_PYTEST_EVENTS")
_FD = None


def _emit(event):
    global _FD
    if not _PATH:
        return
    data = (json.dumps(event) + "\\n").encode("utf-8", "replace")
    for _ in range(2):
        try:
            if _FD is None:
                _FD = os.open(_PATH, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            os.write(_FD, data)
            return
        except OSError:
            _FD = None


def _text(longrepr):
    if longrepr is None:
        return ""
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    try:
        return str(longrepr)[-20000:]
    except Exception:
        return repr(longrepr)[-20000:]


def pytest_sessionstart(session):
    _emit({{"event": "start"}})


def pytest_collectreport(report):
    if report.failed:
        _emit({{"event": "collect_error", "nodeid": report.nodeid, "message": _text(report.longrepr)}})


def pytest_runtest_logstart(nodeid, location):
    _emit({{"event": "begin", "nodeid": nodeid}})


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    item.user_properties.append(("{NODEID_PROPERTY}", item.nodeid))


def pytest_runtest_logreport(report):
    _emit({{
        "event": "report",
        "nodeid": report.nodeid,
        "when": report.when,
        "outcome": report.outcome,
        "duration": float(getattr(report, "duration", 0.0) or 0.0),
        "xfail": hasattr(report, "wasxfail"),
        "message": "" if report.outcome == "passed" else _text(report.longrepr),
    }})


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    _emit({{"event": "finish", "exitstatus": int(exitstatus)}})
'''


def run_pytest(
    sandbox: Sandbox,
    workspace: Workspace,
    tests: Sequence[str] | None = None,
    timeout: float = 300.0,
    limits: Limits | None = None,
    extra_args: Sequence[str] = (),
    *,
    autoload_plugins: bool = True,
    python: str | None = None,
    env: dict[str, str] | None = None,
) -> TestReport:
    """Run pytest on ``tests`` (node ids or paths; None: pytest's own discovery) in ``workspace``.

    ``timeout`` is the wall-clock limit of the whole run (it replaces ``limits.wall_s``).
    ``autoload_plugins=False`` sets PYTEST_DISABLE_PLUGIN_AUTOLOAD: much faster where the
    interpreter has heavy plugins installed that the project does not need (name the ones it
    needs in ``extra_args`` as ``-p NAME``). ``python``: the interpreter to run pytest with
    (default: the sandbox's); ``env``: more variables (a ``PYTHONPATH`` comes after the plugin's).
    """
    bad = [t for t in tests or () if not isinstance(t, str) or not t or t.startswith("-")]
    if bad:
        raise SandboxError(f"Not a test id or path: {bad[0]!r}.", "Options go in extra_args.")
    limits = dataclasses.replace(limits or Limits(), wall_s=timeout)
    nonce = secrets.token_hex(6)
    with contextlib.suppress(OSError):
        workspace.delete(RUN_DIR)
    workspace.write(f"{RUN_DIR}/{PLUGIN_MODULE}.py", PLUGIN_SOURCE)
    run_dir = workspace.path / RUN_DIR
    junit = run_dir / f"junit-{nonce}.xml"
    events = run_dir / f"events-{nonce}.jsonl"
    cmd = [
        python or sandbox.python, "-m", "pytest",
        "-p", PLUGIN_MODULE,
        "-p", "no:cacheprovider",
        f"--junitxml={junit}",
        "-o", "junit_family=xunit1",
        "--color=no",
        *extra_args,
        *(tests or ()),
    ]  # fmt: skip
    extra = dict(env or {})
    path = os.pathsep.join(p for p in (str(run_dir), extra.pop("PYTHONPATH", "")) if p)
    env = {**extra, "PYTHONPATH": path, "VIBECODE_PYTEST_EVENTS": str(events)}
    if not autoload_plugins:
        env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    try:
        run = sandbox.run(workspace, cmd, limits, env=env)
        xml_data = _read_capped(workspace, f"{RUN_DIR}/{junit.name}")
        event_data = _read_capped(workspace, f"{RUN_DIR}/{events.name}")
    finally:
        with contextlib.suppress(OSError, VibecodeError):
            workspace.delete(RUN_DIR)
    return build_report(run, xml_data, event_data)


def build_report(run: RunResult, xml_data: bytes | None, event_data: bytes | None) -> TestReport:
    """Combine the run, its JUnit XML and its event log into a :class:`TestReport`."""
    junit = parse_junit(xml_data)
    log = parse_events(event_data)
    # The XML is whole only if pytest reached the end of its session after writing it. With no
    # event log at all (the candidate deleted it), a normal pytest exit status must vouch for it.
    finished = log.finished if log is not None else run.exit_code in (0, 1, 5)
    trusted = junit is not None and finished and not run.timed_out
    errors: list[str] = []
    if trusted and junit is not None:
        cases = junit.cases
        errors = junit.collection_errors or (log.collection_errors if log else [])
    elif log is not None:
        cases = cases_from_events(log, _why_ended(run))
        errors = log.collection_errors
    else:
        cases = []
    if not errors and run.exit_code in _EXIT_MEANING and not cases:
        tail = (run.stderr.strip() or run.stdout.strip())[-2000:]
        errors = [f"{_EXIT_MEANING[run.exit_code]}. {tail}".strip()]
    return TestReport(
        cases=tuple(cases),
        run=run,
        collection_error="\n\n".join(errors) if errors else None,
        complete=trusted,
    )


def _why_ended(run: RunResult) -> str:
    if run.timed_out:
        return f"the run timed out after {run.duration_s:.1f} s"
    if run.oom:
        return "the run ran out of memory"
    if run.signal is not None:
        return f"the process was killed by signal {run.signal}"
    return f"the process exited with code {run.exit_code} in the middle of the session"


def _read_capped(workspace: Workspace, relpath: str) -> bytes | None:
    try:
        return read_back(workspace.resolve(relpath), MAX_REPORT_BYTES)
    except (OSError, VibecodeError, ValueError):
        return None
