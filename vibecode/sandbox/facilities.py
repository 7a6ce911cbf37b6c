"""``vibecode doctor``'s sandbox section: which isolation works here, what is missing, the fix."""

from __future__ import annotations

import shutil
import sys

from vibecode.checks import Check
from vibecode.errors import SandboxError


def diagnose() -> list[Check]:
    from vibecode.config import load_settings

    try:
        image = load_settings().docker_image
    except Exception:  # a broken config file is reported by its own section
        from vibecode.config import Settings

        image = Settings().docker_image
    docker = docker_checks(image)
    if all(c.ok for c in docker):
        from vibecode.sandbox.docker import docker_security

        docker += docker_protection_checks(docker_security(), disk_detail(*_disk_settings()))
    return [*local_checks(), *docker]


def _disk_settings() -> tuple[int, int, str | None]:
    from vibecode.config import Settings, load_settings
    from vibecode.sandbox.base import Limits

    try:
        settings = load_settings()
    except Exception:  # a broken config file is reported by its own section
        settings = Settings()
    return settings.sandbox_disk_mb, Limits().tmp_mb, settings.sandbox_dir


def local_checks() -> list[Check]:
    from vibecode.sandbox.local import LocalSandbox, Mode, mode_protections, probe

    checks: list[Check] = []
    if sys.platform.startswith("linux"):
        bwrap = shutil.which("bwrap")
        if bwrap is None:
            checks.append(
                Check(
                    "bubblewrap",
                    False,
                    "bwrap not found",
                    "Run scripts/system-deps (apt-get install bubblewrap).",
                )
            )
        else:
            problem = probe(Mode("bwrap", False), sys.executable)
            checks.append(
                Check(
                    "bubblewrap",
                    problem is None,
                    bwrap if problem is None else f"{bwrap} fails: {problem}",
                    None
                    if problem is None
                    else "Allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1), or run as root.",
                )
            )
        if shutil.which("unshare") is None:
            checks.append(Check("namespaces", False, "unshare not found", "Install util-linux."))
        else:
            problem = probe(Mode("unshare", False), sys.executable)
            checks.append(
                Check(
                    "namespaces",
                    problem is None,
                    "network and PID namespaces work"
                    if problem is None
                    else f"unshare fails: {problem}",
                    None
                    if problem is None
                    else "Allow user namespaces (sysctl user.max_user_namespaces > 0).",
                )
            )
    try:
        sandbox = LocalSandbox()
    except SandboxError as exc:
        return [*checks, Check("local sandbox", False, exc.message, exc.hint)]
    prot = mode_protections(sandbox.mode)
    missing = [name for name, active in prot.items() if not active]
    detail = f"isolation {sandbox.isolation}" + (
        " as an unprivileged uid" if sandbox.mode.drop_uid else ""
    )
    detail += "; missing: " + ", ".join(missing) if missing else "; every protection active"
    fix = None
    if missing:
        fix = (
            "Install bubblewrap (scripts/system-deps), or use --sandbox docker."
            if sys.platform.startswith("linux")
            else "Use --backend docker for full isolation."
        )
    checks.append(Check("local sandbox", not missing, detail, fix))
    return checks + protection_checks(prot, disk_detail(*_disk_settings()))


# doctor's line per protection: (check name, protection, what it means, the fix when missing)
_PROTECTION_LINES = (
    ("host view", "host_view", "an allow-list of the host: no home, /root, /run or other projects",
     "Install bubblewrap (scripts/system-deps), or use --sandbox docker."),
    ("sockets", "host_view", "no host unix socket (Docker's, $XDG_RUNTIME_DIR, /run) is visible",
     "Install bubblewrap (scripts/system-deps), or use --sandbox docker."),
    ("memory per run", "memory_per_run",
     "the run's processes together are bounded (resident memory summed from /proc)",
     "Needs /proc; use --sandbox docker (a cgroup per container)."),
    ("disk", "workspace_quota", "workspace and /tmp are size-capped",
     "Needs /proc for the disk watch (or root, for a tmpfs workspace); or use --sandbox docker."),
    ("seccomp", "seccomp", "namespaces, ptrace, keyctl, bpf, perf_event_open, mount refused",
     "Needs bubblewrap on x86-64 Linux; or use --sandbox docker (its default seccomp profile)."),
    ("cleanup", "kill_all",
     "every process of a run ends with it (PID namespace; --die-with-parent; SIGTERM/SIGHUP "
     "of vibecode stop its runs)",
     "Install bubblewrap (scripts/system-deps), or use --sandbox docker."),
)


def disk_detail(disk_mb: int, tmp_mb: int, sandbox_dir: str | None) -> str:
    """How the disk quota is enforced here: a capped tmpfs (root), else the disk watch."""
    from vibecode.sandbox.copytree import can_mount

    if can_mount() and sandbox_dir is None:
        how = f"the workspace is a tmpfs capped at the project + {disk_mb} MB"
    else:
        how = f"the disk watch stops a run whose workspace grows by more than {disk_mb} MB"
    return f"{how}; /tmp is a {tmp_mb} MB tmpfs (setting sandbox_disk_mb)"


def protection_checks(prot: dict[str, bool], disk: str | None = None) -> list[Check]:
    """One line per protection of the local sandbox: active, or missing with the fix."""
    checks = []
    for name, key, what, fix in _PROTECTION_LINES:
        if name == "disk" and disk is not None:
            what = disk
        active = prot.get(key, False)
        checks.append(Check(name, active, ("active: " if active else "missing: ") + what,
                            None if active else fix))
    return checks


def docker_protection_checks(security: list[str], disk: str) -> list[Check]:
    """The same protections for the Docker backend (``security``: the daemon's SecurityOptions)."""
    seccomp_on = any("seccomp" in opt and "unconfined" not in opt for opt in security)
    rows = [
        ("docker host view", True, "the container sees its image (read-only) and the workspace"),
        ("docker sockets", True, "no host socket is mounted; --network none"),
        ("docker memory per run", True, "the container's cgroup bounds all its processes"),
        ("docker disk", True, disk),
        ("docker seccomp", seccomp_on, "Docker's default seccomp profile, all capabilities dropped"),
        ("docker cleanup", True, "containers are labelled, removed on exit, on SIGTERM/SIGHUP and "
                                 "by the next start; a wall limit inside each"),
    ]
    return [
        Check(name, ok, ("active: " if ok else "missing: ") + what,
              None if ok else "Run dockerd with its default seccomp profile (not unconfined).")
        for name, ok, what in rows
    ]


def docker_checks(image: str) -> list[Check]:
    from vibecode.sandbox.docker import docker_status

    daemon_ok, daemon, image_ok, image_detail = docker_status(image)
    return [
        Check(
            "docker daemon",
            daemon_ok,
            daemon,
            None if daemon_ok else "Run scripts/docker-up (or start Docker).",
        ),
        Check(
            "docker image",
            image_ok,
            image_detail,
            None
            if image_ok
            else "Run `vibecode sandbox image build` (registry) or scripts/docker-up (offline).",
        ),
    ]
