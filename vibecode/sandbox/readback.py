"""Reading files back from a workspace that untrusted code could write to.

Whatever the host reads after a run (result files, JUnit XML at ``$VIBECODE_JUNIT``, reports)
may have been replaced by the candidate with a FIFO (a plain ``open`` blocks forever), a symbolic
link (to ``/dev/zero``, which never ends, or to a file outside), or a huge file. Every such read
goes through :func:`read_back`: ``O_NOFOLLOW | O_NONBLOCK``, a regular file by ``fstat``, and at
most ``cap`` bytes.
"""

from __future__ import annotations

import os
import stat

DEFAULT_CAP = 16 << 20
_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_NOCTTY", 0)
)


def read_back(path: str | os.PathLike[str], cap: int = DEFAULT_CAP) -> bytes | None:
    """Up to ``cap + 1`` bytes of the regular file ``path``; None when it is anything else.

    None for a missing file, a symbolic link, a FIFO, a device, a socket or a folder. Callers
    that see more than ``cap`` bytes know that the file was cut.
    """
    try:
        fd = os.open(path, _FLAGS)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks: list[bytes] = []
        left = cap + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def read_back_text(path: str | os.PathLike[str], cap: int = DEFAULT_CAP) -> str | None:
    """:func:`read_back` decoded as UTF-8 (bad bytes replaced), cut to ``cap`` bytes."""
    data = read_back(path, cap)
    return None if data is None else data[:cap].decode("utf-8", errors="replace")
