"""Saved proposals: what ``vibecode fix`` offers and ``vibecode apply ID`` applies.

A proposal lives in ``<state dir>/proposals/<id>/`` (``.git/vibecode/proposals/<id>/`` in a git
working tree, ``.vibecode/proposals/<id>/`` outside), with two files:

``patch.diff``
    The git-style diff (``render_diff``), written with ``surrogateescape`` so that it holds the
    exact bytes; ``git apply patch.diff`` applies it too.

``proposal.json``
    ``{"format": 1, "id", "created" (ISO 8601 UTC), "title", "reliability" (0..1 or null),
    "base" ({"kind": "worktree"|"index"|"commit", "commit": sha or null}), "evidence" (free-form
    JSON object from the verifier), "diff" (same text as patch.diff, lossy only for non-UTF-8
    bytes), "files": [{"path", "old", "new", "encoding"}]}``: ``old``/``new`` are the whole file
    contents before and after (null = absent: created / deleted); ``encoding`` is ``"utf-8"``
    (the strings are the text) or ``"base64"`` (the strings are base64 of the exact bytes, used
    when a content is not valid UTF-8).

``vibecode apply ID`` rebuilds the Patch from ``files`` and applies it with the usual checks
(a file that is no longer ``old`` is a conflict).
"""

from __future__ import annotations

import base64
import json
import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from vibecode.errors import ApplyError
from vibecode.patch.diff import render_diff
from vibecode.patch.text import decode, encode
from vibecode.repo.workspace import state_dir
from vibecode.types import FileChange, Patch

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


@dataclass(frozen=True)
class Proposal:
    id: str
    patch: Patch
    title: str = ""
    reliability: float | None = None
    base: dict[str, Any] = field(default_factory=dict)
    evidence: dict[str, Any] = field(default_factory=dict)
    created: str = ""
    folder: Path = Path()


def proposals_dir(root: Path) -> Path:
    return state_dir(root)[0] / "proposals"


def is_proposal_id(text: str) -> bool:
    return bool(_ID.match(text))


def new_id() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)


def save_proposal(
    root: Path,
    patch: Patch,
    *,
    title: str = "",
    reliability: float | None = None,
    base: dict[str, Any] | None = None,
    evidence: dict[str, Any] | None = None,
    proposal_id: str | None = None,
) -> Proposal:
    pid = proposal_id or new_id()
    if not is_proposal_id(pid):
        raise ApplyError(f"{pid!r} is not a valid proposal id (letters, digits, '.', '_', '-').")
    folder = proposals_dir(root) / pid
    folder.mkdir(parents=True, exist_ok=False)
    diff = render_diff(patch)
    (folder / "patch.diff").write_bytes(encode(diff))
    created = datetime.now(timezone.utc).isoformat(timespec="seconds")
    data = {
        "format": 1,
        "id": pid,
        "created": created,
        "title": title,
        "reliability": reliability,
        "base": base or {"kind": "worktree", "commit": None},
        "evidence": evidence or {},
        "diff": encode(diff).decode("utf-8", errors="replace"),
        "files": [_file_json(c) for c in patch.changes],
    }
    (folder / "proposal.json").write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    return Proposal(pid, patch, title, reliability, base or {"kind": "worktree", "commit": None}, evidence or {}, created, folder)


def load_proposal(root: Path, proposal_id: str) -> Proposal:
    if not is_proposal_id(proposal_id):
        raise ApplyError(f"{proposal_id!r} is not a proposal id.")
    folder = proposals_dir(root) / proposal_id
    meta = folder / "proposal.json"
    if not meta.is_file():
        known = list_proposals(root)
        hint = f"Known proposals: {', '.join(known[-5:])}." if known else "There are no saved proposals."
        raise ApplyError(f"There is no proposal {proposal_id!r} in {folder.parent}.", hint)
    try:
        data = json.loads(meta.read_text(encoding="utf-8"))
        changes = tuple(_file_change(f) for f in data["files"])
    except (ValueError, KeyError, TypeError) as exc:
        raise ApplyError(f"The proposal {proposal_id!r} is damaged ({meta}: {exc}).") from None
    return Proposal(
        data.get("id", proposal_id), Patch(changes), data.get("title", ""), data.get("reliability"),
        data.get("base") or {}, data.get("evidence") or {}, data.get("created", ""), folder,
    )


def list_proposals(root: Path) -> list[str]:
    folder = proposals_dir(root)
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if (p / "proposal.json").is_file())


def _encode_content(text: str | None) -> tuple[str | None, bool]:
    if text is None:
        return None, False
    data = encode(text)
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError:
        return base64.b64encode(data).decode("ascii"), True


def _file_json(change: FileChange) -> dict[str, Any]:
    old, old_b64 = _encode_content(change.old)
    new, new_b64 = _encode_content(change.new)
    if old_b64 != new_b64 and (old is not None and new is not None):
        # one encoding per file: re-encode both as base64
        old = base64.b64encode(encode(change.old or "")).decode("ascii")
        new = base64.b64encode(encode(change.new or "")).decode("ascii")
        old_b64 = new_b64 = True
    return {"path": change.path, "old": old, "new": new, "encoding": "base64" if (old_b64 or new_b64) else "utf-8"}


def _file_change(data: dict[str, Any]) -> FileChange:
    b64 = data.get("encoding", "utf-8") == "base64"

    def content(value: str | None) -> str | None:
        if value is None:
            return None
        return decode(base64.b64decode(value)) if b64 else value

    return FileChange(str(data["path"]), content(data["old"]), content(data["new"]))
