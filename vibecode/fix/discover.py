"""Test files that pytest's default patterns miss: ``test.py`` and ``tests.py``.

Projects that grew up with unittest (python-slugify, many Django apps) keep their tests in a
``test.py`` or ``tests.py`` and run them with ``python test.py`` or ``pytest test.py``. pytest's
default ``python_files`` (``test_*.py *_test.py``) skips both names, so a plain ``pytest``
collects nothing there. When the project sets no ``python_files`` of its own and a default run
collected no test, these files are what the user's tests are: they are named to pytest
explicitly, and the output says so.
"""

from __future__ import annotations

import os
from pathlib import Path

from vibecode.fix.testfiles import python_files

UNLISTED_NAMES = ("test.py", "tests.py")
_SKIP_DIRS = {"node_modules", "site-packages", "build", "dist", "__pycache__"}
MAX_FILES = 200


def unlisted_test_files(root: Path) -> tuple[str, ...]:
    """The ``test.py``/``tests.py`` files under ``root`` (relative POSIX paths, sorted), or ()
    when the project configures ``python_files`` itself (then pytest's choice stands)."""
    if python_files(root) is not None:
        return ()
    found: list[str] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS
                         and not (Path(folder, d) / "pyvenv.cfg").exists())
        for name in sorted(files):
            if name in UNLISTED_NAMES:
                found.append(Path(folder, name).relative_to(root).as_posix())
                if len(found) >= MAX_FILES:
                    return tuple(sorted(found))
    return tuple(sorted(found))


def unlisted_note(files: tuple[str, ...]) -> str:
    shown = ", ".join(files[:5]) + (f" and {len(files) - 5} more" if len(files) > 5 else "")
    return (f"pytest's default patterns (test_*.py, *_test.py) collected no test; ran {shown}, the project's "
            "unittest-style test file(s), by name. Set python_files in the pytest configuration to choose.")
