"""Which tests a change can affect, found with the code index.

A Python file depends on module ``pkg.core`` when it names ``core`` (``import pkg.core``,
``from pkg import core``, ``from .core import f``, ``pkg.core.f()`` all do); a package's
``__init__.py`` stands for the package's own name. The dependents of the changed modules are
followed transitively (a test that imports ``pkg.api``, which imports ``pkg.core``, is affected
by a change to ``pkg/core.py``). This over-approximates (a local variable called ``core`` counts
too), which only runs more tests, never fewer.

The whole suite is needed instead when a change can affect any test: a ``conftest.py`` at the
root, a test configuration file, or anything that is not Python source (documentation aside).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from vibecode.fix.testfiles import TestFiles
from vibecode.repo.code_index import CodeIndex

# Files whose change can affect every test.
SUITE_FILES = frozenset({
    "pyproject.toml", "setup.cfg", "setup.py", "pytest.ini", "tox.ini", "conftest.py",
    "requirements.txt", "requirements-dev.txt",
})
# Files no test reads, as a rule: a change to them alone affects no test.
DOC_SUFFIXES = frozenset({".md", ".rst", ".adoc"})
DOC_NAMES = frozenset({"LICENSE", "LICENSE.txt", "COPYING", "AUTHORS", "CHANGELOG", ".gitignore", ".gitattributes"})


@dataclass(frozen=True)
class Affected:
    tests: tuple[str, ...]  # test files to run (pytest-collectable), sorted
    whole_suite: str | None  # why the whole suite must run instead, or None

    @property
    def empty(self) -> bool:
        return not self.tests and self.whole_suite is None


def collectable(path: str) -> bool:
    """A file pytest collects by default: ``test_*.py`` or ``*_test.py``."""
    name = PurePosixPath(path).name
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def module_key(path: str) -> str | None:
    """The name other files use for the module at ``path`` (``pkg/core.py`` -> ``core``)."""
    pure = PurePosixPath(path)
    if pure.suffix != ".py":
        return None
    if pure.stem == "__init__":
        return pure.parent.name or None
    return pure.stem


def dependents(index: CodeIndex, changed: Iterable[str]) -> set[str]:
    """The indexed Python files that depend, directly or not, on the ``changed`` files."""
    python = {p for p, f in index.files.items() if f.language == "python"}
    seen: set[str] = set()
    queue = [p for p in changed if p.endswith(".py")]
    done_keys: set[str] = set()
    while queue:
        path = queue.pop()
        if path in seen:
            continue
        seen.add(path)
        key = module_key(path)
        if key is None or key in done_keys:
            continue
        done_keys.add(key)
        queue.extend(p for p in index.files_referencing(key) if p in python and p not in seen)
    return seen


def affected_tests(index: CodeIndex, changed: Sequence[str], tests: TestFiles | None = None) -> Affected:
    """The test files to run for a change of ``changed`` (repository-relative paths).
    ``tests``: pytest's own view of which files hold tests (default: its default patterns)."""
    is_collected = tests.collectable if tests is not None else collectable
    relevant = [p for p in changed if not _documentation(p)]
    for path in relevant:
        name = PurePosixPath(path).name
        if path in SUITE_FILES or (name in SUITE_FILES and name != "conftest.py"):
            return Affected((), f"{path} can affect every test")
        if not path.endswith(".py"):
            return Affected((), f"{path} is not Python source, so any test may read it")
    touched = dependents(index, relevant)
    all_tests = sorted(p for p in index.files if is_collected(p))
    chosen = {p for p in touched if is_collected(p)}
    for path in touched:
        if PurePosixPath(path).name == "conftest.py":
            folder = str(PurePosixPath(path).parent)
            chosen.update(t for t in all_tests if t.startswith(folder + "/"))
    return Affected(tuple(sorted(chosen)), None)


def _documentation(path: str) -> bool:
    pure = PurePosixPath(path)
    return pure.suffix.lower() in DOC_SUFFIXES or pure.name in DOC_NAMES


def test_files_of(nodeids: Iterable[str]) -> list[str]:
    return sorted({n.split("::", 1)[0] for n in nodeids})


def touches_tests(paths: Iterable[str], tests: TestFiles | None = None) -> bool:
    found = tests if tests is not None else TestFiles()
    return any(p in found for p in paths)
