"""``vibecode patch extract``: get the code or the edits out of a model's answer."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from vibecode.errors import PatchError, UsageError

ORDER = 40


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("patch", help="extract code or edits from a model's answer")
    actions = parser.add_subparsers(dest="patch_command", metavar="ACTION", required=True)
    extract = actions.add_parser(
        "extract",
        help="print the code (solve tasks) or the edits as a diff (repo tasks) found in FILE",
        description=(
            "Read a completion (plain text, or JSONL with a 'text' or 'answer' field per line), "
            "drop its reasoning, and print the final code (--kind code) or the edits it makes to "
            "the repository as a git-style diff (--kind edit). Nothing is written."
        ),
    )
    extract.add_argument("file", metavar="FILE", help="the completion text, a .jsonl file, or - for stdin")
    extract.add_argument("--kind", choices=("code", "edit"), help="code (default) or edit (default with --repo)")
    extract.add_argument("--entry", metavar="NAME", help="entry point the code must define (f, Solution.twoSum)")
    extract.add_argument("--repo", metavar="DIR", help="repository the edits apply to (default: the current folder)")
    extract.add_argument("--line", type=int, default=1, metavar="N", help="which JSONL line to read (1-based; default 1)")
    extract.add_argument("--json", action="store_true", help="print the result as JSON")
    extract.set_defaults(func=run)


def read_answer(file: str, line: int = 1) -> str:
    """The text of a completion file: plain text, or one line of JSONL."""
    if file == "-":
        raw = sys.stdin.buffer.read()
    else:
        path = Path(file)
        if not path.is_file():
            raise UsageError(f"{file} is not a file.")
        raw = path.read_bytes()
    text = raw.decode("utf-8", errors="surrogateescape")
    if file.endswith(".jsonl") or text.lstrip().startswith("{"):
        return _jsonl_answer(text, line, file)
    return text


def _jsonl_answer(text: str, line: int, file: str) -> str:
    rows = [row for row in text.splitlines() if row.strip()]
    if not 1 <= line <= len(rows):
        raise UsageError(f"{file} has {len(rows)} JSONL line(s); --line {line} is out of range.")
    try:
        record = json.loads(rows[line - 1])
    except ValueError as exc:
        raise UsageError(f"Line {line} of {file} is not valid JSON ({exc}).") from None
    if not isinstance(record, dict):
        raise UsageError(f"Line {line} of {file} is not a JSON object.")
    for key in ("answer", "text", "content"):
        if isinstance(record.get(key), str):
            return str(record[key])
    raise UsageError(f"Line {line} of {file} has no 'answer', 'text' or 'content' field.")


def _safe(text: str) -> str:
    return text.encode("utf-8", errors="surrogateescape").decode("utf-8", errors="replace")


def _emit(obj: dict[str, Any]) -> None:
    print(json.dumps(obj, indent=2, ensure_ascii=False))


def run(args: argparse.Namespace) -> int:
    from vibecode.patch.diff import render_diff
    from vibecode.patch.extract import extract_code, extract_edits_detailed

    answer = read_answer(args.file, args.line)
    kind = args.kind or ("edit" if args.repo else "code")
    try:
        if kind == "code":
            code = extract_code(answer, args.entry)
            if args.json:
                _emit({"kind": "code", "code": code})
            else:
                sys.stdout.write(code)
            return 0
        root = Path(args.repo or ".")
        if not root.is_dir():
            raise UsageError(f"--repo {root} is not a folder.")
        result = extract_edits_detailed(answer, root)
        diff = render_diff(result.patch)
        if args.json:
            files = {c.path: (None if c.new is None else _safe(c.new)) for c in result.patch.changes}
            _emit({"kind": "edit", "files": files, "diff": _safe(diff), "format": result.format})
        else:
            sys.stdout.buffer.write(diff.encode("utf-8", errors="surrogateescape"))
        return 0
    except PatchError as exc:
        if not args.json:
            raise
        _emit({"error": exc.message, "hint": exc.hint, "type": type(exc).__name__})
        return 1
