"""Nothing of a run outlives vibecode: SIGTERM and SIGHUP stop every run in progress first.

Each backend registers a stop function for each run in progress (kill the local run's process
group, kill the container). :func:`install` makes SIGTERM and SIGHUP (where nobody else handles
them) call every stop function and then exit with 128 + the signal's number, so that the
``finally`` blocks on the way out also delete the workspaces. SIGKILL cannot be caught: there
bubblewrap's ``--die-with-parent`` ends a local run, and a container ends by its own wall limit
and is removed by the next start (``docker.reap_stale``).
"""

from __future__ import annotations

import contextlib
import itertools
import signal
import threading
from collections.abc import Callable
from types import FrameType

_live: dict[int, Callable[[], None]] = {}
_lock = threading.Lock()
_ids = itertools.count()
_installed = False


def register(stop: Callable[[], None]) -> int:
    """Remember how to stop a run in progress; the id is for :func:`unregister`."""
    with _lock:
        key = next(_ids)
        _live[key] = stop
    return key


def unregister(key: int) -> None:
    with _lock:
        _live.pop(key, None)


def stop_all() -> int:
    """Stop every run in progress (each at most once); how many there were."""
    with _lock:
        stops = list(_live.values())
        _live.clear()
    for stop in stops:
        with contextlib.suppress(Exception):
            stop()
    return len(stops)


def _on_signal(signum: int, frame: FrameType | None) -> None:
    stop_all()
    raise SystemExit(128 + signum)


def install() -> None:
    """Handle SIGTERM and SIGHUP as above, where they have no handler yet (main thread only)."""
    global _installed
    if _installed or threading.current_thread() is not threading.main_thread():
        return
    _installed = True
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is None:
            continue
        with contextlib.suppress(ValueError, OSError):
            if signal.getsignal(sig) in (signal.SIG_DFL, None):
                signal.signal(sig, _on_signal)
