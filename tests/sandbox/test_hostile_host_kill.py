"""Hostile host, continued: nothing outlives a killed vibecode, and reading back a candidate's
FIFO or /dev/zero symlink never hangs; on both backends, as root and as the docker-group user.

- SIGTERM and SIGHUP: vibecode stops its runs (the container removed, the local run's processes
  killed) and deletes the workspace before it exits.
- SIGKILL: the local run dies with it (bubblewrap's --die-with-parent); the container ends by
  its own wall limit, and the next start of vibecode removes it and the leftover workspace.
"""

from __future__ import annotations

import glob
import os
import signal
import subprocess
import time

import pytest

from tests.sandbox.helpers import BACKENDS
from tests.sandbox.planted import USER_IDS, USERS, Host

SIGNALS = [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL]


def _run_processes(marker: str) -> list[int]:
    """The run's own process (argv[0] "python3"), not vibecode's (which names the marker too)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                argv = fh.read().split(b"\0")
        except OSError:
            continue
        if argv[0] == b"python3" and marker.encode() in argv:
            found.append(int(name))
    return found


def _containers(marker: str) -> list[str]:
    ids = subprocess.run(["docker", "ps", "-aq", "--no-trunc", "--filter",
                          "label=vibecode.sandbox=1"], capture_output=True, text=True,
                         check=True).stdout.split()
    found = []
    for cid in ids:
        cmd = subprocess.run(["docker", "inspect", "-f", "{{json .Config.Cmd}}", cid],
                             capture_output=True, text=True, check=False).stdout
        if marker in cmd:
            found.append(cid)
    return found


def _leftovers(pid: int, marker: str, backend: str) -> list[str]:
    left = [f"process {p}" for p in _run_processes(marker)]
    if backend == "docker":
        left += [f"container {c[:12]}" for c in _containers(marker)]
    with open("/proc/self/mountinfo", encoding="utf-8") as fh:
        left += [f"mount {line.split()[4]}" for line in fh if f"/vibecode-ws-{pid}-" in line]
    left += [f"folder {p}" for p in glob.glob(f"/tmp/vibecode-ws-{pid}-*")]
    return left


def _wait_for(check: object, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and not check():  # type: ignore[operator]
        time.sleep(0.1)


def _default_signals() -> None:
    """The signals as a terminal leaves them: a suite started under ``nohup`` hands SIGHUP down
    ignored, and vibecode rightly keeps a hangup a user chose to ignore (sandbox.cleanup)."""
    for sig in SIGNALS:
        if sig != signal.SIGKILL:
            signal.signal(sig, signal.SIG_DFL)


@pytest.mark.parametrize("sig", SIGNALS, ids=[s.name for s in SIGNALS])
@pytest.mark.parametrize("as_user", USERS, ids=USER_IDS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_killed_vibecode_leaves_nothing(host: Host, backend: str, as_user: bool,
                                        sig: signal.Signals) -> None:
    marker = f"vibecode-kill-{backend}-{int(as_user)}-{sig.name}-{os.getpid()}"
    proc = subprocess.Popen(
        host.argv(as_user, ["-m", "vibecode", "sandbox", "run", "--backend", backend,
                            "--timeout", "60", "--", "python3", "-c",
                            "import time; time.sleep(300)", marker]),
        env=host.env(), cwd=str(host.project), stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, preexec_fn=_default_signals)
    try:
        _wait_for(lambda: _run_processes(marker), 60)
        assert _run_processes(marker), "the run never started"
        proc.send_signal(sig)
        code = proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code == (-9 if sig == signal.SIGKILL else 128 + sig), code
    if sig == signal.SIGKILL:
        # Nothing could run on its way out: the next start cleans up what it left.
        nxt = host.vibecode(as_user, "sandbox", "run", "--backend", backend, "--", "true")
        assert nxt.returncode == 0, nxt.stderr
    _wait_for(lambda: not _leftovers(proc.pid, marker, backend), 10)
    assert _leftovers(proc.pid, marker, backend) == []
    assert host.canary_alive()


READBACK = r"""
import sys
from pathlib import Path
from vibecode.clr.execute import CandidateRunner
from vibecode.clr.harness import RESULT_FILE
from vibecode.config import Settings
from vibecode.fix.suite import parse_test_cmd, run_tests
from vibecode.sandbox import make_sandbox
from vibecode.types import Param, Signature
sb = make_sandbox(sys.argv[1], Settings())
plant = {
    "fifo": "import os; os.mkfifo(os.environ['VIBECODE_JUNIT'])",
    "zero": "import os; os.symlink('/dev/zero', os.environ['VIBECODE_JUNIT'])",
}
for how, code in plant.items():
    cmd = parse_test_cmd('python3 -c "' + code + '"', autoload_plugins=False)
    with sb.prepare(Path(sys.argv[2])) as ws:
        report = run_tests(sb, ws, cmd, timeout=60)
    print("JUNIT", how, len(report.cases), report.complete, flush=True)
candidate = (
    "import os\n"
    f"os.unlink({RESULT_FILE!r}); os.mkfifo({RESULT_FILE!r})\n"
    "def add(a: int, b: int) -> int:\n    return a + b\n"
)
runner = CandidateRunner(sb, per_input_timeout_s=5.0)
sig = Signature("add", (Param("a", "int"), Param("b", "int")), "int")
results = runner.run(sig, {0: candidate}, {0: [{"a": 1, "b": 2}]})
print("RESULT", len(results[0]), flush=True)
"""


@pytest.mark.parametrize("as_user", USERS, ids=USER_IDS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_fifo_and_zero_symlink_readback_do_not_hang(host: Host, backend: str,
                                                     as_user: bool) -> None:
    """A FIFO or a /dev/zero symlink at $VIBECODE_JUNIT (fix's suite run) and a FIFO as the
    harness's result file (solve): each run returns, with no report, and memory stays small."""
    out = subprocess.run(host.argv(as_user, ["-c", READBACK, backend, str(host.project)]),
                         env=host.env(), cwd=str(host.project), capture_output=True, text=True,
                         timeout=240, check=False)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "JUNIT fifo 0 False" in out.stdout and "JUNIT zero 0 False" in out.stdout, out.stdout
    assert "RESULT 1" in out.stdout, out.stdout
