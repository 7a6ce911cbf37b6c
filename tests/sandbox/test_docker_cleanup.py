"""Docker containers never outlive vibecode: a SIGKILLed vibecode's container ends by its own wall
limit (``timeout`` inside it), and the next start removes it (labels with owner and deadline)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.sandbox.helpers import get_backend

REPO = Path(__file__).resolve().parents[2]
CHILD = r"""
import sys, tempfile
from pathlib import Path
from vibecode.sandbox.base import Limits
from vibecode.sandbox.docker import DockerSandbox
sb = DockerSandbox()
src = Path(tempfile.mkdtemp(prefix="vibecode-src-", dir="/var/tmp"))
with sb.prepare(src) as ws:
    print("started", flush=True)
    sb.run(ws, ["sh", "-c", "echo " + sys.argv[1] + "; sleep 600"], Limits(wall_s=3))
"""


def _containers(marker: str) -> list[str]:
    out = subprocess.run(
        ["docker", "ps", "-a", "-q", "--no-trunc", "--filter", "label=vibecode.sandbox=1"],
        capture_output=True, text=True, check=True,
    ).stdout.split()
    found = []
    for cid in out:
        cmd = subprocess.run(["docker", "inspect", "-f", "{{json .Config.Cmd}}", cid],
                             capture_output=True, text=True, check=False).stdout
        if marker in cmd:
            found.append(cid)
    return found


def _state(cid: str) -> str:
    return subprocess.run(["docker", "inspect", "-f", "{{.State.Status}}", cid],
                          capture_output=True, text=True, check=False).stdout.strip()


def test_sigkilled_vibecode_leaves_no_container() -> None:
    get_backend("docker")  # a clear failure when the daemon or the image is missing
    marker = f"vibecode-cleanup-{os.getpid()}-{time.time_ns()}"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.Popen([sys.executable, "-c", CHILD, marker], env=env,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline().strip() == "started"
    found: list[str] = []
    for _ in range(200):  # until the container exists
        found = _containers(marker)
        if found and _state(found[0]) == "running":
            break
        time.sleep(0.1)
    assert found, "the run's container never appeared"
    child.send_signal(signal.SIGKILL)
    child.wait()
    cid = found[0]
    assert _state(cid) == "running"  # nothing on the host supervises it any more
    for _ in range(300):  # its own wall limit (3 s + margin) ends it
        if _state(cid) != "running":
            break
        time.sleep(0.1)
    assert _state(cid) in ("exited", "")
    from vibecode.sandbox.docker import DockerSandbox

    DockerSandbox()  # the next start removes it
    assert _containers(marker) == []
