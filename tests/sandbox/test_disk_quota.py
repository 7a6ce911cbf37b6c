"""Writing past the size of /tmp (and of the workspace, where it has a quota) fails inside the
run on both backends, and the host's disk does not fill."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.sandbox.helpers import BACKENDS, get_backend
from vibecode.sandbox.base import Limits

FILL = r"""
import sys
path, mb = sys.argv[1], int(sys.argv[2])
written = 0
try:
    with open(path, "wb") as fh:
        for _ in range(mb):
            fh.write(b"x" * (1 << 20)); fh.flush()
            written += 1
    print("wrote", written)
except OSError as exc:
    print("stopped", written, exc.errno)
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_tmp_and_workspace_fills_are_bounded(backend: str, source: Path) -> None:
    sb = get_backend(backend)
    free_before = shutil.disk_usage("/var/tmp").free
    limits = Limits(wall_s=60, tmp_mb=64, memory_mb=1024)
    with sb.prepare(source) as ws:
        tmp = sb.run(ws, ["python3", "-c", FILL, "/tmp/fill", "256"], limits)
        assert tmp.stdout.startswith("stopped"), (tmp.stdout, tmp.stderr)
        assert int(tmp.stdout.split()[1]) <= 64
        if ws.quota_mb is not None:
            big = ws.quota_mb + 64
            inside = sb.run(ws, ["python3", "-c", FILL, "fill", str(big)], limits)
            # Docker charges the tmpfs pages to the container's memory: it may be killed first.
            assert inside.stdout.startswith("stopped") or inside.oom, inside
            assert "wrote" not in inside.stdout
            if inside.stdout:
                assert int(inside.stdout.split()[1]) <= ws.quota_mb
    # Nothing of it landed on the host's disk (other engineers' runs may move it a little).
    assert shutil.disk_usage("/var/tmp").free > free_before - (200 << 20)


MANY = r"""
import sys
prefix, mb = sys.argv[1], int(sys.argv[2])
written = 0
try:
    for i in range(mb):  # many files: a per-file limit alone would not stop this
        with open(prefix + str(i), "wb") as fh:
            fh.write(b"x" * (1 << 20))
        written += 1
    print("wrote", written)
except OSError as exc:
    print("stopped", written, exc.errno)
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_workspace_on_the_host_disk_is_watched(backend: str, source: Path, tmp_path: Path) -> None:
    """Where the workspace is no capped tmpfs (a regular user, or sandbox_dir set), the run is
    stopped once its files pass the quota, the result says so, and the fill is removed with it."""
    from vibecode.sandbox.docker import DockerSandbox
    from vibecode.sandbox.local import LocalSandbox

    parent = Path("/var/tmp") / f"vibecode-quota-{tmp_path.name}"
    sb = (LocalSandbox if backend == "local" else DockerSandbox)(workdir=parent, disk_mb=32)
    try:
        with sb.prepare(source) as ws:
            assert ws.quota_mb is None  # on the host's disk: the watch applies
            small = sb.run(ws, ["python3", "-c", MANY, "ok", "4"], Limits(wall_s=30))
            assert small.stdout.startswith("wrote 4") and small.notes == (), small
            big = sb.run(ws, ["python3", "-c", MANY, "fill", "2000"], Limits(wall_s=60))
            assert "wrote" not in big.stdout, big
            assert big.signal == 9 or big.stdout.startswith("stopped"), big
            assert any("disk quota exceeded" in note for note in big.notes), big.notes
            assert big.protections["workspace_quota"]
            written = sum(f.stat().st_size for f in ws.path.glob("fill*"))
            assert written < (32 + 512) << 20  # the quota, and what one sampling interval lets by
        assert not ws.path.exists()
    finally:
        shutil.rmtree(parent, ignore_errors=True)
