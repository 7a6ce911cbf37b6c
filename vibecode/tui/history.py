"""Recent runs: a small JSON list in the platform data dir, newest first.

The file is ``$VIBECODE_DATA_DIR/history.json`` when that variable is set (tests use it), else
``<user data dir>/vibecode/history.json``. A missing or unreadable file is an empty history: the
list is a convenience, never a reason to fail.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass, fields
from datetime import datetime, timezone
from pathlib import Path

from vibecode.types import FixResult, SolveResult

DATA_DIR_ENV = "VIBECODE_DATA_DIR"
KEEP = 50  # entries kept in the file
TEXT_LIMIT = 20_000  # characters of a pasted problem kept for a rerun


@dataclass(frozen=True)
class HistoryEntry:
    when: str  # ISO 8601, UTC
    kind: str  # "code" | "math" | "fix"
    title: str
    status: str  # verified | plausible | failed | cancelled | error (| passing, for a fix)
    reliability: float
    n: int
    engine: str = ""
    source: str | None = None  # the problem file, when it came from one (a fix: its folder)
    text: str = ""  # the problem text (capped), to run it again

    @property
    def label_time(self) -> str:
        try:
            stamp = datetime.fromisoformat(self.when)
        except ValueError:
            return self.when[:16]
        return stamp.astimezone().strftime("%b %d %H:%M")


def data_dir() -> Path:
    explicit = os.environ.get(DATA_DIR_ENV)
    if explicit:
        return Path(explicit).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("vibecode"))


def history_path() -> Path:
    return data_dir() / "history.json"


def load_history(path: Path | None = None) -> list[HistoryEntry]:
    path = path or history_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(data, list):
        return []
    names = {f.name for f in fields(HistoryEntry)}
    entries = []
    for item in data:
        if not isinstance(item, dict):
            continue
        try:
            entries.append(HistoryEntry(**{k: v for k, v in item.items() if k in names}))
        except TypeError:
            continue
    return entries


def add_entry(entry: HistoryEntry, path: Path | None = None) -> None:
    """Put ``entry`` first and keep the newest :data:`KEEP`; written atomically. Failures to
    write are ignored (the history is optional)."""
    path = path or history_path()
    entries = [entry, *load_history(path)][:KEEP]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".history-", dir=path.parent)
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump([asdict(e) for e in entries], fh, ensure_ascii=False, indent=1)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def entry_for(result: SolveResult | None, *, kind: str, title: str, text: str, n: int, engine: str,
              source: Path | None, status: str | None = None, now: datetime | None = None) -> HistoryEntry:
    stamp = (now or datetime.now(timezone.utc)).isoformat(timespec="seconds")
    return HistoryEntry(
        when=stamp,
        kind=kind,
        title=title or "untitled",
        status=status or (result.status if result is not None else "error"),
        reliability=round(result.decision.reliability, 4) if result is not None else 0.0,
        n=n,
        engine=engine,
        source=str(source) if source is not None else None,
        text=text[:TEXT_LIMIT],
    )


def fix_entry(result: FixResult | None, root: Path, n: int, engine: str, status: str | None = None,
              now: datetime | None = None) -> HistoryEntry:
    """A fix run of the tests in ``root`` (run again from the recent list in the same folder)."""
    stamp = (now or datetime.now(timezone.utc)).isoformat(timespec="seconds")
    return HistoryEntry(
        when=stamp,
        kind="fix",
        title=f"Fix tests in {root.name or root}",
        status=status or (result.status if result is not None else "error"),
        reliability=round(result.reliability, 4) if result is not None else 0.0,
        n=n,
        engine=engine,
        source=str(root),
    )
