"""``vibecode apply``: apply a patch file or a saved proposal to the working tree (undoable)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from vibecode.cli.common import repo_root
from vibecode.errors import ApplyError, UsageError
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
    parser.add_argument(
        "--fuzzy",
        action="store_true",
        help="let a patch whose context differs from your file apply to the closest lines; the diff "
        "is shown for review first (default: refuse unless the context matches exactly)",
    )
    parser.add_argument("--commit", metavar="MESSAGE", help="also commit the changed files (your hooks run)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vibecode.patch.diff import render_diff
    from vibecode.patch.extract import extract_edits_detailed
    from vibecode.repo.proposals import is_proposal_id, load_proposal
    from vibecode.repo.workspace import apply_patch, state_dir

    root = repo_root(args)
    repo = state_dir(root)[1]
    if repo is not None:  # patch paths are relative to the repository's top, as with git apply
        root = repo.root
    source = Path(args.target)
    loose: list[str] = []
    if source.is_file():
        text = read_patch_file(source)
        try:
            extracted = extract_edits_detailed(text, root, strict=not args.fuzzy)
        except ApplyError as exc:
            raise type(exc)(exc.message, exc.hint or _refusal_hint(args.fuzzy)) from None
        patch = extracted.patch
        loose = [o.edit.origin or o.edit.path for o in extracted.outcomes if o.level not in _EXACT]
        description = f"vibecode apply {source.name}"
    elif "/" in args.target or source.suffix:
        raise UsageError(
            f"The patch file {args.target} does not exist.",
            "Give the path of a patch file, or an id that `vibecode fix` printed.",
        )
    elif is_proposal_id(args.target):
        patch = load_proposal(root, args.target).patch
        description = f"vibecode apply proposal {args.target}"
    else:
        raise UsageError(
            f"{args.target} is neither a file nor a proposal id.",
            "Give the path of a patch file, or an id that `vibecode fix` printed.",
        )
    diff = render_diff(patch)
    if args.fuzzy and not args.dry_run and not args.json:
        _review(diff, loose)
    report = apply_patch(root, patch, dry_run=args.dry_run, commit_message=args.commit, description=description)
    if args.json:
        print(json.dumps({
            "applied": not report.dry_run,
            "dry_run": report.dry_run,
            "files": list(report.files),
            "created": list(report.created),
            "deleted": list(report.deleted),
            "loose_matches": loose,
            "journal_id": report.journal_id,
            "commit": report.commit,
            "diff": diff.encode("utf-8", "surrogateescape").decode("utf-8", "replace"),
        }, indent=2, ensure_ascii=False))
        return 0
    if report.dry_run:
        sys.stdout.buffer.write(visible(diff).encode("utf-8", errors="surrogateescape"))
        sys.stdout.flush()
        print(f"Dry run: would change {len(report.files)} file(s): {', '.join(report.files)}. Nothing was written.")
        return 0
    print(f"Applied to {len(report.files)} file(s): {', '.join(report.files)} (journal entry {report.journal_id}).")
    if report.commit:
        print(f"Committed as {report.commit[:12]}.")
    print("Undo with `vibecode undo`.")
    return 0


# Outcome levels that do not depend on similarity: verbatim matches and edits without context.
_EXACT = frozenset({"exact", "new", "delete", "whole", "definitions", "append", "superseded"})


def read_patch_file(source: Path) -> str:
    from vibecode.patch.text import decode

    try:
        data = source.read_bytes()
    except OSError as exc:
        raise UsageError(f"Cannot read {source}: {exc.strerror}.", "Check the path and its permissions.") from None
    if not data.strip():
        raise UsageError(
            f"The patch file {source} is empty.",
            "Save the diff or the model's answer into it first (for example `git diff > fix.patch`).",
        )
    return decode(data)


def _refusal_hint(fuzzy: bool) -> str:
    if fuzzy:
        return "Nothing was written. Regenerate the patch from the current file."
    return (
        "Nothing was written. Regenerate the patch from the current file, or rerun with --fuzzy to "
        "apply it to the closest lines after reviewing the diff (undo with `vibecode undo`)."
    )


def _review(diff: str, loose: list[str]) -> None:
    """Show a fuzzy apply's diff; at a terminal, ask before writing."""
    sys.stdout.buffer.write(visible(diff).encode("utf-8", errors="surrogateescape"))
    sys.stdout.flush()
    if loose:
        print("Matched loosely (review these lines): " + "; ".join(loose) + ".")
    if sys.stdin.isatty():
        answer = input("Apply this diff? [y/N] ").strip().lower()
        if answer not in ("y", "yes"):
            raise Declined("Not applied: you declined the fuzzy apply.", "Nothing was written.")


class Declined(UsageError):
    """The user said no at the review prompt."""

    exit_code = 10
