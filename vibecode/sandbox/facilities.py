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
    return [*local_checks(), *docker_checks(image)]


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
            "Install bubblewrap (scripts/system-deps), or use --backend docker."
            if sys.platform.startswith("linux")
            else "Use --backend docker for full isolation."
        )
    checks.append(Check("local sandbox", not missing, detail, fix))
    return checks


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
