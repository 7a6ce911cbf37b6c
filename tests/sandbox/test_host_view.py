"""The local sandbox's host view is an allow-list: no home, /root, /run, sockets or /etc secrets.

Also: /tmp and /dev/shm are private and writable (multiprocessing and tempfile work), and
Limits.ro_paths shows extra host folders read-only on both backends.
"""

from __future__ import annotations

import os
import socket
import tempfile
from pathlib import Path

from tests.sandbox.helpers import get_backend, tree_hash
from vibecode.sandbox.base import Limits

PROBE = r"""
import os, socket, sys
for p in sys.argv[1:]:
    print(p, "visible" if os.path.lexists(p) else "absent")
"""


def test_host_view_hides_home_run_sockets_and_secrets(source: Path) -> None:
    sb = get_backend("local")
    planted = Path(tempfile.mkdtemp(prefix="vibecode-sock-", dir="/var/tmp"))
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(planted / "agent.sock"))
    server.listen(1)
    try:
        paths = [os.path.expanduser("~/.ssh"), "/run", "/var/run", "/var", "/home",
                 str(planted / "agent.sock"), "/etc/ssh/ssh_host_rsa_key"]
        with sb.prepare(source) as ws:
            r = sb.run(ws, [sb.python, "-c", PROBE, *paths])
            shadow = sb.run(ws, ["cat", "/etc/shadow"])
        assert r.exit_code == 0, r.stderr
        for line in r.stdout.splitlines():
            assert line.endswith("absent"), r.stdout
        assert len(r.stdout.splitlines()) == len(paths)
        assert shadow.stdout == "" and "root:" not in shadow.stdout
    finally:
        server.close()


def test_tmp_and_shm_are_writable_and_multiprocessing_works(source: Path) -> None:
    sb = get_backend("local")
    code = (
        "import multiprocessing, tempfile; multiprocessing.Lock();"
        "f = tempfile.NamedTemporaryFile(); f.write(b'x'); f.flush();"
        "open('/dev/shm/x', 'w').write('y'); print('ok')"
    )
    with sb.prepare(source) as ws:
        r = sb.run(ws, [sb.python, "-c", "import multiprocessing; multiprocessing.Lock()"])
        r2 = sb.run(ws, [sb.python, "-c", code])
    assert r.exit_code == 0, r.stderr
    assert r2.stdout.strip() == "ok", r2.stderr


def test_ro_paths_are_visible_read_only_on_both_backends(source: Path) -> None:
    extra = Path(tempfile.mkdtemp(prefix="vibecode-ro-", dir="/var/tmp"))
    os.chmod(extra, 0o755)
    (extra / "lib.txt").write_text("shared\n", encoding="utf-8")
    os.chmod(extra / "lib.txt", 0o644)
    before = tree_hash(extra)
    code = (
        "import sys; p = sys.argv[1]; print(open(p + '/lib.txt').read().strip())\n"
        "try:\n    open(p + '/lib.txt', 'a').write('x'); print('wrote')\n"
        "except OSError:\n    print('refused')\n"
    )
    for kind in ("local", "docker"):
        sb = get_backend(kind)
        with sb.prepare(source) as ws:
            hidden = sb.run(ws, ["python3", "-c", code, str(extra)])
            shown = sb.run(ws, ["python3", "-c", code, str(extra)], Limits(ro_paths=(str(extra),)))
        if kind == "local":
            assert hidden.exit_code != 0 and "No such file" in hidden.stderr
        assert shown.stdout.split() == ["shared", "refused"], (kind, shown.stderr)
    assert tree_hash(extra) == before
