"""Fixtures for the sandbox tests: both real backends, a real source repository.

The Docker backend needs a running daemon and the image; when either is missing its tests fail
with a message that says to run scripts/docker-up (they are never skipped). The local backend
must have its full protections (bubblewrap); without them its tests fail with the fix.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.sandbox.helpers import BACKENDS, get_backend
from tests.sandbox.planted import Host, planted_host
from vibecode.sandbox.base import Sandbox


@pytest.fixture(params=BACKENDS)
def sandbox(request: pytest.FixtureRequest) -> Sandbox:
    sb = get_backend(request.param)
    if sb.name == "local":
        # What the hostile suite relies on (not workspace_quota or unprivileged: root-only).
        needed = ("network_off", "readonly_outside", "private_tmp", "kill_all", "nproc_limit")
        missing = [name for name in needed if not sb.protections()[name]]
        if missing:
            pytest.fail(
                f"The local sandbox lacks {', '.join(missing)} here; run scripts/system-deps "
                "(bubblewrap) so that the hostile suite tests the real isolation."
            )
    return sb


@pytest.fixture
def source() -> Iterator[Path]:
    """A real git repository that the sandbox can see (outside /tmp, which it replaces).

    Its files are world-readable, like a checkout's, so that the sandboxed code meets only the
    sandbox's own protections (read-only mounts, another user), not a closed folder.
    """
    root = Path(tempfile.mkdtemp(prefix="vibecode-src-", dir="/var/tmp"))
    os.chmod(root, 0o755)
    (root / "app.py").write_text("def add(a, b):\n    return a + b\n", encoding="utf-8")
    (root / "data.txt").write_text("precious user data\n", encoding="utf-8")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "mod.py").write_text("VALUE = 42\n", encoding="utf-8")
    (root / "tests").mkdir()
    (root / "tests" / "test_app.py").write_text(
        "from app import add\n\ndef test_add():\n    assert add(1, 2) == 3\n", encoding="utf-8"
    )
    (root / "run.sh").write_text("#!/bin/sh\necho ran\n", encoding="utf-8")
    os.chmod(root / "run.sh", 0o755)
    git = [
        "git",
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.com",
        "-c",
        "init.defaultBranch=main",
    ]
    subprocess.run([*git, "init", "-q"], cwd=root, check=True)
    subprocess.run([*git, "add", "-A"], cwd=root, check=True)
    subprocess.run([*git, "commit", "-qm", "init"], cwd=root, check=True)
    for dirpath, dirnames, _ in os.walk(root):
        for name in dirnames:
            os.chmod(os.path.join(dirpath, name), 0o755)
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def host() -> Iterator[Host]:
    """A regular user in the docker group with planted secrets, sockets and a canary process."""
    yield from planted_host()
