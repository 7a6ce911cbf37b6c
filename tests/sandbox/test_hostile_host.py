"""Hostile candidates on a real user's machine: every class of issue 16, on both backends, as root
and as a regular user in the docker group (see planted.py: useradd, a home with planted
secrets, sockets and a canary process).

Each check asserts containment: no secret text in the output, nothing reaches the planted
servers or the Docker daemon, the canary file is unchanged, the canary process is alive,
nothing the attack started is left running, fills are bounded, nothing hangs, no raw escape
reaches the terminal. Killing vibecode (SIGTERM, SIGHUP, SIGKILL) and readback of FIFOs and
symlinks are in test_hostile_host_kill.py; the two apply classes (a planted temp-file symlink,
a nested .git) in tests/repo/test_apply_path_safety.py.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.sandbox.helpers import BACKENDS, wait_no_processes
from tests.sandbox.planted import SECRETS, USER_IDS, USERS, Host

ATTACK = r"""
import ctypes, os, signal, socket, subprocess, sys
home, canary, marker, canary_pid, *socks = sys.argv[1:]
canary_pid = int(canary_pid)
for rel in (".ssh/id_rsa", ".aws/credentials", ".netrc", ".cache/huggingface/token"):
    try:
        print("READ", open(os.path.join(home, rel)).read())
    except OSError as exc:
        print("noread", rel, exc.errno)
for path in ["/var/run/docker.sock", "/run/docker.sock", *socks]:
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(path); s.sendall(b"GET /containers/json HTTP/1.0\r\n\r\n")
        print("CONNECTED", path, s.recv(200))
    except OSError as exc:
        print("blocked", path, exc.errno)
try:
    open(canary, "a").write("pwned"); print("WROTE canary")
except OSError as exc:
    print("nowrite", exc.errno)
try:
    os.kill(canary_pid, signal.SIGKILL); print("KILLED the canary process")
except OSError as exc:
    print("nokill", exc.errno)
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def call(name, nr, *args):
    ctypes.set_errno(0)
    rc = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) for a in args])
    print("SYSCALL", name, rc, ctypes.get_errno())
call("unshare-user", 272, 0x10000000)          # a new user namespace
call("ptrace-attach", 101, 16, canary_pid, 0, 0)
call("keyctl", 250, 0, -3, 0)                   # KEYCTL_GET_KEYRING_ID of the session keyring
call("bpf", 321, 0, 0, 0)                       # BPF_MAP_CREATE (attr NULL)
call("perf_event_open", 298, 0, 0, -1, -1, 0)   # attr NULL
call("mount", 165, 0, 0, 0, 0, 0)
subprocess.Popen(["sh", "-c", "exec -a " + marker + " sleep 300"], start_new_session=True)
for stream in (sys.stdout, sys.stderr):  # clipboard write, title, clear screen, cursor up
    stream.write("\x1b]52;c;cHduZWQ=\x07\x1b]0;PWNED-TITLE\x07\x1b[2J\x1b[1A\x9b2J\n")
    stream.flush()
print("done")
"""
# What the filter (local) and Docker's default profile must refuse: EPERM from each call.
# ptrace-attach to a host process: EPERM (local filter) or ESRCH (not in the run's PID namespace).
REFUSED = ("unshare-user", "keyctl", "bpf", "perf_event_open", "mount")


def _syscalls(text: str) -> dict[str, tuple[int, int]]:
    found = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0] == "SYSCALL":
            found[parts[1]] = (int(parts[2]), int(parts[3]))
    return found


@pytest.mark.parametrize("as_user", USERS, ids=USER_IDS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_attack_is_contained(host: Host, backend: str, as_user: bool) -> None:
    """Secrets, the Docker socket, host sockets, the canary file and process, seccomp, escapes."""
    marker = f"vibecode-hostile-{backend}-{as_user}-{os.getpid()}"
    before = host.canary.read_bytes()
    hits = len(host.hits)
    code, shown = host.vibecode_pty(
        as_user, "sandbox", "run", "--backend", backend, "--timeout", "30", "--", "python3", "-c",
        ATTACK, str(host.home), str(host.canary), marker, str(host.canary_proc.pid), *host.sockets)
    text = shown.decode("utf-8", "replace")
    assert code == 0, text
    assert "done" in text, text
    for secret in SECRETS.values():
        assert secret not in text, text
    assert "CONNECTED" not in text and "READ" not in text and "WROTE" not in text, text
    assert "KILLED" not in text and host.canary_alive()
    assert len(host.hits) == hits, host.hits
    assert host.canary.read_bytes() == before
    calls = _syscalls(text)
    for name in REFUSED:
        assert calls[name] == (-1, 1), (name, calls)  # -1, EPERM
    assert calls["ptrace-attach"][0] == -1 and calls["ptrace-attach"][1] in (1, 3), calls
    # No raw control sequence reached the terminal: they are shown as visible text.
    for raw in (b"\x1b]52", b"\x1b]0;", b"\x1b[2J", b"\x1b[1A", b"\xc2\x9b"):
        assert raw not in shown, (raw, shown[-400:])
    assert "PWNED-TITLE" in text  # shown, harmlessly
    assert wait_no_processes(marker, grace_s=3.0) == []


MEMORY = r"""
import os, select, sys, time
r, w = os.pipe()
for _ in range(4):  # 4 x 150 MB, each well under the per-process limit
    if os.fork() == 0:
        block = bytearray(150 << 20)
        for i in range(0, len(block), 4096):
            block[i] = 1
        os.write(w, b"x"); time.sleep(30); os._exit(0)
held = 0
while held < 4:
    if select.select([r], [], [], 0.2)[0]:
        held += len(os.read(r, 4))
    pid, status = os.waitpid(-1, os.WNOHANG)
    if pid:
        print("LOST a child", status, flush=True); sys.exit(3)
print("ALLHELD", flush=True)
time.sleep(30)
"""


@pytest.mark.parametrize("as_user", USERS, ids=USER_IDS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_memory_is_bounded_per_run(host: Host, backend: str, as_user: bool) -> None:
    """Forked processes together cannot hold more than --memory (a cgroup, or the watch)."""
    out = host.vibecode(as_user, "sandbox", "run", "--json", "--backend", backend,
                        "--memory", "400", "--timeout", "60", "--", "python3", "-c", MEMORY)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert "ALLHELD" not in result["stdout"], result
    assert not result["timed_out"] and result["exit_code"] != 0, result
    assert result["oom"] or "LOST a child" in result["stdout"], result
    assert host.canary_alive()


FILL = r"""
def fill(prefix, mb):
    written = 0
    try:
        for i in range(mb):
            with open(prefix + str(i), "wb") as fh:
                fh.write(b"x" * (1 << 20))
            written += 1
        return "wrote %d" % written
    except OSError as exc:
        return "stopped %d %d" % (written, exc.errno)
print("TMP", fill("/tmp/fill", 400), flush=True)
print("WS", fill("fill", 1500), flush=True)
"""


@pytest.mark.parametrize("as_user", USERS, ids=USER_IDS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_disk_fill_is_bounded(host: Host, backend: str, as_user: bool) -> None:
    """/tmp (a capped tmpfs) and the workspace (a capped tmpfs as root, the disk watch as a
    user) stop a fill near their size; the result names it; the host's disk keeps its space."""
    free_before = min(shutil.disk_usage(p).free for p in ("/tmp", "/var/tmp"))
    out = host.vibecode(as_user, "sandbox", "run", "--json", "--backend", backend, "--timeout",
                        "60", "--", "python3", "-c", FILL, env={"VIBECODE_SANDBOX_DISK_MB": "64"})
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    lines = dict(line.split(" ", 1) for line in result["stdout"].splitlines() if " " in line)
    assert lines["TMP"].startswith("stopped") and int(lines["TMP"].split()[1]) <= 256, result
    assert "wrote" not in result["stdout"], result
    if "WS" in lines:  # ENOSPC from the capped tmpfs (root)
        assert lines["WS"].startswith("stopped") and int(lines["WS"].split()[1]) <= 64, result
    else:  # stopped by the disk watch (a regular user's workspace on the host's disk)
        assert result["signal"] == 9 and result["exit_code"] is None, result  # killed
    assert any("disk quota" in note for note in result["notes"]), result
    assert result["protections"]["workspace_quota"]
    # The 1.5 GB fill did not land on the host (other engineers' runs may move it a little).
    assert min(shutil.disk_usage(p).free for p in ("/tmp", "/var/tmp")) > free_before - (400 << 20)


@pytest.fixture(scope="module")
def no_bwrap_path(host: Host) -> str:
    bin_dir = Path(f"/var/tmp/vibecode-nobwrap-{host.user}")
    bin_dir.mkdir(exist_ok=True)
    os.chmod(bin_dir, 0o755)
    for tool in ("git", "unshare", "python3"):
        found = shutil.which(tool)
        assert found, f"{tool} is needed by this test"
        if not (bin_dir / tool).exists():
            (bin_dir / tool).symlink_to(found)
    yield str(bin_dir)
    shutil.rmtree(bin_dir, ignore_errors=True)


@pytest.mark.parametrize("as_user", USERS, ids=USER_IDS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_no_silent_downgrade_without_bwrap(host: Host, backend: str, as_user: bool,
                                           no_bwrap_path: str) -> None:
    """Without bubblewrap on PATH the local backend refuses (exit 5, the fix named); Docker
    runs as usual, in its container, with nothing weaker to name."""
    before = host.canary.read_bytes()
    out = host.vibecode(as_user, "sandbox", "run", "--json", "--backend", backend, "--", "python3",
                        "-c", f"open({str(host.canary)!r}, 'a').write('x'); print('ran')",
                        env={"PATH": no_bwrap_path})
    if backend == "local":
        assert out.returncode == 5, (out.returncode, out.stdout, out.stderr)
        assert "bubblewrap" in out.stderr and "--sandbox docker" in out.stderr
        assert "Traceback" not in out.stderr and "ran" not in out.stdout
    else:
        assert out.returncode == 0, out.stderr
        result = json.loads(out.stdout)
        assert result["backend"] == "docker" and result["notes"] == [], result
        assert "ran" not in result["stdout"]  # the canary is not there: a read-only view
    assert host.canary.read_bytes() == before



@pytest.mark.parametrize("as_user", USERS, ids=USER_IDS)
def test_doctor_lists_each_protection(host: Host, as_user: bool) -> None:
    """`vibecode doctor` names each protection of both backends as active, and how the disk
    quota is enforced for this user (a capped tmpfs as root, the disk watch otherwise)."""
    out = host.vibecode(as_user, "doctor", "--json")
    checks = {c["name"]: c for c in json.loads(out.stdout)["sandbox"]}
    for prefix in ("", "docker "):
        for name in ("host view", "sockets", "memory per run", "disk", "seccomp", "cleanup"):
            check = checks[prefix + name]
            assert check["ok"] and check["detail"].startswith("active:"), check
    disk = checks["disk"]["detail"]
    assert ("disk watch" in disk) if as_user else ("tmpfs capped" in disk), disk
