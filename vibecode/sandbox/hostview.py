"""The host view of a bubblewrap run: an allow-list of mounts, never ``--ro-bind / /``.

Visible, read-only: the system's programs and libraries (/usr, /bin, /sbin, /lib*, /opt), /etc
with its secrets replaced by empty ones, the interpreter's own folders (its prefix, venv and
``sys.path``), and ``Limits.ro_paths``. Fresh: /dev, /proc, a private size-capped /tmp and
/dev/shm. Writable: the workspace. Not there: the user's home, /root, /run and /var (the Docker
socket), $XDG_RUNTIME_DIR and its sockets, other projects.
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

from vibecode.errors import SandboxError
from vibecode.sandbox.base import Limits

# The host view of a bubblewrap run is an allow-list: the system's programs and libraries, /etc
# without its secrets, the interpreter's folders, Limits.ro_paths and the workspace. Nothing else
# (no home, /root, /run, /var/run with the Docker socket, $XDG_RUNTIME_DIR, other projects).
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt")
# Files and folders of /etc that hold secrets or credentials: replaced by empty ones.
ETC_SECRET_FILES = (
    "/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/sudoers",
    "/etc/security/opasswd", "/etc/krb5.keytab", "/etc/ppp/chap-secrets", "/etc/ppp/pap-secrets",
    "/etc/docker/key.json", "/etc/machine-id",
)
ETC_SECRET_DIRS = (
    "/etc/ssh", "/etc/sudoers.d", "/etc/ssl/private", "/etc/wireguard", "/etc/openvpn",
    "/etc/NetworkManager/system-connections", "/etc/credstore", "/etc/credstore.encrypted",
    "/etc/libvirt", "/etc/cups/ssl", "/etc/letsencrypt", "/etc/docker",
)


def bwrap_args(drop_uid: bool, ws: Path, limits: Limits, python: str) -> list[str]:
    """bubblewrap's arguments for a run in ``ws``: the allow-listed host view and namespaces."""
    size = str(limits.tmp_mb << 20)
    args: list[str] = []
    mounted: list[str] = []
    for path in SYSTEM_DIRS:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
            mounted.append(path)
    args += ["--ro-bind", "/etc", "/etc"]
    mounted.append("/etc")
    for secret in ETC_SECRET_FILES:
        if os.path.lexists(secret) and not os.path.isdir(secret):
            args += ["--ro-bind", "/dev/null", secret]
    for secret in ETC_SECRET_DIRS:
        if os.path.isdir(secret) and not os.path.islink(secret):
            args += ["--perms", "0755", "--tmpfs", secret]
    args += ["--dev", "/dev", "--proc", "/proc"]
    # Private, size-capped and world-writable (sticky) /tmp and /dev/shm: tempfile,
    # multiprocessing's semaphores and the fresh uid all need to write there.
    args += ["--perms", "1777", "--size", size, "--tmpfs", "/tmp"]
    args += ["--perms", "1777", "--size", size, "--tmpfs", "/dev/shm"]
    # A path inside a host folder bound above is visible already; one inside a fresh mount
    # (a project's venv under the host's /tmp) must be bound on top of it.
    fresh = ["/dev", "/proc", "/tmp"]
    extra = sorted({*_needed_paths(python), *_ro_paths(limits)}, key=len)
    binds: list[str] = []
    for path in extra:
        if path in fresh:
            continue
        if not any(path == m or _inside(path, m) for m in [*mounted, *binds]):
            binds.append(path)
    made: set[str] = set()
    for dest in [*binds, str(ws)]:
        chain = []
        parent = os.path.dirname(dest)
        while parent not in ("/", *fresh) and not any(parent == m or _inside(parent, m) for m in mounted):
            chain.append(parent)
            parent = os.path.dirname(parent)
        for d in reversed(chain):
            if d not in made:
                made.add(d)
                args += ["--perms", "0755", "--dir", d]
    for path in binds:
        args += ["--ro-bind-try", path, path]
    args += ["--bind", str(ws), str(ws), "--chdir", str(ws)]
    args += ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts"]
    args += ["--unshare-cgroup-try", "--hostname", "sandbox", "--die-with-parent", "--new-session"]
    if os.geteuid() == 0:
        args += ["--cap-drop", "ALL"]
        if drop_uid:
            # Only the launcher uses these, to become the sandbox user (which clears them all,
            # and its supplementary groups); DAC_OVERRIDE lets it enter the workspace first.
            args += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
            args += ["--cap-add", "CAP_DAC_OVERRIDE"]
    else:
        args += ["--unshare-user"]
    return args


def _ro_paths(limits: Limits) -> list[str]:
    out = []
    for path in limits.ro_paths:
        if not os.path.isabs(path):
            raise SandboxError(
                f"Limits.ro_paths needs absolute paths, got {path!r}.", "Pass absolute paths."
            )
        out.append(os.path.normpath(path))
    return out


@functools.lru_cache(maxsize=8)
def _needed_paths(python: str) -> tuple[str, ...]:
    """Folders the interpreter needs, as real paths (its prefix, libraries, venv, sys.path)."""
    candidates = {os.path.dirname(os.path.abspath(python))}
    real = os.path.realpath(python)
    candidates.add(os.path.dirname(os.path.dirname(real)))
    candidates.add(os.path.dirname(os.path.dirname(os.path.abspath(python))))  # a venv's root
    if os.path.realpath(sys.executable) == real or python == sys.executable:
        candidates |= {sys.prefix, sys.base_prefix, sys.exec_prefix}
        candidates |= {p for p in sys.path if os.path.isabs(p)}
    out = set()
    for path in candidates:
        if path and os.path.exists(path) and os.path.realpath(path) != "/":
            out.add(os.path.realpath(path))
    return tuple(sorted(out))


def _inside(path: str, folder: str) -> bool:
    return path != folder and (path + "/").startswith(folder.rstrip("/") + "/")
