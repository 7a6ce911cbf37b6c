"""Turn a file name as a model wrote it into a safe repository-relative path."""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath

from vibecode.errors import ExtractionError

SKIP_DIRS = frozenset({
    ".git", ".hg", ".svn", ".vibecode", "__pycache__", "node_modules", ".venv", "venv", ".tox",
    ".mypy_cache", ".pytest_cache", ".ruff_cache", "build", "dist", ".eggs", "target",
})
_MAX_LISTED = 20000


def list_files(root: Path, limit: int = _MAX_LISTED) -> list[str]:
    """Repository-relative POSIX paths of the files under root (vendored/build dirs skipped)."""
    out: list[str] = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info"))
        rel = Path(folder).relative_to(root)
        for name in sorted(names):
            out.append((rel / name).as_posix())
            if len(out) >= limit:
                return out
    return out


class PathResolver:
    """Resolves model-written paths against ``root`` (listing its files only when needed)."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._files: list[str] | None = None

    @property
    def files(self) -> list[str]:
        if self._files is None:
            self._files = list_files(self.root)
        return self._files

    def resolve(self, raw: str) -> str:
        path = self.clean(raw)
        if (self.root / path).exists():
            return path
        for prefix in ("a/", "b/"):
            if path.startswith(prefix) and (self.root / path[2:]).exists():
                return path[2:]
        suffix = "/" + path
        matches = [f for f in self.files if f.endswith(suffix)]
        if len(matches) == 1:
            return matches[0]
        return path

    def clean(self, raw: str) -> str:
        text = raw.strip().strip("`'\"*").replace("\\", "/")
        if re.match(r"^[A-Za-z]:/", text) or text.startswith("/"):
            try:
                text = Path(text).resolve().relative_to(self.root).as_posix()
            except ValueError:
                raise ExtractionError(
                    f"The edit names {raw!r}, which is outside the repository {self.root}."
                ) from None
        parts = [p for p in PurePosixPath(text).parts if p not in (".", "")]
        if not parts:
            raise ExtractionError(f"The edit names an empty file path ({raw!r}).")
        if ".." in parts:
            raise ExtractionError(f"The edit names {raw!r}, which climbs out of the repository with '..'.")
        inside = next((p for p in parts if p.lower() == ".git"), parts[0] if parts[0] == ".vibecode" else None)
        if inside is not None:
            raise ExtractionError(f"The edit names {raw!r}, inside {inside}/; vibecode never edits that.")
        return "/".join(parts)
