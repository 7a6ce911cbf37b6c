"""``vibecode doctor``: what this machine can do, and a one-line fix for each problem.

Each layer reports on itself with a ``diagnose() -> list[Check]`` function; this module only
gathers them into sections and grades each failed check (:func:`level`): a *failure* when
vibecode needs it, a *warning* when only an optional feature is off (GPU offload, a model not
downloaded while another is, the sandbox backend the settings do not use). The command exits
:data:`FAILED_EXIT` when any check fails, 0 when all pass or only warn. Nothing here prints.
"""

from __future__ import annotations

import platform
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Literal

from vibecode.checks import Check

FAILED_EXIT = 9  # `vibecode doctor`'s exit status when a check failed (not a warning)
Level = Literal["ok", "warn", "fail"]
DOCKER_PREFIX = "docker "  # the sandbox section's lines about the Docker backend


def python_checks() -> list[Check]:
    version = platform.python_version()
    ok = sys.version_info >= (3, 10)
    return [
        Check(
            "python",
            ok,
            f"Python {version} ({sys.executable})",
            None if ok else "Install Python 3.10 or newer.",
        )
    ]


def git_checks() -> list[Check]:
    exe = shutil.which("git")
    if exe is None:
        return [
            Check(
                "git",
                False,
                "git not found on PATH",
                "Install git (apt install git, brew install git).",
            )
        ]
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, check=False)
    return [Check("git", out.returncode == 0, out.stdout.strip() or out.stderr.strip())]


def config_checks() -> list[Check]:
    """The config file and the VIBECODE_* environment load cleanly (else the command fails)."""
    from vibecode.config import default_config_path, load_settings
    from vibecode.errors import ConfigError

    path = default_config_path()
    try:
        load_settings(path)
    except ConfigError as exc:
        return [Check("config", False, exc.message, exc.hint or "Fix the setting it names.")]
    where = f"{path}" if path.is_file() else f"{path} (not there: the defaults apply)"
    return [Check("config", True, where)]


def _sections() -> dict[str, Callable[[], list[Check]]]:
    from vibecode.engine.llama_lib import diagnose as llama_checks
    from vibecode.models import diagnose as model_checks
    from vibecode.sandbox.facilities import diagnose as sandbox_checks
    from vibecode.syntax.treesitter import diagnose as tree_sitter_checks

    sections: dict[str, Callable[[], list[Check]]] = {
        "python": python_checks,
        "config": config_checks,
        "llama_cpp": llama_checks,
        "models": model_checks,
        "tree_sitter": tree_sitter_checks,
        "git": git_checks,
        "sandbox": sandbox_checks,
    }
    return sections


def run_doctor() -> dict[str, list[Check]]:
    report: dict[str, list[Check]] = {}
    for name, diagnose in _sections().items():
        try:
            report[name] = diagnose()
        except Exception as exc:  # a broken layer is itself a finding, not a crash
            why = f"{type(exc).__name__}: {exc}".rstrip(": ")
            report[name] = [Check(name, False, f"the check could not run ({why})", "Report this as a bug.")]
    return report


def level(section: str, check: Check, siblings: Sequence[Check], sandbox: str = "local") -> Level:
    """How a check counts: "ok"; "warn" when it failed but only an optional feature is off;
    "fail" when vibecode needs it (``sandbox``: the backend the settings use)."""
    if check.ok:
        return "ok"
    if section == "llama_cpp" and check.name == "gpu_offload":
        return "warn"  # the CPU build runs every model
    if section == "models":  # one model that is there is enough; the others are optional
        usable = any(c.ok for c in siblings if c.name != "hf_cache")
        return "warn" if usable and check.name != "hf_cache" else "fail"
    if section == "sandbox":
        docker_line = check.name.startswith(DOCKER_PREFIX)
        return "fail" if docker_line == (sandbox == "docker") else "warn"
    return "fail"


def levels(report: Mapping[str, Sequence[Check]], sandbox: str | None = None) -> dict[str, list[Level]]:
    """Each section's checks graded by :func:`level` (the sandbox backend from the settings)."""
    backend = sandbox or _configured_sandbox()
    return {section: [level(section, c, checks, backend) for c in checks] for section, checks in report.items()}


def exit_status(graded: Mapping[str, Sequence[Level]]) -> int:
    """:data:`FAILED_EXIT` when any check failed, else 0 (warnings included)."""
    return FAILED_EXIT if any("fail" in marks for marks in graded.values()) else 0


def _configured_sandbox() -> str:
    from vibecode.config import load_settings
    from vibecode.errors import ConfigError

    try:
        return load_settings().sandbox
    except ConfigError:  # the config section reports it; grade with the defaults
        return "local"
