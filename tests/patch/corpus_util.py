"""Shared helpers for the patch tests: the messy-output corpus in tests/data/corpus."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data"
CORPUS = DATA / "corpus"
REPOS = DATA / "repos"


@dataclass(frozen=True)
class Case:
    name: str
    folder: Path
    kind: str  # "code" | "edit"
    text: str  # the whole completion, think block included
    meta: dict[str, object]

    @property
    def entry(self) -> str | None:
        value = self.meta.get("entry")
        return str(value) if value else None

    @property
    def error(self) -> str | None:
        value = self.meta.get("error_contains")
        return str(value) if value else None


def load_cases() -> list[Case]:
    cases = []
    for folder in sorted(CORPUS.iterdir()):
        meta = json.loads((folder / "case.json").read_text(encoding="utf-8"))
        text = (folder / "completion.txt").read_bytes().decode("utf-8")
        cases.append(Case(folder.name, folder, meta["kind"], text, meta))
    return cases


def copy_repo(name: str, dest: Path) -> Path:
    target = dest / name
    shutil.copytree(REPOS / name, target)
    return target


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
