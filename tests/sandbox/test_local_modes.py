"""LocalSandbox in each isolation mode: exact exit status, limits, honest protections.

The weaker modes (unshare, plain) run only harmless programs here: as root they have no process
limit, so a fork bomb would reach the host.
"""

from __future__ import annotations

import os
import secrets
import socket
from pathlib import Path

import pytest

from tests.sandbox.helpers import tree_hash, wait_no_processes
from vibecode.errors import SandboxError
from vibecode.sandbox.base import Limits
from vibecode.sandbox.local import LocalSandbox

MODES = ("auto", "unshare", "plain")


@pytest.fixture(params=MODES)
def local(request: pytest.FixtureRequest) -> LocalSandbox:
    try:
        return LocalSandbox(request.param)
    except SandboxError as exc:
        pytest.fail(f"isolation {request.param} does not work here: {exc}")


def test_auto_mode_is_bubblewrap_with_everything_active() -> None:
    sb = LocalSandbox()
    assert sb.isolation == "bwrap", f"bubblewrap missing? run scripts/system-deps ({sb.mode.note})"
    assert all(sb.protections().values()), sb.protections()


def test_weaker_modes_name_what_they_lack() -> None:
    plain = LocalSandbox("plain").protections()
    assert not plain["network_off"] and not plain["readonly_outside"] and not plain["kill_all"]
    assert plain["env_scrubbed"] and plain["rlimits"]
    unshare = LocalSandbox("unshare").protections()
    assert unshare["network_off"] and unshare["kill_all"] and not unshare["readonly_outside"]
    if os.geteuid() == 0:  # root ignores RLIMIT_NPROC: these modes cannot limit processes
        assert not plain["nproc_limit"] and not unshare["nproc_limit"]


def test_exit_codes_and_signals_are_exact(local: LocalSandbox, source: Path) -> None:
    with local.prepare(source) as ws:
        r = local.run(ws, [local.python, "-c", "import sys; sys.exit(3)"])
        assert (r.exit_code, r.signal, r.timed_out) == (3, None, False)
        r = local.run(
            ws, [local.python, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGTERM)"]
        )
        assert (r.exit_code, r.signal) == (None, 15)
        r = local.run(ws, [local.python, "-c", "import os; os.kill(os.getpid(), 9)"])
        assert (r.exit_code, r.signal) == (None, 9)
        r = local.run(ws, ["definitely-not-a-command"])
        assert r.exit_code == 127 and "definitely-not-a-command" in r.stderr


@pytest.mark.timeout(180)  # a hang guard only: a broken wall limit fails the asserts below
def test_cpu_limit_wall_limit_memory_and_stdin(local: LocalSandbox, source: Path) -> None:
    marker = f"vibecode-limits-{secrets.token_hex(5)}"
    with local.prepare(source) as ws:
        r = local.run(
            ws, [local.python, "-c", "while True: pass", marker], Limits(wall_s=20, cpu_s=1)
        )
        # SIGXCPU: the CPU-time limit stopped it; the 20 s wall limit would have sent SIGKILL.
        assert r.signal == 24 and r.timed_out and r.exit_code is None
        assert wait_no_processes(marker) == []
        sleeper = "import time; print('asleep', flush=True); time.sleep(30); print('woke')"
        r = local.run(ws, [local.python, "-c", sleeper, marker], Limits(wall_s=1))
        # Killed by the sandbox's own 1 s limit (SIGKILL, timed_out) while still asleep: the
        # program never reached the end of its 30 s sleep, and nothing of it is left.
        assert r.timed_out and r.signal == 9 and r.exit_code is None
        assert r.stdout == "asleep\n"
        assert r.duration_s >= 1  # its own record: the kill came at the limit, not before it
        assert wait_no_processes(marker) == []
        r = local.run(ws, [local.python, "-c", "x = bytearray(200 << 20); print(len(x))"])
        assert r.exit_code == 0 and r.peak_memory_mb is not None and r.peak_memory_mb >= 200
        r = local.run(ws, ["cat"], stdin=b"fed through stdin")
        assert r.stdout == "fed through stdin"


def test_home_and_environment(
    local: LocalSandbox, source: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VIBECODE_TEST_TOKEN", "leak")
    with local.prepare(source) as ws:
        code = "import os; print(os.environ['HOME']); print(os.environ.get('VIBECODE_TEST_TOKEN')); print(os.environ['EXTRA'])"
        r = local.run(ws, [local.python, "-c", code], env={"EXTRA": "given"})
        assert r.stdout.split() == [str(ws.path), "None", "given"]


def test_daemons_are_removed_in_every_mode(local: LocalSandbox, source: Path) -> None:
    marker = f"vibecode-daemon-{secrets.token_hex(5)}"
    code = (
        "import os, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        "        open('daemon-started', 'w').close()\n"
        "        time.sleep(60)\n"
        "    os._exit(0)\n"
        "while not os.path.exists('daemon-started'):\n"
        "    time.sleep(0.01)\n"
    )
    with local.prepare(source) as ws:
        r = local.run(ws, [local.python, "-c", code, marker], Limits(wall_s=10))
        # The run ended with its main process: it did not wait for the daemon's 60 s sleep
        # (which the 10 s wall limit would have cut, reporting timed_out and SIGKILL).
        assert (r.exit_code, r.signal, r.timed_out) == (0, None, False)
        assert (ws.path / "daemon-started").exists()  # there was a daemon to remove
        assert wait_no_processes(marker) == []


def test_network_is_off_where_claimed(local: LocalSandbox, source: Path) -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    try:
        code = (
            "import socket\n"
            f"try:\n    socket.create_connection(('127.0.0.1', {port}), timeout=2); print('connected')\n"
            "except OSError:\n    print('blocked')\n"
        )
        with local.prepare(source) as ws:
            r = local.run(ws, [local.python, "-c", code])
        expected = "blocked" if r.protections["network_off"] else "connected"
        assert r.stdout.strip() == expected
    finally:
        listener.close()


def test_readonly_outside_where_claimed(local: LocalSandbox, source: Path, tmp_path: Path) -> None:
    # Only the mode that claims it is asked to write outside; the others would succeed.
    if not local.protections()["readonly_outside"]:
        assert local.isolation in ("unshare", "plain")
        return
    before = tree_hash(source)
    with local.prepare(source) as ws:
        code = f"open({str(source / 'data.txt')!r}, 'a').write('x')"
        r = local.run(ws, [local.python, "-c", code])
    # bubblewrap's allow-list does not show the user's tree at all; others mount it read-only.
    refusals = ("Read-only", "Permission", "No such file")
    assert r.exit_code == 1 and any(word in r.stderr for word in refusals)
    assert tree_hash(source) == before


def test_unknown_isolation_and_bad_commands(source: Path) -> None:
    with pytest.raises(SandboxError, match="Unknown local isolation"):
        LocalSandbox("chroot")
    sb = LocalSandbox()
    with sb.prepare(source) as ws:
        with pytest.raises(SandboxError, match="non-empty list"):
            sb.run(ws, [])
        with pytest.raises(SandboxError, match="non-empty list"):
            sb.run(ws, "echo hi")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="positive"):
        Limits(wall_s=0)
