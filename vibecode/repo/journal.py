"""The apply journal: exact previous bytes and modes of every file an apply touched.

Layout (under ``.git/vibecode/journal/`` in a git working tree, ``.vibecode/journal/`` outside)::

    journal/
      000001/
        entry.json     # see JournalEntry.to_json: status, files (before/after), created dirs, commit
        before/0       # the exact previous bytes of files[0] (absent when it did not exist)
        before/1
      000002/ ...

An entry is written (and fsync'ed) with status ``pending`` *before* any file is touched, and
marked ``applied`` afterwards, so an interrupted apply can still be undone. Undo marks entries
``undone``; nothing is ever deleted from the journal by vibecode.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

Status = Literal["pending", "applied", "undone"]


@dataclass(frozen=True)
class FileState:
    exists: bool
    mode: int | None = None  # st_mode & 0o7777
    sha256: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"exists": self.exists, "mode": self.mode, "sha256": self.sha256}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FileState:
        return cls(bool(data["exists"]), data.get("mode"), data.get("sha256"))

    @classmethod
    def of(cls, path: Path) -> FileState:
        if not os.path.lexists(path):
            return cls(False)
        data = path.read_bytes()
        return cls(True, path.stat().st_mode & 0o7777, sha256(data))


@dataclass(frozen=True)
class JournalFile:
    path: str
    before: FileState
    after: FileState


@dataclass(frozen=True)
class JournalEntry:
    id: str
    created: str
    description: str
    status: Status
    files: tuple[JournalFile, ...]
    created_dirs: tuple[str, ...] = ()
    commit: str | None = None
    undone_at: str | None = None
    folder: Path = field(default=Path(), compare=False)

    def before_bytes(self, index: int) -> bytes | None:
        blob = self.folder / "before" / str(index)
        return blob.read_bytes() if self.files[index].before.exists else None

    def to_json(self) -> dict[str, Any]:
        return {
            "format": 1,
            "id": self.id,
            "created": self.created,
            "description": self.description,
            "status": self.status,
            "commit": self.commit,
            "undone_at": self.undone_at,
            "created_dirs": list(self.created_dirs),
            "files": [
                {"path": f.path, "before": f.before.to_json(), "after": f.after.to_json()} for f in self.files
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], folder: Path) -> JournalEntry:
        files = tuple(
            JournalFile(f["path"], FileState.from_json(f["before"]), FileState.from_json(f["after"]))
            for f in data["files"]
        )
        return cls(
            data["id"], data["created"], data.get("description", ""), data["status"], files,
            tuple(data.get("created_dirs", ())), data.get("commit"), data.get("undone_at"), folder,
        )


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Journal:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def entries(self) -> list[JournalEntry]:
        if not self.folder.is_dir():
            return []
        out: list[JournalEntry] = []
        for child in sorted(self.folder.iterdir()):
            meta = child / "entry.json"
            if child.is_dir() and meta.is_file():
                out.append(JournalEntry.from_json(json.loads(meta.read_text(encoding="utf-8")), child))
        return out

    def active(self) -> list[JournalEntry]:
        """Entries not undone, oldest first."""
        return [e for e in self.entries() if e.status != "undone"]

    def begin(
        self, description: str, files: list[tuple[str, FileState, bytes | None, FileState]], created_dirs: list[str]
    ) -> JournalEntry:
        """Record the before-state (with exact bytes) of every file, as a pending entry."""
        self.folder.mkdir(parents=True, exist_ok=True)
        number = max((int(p.name) for p in self.folder.iterdir() if p.name.isdigit()), default=0) + 1
        folder = self.folder / f"{number:06d}"
        (folder / "before").mkdir(parents=True)
        records: list[JournalFile] = []
        for index, (path, before, data, after) in enumerate(files):
            if data is not None:
                _write_synced(folder / "before" / str(index), data)
            records.append(JournalFile(path, before, after))
        entry = JournalEntry(folder.name, now(), description, "pending", tuple(records), tuple(created_dirs), folder=folder)
        self.save(entry)
        return entry

    def save(self, entry: JournalEntry) -> None:
        text = json.dumps(entry.to_json(), indent=2, ensure_ascii=False)
        tmp = entry.folder / "entry.json.tmp"
        _write_synced(tmp, text.encode("utf-8"))
        os.replace(tmp, entry.folder / "entry.json")

    def mark(self, entry: JournalEntry, **changes: Any) -> JournalEntry:
        updated = replace(entry, **changes)
        self.save(updated)
        return updated


def _write_synced(path: Path, data: bytes) -> None:
    with open(path, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
