"""The hostile suite: one candidate program per attack, on both backends.

For every attack: the run ends (a run the sandbox stopped says so: timed_out, killed by a
signal), the RunResult says what happened, the source tree's content hash is unchanged, and no
process from the run remains. No assertion reads the clock of a loaded machine; a sandbox that
never ends a run is caught by the generous pytest timeout below.
"""

from __future__ import annotations

import json
import secrets
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.sandbox.helpers import tree_hash, wait_no_processes
from vibecode.sandbox.base import Limits, Sandbox
from vibecode.sandbox.workspace import Workspace
from vibecode.types import RunResult

# A hang guard, far above every limit below (the longest is 30 s): not a speed target.
pytestmark = pytest.mark.timeout(240)


@dataclass
class Attack:
    result: RunResult
    workspace: Workspace
    marker: str


@pytest.fixture
def attack(sandbox: Sandbox, source: Path) -> Iterator[object]:
    """Runs a program in a fresh workspace of ``source`` and checks the four invariants."""
    before = tree_hash(source)
    workspaces: list[Workspace] = []

    def run(code: str, limits: Limits, **fmt: object) -> Attack:
        marker = f"vibecode-attack-{secrets.token_hex(6)}"
        ws = sandbox.prepare(source)
        workspaces.append(ws)
        program = code.format(SRC=str(source), MARKER=marker, **fmt)
        result = sandbox.run(ws, [sandbox.python, "-c", program, marker], limits)
        left = wait_no_processes(marker)
        if result.timed_out:  # stopped by a limit of the sandbox: killed, never "exited"
            assert result.exit_code is None and result.signal in (9, 24), result
        assert left == [], f"processes of the run remain: {left}"
        assert tree_hash(source) == before, "the source tree changed"
        assert result.backend == sandbox.name
        return Attack(result, ws, marker)

    yield run
    for ws in workspaces:
        ws.cleanup()
        assert not ws.path.exists()
    assert tree_hash(source) == before


def test_infinite_loop_is_killed_at_the_wall_limit(attack) -> None:
    a = attack("print('looping', flush=True)\nwhile True:\n    pass\n", Limits(wall_s=3))
    assert a.result.timed_out
    assert a.result.exit_code is None and a.result.signal == 9
    assert a.result.stdout == "looping\n"  # it ran, and was stopped while looping
    # The sandbox's own record: it let the loop run its whole wall limit before the kill.
    assert a.result.duration_s >= 3


def test_allocating_8_gb_runs_out_of_memory(attack) -> None:
    a = attack(
        "x = b'x' * (8 << 30)\nprint('allocated', len(x))\n", Limits(wall_s=20, memory_mb=512)
    )
    assert a.result.oom
    assert not a.result.ok
    assert "allocated" not in a.result.stdout


def test_fork_bomb_hits_the_process_limit_and_is_cleaned_up(attack) -> None:
    code = (
        "import os, time\n"
        "while True:\n"
        "    try:\n"
        "        os.fork()\n"
        "    except OSError:\n"
        "        print('fork refused', flush=True)\n"
        "        time.sleep(0.05)\n"
    )
    a = attack(code, Limits(wall_s=4, nprocs=24))
    assert a.result.timed_out
    assert "fork refused" in a.result.stdout


def test_tcp_connection_to_a_host_listener_fails(attack) -> None:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(5)
    port = listener.getsockname()[1]
    try:
        code = (
            "import socket\n"
            "for host in ('127.0.0.1', '1.1.1.1'):\n"
            "    try:\n"
            "        socket.create_connection((host, {PORT}), timeout=2)\n"
            "        print('connected', host)\n"
            "    except OSError as exc:\n"
            "        print('blocked', host, type(exc).__name__)\n"
        )
        a = attack(code, Limits(wall_s=10), PORT=port)
        assert "connected" not in a.result.stdout
        assert "blocked 127.0.0.1" in a.result.stdout
        assert a.result.protections["network_off"]
        listener.settimeout(0.2)
        with pytest.raises(socket.timeout):
            listener.accept()
    finally:
        listener.close()


def test_writes_to_home_tmp_and_the_source_stay_inside_the_sandbox(attack) -> None:
    real_home = Path.home()
    home_target = real_home / f"vibecode-pwned-{secrets.token_hex(4)}"
    host_tmp = Path(f"/tmp/vibecode-pwned-{secrets.token_hex(4)}")
    code = (
        "import json, os\n"
        "out = {{}}\n"
        "targets = {{\n"
        "    'home': os.path.join(os.path.expanduser('~'), 'pwned.txt'),\n"
        "    'real_home': {HOME!r},\n"
        "    'tmp': {TMP!r},\n"
        "    'source_new': os.path.join({SRC!r}, 'pwned.txt'),\n"
        "    'source_existing': os.path.join({SRC!r}, 'data.txt'),\n"
        "    'source_git': os.path.join({SRC!r}, '.git', 'HEAD'),\n"
        "}}\n"
        "for name, path in targets.items():\n"
        "    try:\n"
        "        with open(path, 'a') as fh:\n"
        "            fh.write('pwned')\n"
        "        out[name] = 'written'\n"
        "    except OSError as exc:\n"
        "        out[name] = type(exc).__name__\n"
        "print(json.dumps(out))\n"
    )
    try:
        a = attack(code, Limits(wall_s=10), HOME=str(home_target), TMP=str(host_tmp))
        out = json.loads(a.result.stdout)
        assert a.result.exit_code == 0
        # HOME is the workspace: the write lands in the copy, nowhere else.
        assert out["home"] == "written"
        assert (a.workspace.path / "pwned.txt").read_text() == "pwned"
        assert not home_target.exists()
        assert not host_tmp.exists()
        for name in ("source_new", "source_existing", "source_git"):
            assert out[name] != "written", out
    finally:
        for leftover in (home_target, host_tmp):
            if leftover.exists():
                leftover.unlink()


def test_deleting_git_folders_only_touches_the_copy(attack) -> None:
    code = (
        "import shutil\n"
        "shutil.rmtree('.git')\n"
        "print('deleted workspace .git')\n"
        "try:\n"
        "    shutil.rmtree({SRC!r} + '/.git')\n"
        "    print('deleted source .git')\n"
        "except OSError as exc:\n"
        "    print('source .git kept:', type(exc).__name__)\n"
    )
    a = attack(code, Limits(wall_s=10))
    assert a.result.exit_code == 0
    assert "deleted workspace .git" in a.result.stdout
    assert "source .git kept" in a.result.stdout
    assert not (a.workspace.path / ".git").exists()


def test_environment_secrets_do_not_reach_the_code(attack, monkeypatch) -> None:
    secret = f"s3cr3t-{secrets.token_hex(8)}"
    monkeypatch.setenv("VIBECODE_TEST_SECRET", secret)
    monkeypatch.setenv("GITHUB_TOKEN", secret)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", secret)
    code = (
        "import os\n"
        "print(dict(os.environ))\n"
        "for pid in os.listdir('/proc'):\n"
        "    if pid.isdigit():\n"
        "        try:\n"
        "            print(open('/proc/%s/environ' % pid, 'rb').read())\n"
        "        except OSError:\n"
        "            pass\n"
    )
    a = attack(code, Limits(wall_s=10))
    assert a.result.exit_code == 0
    assert "HOME" in a.result.stdout
    assert secret not in a.result.stdout
    assert secret not in a.result.stderr
    assert a.result.protections["env_scrubbed"]


def test_double_forked_daemon_is_gone_after_the_run(attack) -> None:
    code = (
        "import os, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        "        open('daemon-started', 'w').close()\n"
        "        time.sleep(60)\n"
        "        os._exit(0)\n"
        "    os._exit(0)\n"
        "while not os.path.exists('daemon-started'):\n"
        "    time.sleep(0.01)\n"
        "print('daemon started', flush=True)\n"
    )
    a = attack(code, Limits(wall_s=10))
    # The run ended with its main process, not at the 10 s wall limit after waiting for the
    # daemon's 60 s sleep (that would read timed_out, SIGKILL); the fixture saw the daemon gone.
    assert (a.result.exit_code, a.result.signal, a.result.timed_out) == (0, None, False)
    assert "daemon started" in a.result.stdout
    assert (a.workspace.path / "daemon-started").exists()
    assert a.result.protections["kill_all"]


def test_100_mb_of_stdout_is_capped_and_the_run_ends(attack) -> None:
    code = (
        "import sys\n"
        "chunk = b'y' * (1 << 20)\n"
        "for _ in range(100):\n"
        "    sys.stdout.buffer.write(chunk)\n"
        "sys.stdout.flush()\n"
        "print('done', file=sys.stderr)\n"
    )
    a = attack(code, Limits(wall_s=30, output_bytes=64 * 1024))
    assert a.result.exit_code == 0
    assert a.result.stdout_bytes == 100 << 20
    assert len(a.result.stdout) == 64 * 1024
    assert set(a.result.stdout) == {"y"}
    assert "done" in a.result.stderr


def test_changing_permissions_in_the_source_fails(attack) -> None:
    code = (
        "import os\n"
        "for path in ({SRC!r} + '/app.py', {SRC!r}, {SRC!r} + '/.git', 'app.py'):\n"
        "    try:\n"
        "        os.chmod(path, 0o777)\n"
        "        print('changed', path)\n"
        "    except OSError as exc:\n"
        "        print('refused', path, type(exc).__name__)\n"
    )
    a = attack(code, Limits(wall_s=10))
    assert a.result.exit_code == 0
    for path in ("/app.py", "", "/.git"):
        assert f"changed {a.workspace.source}{path}\n" not in a.result.stdout
    assert "refused" in a.result.stdout
    if a.workspace.linked:
        # The workspace's app.py is the user's file (a hard link): it must stay unchangeable.
        assert "refused app.py" in a.result.stdout
