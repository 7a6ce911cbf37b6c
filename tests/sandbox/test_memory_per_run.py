"""The memory limit bounds a whole run: forked processes do not each get the full limit."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.sandbox.helpers import BACKENDS, get_backend
from vibecode.sandbox.base import Limits

FORK_FILL = r"""
import os, sys, time
kids = []
for _ in range(5):
    pid = os.fork()
    if pid == 0:
        block = bytearray(300 << 20)
        for i in range(0, len(block), 4096):
            block[i] = 1
        time.sleep(3)
        os._exit(0)
    kids.append(pid)
alive = 0
for pid in kids:
    _, status = os.waitpid(pid, 0)
    alive += os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
print("survived", alive)
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_five_forks_of_300_mb_do_not_all_survive_512_mb(backend: str, source: Path) -> None:
    sb = get_backend(backend)
    with sb.prepare(source) as ws:
        r = sb.run(ws, ["python3", "-c", FORK_FILL], Limits(wall_s=60, memory_mb=512))
    assert "survived 5" not in r.stdout, r
    assert r.oom or r.exit_code != 0 or r.signal is not None or "survived" in r.stdout
    assert r.protections["memory_per_run"]
    assert not r.timed_out
