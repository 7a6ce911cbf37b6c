"""Find fenced code blocks in model output, tolerating what models get wrong.

- Backtick or tilde fences of any length, indented or not (inside list items).
- Any info string: ``python``, ``py``, ``python3``, none at all, ``python:path/to/file.py``,
  ``path/to/file.py``, ``python title="x.py"``, ``diff``...
- A fence that never closes runs to the end of the text (``closed=False``).
- A new opening fence with a language tag while a block is open (the model forgot to close
  the previous one) closes that block and opens the next.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")
_INFO_PATH = re.compile(r"""(?:path|file|filename|title)\s*=\s*["']?([^"'\s]+)["']?""")
_EXT_LANG = {
    "py": "python", "pyi": "python", "js": "javascript", "mjs": "javascript", "cjs": "javascript",
    "jsx": "javascript", "ts": "typescript", "tsx": "tsx", "go": "go", "rs": "rust",
}
PYTHON_TAGS = frozenset({"", "python", "py", "python3", "py3", "python2", "ipython", "pycon", "sage"})


@dataclass(frozen=True)
class Block:
    lang: str  # lower-cased first word of the info string ("" when none)
    info: str  # the whole info string
    path: str | None  # a file path named in the info string, if any
    content: str  # the lines between the fences, endings kept, common indentation removed
    start: int  # 0-based line of the opening fence
    end: int  # 0-based line of the closing fence (or one past the last line when unclosed)
    closed: bool


def find_blocks(text: str) -> list[Block]:
    lines = text.split("\n")
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i].rstrip("\r"))
        if not opening:
            i += 1
            continue
        fence = opening.group("fence")
        info = opening.group("info").strip()
        indent = opening.group("indent")
        body: list[str] = []
        j = i + 1
        closed = False
        reopened = False
        while j < len(lines):
            raw = lines[j].rstrip("\r")
            other = _FENCE.match(raw)
            if other and other.group("fence")[0] == fence[0] and len(other.group("fence")) >= len(fence):
                if not other.group("info").strip():
                    closed = True
                    break
                if _looks_like_language(other.group("info")):
                    reopened = True
                    break
            body.append(lines[j])
            j += 1
        blocks.append(_block(info, body, indent, i, j, closed))
        i = j if reopened else j + 1
    return blocks


def _looks_like_language(info: str) -> bool:
    word = info.strip().split()[0] if info.strip() else ""
    return bool(re.fullmatch(r"[A-Za-z][\w+#.-]*(:\S+)?", word))


def _block(info: str, body: list[str], indent: str, start: int, end: int, closed: bool) -> Block:
    lang, path = parse_info(info)
    if indent and all(not line.strip() or line.startswith(indent) for line in body):
        body = [line[len(indent) :] if line.strip() else line.lstrip(" \t") for line in body]
    content = "\n".join(body)
    if body:
        content += "\n"
    return Block(lang, info, path, content, start, end, closed)


def parse_info(info: str) -> tuple[str, str | None]:
    """(language, path) from a fence's info string."""
    if not info:
        return "", None
    named = _INFO_PATH.search(info)
    first = info.split()[0].strip("{}.")
    path: str | None = named.group(1) if named else None
    lang = first.lower()
    if ":" in first:
        lang_part, _, path_part = first.partition(":")
        lang = lang_part.lower()
        path = path or path_part or None
    elif _is_pathlike(first):
        path = path or first
        lang = _EXT_LANG.get(first.rsplit(".", 1)[-1].lower(), "")
    if path and not lang:
        lang = _EXT_LANG.get(path.rsplit(".", 1)[-1].lower(), "")
    return lang, path


def _is_pathlike(word: str) -> bool:
    if "/" in word or "\\" in word:
        return True
    return bool(re.fullmatch(r"[\w.-]+\.(py|pyi|js|mjs|cjs|jsx|ts|tsx|go|rs|toml|cfg|ini|txt|md|json|yaml|yml)", word))


def is_python_tag(lang: str) -> bool:
    return lang in PYTHON_TAGS


THINK_OPEN = "<think>"
THINK_CLOSE = "</think>"


def answer_only(text: str) -> str:
    """The answer part of text that may still contain a think block: what follows the last
    ``</think>``, cut at any ``<think>`` that opens after it."""
    close = text.rfind(THINK_CLOSE)
    if close != -1:
        text = text[close + len(THINK_CLOSE) :]
    opened = text.find(THINK_OPEN)
    if opened != -1:
        text = text[:opened]
    return text
