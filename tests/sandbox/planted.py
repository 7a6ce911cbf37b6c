"""A real user's machine for the hostile suite: a regular user in the docker group, created with
useradd, with a home holding planted secrets, a project with a canary file, listening unix
sockets (under its $XDG_RUNTIME_DIR and a world-connectable one under /run), and a canary
process of the user's. ``vibecode`` runs as root or as that user (setpriv with its groups), with
the system Python so that the user can run it.
"""

from __future__ import annotations

import contextlib
import os
import pty
import pwd
import select
import shutil
import site
import socket
import subprocess
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SECRETS = {".ssh/id_rsa": "SECRET-SSH-KEY-7f3a", ".aws/credentials": "SECRET-AWS-91c2",
           ".netrc": "SECRET-NETRC-55d0", ".cache/huggingface/token": "SECRET-HF-0b7e"}
USERS = [False, True]
USER_IDS = ["root", "docker-group-user"]


@dataclass
class Host:
    user: str
    uid: int
    gid: int
    home: Path
    project: Path
    canary: Path
    sockets: list[str]
    canary_proc: subprocess.Popen[bytes]
    hits: list[str] = field(default_factory=list)

    def canary_alive(self) -> bool:
        return self.canary_proc.poll() is None

    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        return {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(self.home), "LANG": "C.UTF-8",
                "VIBECODE_CONFIG": os.devnull,
                # The system Python (the user cannot enter /root, where the venv's base lives),
                # with the venv's packages (docker) for the Docker backend.
                "PYTHONPATH": os.pathsep.join([str(REPO), *site.getsitepackages()]),
                "XDG_RUNTIME_DIR": f"/run/user/{self.uid}", **(extra or {})}

    def argv(self, as_user: bool, args: Sequence[str]) -> list[str]:
        cmd = ["/usr/bin/python3", *args]
        if as_user:
            cmd = [shutil.which("setpriv") or "setpriv", "--reuid", str(self.uid), "--regid",
                   str(self.gid), "--init-groups",
                   *cmd]
        return cmd

    def vibecode(self, as_user: bool, *args: str, env: Mapping[str, str] | None = None,
                 timeout: float = 180) -> subprocess.CompletedProcess[str]:
        return subprocess.run(self.argv(as_user, ["-m", "vibecode", *args]), capture_output=True,
                              text=True, env=self.env(env), cwd=str(self.project),
                              timeout=timeout, check=False)

    def vibecode_pty(self, as_user: bool, *args: str, timeout: float = 180) -> tuple[int, bytes]:
        """Run vibecode with a terminal (a pty) as its stdin, stdout and stderr: what it shows."""
        master, slave = pty.openpty()
        proc = subprocess.Popen(self.argv(as_user, ["-m", "vibecode", *args]), stdin=slave,
                                stdout=slave, stderr=slave, env=self.env({"TERM": "xterm"}),
                                cwd=str(self.project), start_new_session=True)
        os.close(slave)
        shown = bytearray()
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                ready, _, _ = select.select([master], [], [], 0.5)
                if not ready:
                    if proc.poll() is not None:
                        break
                    continue
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: the terminal's other side is closed
                    break
                if not chunk:
                    break
                shown += chunk
        finally:
            os.close(master)
            if proc.poll() is None:
                proc.kill()
        return proc.wait(timeout=30), bytes(shown)


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


def planted_host() -> Iterator[Host]:
    """The fixture's body: make the user and its home, yield, remove everything."""
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
    (project / "tests").mkdir()
    (project / "tests" / "test_app.py").write_text(
        "from app import X\n\ndef test_x():\n    assert X == 1\n", encoding="utf-8")
    subprocess.run(["chown", "-R", f"{pw.pw_uid}:{pw.pw_gid}", str(home)], check=True)
    runtime = Path(f"/run/user/{pw.pw_uid}")
    runtime.mkdir(parents=True, exist_ok=True)
    os.chown(runtime, pw.pw_uid, pw.pw_gid)
    sockets = [str(runtime / "bus"), f"/run/vibecode-planted-{user}.sock"]
    canary_proc = subprocess.Popen(["setpriv", "--reuid", str(pw.pw_uid), "--regid",
                                    str(pw.pw_gid), "--init-groups", "sleep", "3600"])
    found = Host(user, pw.pw_uid, pw.pw_gid, home, project, canary, sockets, canary_proc)
    servers = [_serve(p, found.hits) for p in sockets]
    try:
        yield found
    finally:
        canary_proc.kill()
        canary_proc.wait()
        for s in servers:
            s.close()
        for p in sockets:
            with contextlib.suppress(OSError):
                os.unlink(p)
        shutil.rmtree(runtime, ignore_errors=True)
        subprocess.run(["userdel", "-r", user], check=False, capture_output=True)
        shutil.rmtree(home, ignore_errors=True)
