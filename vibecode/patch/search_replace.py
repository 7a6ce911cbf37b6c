"""Aider-style SEARCH/REPLACE blocks::

    path/to/file.py
    ```python
    <<<<<<< SEARCH
    old lines
    =======
    new lines
    >>>>>>> REPLACE
    ```

The file name is the nearest line above the ``<<<<<<<`` marker that is not blank or a fence
(decorations such as ``**``, backticks, ``File:`` or a trailing colon are removed); a block with
no name there uses the previous block's file. Marker lengths of 5-9 characters are accepted, as
are ``ORIGINAL``/``UPDATED`` for ``SEARCH``/``REPLACE``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from vibecode.errors import ExtractionError

_HEAD = re.compile(r"^\s*<{5,9}\s*(SEARCH|ORIGINAL|OLD|FIND)?\s*:?\s*$", re.IGNORECASE)
_DIVIDER = re.compile(r"^\s*={5,9}\s*$")
_TAIL = re.compile(r"^\s*>{5,9}\s*(REPLACE|UPDATED|NEW)?\s*:?\s*$", re.IGNORECASE)
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_PATH_TOKEN = re.compile(r"[\w.\-/\\]*[\w\-]\.[A-Za-z0-9_]{1,8}\b|[\w.\-]+/[\w.\-/]+")
# A label word counts only when a colon, a blank or " - " follows it: "inventory/x.py" keeps its "in".
_LABEL = re.compile(
    r"^(?:#+\s*)?(?:\*\*)?\s*(?:file(?:name)?|path|in|edit|update|modify|change)(?:\s*:\s*|\s+-?\s*|-\s+)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class SearchReplace:
    path: str | None
    search: str
    replace: str
    line: int  # 0-based line of the <<<<<<< marker in the answer


def has_markers(text: str) -> bool:
    return any(_HEAD.match(line) for line in text.split("\n"))


def parse_search_replace(text: str) -> list[SearchReplace]:
    lines = text.split("\n")
    blocks: list[SearchReplace] = []
    last_path: str | None = None
    i = 0
    while i < len(lines):
        if not _HEAD.match(lines[i].rstrip("\r")):
            i += 1
            continue
        head = i
        path = path_before(lines, head) or last_path
        search, j = _collect(lines, head + 1, _DIVIDER)
        if j >= len(lines):
            raise ExtractionError(
                f"The SEARCH/REPLACE block at answer line {head + 1} has no ======= divider.",
                "Each block needs <<<<<<< SEARCH, the old lines, =======, the new lines, >>>>>>> REPLACE.",
            )
        replace, k = _collect(lines, j + 1, _TAIL, stop=_HEAD)
        if k >= len(lines) or _HEAD.match(lines[k].rstrip("\r")):
            raise ExtractionError(
                f"The SEARCH/REPLACE block at answer line {head + 1} never ends: there is no "
                ">>>>>>> REPLACE line after its ======= divider."
            )
        blocks.append(SearchReplace(path, search, replace, head))
        last_path = path
        i = k + 1
    return blocks


def _collect(lines: list[str], start: int, end: re.Pattern[str], stop: re.Pattern[str] | None = None) -> tuple[str, int]:
    body: list[str] = []
    j = start
    while j < len(lines):
        raw = lines[j].rstrip("\r")
        if end.match(raw) or (stop is not None and stop.match(raw)):
            break
        body.append(lines[j])
        j += 1
    text = "\n".join(body)
    return (text + "\n" if body else ""), j


def path_before(lines: list[str], index: int, max_back: int = 3) -> str | None:
    """A file path on the nearest meaningful line above ``index`` (skipping blanks and fences)."""
    j = index - 1
    seen = 0
    while j >= 0 and seen < max_back:
        raw = lines[j].strip()
        j -= 1
        if not raw or _FENCE.match(raw):
            continue
        seen += 1
        return path_in_line(raw)
    return None


def path_in_line(line: str) -> str | None:
    """The file path a short line names ("**src/calc.py**", "File: `calc.py`:", "# calc.py")."""
    text = line.strip()
    if len(text) > 160:
        return None
    text = _LABEL.sub("", text)
    text = text.strip("*`'\": ").rstrip(":").strip("*`'\" ")
    if not text:
        return None
    if " " not in text and (_PATH_TOKEN.fullmatch(text) or "/" in text):
        return text
    tokens = [t for t in re.findall(r"`([^`]+)`", line) if _PATH_TOKEN.fullmatch(t.strip())]
    if tokens:
        return tokens[-1].strip()
    return None
