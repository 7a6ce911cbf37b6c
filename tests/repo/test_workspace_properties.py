"""Property tests: apply then undo restores the exact bytes and modes, in git and outside it."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.repo.gitutil import GIT_ENV, make_repo, snapshot
from vibecode.patch.text import decode
from vibecode.repo.workspace import apply_patch, undo
from vibecode.types import FileChange, Patch

_BYTES = st.one_of(
    st.binary(max_size=60),
    st.lists(st.sampled_from([b"x = 1\n", b"y\r\n", b"\xff\xfe\n", b"\tz", b""]), max_size=6).map(b"".join),
)
_NAMES = ["a.py", "b.txt", "sub/c.dat", "sub/deep/d.py"]


@st.composite
def scenario(draw: st.DrawFn) -> tuple[dict[str, tuple[bytes, int]], list[Patch]]:
    existing = draw(st.lists(st.sampled_from(_NAMES), unique=True, max_size=4))
    files = {name: (draw(_BYTES), draw(st.sampled_from([0o644, 0o755, 0o600]))) for name in existing}
    state = {name: data for name, (data, _) in files.items()}
    patches: list[Patch] = []
    for _ in range(draw(st.integers(1, 3))):
        changes: list[FileChange] = []
        for name in draw(st.lists(st.sampled_from(_NAMES), unique=True, min_size=1, max_size=3)):
            old = state.get(name)
            if old is not None and draw(st.booleans()) and draw(st.booleans()):
                new = None  # delete
            else:
                new = draw(_BYTES)
                if new == old:
                    new = new + b"!"
            changes.append(FileChange(name, None if old is None else decode(old), None if new is None else decode(new)))
            if new is None:
                state.pop(name, None)
            else:
                state[name] = new
        patches.append(Patch(tuple(changes)))
    return files, patches


def _setup(root: Path, files: dict[str, tuple[bytes, int]], use_git: bool) -> None:
    root.mkdir(parents=True)
    for name, (data, mode) in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
        os.chmod(root / name, mode)
    if use_git:
        make_repo(root, {}, commit=False)


def _dirs(root: Path) -> set[str]:
    found = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_dir()}
    return {d for d in found if d.split("/")[0] not in (".git", ".vibecode")}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario(), st.booleans(), st.booleans())
def test_apply_then_undo_restores_exactly(case: tuple[dict[str, tuple[bytes, int]], list[Patch]], use_git: bool, undo_all: bool) -> None:
    files, patches = case
    os.environ.update({k: v for k, v in GIT_ENV.items() if k.startswith("GIT_")})
    folder = Path(tempfile.mkdtemp(prefix="vc-undo-"))
    try:
        root = folder / "work"
        _setup(root, files, use_git)
        original = snapshot(root)
        dirs_before = _dirs(root)
        states = [original]
        for patch in patches:
            apply_patch(root, patch)
            now = snapshot(root)
            for change in patch.changes:
                if change.new is None:
                    assert change.path not in now
                else:
                    assert now[change.path][0] == change.new.encode("utf-8", "surrogateescape")
            states.append(now)
        if undo_all:
            undo(root, all_entries=True)
        else:
            for expected in reversed(states[:-1]):
                undo(root)
                assert snapshot(root) == expected
        assert snapshot(root) == original
        # Folders the applies created are gone again.
        assert _dirs(root) == dirs_before
    finally:
        shutil.rmtree(folder)
