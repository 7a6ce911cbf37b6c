"""Running one sandboxed process tree: output tails, the wall-clock deadline, kill, exit status.

The local backend starts every command through :mod:`vibecode.sandbox.launcher`, which reports
the command's exact wait status and peak memory on the pipe passed to ``argv_for``; when it
reports nothing (killed on timeout), the status of the outermost process is used.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from vibecode.errors import SandboxError
from vibecode.sandbox import cleanup, diskwatch, memwatch
from vibecode.types import RunResult

_LIMIT_PROTECTION = {
    "RLIMIT_AS": "memory_limit",
    "RLIMIT_CPU": "cpu_limit",
    "RLIMIT_NPROC": "nproc_limit",
}
_DRAIN_S = 1.0  # how long output may still be read after the command ended


@dataclass(frozen=True)
class ProcessOutcome:
    exit_code: int | None
    signal: int | None
    timed_out: bool
    stdout: bytes
    stderr: bytes
    stdout_bytes: int
    stderr_bytes: int
    duration_s: float
    peak_memory_mb: float | None
    failed_limits: tuple[str, ...]
    reported: bool  # the launcher reported the command's status (else it is the wrapper's)
    memory_exceeded: bool = False  # the run's summed memory passed its limit; it was killed
    disk_exceeded: bool = False  # the run's files passed the disk quota; it was killed


class _Tail:
    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.buf = bytearray()
        self.total = 0

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        self.buf += chunk
        if len(self.buf) > 2 * self.cap:
            del self.buf[: len(self.buf) - self.cap]

    def tail(self) -> bytes:
        return bytes(self.buf[-self.cap :]) if self.cap else b""


def run_process(
    argv_for: Callable[[int], list[str]],
    *,
    env: dict[str, str],
    cwd: Path,
    stdin: bytes | None,
    wall_s: float,
    output_bytes: int,
    after_exit: Callable[[], None] | None = None,
    run_memory_mb: int | None = None,
    pass_fds: tuple[int, ...] = (),
    disk_limits: tuple[tuple[Path, int], ...] = (),
) -> ProcessOutcome:
    """Run ``argv_for(info_fd)`` in its own session; kill the session at ``wall_s``.

    ``disk_limits``: (folder, bytes) pairs; the run is killed once a folder holds more.

    ``after_exit`` runs once the main process is gone (normally or killed), to remove processes
    that may have escaped the session when the platform offers nothing better.
    """
    info_r, info_w = os.pipe()
    stdin_file = None
    try:
        argv = argv_for(info_w)
        if stdin is not None:
            stdin_file = tempfile.TemporaryFile()  # noqa: SIM115 - closed below, once started
            stdin_file.write(stdin)
            stdin_file.seek(0)
        start = time.monotonic()
        try:
            proc = subprocess.Popen(
                argv,
                stdin=stdin_file if stdin_file is not None else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                cwd=str(cwd),
                start_new_session=True,
                pass_fds=(info_w, *pass_fds),
            )
        except OSError as exc:
            raise SandboxError(
                f"Cannot start the sandbox ({argv[0]}): {exc.strerror or exc}."
            ) from exc
    finally:
        os.close(info_w)
        if stdin_file is not None:
            stdin_file.close()
    stop_key = cleanup.register(lambda: _kill_group(proc.pid))
    watch = None
    if run_memory_mb is not None and memwatch.available():
        watch = memwatch.MemoryWatch(proc.pid, run_memory_mb)
    disk = None
    if disk_limits:
        disk = diskwatch.DiskWatch(disk_limits, lambda: memwatch.kill_pids(memwatch.tree(proc.pid)))
    try:
        outcome = _supervise(proc, start, wall_s, output_bytes, info_r, after_exit)
        if watch is not None and watch.exceeded:
            outcome = dataclasses.replace(outcome, memory_exceeded=True)
        if disk is not None and disk.stop():
            outcome = dataclasses.replace(outcome, disk_exceeded=True)
            if disk.killed:  # by the watch (SIGKILL), whoever of the run's tree died first
                outcome = dataclasses.replace(outcome, exit_code=None, signal=int(signal.SIGKILL))
        return outcome
    finally:
        cleanup.unregister(stop_key)
        if watch is not None:
            watch.stop()
        if disk is not None:
            disk.stop()
        os.close(info_r)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def _supervise(
    proc: subprocess.Popen[bytes],
    start: float,
    wall_s: float,
    output_bytes: int,
    info_r: int,
    after_exit: Callable[[], None] | None,
) -> ProcessOutcome:
    assert proc.stdout is not None and proc.stderr is not None
    out, err = _Tail(output_bytes), _Tail(output_bytes)
    sel = selectors.DefaultSelector()
    for stream, tail in ((proc.stdout, out), (proc.stderr, err)):
        os.set_blocking(stream.fileno(), False)
        sel.register(stream.fileno(), selectors.EVENT_READ, tail)
    pidfd = _pidfd_open(proc.pid)
    if pidfd is not None:
        sel.register(pidfd, selectors.EVENT_READ, None)
    deadline = start + wall_s
    status: int | None = None
    timed_out = False
    drain_until: float | None = None
    open_streams = 2
    end = start
    try:
        while open_streams or status is None:
            now = time.monotonic()
            if status is None and now >= deadline:
                timed_out = True
                _kill_group(proc.pid)
                status = _reap(proc.pid, block=True)
            elif status is None:
                status = _reap(proc.pid, block=False)
            if status is not None and drain_until is None:
                end = time.monotonic()
                if not timed_out:
                    _kill_group(proc.pid)  # whatever of the run is left in its session
                if after_exit is not None:
                    after_exit()
                drain_until = time.monotonic() + _DRAIN_S
            limit = drain_until if drain_until is not None else deadline
            if status is not None and (not open_streams or time.monotonic() >= limit):
                break
            wait = limit - time.monotonic()
            if status is None and pidfd is None:
                wait = min(wait, 0.01)
            for key, _ in sel.select(max(0.0, wait)):
                if key.data is None:
                    sel.unregister(key.fd)
                    continue
                try:
                    chunk = os.read(key.fd, 1 << 16)
                except BlockingIOError:
                    continue
                if chunk:
                    key.data.add(chunk)
                else:
                    sel.unregister(key.fd)
                    open_streams -= 1
    finally:
        sel.close()
        if pidfd is not None:
            os.close(pidfd)
    proc.returncode = os.waitstatus_to_exitcode(status) if status is not None else -9
    info = _read_info(info_r) or {}
    reported_status = info.get("status")
    reported = isinstance(reported_status, int)
    exit_code, sig = _decode(reported_status if isinstance(reported_status, int) else status)
    if timed_out and not reported:
        exit_code, sig = None, int(signal.SIGKILL)
    maxrss = info.get("maxrss")
    peak = None
    if isinstance(maxrss, int) and maxrss > 0:
        peak = maxrss / (2**20 if sys.platform == "darwin" else 1024)
    failed_list = info.get("failed")
    failed = tuple(str(x) for x in failed_list) if isinstance(failed_list, list) else ()
    return ProcessOutcome(
        exit_code=exit_code,
        signal=sig,
        timed_out=timed_out,
        stdout=out.tail(),
        stderr=err.tail(),
        stdout_bytes=out.total,
        stderr_bytes=err.total,
        duration_s=end - start,
        peak_memory_mb=peak,
        failed_limits=failed,
        reported=reported,
    )


def _decode(status: int | None) -> tuple[int | None, int | None]:
    if status is None:
        return None, int(signal.SIGKILL)
    if os.WIFSIGNALED(status):
        return None, os.WTERMSIG(status)
    if os.WIFSTOPPED(status):  # never a final status; report the run as killed
        return None, int(signal.SIGKILL)
    return os.waitstatus_to_exitcode(status), None


def _reap(pid: int, block: bool) -> int | None:
    """The wait status of ``pid``; blocking waits give up after a few seconds of SIGKILLs."""
    deadline = time.monotonic() + 5.0
    while True:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:  # reaped elsewhere: the status is unknown, never a success
            return 255 << 8
        if done:
            return status
        if not block or time.monotonic() >= deadline:
            return None if not block else 9
        _kill_group(pid)
        time.sleep(0.005)


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _pidfd_open(pid: int) -> int | None:
    opener = getattr(os, "pidfd_open", None)
    if opener is None:
        return None
    try:
        return int(opener(pid))
    except OSError:
        return None


def _read_info(fd: int) -> dict[str, object] | None:
    os.set_blocking(fd, False)
    data = b""
    try:
        while len(data) < 1 << 16:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            data += chunk
    except BlockingIOError:
        pass
    if not data:
        return None
    try:
        info = json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    return info if isinstance(info, dict) else None


def sweep_processes(token: str) -> int:
    """SIGKILL every process whose environment carries ``VIBECODE_SANDBOX_RUN=token`` (Linux).

    The last resort where no PID namespace holds the run: finds daemons that left the session.
    """
    needle = f"VIBECODE_SANDBOX_RUN={token}".encode()
    killed = 0
    if not os.path.isdir("/proc"):
        return 0
    for _ in range(20):
        found = []
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) == os.getpid():
                continue
            try:
                with open(f"/proc/{name}/environ", "rb") as fh:
                    if needle in fh.read().split(b"\0"):
                        found.append(int(name))
            except OSError:
                continue
        if not found:
            break
        for pid in found:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                killed += 1
        time.sleep(0.01)
    return killed


_OOM_MARKERS = (b"MemoryError", b"Cannot allocate memory", b"std::bad_alloc", b"out of memory")


def looks_oom(stderr_tail: bytes) -> bool:
    """Whether a failed run ran out of memory, judged from its stderr (rlimits leave no record)."""
    return any(marker in stderr_tail for marker in _OOM_MARKERS)


def to_result(
    outcome: ProcessOutcome,
    backend: str,
    protections: dict[str, bool],
    oom_killed: bool = False,
    notes: tuple[str, ...] = (),
) -> RunResult:
    """The public :class:`RunResult` of one run; ``oom_killed`` when the backend knows."""
    prot = dict(protections)
    for name in outcome.failed_limits:
        prot[_LIMIT_PROTECTION.get(name, "rlimits")] = False
    failed = outcome.exit_code != 0 or outcome.signal is not None
    cpu_exceeded = outcome.signal == int(signal.SIGXCPU)  # the CPU-time rlimit
    return RunResult(
        exit_code=outcome.exit_code,
        signal=outcome.signal,
        timed_out=outcome.timed_out or cpu_exceeded,
        oom=oom_killed or (failed and not outcome.timed_out and looks_oom(outcome.stderr)),
        stdout=outcome.stdout.decode("utf-8", errors="replace"),
        stderr=outcome.stderr.decode("utf-8", errors="replace"),
        stdout_bytes=outcome.stdout_bytes,
        stderr_bytes=outcome.stderr_bytes,
        duration_s=round(outcome.duration_s, 4),
        peak_memory_mb=None if outcome.peak_memory_mb is None else round(outcome.peak_memory_mb, 1),
        backend=backend,
        protections=prot,
        notes=notes,
    )


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` exists (one we may not signal counts as alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
