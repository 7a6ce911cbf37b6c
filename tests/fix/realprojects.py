"""Real open-source projects, each at the commit before a real bug fix (tests/data/projects/).

``tests/data/projects/<name>/`` holds ``tree/`` (the trimmed project at the buggy commit, with the
fix commit's regression test), ``fixture.json`` (source, commits, licence, how its environment is
installed, the tests that fail), ``pool.jsonl`` (a replay pool: each line a candidate answer with
a ``label``: real_fix, variant, regression, test_edit, irrelevant, whitespace) and ``README.md``.
``build`` turns one into a real git repository (one commit: the buggy tree) with a real ``.venv``
made by ``python -m venv`` and ``pip install`` of what the fixture lists (``-e .`` for the
editable installs), exactly as a user sets it up.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from tests.fix.venvs import base_python
from tests.repo.gitutil import GIT_ENV, git

PROJECTS = Path(__file__).resolve().parents[1] / "data" / "projects"
NAMES = ("cachetools", "filelock", "slugify", "humanize")
LABELS = ("real_fix", "variant", "regression", "test_edit", "irrelevant", "whitespace")


@dataclass(frozen=True)
class RealProject:
    name: str
    meta: dict[str, object]
    labels: tuple[str, ...]  # the label of each pool line, in order

    @property
    def folder(self) -> Path:
        return PROJECTS / self.name

    @property
    def pool(self) -> Path:
        return self.folder / "pool.jsonl"

    @property
    def failing(self) -> list[str]:
        return list(self.meta["failing"])  # type: ignore[call-overload]

    @property
    def install(self) -> list[str]:
        return list(self.meta["install"])  # type: ignore[call-overload]

    def index(self, label: str) -> int:
        return self.labels.index(label)

    def indices(self, *labels: str) -> set[int]:
        return {i for i, x in enumerate(self.labels) if x in labels}


def load(name: str) -> RealProject:
    folder = PROJECTS / name
    meta = json.loads((folder / "fixture.json").read_text(encoding="utf-8"))
    lines = [json.loads(x) for x in (folder / "pool.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    return RealProject(name, meta, tuple(x["label"] for x in lines))


def pip_env() -> dict[str, str]:
    return {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PYTHONPATH": "", "VIRTUAL_ENV": ""}


def build(name: str, root: Path, venv: bool = True) -> Path:
    """The project as a git repository at ``root`` (its one commit is the buggy tree), with its
    own ``.venv`` (pip install of the fixture's ``install`` list) unless ``venv`` is False."""
    shutil.copytree(PROJECTS / name / "tree", root)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", f"{name} at the commit before the fix")
    if venv:
        make_project_venv(root, load(name).install)
    return root


def make_project_venv(root: Path, install: list[str], base: str | None = None, prefix: list[str] | None = None,
                      env: dict[str, str] | None = None) -> Path:
    """``BASE -m venv .venv`` and ``.venv/bin/python -m pip install INSTALL`` in ``root`` (run
    through ``prefix``, e.g. setpriv, as another user)."""
    full = {**pip_env(), **(env or {}), "PYTHONPATH": "", "VIRTUAL_ENV": ""}
    run = list(prefix or [])
    done = subprocess.run([*run, base or base_python(), "-m", "venv", str(root / ".venv")], capture_output=True,
                          text=True, timeout=300, env=full, cwd=root)
    assert done.returncode == 0, f"python -m venv failed: {done.stderr}"
    python = root / ".venv" / "bin" / "python"
    done = subprocess.run([*run, str(python), "-m", "pip", "install", "-q", "--no-compile", *install], cwd=root,
                          capture_output=True,
                          text=True, timeout=600, env=full)
    assert done.returncode == 0, f"pip install {' '.join(install)} failed: {done.stderr[-3000:]}"
    return python


def build_all(names: list[tuple[str, Path]]) -> dict[Path, Path]:
    """``build`` each (name, root) at once: pip spends most of its time waiting on the registry."""
    with ThreadPoolExecutor(max_workers=len(names) or 1) as pool:
        futures = {root: pool.submit(build, name, root) for name, root in names}
        return {root: future.result() for root, future in futures.items()}


def copy_project(template: Path, root: Path) -> Path:
    """A copy of a built project, its venv included (only for a project without an editable
    install, whose venv holds no path of the original)."""
    shutil.copytree(template, root, symlinks=True)
    return root


def tree_and_index(root: Path) -> dict[str, bytes]:
    """Every file of the working tree (not .git, not the venv) and the git index, byte for byte."""
    out: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel.split("/")[0] in (".git", ".venv") or not path.is_file() or path.is_symlink():
            continue
        out[rel] = path.read_bytes()
    status = _git(root, "status", "--porcelain", "--untracked-files=all")  # (may refresh the index's stat cache)
    return {**out, "HEAD": _git(root, "rev-parse", "HEAD"), "status": status,
            ".git/index": (root / ".git" / "index").read_bytes()}


def _git(root: Path, *args: str) -> bytes:
    """git in a repository that may belong to another user (safe.directory, for this call only)."""
    env = {**GIT_ENV, "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "safe.directory", "GIT_CONFIG_VALUE_0": "*"}
    done = subprocess.run(["git", *args], cwd=root, env=env, capture_output=True, check=True)
    return done.stdout




def real_fix(name: str) -> tuple[str, str, str]:
    """The path, SEARCH and REPLACE text of the project's real fix (its pool's ``real_fix``)."""
    line = next(json.loads(x) for x in (PROJECTS / name / "pool.jsonl").read_text(encoding="utf-8").splitlines()
                if x.strip() and json.loads(x)["label"] == "real_fix")
    answer = line["text"].split("</think>", 1)[1].strip()
    path = answer.split("\n", 1)[0].strip()
    search = answer.split("<<<<<<< SEARCH\n", 1)[1].split("\n=======\n", 1)[0]
    replace = answer.split("\n=======\n", 1)[1].split("\n>>>>>>> REPLACE", 1)[0]
    return path, search, replace


def apply_real_fix(name: str, root: Path) -> tuple[str, str, str]:
    """Write the real fix into the working tree at ``root``; returns (path, buggy, fixed) text."""
    path, search, replace = real_fix(name)
    buggy = (root / path).read_text(encoding="utf-8")
    assert buggy.count(search) == 1, f"the real fix of {name} does not apply"
    fixed = buggy.replace(search, replace)
    (root / path).write_text(fixed, encoding="utf-8")
    return path, buggy, fixed
