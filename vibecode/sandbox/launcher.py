"""The launcher every local run starts through: ``python -I -S -c LAUNCHER SPEC CMD...``.

It sets the rlimits, drops to the sandbox user when asked, forks the command and waits for it,
then reports the command's exact wait status and peak memory on an inherited pipe, so that no
wrapper in front of it (bubblewrap, unshare, sandbox-exec) can blur a signal into an exit code.
It imports only the standard library and runs on any Python 3.9+.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

# Runs as ``python -I -S -c LAUNCHER SPEC CMD...``; SPEC is JSON: rlimits [[name, soft, hard]],
# nice, fd (where to report), uid/gid (drop to them), subreaper (kill orphans at the end).
LAUNCHER = r"""
import json, os, resource, signal, sys
spec = json.loads(sys.argv[1])
cmd = sys.argv[2:]
fd = spec.get("fd")
if fd is not None:
    os.set_inheritable(fd, False)
failed = []
try:
    os.nice(spec.get("nice", 0))
except OSError:
    pass
for name, soft, hard in spec.get("rlimits", []):
    try:
        resource.setrlimit(getattr(resource, name), (soft, hard))
    except (AttributeError, ValueError, OSError):
        failed.append(name)
if spec.get("uid") is not None:
    os.setgroups([])
    os.setresgid(spec["gid"], spec["gid"], spec["gid"])
    os.setresuid(spec["uid"], spec["uid"], spec["uid"])
reaper = False
if spec.get("subreaper") and sys.platform.startswith("linux"):
    try:
        import ctypes
        reaper = ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0
    except Exception:
        reaper = False
pid = os.fork()
if pid == 0:
    try:
        os.execvp(cmd[0], cmd)
    except OSError as exc:
        os.write(2, ("sandbox: cannot run %r: %s\n" % (cmd[0], exc.strerror)).encode())
    os._exit(127)
for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(sig, signal.SIG_IGN)
while True:
    try:
        _, status, usage = os.wait4(pid, 0)
        if os.WIFSTOPPED(status):  # the command made us its tracer (PTRACE_TRACEME): end it
            os.kill(pid, signal.SIGKILL)
            continue
        break
    except InterruptedError:
        continue
def orphans():
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open("/proc/%s/stat" % name, "rb") as fh:
                    if int(fh.read().rsplit(b")", 1)[1].split()[1]) == os.getpid():
                        found.append(int(name))
            except (OSError, ValueError, IndexError):
                pass
    return found
if reaper:
    for _ in range(50):
        left = orphans()
        if not left:
            break
        for p in left:
            try:
                os.kill(p, signal.SIGKILL)
            except OSError:
                pass
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            pass
if fd is not None:
    info = {"status": status, "maxrss": usage.ru_maxrss, "failed": failed}
    try:
        os.write(fd, json.dumps(info).encode())
    except OSError:
        pass
code = os.waitstatus_to_exitcode(status)
os._exit(code if code >= 0 else 128 - code)
"""


def launcher_argv(python: str, spec: dict[str, object], cmd: Sequence[str]) -> list[str]:
    return [python, "-I", "-S", "-c", LAUNCHER, json.dumps(spec), *cmd]
