"""Exact, lossless text helpers shared by the patch modules.

File contents travel as ``str`` decoded from UTF-8 with ``surrogateescape``: any byte sequence
(Latin-1 files, stray invalid bytes) round-trips exactly through :func:`decode` and
:func:`encode`. Lines are split on ``"\\n"`` only and keep their endings, so ``"".join(lines)``
is always the original text (``str.splitlines`` would also split on form feeds and other
separators and lose which ending a line had).
"""

from __future__ import annotations

import re

_INDENT = re.compile(r"[ \t]*")
TAB_SIZE = 8  # how Python itself measures a tab when comparing indentation


def decode(data: bytes) -> str:
    return data.decode("utf-8", errors="surrogateescape")


def encode(text: str) -> bytes:
    return text.encode("utf-8", errors="surrogateescape")


def split_lines(text: str) -> list[str]:
    """Lines with their endings; ``"".join(split_lines(t)) == t``."""
    if not text:
        return []
    parts = text.split("\n")
    lines = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def strip_ending(line: str) -> str:
    """The line without its ``\\n`` / ``\\r\\n`` ending."""
    if line.endswith("\n"):
        line = line[:-1]
    if line.endswith("\r"):
        line = line[:-1]
    return line


def line_ending(line: str) -> str:
    if line.endswith("\r\n"):
        return "\r\n"
    if line.endswith("\n"):
        return "\n"
    return ""


def dominant_newline(lines: list[str]) -> str:
    """The ending most lines use (``"\\n"`` when there is none)."""
    crlf = sum(1 for line in lines if line.endswith("\r\n"))
    lf = sum(1 for line in lines if line.endswith("\n")) - crlf
    return "\r\n" if crlf > lf else "\n"


def indent_of(line: str) -> str:
    match = _INDENT.match(line)
    return match.group(0) if match else ""


def indent_width(indent: str) -> int:
    return len(indent.expandtabs(TAB_SIZE))


def to_lf(text: str) -> str:
    return text.replace("\r\n", "\n")
