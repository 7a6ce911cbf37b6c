"""``vibecode hook install|uninstall|status``: manage the git pre-commit hook."""

from __future__ import annotations

import argparse
import json
from typing import Any

from vibecode.cli.common import repo_root

ORDER = 8


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "hook",
        help="install or remove the git pre-commit hook that runs `vibecode precommit`",
        description=(
            "Manage .git/hooks/pre-commit (or core.hooksPath). An existing hook is kept and run "
            "first (chained), and `uninstall` puts it back exactly."
        ),
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    install = actions.add_parser(
        "install", help="install (or update) the hook",
        description="Install the hook. Arguments after `--` go to `vibecode precommit` "
                    "(e.g. `vibecode hook install --mode soft -- --budget 60 --n 4`).",
    )
    install.add_argument("--mode", choices=["soft", "hard"], default="hard",
                         help="hard (default): failing tests block the commit; soft: warn only")
    install.add_argument("extra", nargs="*", metavar="PRECOMMIT_ARG", help="arguments for `vibecode precommit` (after --)")
    uninstall = actions.add_parser("uninstall", help="remove the hook and put back the one it chained")
    status = actions.add_parser("status", help="say whether the hook is installed, and its mode")
    for p in (install, uninstall, status):
        p.add_argument("--repo", metavar="DIR", help="the repository (default: the current folder)")
        p.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vibecode.precommit.hook import HOOK, hook_mode, hooks_dir, install, is_ours, uninstall

    root = repo_root(args)
    extra = list(getattr(args, "extra", None) or [])
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
    report = install(root, args.mode, extra=extra) if args.action == "install" else uninstall(root)
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
