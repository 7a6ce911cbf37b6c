"""Which files are test code, as pytest itself sees the project.

A file is test code when pytest collected tests from it (the node ids of the run before any
patch), when its name matches the project's ``python_files`` setting (pytest's default
``test_*.py *_test.py`` when the project sets none), when it is a ``conftest.py``, or when it
lies in a ``tests``/``test``/``testing`` folder (helpers the tests import). The setting is read
where pytest reads it: ``pytest.toml``/``.pytest.toml`` (pytest 9), ``pytest.ini``,
``pyproject.toml`` (``[tool.pytest]`` of pytest 9 or ``[tool.pytest.ini_options]``),
``tox.ini`` (``[pytest]``) and ``setup.cfg`` (``[tool:pytest]``), the first that has a pytest
section winning, as in pytest.
"""

from __future__ import annotations

import configparser
import fnmatch
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DEFAULT_PYTHON_FILES = ("test_*.py", "*_test.py")
TEST_FOLDERS = ("tests", "test", "testing")


@dataclass(frozen=True)
class TestFiles:
    """``path in files``: whether a repository-relative path is test code (module docstring)."""

    __test__ = False  # not a pytest test class

    python_files: tuple[str, ...] = DEFAULT_PYTHON_FILES
    collected: frozenset[str] = frozenset()

    def __contains__(self, path: object) -> bool:
        if not isinstance(path, str):
            return False
        pure = PurePosixPath(path.replace("\\", "/"))
        if path in self.collected or pure.name == "conftest.py":
            return True
        if pure.suffix == ".py" and any(_matches(pure, pattern) for pattern in self.python_files):
            return True
        return any(part in TEST_FOLDERS for part in pure.parts[:-1])

    def collectable(self, path: str) -> bool:
        """A file pytest collects tests from (its name matches ``python_files``, or it did)."""
        pure = PurePosixPath(path)
        return path in self.collected or (pure.suffix == ".py" and any(_matches(pure, p) for p in self.python_files))


def _matches(path: PurePosixPath, pattern: str) -> bool:
    # pytest matches a pattern with a "/" against the whole path, else against the name.
    return fnmatch.fnmatch(str(path), pattern) if "/" in pattern else fnmatch.fnmatch(path.name, pattern)


def find_test_files(root: Path, nodeids: Iterable[str] = ()) -> TestFiles:
    """The test files of the project at ``root``, given the node ids pytest collected there."""
    collected = frozenset(n.split("::", 1)[0] for n in nodeids if n)
    return TestFiles(python_files(root) or DEFAULT_PYTHON_FILES, collected)


def python_files(root: Path) -> tuple[str, ...] | None:
    """The project's ``python_files`` setting, or None when it sets none."""
    for name in ("pytest.toml", ".pytest.toml"):
        section = _toml(root / name, ("pytest",))
        if section is not None:
            return _patterns(section.get("python_files"))
    ini = _ini(root / "pytest.ini", "pytest")
    if ini is not None:
        return _patterns(ini.get("python_files"))
    data = _toml(root / "pyproject.toml", ("tool",))
    pytest_table = data.get("pytest") if data is not None else None
    if isinstance(pytest_table, dict):
        legacy = pytest_table.get("ini_options")
        table = legacy if isinstance(legacy, dict) else pytest_table
        return _patterns(table.get("python_files"))
    for file, section_name in (("tox.ini", "pytest"), ("setup.cfg", "tool:pytest")):
        found = _ini(root / file, section_name)
        if found is not None:
            return _patterns(found.get("python_files"))
    return None


def _patterns(value: object) -> tuple[str, ...] | None:
    if isinstance(value, str):
        return tuple(value.split()) or None
    if isinstance(value, list):
        return tuple(str(v) for v in value) or None
    return None


def _toml(path: Path, keys: tuple[str, ...]) -> dict[str, object] | None:
    try:
        data: object = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data if isinstance(data, dict) else None


def _ini(path: Path, section: str) -> dict[str, str] | None:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, configparser.Error):
        return None
    return dict(parser[section]) if parser.has_section(section) else None
