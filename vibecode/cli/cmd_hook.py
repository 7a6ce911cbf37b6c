"""``vibecode hook install|uninstall|status``: manage the git pre-commit hook."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from vibecode.errors import UsageError

ORDER = 8


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "hook",
        help="install or remove the git pre-commit hook that runs `vibecode precommit`",
        description=(
            "Manage .git/hooks/pre-commit (or core.hooksPath). An existing hook is kept and run "
            "first (chained), and `uninstall` puts it back exactly. Arguments after `--` go to "
            "`vibecode precommit` (e.g. `-- --budget 60 --n 4`)."
        ),
    )
    parser.add_argument("action", choices=["install", "uninstall", "status"])
    parser.add_argument("--mode", choices=["soft", "hard"], default="hard", help="hard (default): failing tests block the commit; soft: warn only")
    parser.add_argument("--repo", metavar="DIR", help="the repository (default: the current folder)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("extra", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vibecode.tasks.hook import HOOK, hook_mode, hooks_dir, install, is_ours, uninstall

    root = Path(args.repo or ".").resolve()
    if not root.is_dir():
        raise UsageError(f"--repo {root} is not a folder.")
    extra = list(args.extra or [])
    if extra and extra[0] == "--":
        extra = extra[1:]
    if args.action == "status":
        path = hooks_dir(root) / HOOK
        state = {"path": str(path), "installed": is_ours(path), "mode": hook_mode(path),
                 "other_hook": path.exists() and not is_ours(path)}
        if args.json:
            print(json.dumps(state, indent=2))
        elif state["installed"]:
            print(f"vibecode's pre-commit hook is installed at {path} (mode {state['mode']}).")
        else:
            print(f"vibecode's pre-commit hook is not installed ({path}).")
        return 0
    if args.action == "install":
        report = install(root, args.mode, extra=extra)
    else:
        if extra:
            raise UsageError("`vibecode hook uninstall` takes no precommit arguments.")
        report = uninstall(root)
    if args.json:
        print(json.dumps({"action": report.action, "path": str(report.path),
                          "chained": str(report.chained) if report.chained else None, "mode": report.mode}, indent=2))
        return 0
    if report.action in ("installed", "updated"):
        print(f"vibecode pre-commit hook {report.action} at {report.path} (mode {report.mode}).")
        if report.chained:
            print(f"The hook that was there runs first: {report.chained}.")
    else:
        print(f"vibecode pre-commit hook removed from {report.path}.")
        if report.chained:
            print("The hook it chained is back in place.")
    return 0
