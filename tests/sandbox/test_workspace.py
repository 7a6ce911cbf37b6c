"""Workspaces: a fresh copy with the patch applied; the user's tree never changes; hard links safe."""

from __future__ import annotations

import os
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.sandbox.helpers import tree_hash
from vibecode.errors import ApplyError, SandboxError
from vibecode.sandbox import copytree
from vibecode.sandbox.base import Limits, Sandbox
from vibecode.sandbox.copytree import can_mount
from vibecode.sandbox.local import LocalSandbox
from vibecode.sandbox.workspace import allocate_sandbox_user, prepare_workspace, remove_tree
from vibecode.types import FileChange, Patch

APP_OLD = "def add(a, b):\n    return a + b\n"


def test_patch_is_applied_to_the_copy_only(sandbox: Sandbox, source: Path) -> None:
    before = tree_hash(source)
    patch = Patch(
        (
            FileChange("app.py", APP_OLD, "def add(a, b):\n    return a - b\n"),
            FileChange("pkg/new/helper.py", None, "X = 1\n"),
            FileChange("data.txt", "precious user data\n", None),
        )
    )
    with sandbox.prepare(source, patch) as ws:
        assert ws.path != source and not ws.path.is_relative_to(source)
        assert (ws.path / "app.py").read_text() == "def add(a, b):\n    return a - b\n"
        assert (ws.path / "pkg/new/helper.py").read_text() == "X = 1\n"
        assert not (ws.path / "data.txt").exists()
        assert (ws.path / ".git" / "HEAD").is_file()
        assert os.access(ws.path / "run.sh", os.X_OK)
        result = sandbox.run(ws, [sandbox.python, "-c", "import app; print(app.add(5, 3))"])
        assert result.stdout.strip() == "2"
        path = ws.path
    assert not path.exists()
    assert tree_hash(source) == before
    assert (source / "app.py").read_text() == APP_OLD


def test_a_patch_that_does_not_match_fails_cleanly(source: Path, tmp_path: Path) -> None:
    parent = tmp_path / "workspaces"
    stale = Patch((FileChange("app.py", "something else\n", "x = 1\n"),))
    with pytest.raises(ApplyError, match="does not apply"):
        prepare_workspace(source, stale, parent=parent)
    with pytest.raises(ApplyError, match="already exists"):
        prepare_workspace(source, Patch((FileChange("app.py", None, "x\n"),)), parent=parent)
    with pytest.raises(ApplyError, match="does not exist"):
        prepare_workspace(source, Patch((FileChange("nope.py", "a", "b"),)), parent=parent)
    assert list(parent.iterdir()) == []  # nothing half-made is left behind


@pytest.mark.parametrize("bad", ["../escape.py", "/etc/passwd", "pkg/../../x.py", "", "a\x00b"])
def test_patch_paths_cannot_leave_the_workspace(source: Path, tmp_path: Path, bad: str) -> None:
    with pytest.raises(ApplyError):
        prepare_workspace(source, Patch((FileChange(bad, None, "x\n"),)), parent=tmp_path)
    assert not (source.parent / "escape.py").exists()


def test_patch_cannot_write_through_a_symlinked_folder(source: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (source / "link").symlink_to(outside)
    with pytest.raises(ApplyError, match="not a plain folder"):
        prepare_workspace(
            source, Patch((FileChange("link/evil.py", None, "x\n"),)), parent=tmp_path / "ws"
        )
    assert list(outside.iterdir()) == []


def test_in_place_writes_reach_the_copy_only(sandbox: Sandbox, source: Path) -> None:
    """The copy behaves like a checkout: files can be rewritten in place and chmod-ed, and the
    user's files never notice."""
    before = tree_hash(source)
    with sandbox.prepare(source) as ws:
        code = (
            "import os\n"
            "with open('data.txt', 'r+') as fh:\n"
            "    fh.write('OVERWRITTEN')\n"
            "with open('app.py', 'a') as fh:\n"
            "    fh.write('# appended\\n')\n"
            "os.chmod('run.sh', 0o700)\n"
            "print('ok')\n"
        )
        result = sandbox.run(ws, [sandbox.python, "-c", code])
        assert result.stdout == "ok\n", result.stderr
        assert (ws.path / "data.txt").read_text().startswith("OVERWRITTEN")
        ws.write("pkg/mod.py", "VALUE = 43\n")
        assert (ws.path / "pkg/mod.py").read_text() == "VALUE = 43\n"
    assert (source / "data.txt").read_text() == "precious user data\n"
    assert tree_hash(source) == before


def _git_objects(root: Path) -> list[str]:
    objects = root / ".git" / "objects"
    return sorted(
        p.relative_to(root).as_posix()
        for p in objects.rglob("*")
        if p.is_file() and p.parent.name not in ("info",) and len(p.parent.name) == 2
    )


def test_git_objects_are_hard_linked_only_where_they_cannot_be_written(source: Path) -> None:
    before = tree_hash(source)
    sb = LocalSandbox()
    if os.geteuid() != 0:  # no separate sandbox user: everything is copied
        with prepare_workspace(source, hardlinks=True, in_memory=False) as ws:
            assert ws.linked == 0
        return
    objects = _git_objects(source)
    assert objects
    ws = prepare_workspace(
        source, owner=allocate_sandbox_user(), hardlinks=True, in_memory=False, parent=source.parent
    )
    with ws:
        assert ws.linked == len(objects) and ws.quota_mb is None
        linked = ws.path / objects[0]
        assert os.stat(linked).st_ino == os.stat(source / objects[0]).st_ino
        assert os.stat(ws.path / "app.py").st_ino != os.stat(source / "app.py").st_ino
        code = (
            "import os, sys\n"
            "obj = sys.argv[1]\n"
            "for how in ('r+b', 'ab'):\n"
            "    try:\n"
            "        open(obj, how).write(b'corrupt')\n"
            "        print('wrote', how)\n"
            "    except OSError as exc:\n"
            "        print('refused', how, type(exc).__name__)\n"
            "try:\n"
            "    os.chmod(obj, 0o666)\n"
            "    print('chmod ok')\n"
            "except OSError as exc:\n"
            "    print('chmod refused', type(exc).__name__)\n"
            "os.unlink(obj)\n"
            "print('unlinked')\n"
        )
        result = sb.run(ws, [sb.python, "-c", code, objects[0]])
        assert result.stdout.split("\n")[:4] == [
            "refused r+b PermissionError",
            "refused ab PermissionError",
            "chmod refused PermissionError",
            "unlinked",
        ], result.stdout + result.stderr
    assert tree_hash(source) == before


def test_in_memory_workspace_has_a_quota(source: Path) -> None:
    sb = LocalSandbox()
    if not can_mount():
        with sb.prepare(source) as ws:
            # No capped tmpfs for a regular user: the disk watch stands in (test_disk_quota.py).
            assert ws.quota_mb is None and sb.protections()["workspace_quota"]
        return
    ws = prepare_workspace(source, owner=allocate_sandbox_user(), in_memory=True, quota_mb=2)
    with ws:
        assert ws.quota_mb == 2
        assert any(
            f" {ws.path} " in line for line in Path("/proc/self/mountinfo").read_text().splitlines()
        )
        code = "open('big', 'wb').write(b'x' * (8 << 20))"
        result = sb.run(ws, [sb.python, "-c", code])
        assert result.exit_code == 1 and "No space left" in result.stderr
        assert result.protections["workspace_quota"]
        assert any("disk quota reached" in note for note in result.notes), result.notes
        path = ws.path
    assert not path.exists()
    assert not any(
        f" {path} " in line for line in Path("/proc/self/mountinfo").read_text().splitlines()
    )


def test_caches_and_virtualenvs_are_not_copied(source: Path, tmp_path: Path) -> None:
    (source / "__pycache__").mkdir()
    (source / "__pycache__" / "app.cpython-311.pyc").write_bytes(b"\0")
    venv = source / ".venv"
    (venv / "lib").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    with prepare_workspace(source, parent=tmp_path) as ws:
        assert not (ws.path / "__pycache__").exists()
        assert not (ws.path / ".venv").exists()
        assert (ws.path / "app.py").is_file()


def test_files_the_caller_adds_belong_to_the_sandboxed_code(sandbox: Sandbox, source: Path) -> None:
    with sandbox.prepare(source) as ws:
        (ws.path / "harness").mkdir()
        (ws.path / "harness" / "check.py").write_text("print('harness ran')\n")
        code = (
            "import runpy\n"
            "runpy.run_path('harness/check.py')\n"
            "open('harness/out.txt', 'w').write('ok')\n"
            "open('harness/check.py', 'a').write('# edited\\n')\n"
        )
        result = sandbox.run(ws, [sandbox.python, "-c", code])
        assert result.exit_code == 0, result.stderr
        assert "harness ran" in result.stdout
        assert (ws.path / "harness" / "out.txt").read_text() == "ok"


def test_cleanup_succeeds_after_hostile_permission_changes(sandbox: Sandbox, source: Path) -> None:
    ws = sandbox.prepare(source)
    code = (
        "import os\n"
        "os.makedirs('locked/inner')\n"
        "open('locked/inner/f', 'w').write('x')\n"
        "os.chmod('locked/inner', 0)\n"
        "os.chmod('locked', 0)\n"
    )
    result = sandbox.run(ws, [sandbox.python, "-c", code], Limits(wall_s=20))
    assert result.exit_code == 0, result.stderr
    ws.cleanup()
    assert not ws.path.exists()
    with pytest.raises(SandboxError, match="already deleted"):
        sandbox.run(ws, ["true"])


def test_source_must_be_a_folder(tmp_path: Path) -> None:
    with pytest.raises(SandboxError, match="not a folder"):
        prepare_workspace(tmp_path / "missing")
    (tmp_path / "file").write_text("x")
    with pytest.raises(SandboxError, match="not a folder"):
        prepare_workspace(tmp_path / "file")


def test_copied_files_keep_their_modes(source: Path, tmp_path: Path) -> None:
    with prepare_workspace(source, parent=tmp_path) as ws:
        assert ws.linked == 0 and ws.copied > 0
        mode = stat.S_IMODE(os.stat(ws.path / "run.sh").st_mode)
        assert mode == 0o755
        assert os.stat(ws.path / "app.py").st_ino != os.stat(source / "app.py").st_ino


def test_workspaces_of_dead_processes_are_swept(monkeypatch: pytest.MonkeyPatch) -> None:
    dead = subprocess.Popen(["true"])
    dead.wait()
    tmp = Path(tempfile.gettempdir())
    on_disk = tmp / f"vibecode-ws-{dead.pid}-ondisk"
    on_disk.mkdir()
    (on_disk / "file").write_text("left behind")
    mounted = tmp / f"vibecode-ws-{dead.pid}-mounted"
    mounted.mkdir()
    live = tmp / f"vibecode-ws-{os.getpid()}-live"
    live.mkdir()
    try:
        is_mounted = copytree.mount_tmpfs(mounted, 1 << 20)
        assert is_mounted == copytree.can_mount()
        monkeypatch.setattr(copytree, "_stale_swept", False)
        copytree.sweep_stale(tmp)
        assert not on_disk.exists() and not mounted.exists()
        assert live.exists()  # a live process's workspace is left alone
    finally:
        for path in (on_disk, mounted, live):
            if path.exists():
                copytree.unmount(path)
                remove_tree(path)
