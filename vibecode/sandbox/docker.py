"""DockerSandbox: each run in a fresh, hardened container. The only module that imports ``docker``.

Every container gets: no network (``--network none``), a read-only root file system, a private
tmpfs /tmp, the workspace bind-mounted at its own path (so paths in tracebacks match the local
backend), memory (without swap), pids and CPU limits, rlimits, a non-root user with all
capabilities dropped and no-new-privileges, a tiny init (``--init``) so signals and orphans
behave, no log driver (output is streamed and capped here), and removal after the run. On
timeout the container is killed, which ends every process in it.

The image (``Settings.docker_image``) needs ``python3`` with pytest; ``vibecode sandbox image
build`` builds one where a registry is reachable, ``scripts/docker-up`` builds one offline.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import shutil
import signal
import socket
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from vibecode.errors import SandboxError
from vibecode.sandbox import cleanup, diskwatch, memwatch
from vibecode.sandbox.base import PROTECTIONS, Limits, RunJob, check_run, run_parallel, sandbox_env
from vibecode.sandbox.copytree import can_mount
from vibecode.sandbox.process import ProcessOutcome, pid_alive, to_result
from vibecode.sandbox.quota import check_disk_mb, disk_notes
from vibecode.sandbox.workspace import (
    WORKSPACE_QUOTA_MB,
    Workspace,
    allocate_sandbox_user,
    prepare_workspace,
)
from vibecode.types import Patch, RunResult

DEFAULT_IMAGE = "vibecode-sandbox:latest"
DOCKER_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
_STDIN_PATH = "/.vibecode-stdin"
_UP_HINT = (
    "Start Docker, or run scripts/docker-up (installs and starts a local daemon and builds the "
    "image offline)."
)
def connect(timeout: float = 10.0) -> Any:
    """A ``docker.DockerClient`` that answered a ping; SandboxError otherwise."""
    try:
        import docker
    except ImportError as exc:  # pragma: no cover - a dependency of vibecode
        raise SandboxError(
            "The docker Python package is not installed.", "pip install docker"
        ) from exc
    try:
        client = docker.from_env(timeout=int(timeout))
        client.ping()
    except Exception as exc:
        raise SandboxError(f"The Docker daemon is not reachable: {_unreachable(exc)}.", _UP_HINT) from exc
    return client


def docker_status(image: str, timeout: float = 5.0) -> tuple[bool, str, bool, str]:
    """(daemon ok, detail, image ok, detail) for ``vibecode doctor``; never raises."""
    try:
        client = connect(timeout)
    except SandboxError as exc:
        return False, exc.message, False, "no daemon to ask"
    try:
        version = client.version().get("Version", "?")
        driver = client.info().get("Driver", "?")
        daemon = f"Docker {version} ({driver} storage)"
    except Exception as exc:
        daemon = f"answers, but: {_short(exc)}"
    try:
        img = client.images.get(image)
        size = int(img.attrs.get("Size", 0)) >> 20
        return True, daemon, True, f"{image} ({size} MB)"
    except Exception as exc:
        return True, daemon, False, f"{image} not present ({_short(exc)})"
    finally:
        client.close()


def docker_security(timeout: float = 5.0) -> list[str]:
    """The daemon's SecurityOptions (``name=seccomp,profile=default``, ...); [] when unknown."""
    try:
        client = connect(timeout)
    except SandboxError:
        return []
    try:
        return [str(opt) for opt in client.info().get("SecurityOptions") or []]
    except Exception:
        return []
    finally:
        client.close()


class DockerSandbox:
    """Runs each command in a new hardened container of ``image``."""

    def __init__(
        self,
        image: str = DEFAULT_IMAGE,
        *,
        workdir: str | Path | None = None,
        python: str = "python3",
        client: Any = None,
        disk_mb: int = WORKSPACE_QUOTA_MB,
    ) -> None:
        self.image = image
        self.disk_mb = check_disk_mb(disk_mb)
        self._python = python
        self._parent = Path(workdir).expanduser() if workdir else None
        self._client = client if client is not None else connect()
        self._init = True
        cleanup.install()
        reap_stale(self._client)
        try:
            self._client.images.get(image)
        except Exception as exc:
            if type(exc).__name__ != "ImageNotFound":
                raise SandboxError(
                    f"Docker failed to look up {image}: {_short(exc)}.", _UP_HINT
                ) from exc
            raise SandboxError(
                f"The Docker image {image} is not present.",
                "Build it with `vibecode sandbox image build` (needs a registry) or "
                "scripts/docker-up (offline), or set docker_image to an image with python3 and pytest.",
            ) from exc

    @property
    def name(self) -> str:
        return "docker"

    @property
    def python(self) -> str:
        return self._python

    def protections(self) -> dict[str, bool]:
        prot = dict.fromkeys(PROTECTIONS, True)
        # A capped tmpfs as root; else the disk watch, which stops the container.
        prot["workspace_quota"] = (self._parent is None and can_mount()) or memwatch.available()
        return prot

    def prepare(self, source: Path, patch: Patch | None = None) -> Workspace:
        # As root, the container runs as a fresh uid that owns the copy and cannot write the
        # user's files, so hard links are safe; otherwise it runs as us and everything is copied.
        owner = allocate_sandbox_user() if os.geteuid() == 0 else None
        return prepare_workspace(
            source, patch, owner=owner, hardlinks=owner is not None, parent=self._parent,
            quota_mb=self.disk_mb,
        )

    def run(
        self,
        workspace: Workspace,
        cmd: Sequence[str],
        limits: Limits | None = None,
        *,
        stdin: bytes | None = None,
        env: Mapping[str, str] | None = None,
    ) -> RunResult:
        limits = limits or Limits()
        limits = dataclasses.replace(limits, file_size_mb=min(limits.file_size_mb, self.disk_mb))
        cmd = check_run(workspace, cmd)
        if os.geteuid() == 0:
            uid, gid = workspace.ensure_owner()
            workspace.adopt()
        else:
            uid, gid = os.getuid(), os.getgid()
        ws = str(workspace.path)
        run_env = sandbox_env(home=ws, tmpdir="/tmp", path=DOCKER_PATH, extra=env)
        volumes = {ws: {"bind": ws, "mode": "rw"}}
        for path in limits.ro_paths:  # Limits.ro_paths: read-only, at the same path
            if not os.path.isabs(path):
                raise SandboxError(f"Limits.ro_paths needs absolute paths, got {path!r}.")
            if os.path.exists(path) and path not in volumes:
                volumes[path] = {"bind": path, "mode": "ro"}
        command = list(cmd)
        stdin_dir = None
        try:
            if stdin is not None:
                stdin_dir = Path(tempfile.mkdtemp(prefix="vibecode-stdin-", dir=self._parent))
                (stdin_dir / "stdin").write_bytes(stdin)
                os.chmod(stdin_dir, 0o755)
                volumes[str(stdin_dir / "stdin")] = {"bind": _STDIN_PATH, "mode": "ro"}
                command = ["/bin/sh", "-c", f'exec "$@" < {_STDIN_PATH}', "sh", *command]
            container = self._create(command, f"{uid}:{gid}", ws, run_env, volumes, limits)
            watch = self._disk_watch(workspace, container)
            stop_key = cleanup.register(lambda: container.remove(force=True, v=True))
            try:
                outcome, oom = self._supervise(container, limits)
            finally:
                cleanup.unregister(stop_key)
                exceeded = watch is not None and watch.stop()
                with contextlib.suppress(Exception):
                    container.remove(force=True, v=True)
        finally:
            if stdin_dir is not None:
                shutil.rmtree(stdin_dir, ignore_errors=True)
        prot = self.protections()
        prot["workspace_quota"] = workspace.quota_mb is not None or watch is not None
        notes = disk_notes(exceeded, workspace, self.disk_mb)
        return to_result(outcome, "docker", prot, oom_killed=oom, notes=notes)

    def _disk_watch(self, workspace: Workspace, container: Any) -> diskwatch.DiskWatch | None:
        """Where the workspace is no capped tmpfs: stop the container once it passes the quota."""
        if workspace.quota_mb is not None or not memwatch.available():
            return None
        if workspace.disk_base is None:
            workspace.disk_base = diskwatch.usage(workspace.path)
        folders = diskwatch.workspace_limits(
            workspace.path, self.disk_mb, workspace.disk_base, None, 0
        )

        def kill() -> None:
            with contextlib.suppress(Exception):
                container.kill()

        return diskwatch.DiskWatch(folders, kill)

    def run_many(self, jobs: Sequence[RunJob], parallel: int | None = None) -> list[RunResult]:
        return run_parallel(self, jobs, parallel)

    def _create(
        self,
        command: list[str],
        user: str,
        ws: str,
        env: dict[str, str],
        volumes: dict[str, dict[str, str]],
        limits: Limits,
    ) -> Any:
        from docker.types import Ulimit

        mb = 1 << 20
        cpu = limits.cpu_seconds
        # The wall limit is also enforced inside the container, so that it ends even when
        # vibecode is killed (SIGKILL) and nothing on the host supervises it any more.
        wall = str(math.ceil(limits.wall_s + _WALL_MARGIN_S))
        options: dict[str, Any] = dict(
            command=["timeout", "-s", "KILL", wall, *command],
            user=user,
            working_dir=ws,
            environment=env,
            hostname="sandbox",
            network_mode="none",
            read_only=True,
            tmpfs={"/tmp": f"rw,nosuid,nodev,size={limits.tmp_mb}m"},
            shm_size=limits.tmp_mb * mb,
            volumes=volumes,
            mem_limit=limits.memory_mb * mb,
            memswap_limit=limits.memory_mb * mb,
            pids_limit=limits.nprocs + 1,  # + the init process
            nano_cpus=int(limits.cpus * 1e9),
            cap_drop=["ALL"],
            security_opt=["no-new-privileges"],
            ulimits=[
                Ulimit(name="cpu", soft=cpu, hard=cpu + 1),
                Ulimit(name="nofile", soft=limits.nofile, hard=limits.nofile),
                Ulimit(name="fsize", soft=limits.file_size_mb * mb, hard=limits.file_size_mb * mb),
                Ulimit(name="core", soft=0, hard=0),
            ],
            log_config={"type": "none", "config": {}},
            # Labelled with the owner and the deadline, so that the next start removes what a
            # killed vibecode left behind (reap_stale); `docker stop` kills at once.
            labels={
                "vibecode.sandbox": "1",
                "vibecode.owner": f"{socket.gethostname()}:{os.getpid()}",
                "vibecode.deadline": str(int(time.time() + limits.wall_s + _WALL_MARGIN_S)),
            },
            stop_signal="SIGKILL",
            detach=True,
        )
        try:
            return self._client.containers.create(self.image, init=self._init, **options)
        except Exception as exc:
            if self._init and "init" in str(exc).lower():
                self._init = False  # a daemon without docker-init: run without it
                return self._client.containers.create(self.image, init=False, **options)
            raise SandboxError(
                f"Docker could not create the container: {_short(exc)}.", _UP_HINT
            ) from exc

    def _supervise(self, container: Any, limits: Limits) -> tuple[ProcessOutcome, bool]:
        tails: dict[str, bytearray] = {"stdout": bytearray(), "stderr": bytearray()}
        totals = {"stdout": 0, "stderr": 0}
        cap = limits.output_bytes
        try:
            stream = container.attach(stdout=True, stderr=True, stream=True, logs=False, demux=True)
        except Exception as exc:
            raise SandboxError(f"Docker could not attach to the container: {_short(exc)}.") from exc

        def pump() -> None:
            with contextlib.suppress(Exception):
                for out, err in stream:
                    for name, chunk in (("stdout", out), ("stderr", err)):
                        if chunk:
                            totals[name] += len(chunk)
                            buf = tails[name]
                            buf += chunk
                            if len(buf) > 2 * cap:
                                del buf[: len(buf) - cap]

        reader = threading.Thread(target=pump, name="docker-output", daemon=True)
        reader.start()
        start = time.monotonic()
        timed_out = False
        try:
            container.start()
        except Exception as exc:
            raise SandboxError(f"Docker could not start the container: {_short(exc)}.") from exc
        try:
            status = container.wait(timeout=max(0.1, limits.wall_s - (time.monotonic() - start)))
        except Exception:
            timed_out = True
            with contextlib.suppress(Exception):
                container.kill()
            try:
                status = container.wait(timeout=10)
            except Exception as exc:
                raise SandboxError(
                    f"Docker could not stop a container that timed out: {_short(exc)}."
                ) from exc
        end = time.monotonic()
        reader.join(timeout=2.0)
        with contextlib.suppress(Exception):
            stream.close()
        state: dict[str, Any] = {}
        with contextlib.suppress(Exception):
            container.reload()
            state = container.attrs.get("State", {})
        code = int(status.get("StatusCode", state.get("ExitCode", -1)))
        exit_code: int | None = code
        sig: int | None = None
        if timed_out:
            exit_code, sig = None, int(signal.SIGKILL)
        elif 128 < code <= 128 + 64:  # the init reports a signal as 128 + its number
            exit_code, sig = None, code - 128
        outcome = ProcessOutcome(
            exit_code=exit_code,
            signal=sig,
            timed_out=timed_out,
            stdout=bytes(tails["stdout"][-cap:]),
            stderr=bytes(tails["stderr"][-cap:]),
            stdout_bytes=totals["stdout"],
            stderr_bytes=totals["stderr"],
            duration_s=end - start,
            peak_memory_mb=None,
            failed_limits=(),
            reported=True,
        )
        return outcome, bool(state.get("OOMKilled", False))


def _unreachable(exc: BaseException) -> str:
    """Why the daemon did not answer, as words, not the client library's exception tuple."""
    text, where = str(exc), os.environ.get("DOCKER_HOST") or "unix:///var/run/docker.sock"
    for needle, words in (("FileNotFoundError", f"there is no Docker socket at {where}"),
                          ("Connection refused", f"nothing accepts connections at {where}"),
                          ("Permission denied", f"you may not use the Docker socket at {where}"),
                          ("PermissionError", f"you may not use the Docker socket at {where}"),
                          ("timed out", f"the daemon at {where} did not answer in time")):
        if needle in text:
            return words
    return _short(exc)


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:300]


_WALL_MARGIN_S = 5.0


def reap_stale(client: Any) -> list[str]:
    """Remove vibecode's containers whose owner process is gone or whose deadline passed.

    A vibecode killed by SIGKILL (or a lost terminal) cannot remove its containers; the next
    start of any vibecode on this host does. Returns the ids removed.
    """
    removed: list[str] = []
    try:
        found = client.containers.list(all=True, filters={"label": "vibecode.sandbox=1"})
    except Exception:
        return removed
    host = socket.gethostname()
    for container in found:
        labels = container.labels or {}
        owner_host, _, owner_pid = str(labels.get("vibecode.owner", "")).rpartition(":")
        try:
            deadline = float(labels.get("vibecode.deadline", "0"))
        except ValueError:
            deadline = 0.0
        alive = owner_host == host and owner_pid.isdigit() and pid_alive(int(owner_pid))
        if alive and time.time() < deadline:
            continue
        with contextlib.suppress(Exception):
            container.remove(force=True)
            removed.append(container.id)
    return removed

