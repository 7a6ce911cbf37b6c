"""``vibecode apply``: apply a patch file or a saved proposal to the working tree (undoable)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from vibecode.cli.common import repo_root
from vibecode.errors import UsageError
from vibecode.termsafe import visible

ORDER = 41


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "apply",
        help="apply a patch file or a saved proposal to your files (undo with `vibecode undo`)",
        description=(
            "Apply PATCH_FILE (a unified diff, SEARCH/REPLACE blocks or a model's answer) or the "
            "saved proposal PROPOSAL_ID to the working tree. Files with changes the patch does not "
            "expect are never overwritten; every apply is journaled so that `vibecode undo` "
            "restores the exact previous bytes."
        ),
    )
    parser.add_argument("target", metavar="PATCH_FILE_OR_PROPOSAL_ID")
    parser.add_argument("--repo", metavar="DIR", help="the working tree (default: the current folder)")
    parser.add_argument("--dry-run", action="store_true", help="check and show the diff, write nothing")
    parser.add_argument("--commit", metavar="MESSAGE", help="also commit the changed files (your hooks run)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vibecode.patch.diff import render_diff
    from vibecode.patch.extract import extract_edits
    from vibecode.patch.text import decode
    from vibecode.repo.proposals import is_proposal_id, load_proposal
    from vibecode.repo.workspace import apply_patch

    root = repo_root(args)
    source = Path(args.target)
    if source.is_file():
        patch = extract_edits(decode(source.read_bytes()), root)
        description = f"vibecode apply {source.name}"
    elif is_proposal_id(args.target):
        patch = load_proposal(root, args.target).patch
        description = f"vibecode apply proposal {args.target}"
    else:
        raise UsageError(f"{args.target} is neither a file nor a proposal id.")
    report = apply_patch(root, patch, dry_run=args.dry_run, commit_message=args.commit, description=description)
    diff = render_diff(patch)
    if args.json:
        print(json.dumps({
            "applied": not report.dry_run,
            "dry_run": report.dry_run,
            "files": list(report.files),
            "created": list(report.created),
            "deleted": list(report.deleted),
            "journal_id": report.journal_id,
            "commit": report.commit,
            "diff": diff.encode("utf-8", "surrogateescape").decode("utf-8", "replace"),
        }, indent=2, ensure_ascii=False))
        return 0
    if report.dry_run:
        sys.stdout.buffer.write(visible(diff).encode("utf-8", errors="surrogateescape"))
        print(f"Dry run: would change {len(report.files)} file(s): {', '.join(report.files)}. Nothing was written.")
        return 0
    print(f"Applied to {len(report.files)} file(s): {', '.join(report.files)} (journal entry {report.journal_id}).")
    if report.commit:
        print(f"Committed as {report.commit[:12]}.")
    print("Undo with `vibecode undo`.")
    return 0
