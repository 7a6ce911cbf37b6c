"""Localize a failure and build the model's context within its token budget.

1. Read each failing test's traceback (pytest's ``path:line: in function`` lines) and map the
   frames to the functions that contain them with the code index; frames outside the repository
   (the standard library, site-packages) are skipped, the innermost frame comes first.
2. Add the definitions of the names the failing test's own code uses (an assertion that fails in
   the test, not in the code under test, still names the function it calls).
3. Rank the rest of the repository with the index's repo map, personalized to the failing
   tests' files and the suspects' files (or, when nothing is connected to them, unpersonalized),
   and fill what is left of the budget with it.

The context holds, in this order and as far as the budget allows: the failing tests' error
output (tail first: it has the innermost frames and the ``E`` lines), their code, the suspect
functions in full, and the repo map.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from vibecode.fix.suite import nodeid_file, nodeid_function
from vibecode.fix.testfiles import TestFiles
from vibecode.repo.code_index import CodeIndex
from vibecode.syntax.symbols import Definition
from vibecode.types import TestCaseResult

TokenCounter = Callable[[str], int]

_FRAME = re.compile(r"^(?P<path>[^\s:<>][^:\n<>]*?\.py):(?P<line>\d+):(?: in (?P<func>[\w.<>]+))?", re.M)
MAX_TESTS_SHOWN = 4  # failing tests shown in full; the others are listed by id
MAX_ERROR_LINES = 40
MAX_TEST_LINES = 60
MAX_SUSPECT_LINES = 120
MAX_SUSPECTS = 12
MIN_MAP_TOKENS = 64
CLASS_KINDS = ("class", "interface", "type", "enum")


@dataclass(frozen=True)
class Frame:
    path: str  # repository-relative
    line: int
    function: str | None


@dataclass(frozen=True)
class Suspect:
    path: str
    name: str  # qualified name, or "" for module-level lines
    line: int  # 1-based, inclusive
    end_line: int
    why: str  # "traceback" | "used by the test"


@dataclass(frozen=True)
class PromptContext:
    text: str  # the context part of the prompt (the instruction is added by vibecode.fix.prompts)
    tokens: int
    budget: int
    suspects: tuple[Suspect, ...]  # shown in full, in order
    test_files: tuple[str, ...]
    map_tokens: int  # tokens spent on the repo map


def frames(message: str, known: Sequence[str] | set[str]) -> list[Frame]:
    """The repository frames of a traceback, outermost first. ``known``: the repository's files;
    an absolute path is mapped to the known file it ends with (the sandbox's copy of it)."""
    files = set(known)
    out: list[Frame] = []
    for m in _FRAME.finditer(message):
        path = _repo_path(m.group("path"), files)
        if path is not None:
            out.append(Frame(path, int(m.group("line")), m.group("func")))
    return out


def _repo_path(path: str, files: set[str]) -> str | None:
    path = path.replace("\\", "/")
    if path.startswith("./"):
        path = path[2:]
    if path in files:
        return path
    if path.startswith("/"):
        best = max((f for f in files if path.endswith("/" + f)), key=len, default=None)
        return best
    return None


def find_suspects(index: CodeIndex, failing: Sequence[TestCaseResult], tests: TestFiles | None = None) -> list[Suspect]:
    """Functions to show in full: traceback frames outside the tests (innermost first), then
    the definitions of the names the failing tests use. ``tests``: which files are test code."""
    tests = tests if tests is not None else TestFiles(collected=frozenset(nodeid_file(c.nodeid) for c in failing))
    known = set(index.files)
    found: list[Suspect] = []
    for case in failing:
        for frame in reversed(frames(case.message, known)):
            if frame.path in tests:
                continue
            found.append(_suspect_at(index, frame))
    for case in failing:
        test_def = test_definition(index, case.nodeid)
        if test_def is None:
            continue
        for name in _names_used(index, test_def):
            for d in index.definitions(name):
                if d.path in tests or d.kind == "variable":
                    continue
                if d.kind in CLASS_KINDS and d.end_line - d.line > MAX_SUSPECT_LINES:
                    continue
                found.append(Suspect(d.path, d.qualname, d.line, d.end_line, "used by the test"))
    return _dedupe(found)[:MAX_SUSPECTS]


def _suspect_at(index: CodeIndex, frame: Frame) -> Suspect:
    d = index.function_at(frame.path, frame.line) or index.enclosing(frame.path, frame.line)
    if d is not None and d.end_line - d.line <= MAX_SUSPECT_LINES:
        return Suspect(d.path, d.qualname, d.line, d.end_line, "traceback")
    return Suspect(frame.path, d.qualname if d else "", max(1, frame.line - 10), frame.line + 10, "traceback")


def _names_used(index: CodeIndex, test_def: Definition) -> list[str]:
    entry = index.files.get(test_def.path)
    if entry is None:
        return []
    used = [(min(ln for ln in lines if test_def.contains(ln)), name)
            for name, lines in entry.references.items() if any(test_def.contains(ln) for ln in lines)]
    return [name for _, name in sorted(used)]


def _dedupe(suspects: list[Suspect]) -> list[Suspect]:
    """Drop repeats and suspects inside another one already listed."""
    out: list[Suspect] = []
    for s in suspects:
        if any(o.path == s.path and o.line <= s.line and s.end_line <= o.end_line for o in out):
            continue
        out = [o for o in out if not (o.path == s.path and s.line <= o.line and o.end_line <= s.end_line)]
        out.append(s)
    return out


def test_definition(index: CodeIndex, nodeid: str) -> Definition | None:
    path, qualname = nodeid_file(nodeid), nodeid_function(nodeid)
    if qualname is None:
        return None
    for d in index.definitions_in(path):
        if d.qualname == qualname:
            return d
    return None


def build_context(
    root: Path,
    index: CodeIndex,
    failing: Sequence[TestCaseResult],
    count_tokens: TokenCounter,
    budget: int,
    tests: TestFiles | None = None,
) -> PromptContext:
    """The context for the fix prompt (see the module docstring), at most ``budget`` tokens."""
    reader = _Reader(root)
    shown = list(failing[:MAX_TESTS_SHOWN])
    parts: list[str] = ["## Failing tests\n"]
    error_lines = MAX_ERROR_LINES
    while True:
        tests_text = _tests_section(index, reader, shown, failing, error_lines)
        if count_tokens(tests_text) <= budget // 2 or error_lines <= 6:
            break
        error_lines //= 2
    parts.append(tests_text)
    used = count_tokens("".join(parts))
    suspects: list[Suspect] = []
    code_parts: list[str] = []
    for s in find_suspects(index, failing, tests):
        block = _suspect_block(reader, s)
        cost = count_tokens(block)
        if used + cost > budget - MIN_MAP_TOKENS:
            continue
        suspects.append(s)
        code_parts.append(block)
        used += cost
    if code_parts:
        parts.append("\n## Code under suspicion (current content)\n\n" + "".join(code_parts))
        used = count_tokens("".join(parts))
    test_files = tuple(dict.fromkeys(nodeid_file(c.nodeid) for c in failing))
    focus = list(dict.fromkeys([*test_files, *(s.path for s in suspects)]))
    mentioned = [s.name.rsplit(".", 1)[-1] for s in suspects if s.name]
    header = "\n## Other code in the repository (signatures)\n\n"
    room = budget - used - count_tokens(header) - 8
    repo_map = index.repo_map(focus, mentioned, max_tokens=room, count_tokens=count_tokens) if room > 0 else ""
    if room > 0 and not repo_map.strip():
        # Nothing is connected to the failing tests by name: show the repository's best-ranked
        # definitions instead, so that the model still sees what exists.
        repo_map = index.repo_map((), mentioned, max_tokens=room, count_tokens=count_tokens)
    map_tokens = 0
    if repo_map.strip():
        parts.append(header + "```\n" + repo_map.rstrip() + "\n```\n")
        map_tokens = count_tokens(repo_map)
    text = "".join(parts)
    return PromptContext(text, count_tokens(text), budget, tuple(suspects), test_files, map_tokens)


def _tests_section(
    index: CodeIndex, reader: _Reader, shown: Sequence[TestCaseResult], failing: Sequence[TestCaseResult],
    error_lines: int,
) -> str:
    out: list[str] = []
    for case in shown:
        out.append(f"\n### {case.nodeid} ({case.outcome})\n\n```\n{_tail(case.message, error_lines)}\n```\n")
        d = test_definition(index, case.nodeid)
        if d is not None:
            code = reader.lines(d.path, d.line, min(d.end_line, d.line + MAX_TEST_LINES - 1))
            out.append(f"\nThe test ({d.path}, lines {d.line}-{d.end_line}):\n\n```python\n{code}```\n")
    rest = [c.nodeid for c in failing[len(shown):]]
    if rest:
        out.append(f"\nAlso failing ({len(rest)}): " + ", ".join(rest[:30]) + ("..." if len(rest) > 30 else "") + "\n")
    return "".join(out)


def _suspect_block(reader: _Reader, s: Suspect) -> str:
    what = f" ({s.name})" if s.name else ""
    code = reader.lines(s.path, s.line, s.end_line)
    return f"{s.path}, lines {s.line}-{s.end_line}{what}:\n```python\n{code}```\n\n"


def _tail(message: str, lines: int) -> str:
    rows = message.strip("\n").split("\n")
    if len(rows) <= lines:
        return "\n".join(rows)
    head = rows[:1]
    return "\n".join([*head, f"... ({len(rows) - lines} lines cut) ...", *rows[-(lines - 1):]])


class _Reader:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._cache: dict[str, list[str]] = {}

    def lines(self, path: str, start: int, end: int) -> str:
        if path not in self._cache:
            try:
                text = (self.root / path).read_text(encoding="utf-8", errors="replace")
            except OSError:
                text = ""
            self._cache[path] = text.splitlines(keepends=True)
        rows = self._cache[path][max(0, start - 1): end]
        text = "".join(rows)
        return text if text.endswith("\n") or not text else text + "\n"
