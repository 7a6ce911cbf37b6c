"""Hostile candidates on a real user's machine: as root and as a regular user in the docker group.

The test creates the user (useradd) with a home holding planted secrets (~/.ssh/id_rsa,
~/.aws/credentials, ~/.netrc), a project with a canary file, a listening unix socket under its
$XDG_RUNTIME_DIR and a world-connectable one under /run. `vibecode sandbox run` (system Python,
so that the user can run it) then runs an attack on each backend, as root and as that user
(setpriv with the user's groups, docker included). Containment: no secret in the output, no
connection reaches a planted server or the Docker daemon, the canary is unchanged, nothing the
attack started is left running.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import site
import socket
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.sandbox.helpers import wait_no_processes

REPO = Path(__file__).resolve().parents[2]
SECRETS = {".ssh/id_rsa": "SECRET-SSH-KEY-7f3a", ".aws/credentials": "SECRET-AWS-91c2",
           ".netrc": "SECRET-NETRC-55d0"}
ATTACK = r"""
import os, socket, subprocess, sys
home, canary, marker, *socks = sys.argv[1:]
for rel in (".ssh/id_rsa", ".aws/credentials", ".netrc"):
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
subprocess.Popen(["sh", "-c", "exec -a " + marker + " sleep 300"], start_new_session=True)
print("done")
"""


@dataclass
class Host:
    user: str
    uid: int
    gid: int
    home: Path
    project: Path
    canary: Path
    sockets: list[str]
    hits: list[str] = field(default_factory=list)


def _serve(path: str, hits: list[str]) -> socket.socket:
    server = socket.socket(socket.AF_UNIX)
    server.bind(path)
    os.chmod(path, 0o666)
    server.listen(8)

    def accept() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            hits.append(path)
            conn.close()

    threading.Thread(target=accept, daemon=True).start()
    return server


@pytest.fixture(scope="module")
def host() -> Iterator[Host]:
    assert os.geteuid() == 0, "this suite creates a user: run it as root"
    assert shutil.which("useradd") and shutil.which("setpriv"), "needs useradd and setpriv"
    user = f"vbc{os.getpid() % 100000}"
    home = Path(f"/var/tmp/vibecode-home-{user}")
    subprocess.run(["useradd", "-m", "-d", str(home), "-G", "docker", "-s", "/bin/sh", user],
                   check=True)
    pw = pwd.getpwnam(user)
    for rel, text in SECRETS.items():
        path = home / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
        os.chmod(path, 0o600)
    project = home / "project"
    project.mkdir()
    canary = project / "canary.txt"
    canary.write_text("canary\n", encoding="utf-8")
    (project / "app.py").write_text("X = 1\n", encoding="utf-8")
    subprocess.run(["chown", "-R", f"{pw.pw_uid}:{pw.pw_gid}", str(home)], check=True)
    runtime = Path(f"/run/user/{pw.pw_uid}")
    runtime.mkdir(parents=True, exist_ok=True)
    os.chown(runtime, pw.pw_uid, pw.pw_gid)
    sockets = [str(runtime / "bus"), f"/run/vibecode-planted-{user}.sock"]
    found = Host(user, pw.pw_uid, pw.pw_gid, home, project, canary, sockets)
    servers = [_serve(p, found.hits) for p in sockets]
    try:
        yield found
    finally:
        for s in servers:
            s.close()
        for p in sockets:
            with contextlib.suppress(OSError):
                os.unlink(p)
        shutil.rmtree(runtime, ignore_errors=True)
        subprocess.run(["userdel", "-r", user], check=False, capture_output=True)
        shutil.rmtree(home, ignore_errors=True)


@pytest.mark.parametrize("as_user", [False, True], ids=["root", "docker-group-user"])
@pytest.mark.parametrize("backend", ["local", "docker"])
def test_attack_is_contained(host: Host, backend: str, as_user: bool) -> None:
    marker = f"vibecode-hostile-{backend}-{as_user}-{os.getpid()}"
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(host.home), "LANG": "C.UTF-8",
           # The system Python (the user cannot enter /root, where the venv's base lives),
           # with the venv's packages (docker) for the Docker backend.
           "VIBECODE_CONFIG": os.devnull,
           "PYTHONPATH": os.pathsep.join([str(REPO), *site.getsitepackages()]),
           "XDG_RUNTIME_DIR": f"/run/user/{host.uid}"}
    cmd = ["/usr/bin/python3", "-m", "vibecode", "sandbox", "run", "--backend", backend,
           "--workdir", str(host.project), "--timeout", "30", "--",
           "python3", "-c", ATTACK, str(host.home), str(host.canary), marker, *host.sockets]
    if as_user:
        cmd = ["setpriv", "--reuid", str(host.uid), "--regid", str(host.gid), "--init-groups",
               *cmd]
    before = host.canary.read_bytes()
    hits = len(host.hits)
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=str(host.project),
                         timeout=180, check=False)
    text = out.stdout + out.stderr
    assert out.returncode == 0, text
    assert "done" in out.stdout, text
    for secret in SECRETS.values():
        assert secret not in text, text
    assert "CONNECTED" not in text and "READ" not in text, text
    assert len(host.hits) == hits, host.hits
    assert host.canary.read_bytes() == before
    assert wait_no_processes(marker, grace_s=3.0) == []
