"""``vibecode undo``: restore the files of the last (or every) ``vibecode apply`` exactly."""

from __future__ import annotations

import argparse
import json

from vibecode.cli.common import repo_root

ORDER = 42


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "undo",
        help="restore the files of the last vibecode apply (--all: of every apply)",
        description=(
            "Restore the exact previous bytes and modes of every file the last `vibecode apply` "
            "touched (files it created are removed, files it deleted come back). Refuses when a "
            "file changed after the apply, unless --force."
        ),
    )
    parser.add_argument("--all", action="store_true", help="undo every apply, newest first")
    parser.add_argument("--force", action="store_true", help="restore even files that changed since the apply")
    parser.add_argument("--repo", metavar="DIR", help="the working tree (default: the current folder)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vibecode.repo.workspace import undo

    root = repo_root(args)
    report = undo(root, all_entries=args.all, force=args.force)
    if args.json:
        print(json.dumps({"undone": list(report.entries), "files": list(report.files), "notes": list(report.notes)}, indent=2))
        return 0
    print(f"Undid {len(report.entries)} apply(s) ({', '.join(report.entries)}); restored {', '.join(report.files)}.")
    for note in report.notes:
        print(note)
    return 0
