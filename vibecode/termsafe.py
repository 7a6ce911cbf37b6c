"""Terminal-safe text: model and candidate output shown without its control sequences acting.

Text a model wrote or a candidate printed can carry terminal escapes: OSC 52 writes the
clipboard, OSC 0/2 sets the title, CSI sequences clear the screen or move the cursor (hiding
lines of a diff before the user applies it), a carriage return overwrites a line, and Unicode
bidi controls reorder what is displayed ("Trojan Source"). :func:`visible` shows each of them as
plain text (``\\x1b``, ``\\r``, ``\\u202e``) so that nothing acts on the terminal, while newlines
and tabs stay as they are. vibecode's own escapes (progress lines, dim thinking) are written by
the renderers around this text, never through it.
"""

from __future__ import annotations

import io
import re
from typing import TextIO, cast

# C0 controls except tab and newline, DEL, C1 controls, and the bidi embedding, override and
# isolate characters.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _show(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every control and bidi character shown as an escape; ``\\r\\n`` -> ``\\n``."""
    return _UNSAFE.sub(_show, text.replace("\r\n", "\n"))


def is_safe(text: str) -> bool:
    """True when ``text`` holds no character :func:`visible` would change."""
    return _UNSAFE.search(text.replace("\r\n", "\n")) is None


class _SafeStream(io.TextIOBase):
    def __init__(self, out: TextIO) -> None:
        self._out = out

    def write(self, text: str) -> int:
        self._out.write(visible(text))
        return len(text)

    def flush(self) -> None:
        self._out.flush()

    def isatty(self) -> bool:
        return self._out.isatty()


def safe_stream(out: TextIO) -> TextIO:
    """``out`` with every write passed through :func:`visible` (for renderers of model text)."""
    return out if isinstance(out, _SafeStream) else cast(TextIO, _SafeStream(out))
