"""``vibecode sandbox``: run a command in a fresh sandbox copy of a folder; build the Docker image.

    vibecode sandbox run [--backend local|docker] [--timeout S] [--memory MB] [--workdir DIR]
                         [--json] -- CMD ...
    vibecode sandbox image build [--tag IMAGE] [--base IMAGE] [--workdir DIR]

``run`` exits 0 when the command ran, whatever its own exit code (which ``--json`` reports), and
non-zero only when the sandbox itself failed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vibecode.errors import UsageError
from vibecode.termsafe import visible

ORDER = 60
_STDIN_CAP = 64 << 20
_JSON_KEYS = (
    "exit_code",
    "signal",
    "timed_out",
    "oom",
    "duration_s",
    "stdout",
    "stderr",
    "backend",
    "protections",
    "notes",
)
ISOLATION_CHOICES = ("auto", "bwrap", "unshare", "plain")
ISOLATION_HELP = (
    "local isolation: auto (bubblewrap; refuses without it), or the weaker unshare (host "
    "writable) / plain (host writable, network on), only when chosen explicitly"
)


def add_isolation_arg(parser: argparse.ArgumentParser) -> None:
    """``--isolation``, shared by solve, fix and sandbox run."""
    parser.add_argument("--isolation", choices=ISOLATION_CHOICES, help=ISOLATION_HELP)


def warn_isolation(sandbox: object) -> None:
    """Name a weaker isolation the user chose, before anything runs in it (stderr)."""
    for note in getattr(sandbox, "notes", ()):
        print(f"warning: sandbox {note}.", file=sys.stderr)


def isolation_json(sandbox: object) -> dict[str, object]:
    """``{"isolation": {...}}`` for a result's JSON when the isolation is weaker than the default
    (chosen explicitly); ``{}`` otherwise, so results in the default isolation do not change."""
    notes = list(getattr(sandbox, "notes", ()))
    if not notes:
        return {}
    return {"isolation": {"backend": getattr(sandbox, "name", "?"),
                          "kind": getattr(sandbox, "isolation", "?"),
                          "weaker_than_default": True, "notes": notes}}


def print_isolation(sandbox: object) -> None:
    """The human output's last line about a weaker isolation (stdout, with the result)."""
    for note in getattr(sandbox, "notes", ()):
        print(f"sandbox: {note}; this result was not checked in the default isolation.")


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "sandbox",
        help="run a command in a sandbox; build the Docker sandbox image",
        description="Run untrusted code the way vibecode verifies candidates.",
    )
    parser.set_defaults(func=lambda args: _usage(parser))
    actions = parser.add_subparsers(dest="sandbox_command", metavar="ACTION")

    run = actions.add_parser(
        "run",
        help="run CMD in a fresh sandbox copy of a folder",
        description=(
            "Run CMD in a fresh sandbox copy of DIR (default: the current folder); the folder "
            "itself never changes. Exits 0 when CMD ran, whatever its exit code."
        ),
    )
    run.add_argument("--backend", choices=("local", "docker"), help="default: the sandbox setting")
    run.add_argument(
        "--timeout", type=float, default=60.0, metavar="S", help="wall-clock limit (default 60)"
    )
    run.add_argument(
        "--memory", type=int, default=2048, metavar="MB", help="memory limit (default 2048)"
    )
    run.add_argument(
        "--workdir", metavar="DIR", help="folder to copy (default: the current folder)"
    )
    add_isolation_arg(run)
    run.add_argument("--json", action="store_true", help="print one JSON object with the result")
    run.add_argument("cmd", nargs=argparse.REMAINDER, metavar="-- CMD ...", help="the command")
    run.set_defaults(func=run_command)

    image = actions.add_parser("image", help="the Docker sandbox image")
    image.set_defaults(func=lambda args: _usage(image))
    image_actions = image.add_subparsers(dest="image_command", metavar="ACTION")
    build = image_actions.add_parser(
        "build",
        help="build the default image (needs a registry; offline: scripts/docker-up)",
        description=(
            "Build a Docker image with Python, pytest and the project's test requirements "
            "(requirements-test.txt, requirements-dev.txt, ... in --workdir). Needs a registry "
            "for the base image; offline, scripts/docker-up builds one from Debian packages."
        ),
    )
    build.add_argument("--tag", help="image name (default: the docker_image setting)")
    build.add_argument(
        "--base", default="python:3.11-slim", help="base image (default python:3.11-slim)"
    )
    build.add_argument("--workdir", metavar="DIR", help="project whose test requirements to add")
    build.set_defaults(func=build_command)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def run_command(args: argparse.Namespace) -> int:
    from vibecode.cli.common import print_json
    from vibecode.config import load_settings
    from vibecode.sandbox import Limits, make_sandbox

    cmd = list(args.cmd)
    if cmd and cmd[0] == "--":
        cmd = cmd[1:]
    if not cmd:
        raise UsageError("No command to run.", "Example: vibecode sandbox run -- python -m pytest")
    if not args.timeout > 0 or not args.memory > 0:
        raise UsageError("--timeout and --memory must be positive.")
    folder = Path(args.workdir).expanduser() if args.workdir else Path.cwd()
    if not folder.is_dir():
        raise UsageError(f"--workdir {folder} is not a folder.")
    settings = load_settings().with_overrides(isolation=args.isolation)
    sandbox = make_sandbox(args.backend or settings.sandbox, settings)
    if not args.json:
        warn_isolation(sandbox)
    stdin = None if sys.stdin is None or sys.stdin.isatty() else sys.stdin.buffer.read(_STDIN_CAP)
    with sandbox.prepare(folder) as workspace:
        result = sandbox.run(
            workspace, cmd, Limits(wall_s=args.timeout, memory_mb=args.memory), stdin=stdin
        )
    if args.json:
        print_json({key: getattr(result, key) for key in _JSON_KEYS})
        return 0
    # Shown with every control sequence made visible (OSC 52, titles, cursor moves, ...);
    # --json gives the exact text.
    sys.stdout.write(visible(result.stdout))
    sys.stdout.flush()
    sys.stderr.write(visible(result.stderr))
    print(_summary(result), file=sys.stderr)
    return 0


def _summary(result: object) -> str:
    from vibecode.types import RunResult

    assert isinstance(result, RunResult)
    if result.timed_out:
        what = "timed out"
    elif result.signal is not None:
        what = f"killed by signal {result.signal}"
    else:
        what = f"exit code {result.exit_code}"
    parts = [f"sandbox: {what} after {result.duration_s:.2f} s ({result.backend})"]
    if result.oom:
        parts.append("out of memory")
    for name, total, kept in (
        ("stdout", result.stdout_bytes, result.stdout),
        ("stderr", result.stderr_bytes, result.stderr),
    ):
        if total > len(kept.encode("utf-8", errors="replace")):
            parts.append(f"{name} {total} bytes, last {len(kept)} characters shown")
    missing = [name for name, active in result.protections.items() if not active]
    if missing:
        parts.append("not protected: " + ", ".join(missing))
    parts.extend(result.notes)
    return "; ".join(parts)


def build_command(args: argparse.Namespace) -> int:
    from vibecode.config import load_settings
    from vibecode.sandbox.docker_image import build_image

    tag = args.tag or load_settings().docker_image
    project = Path(args.workdir).expanduser() if args.workdir else Path.cwd()
    print(f"building {tag} from {args.base} ...", file=sys.stderr)
    image_id, found = build_image(tag, base=args.base, project=project)
    extra = f" with {', '.join(found)}" if found else ""
    print(f"built {tag} ({image_id[:19]}){extra}", file=sys.stderr)
    return 0
