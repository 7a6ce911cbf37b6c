"""LeetCode-style literals as Python values.

LeetCode writes values in a JSON-like form: ``true``/``false``/``null``, strings in double
quotes (with backslash escapes), nested lists, negative numbers and floats. Problem statements,
model-proposed inputs and reasoning traces all use it, so one small scanner serves them all:

- :func:`parse_value` turns one literal into a Python value (``ast.literal_eval`` after the
  keywords are translated outside strings);
- :func:`scan_value` reads the longest literal at a position of a longer text;
- :func:`parse_arguments` reads ``a = [1,2], b = 9`` or ``[1,2], 9``;
- :func:`split_top_level` splits on commas that are not inside brackets or strings.
"""

from __future__ import annotations

import ast
import json
import re

_KEYWORDS = {"true": "True", "false": "False", "null": "None", "None": "None",
             "True": "True", "False": "False"}
_OPEN = {"[": "]", "(": ")", "{": "}"}
_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?")
_CALL = re.compile(r"\s*((?:[A-Za-z_]\w*(?:\(\))?\.)*)([A-Za-z_]\w*)\s*\(")
_KEYWORD = re.compile(r"(?:true|false|null|True|False|None)\b")
_NAME_EQ = re.compile(r"\s*([A-Za-z_]\w*)\s*=(?!=)\s*", re.S)
# "n = 5 and edges = [...]": an "and" between two assignments, as some statements write it
_AND_NAME_EQ = re.compile(r"(?:\s*,)?\s+and\s+(?=[A-Za-z_]\w*\s*=(?!=))")
_SMART_QUOTES = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'"})


class LiteralError(ValueError):
    """Text that is not a LeetCode/Python literal."""


def _string_end(text: str, i: int) -> int:
    """Index just past the string literal that starts at ``text[i]`` (a quote)."""
    quote = text[i]
    j = i + 1
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == quote:
            return j + 1
        if c == "\n":
            break
        j += 1
    raise LiteralError(f"unterminated string starting at {text[i:i + 20]!r}")


def _translate(text: str, kwargs: bool = False) -> str:
    """Replace LeetCode keywords outside strings; keep everything else verbatim. With ``kwargs``,
    a name followed by ``=`` (a keyword argument) is kept too."""
    out: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c in "\"'":
            end = _string_end(text, i)
            out.append(text[i:end])
            i = end
        elif c.isdigit():
            m = _NUMBER.match(text, i)
            end = m.end() if m else i + 1
            out.append(text[i:end])
            i = end
        elif c.isalpha() or c == "_":
            j = i
            while j < len(text) and (text[j].isalnum() or text[j] == "_"):
                j += 1
            word = text[i:j]
            if kwargs and re.match(r"\s*=(?!=)", text[j:]):
                out.append(word)
                i = j
                continue
            if word not in _KEYWORDS:
                raise LiteralError(f"{word!r} is not a value")
            out.append(_KEYWORDS[word])
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def clean(text: str) -> str:
    """Strip what surrounds a value in Markdown/HTML: backticks, bold markers, smart quotes."""
    text = text.translate(_SMART_QUOTES).strip()
    for wrapper in ("**", "__", "`"):
        while len(text) >= 2 * len(wrapper) and text.startswith(wrapper) and text.endswith(wrapper):
            text = text[len(wrapper) : -len(wrapper)].strip()
    return text


def parse_value(text: str) -> object:
    """One literal as a Python value. Raises :class:`LiteralError`."""
    src = clean(text)
    if not src:
        raise LiteralError("empty value")
    try:
        tree = ast.parse(_translate(src), mode="eval")
        return ast.literal_eval(tree)
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError) as exc:
        raise LiteralError(f"{src[:60]!r} is not a value") from exc


def bracket_end(text: str, i: int) -> int:
    """Index just past the bracketed group opening at ``text[i]``, skipping strings."""
    stack = [_OPEN[text[i]]]
    j = i + 1
    while j < len(text):
        c = text[j]
        if c in "\"'":
            j = _string_end(text, j)
            continue
        if c in _OPEN:
            stack.append(_OPEN[c])
        elif c in ")]}":
            if c != stack.pop():
                raise LiteralError("unbalanced brackets")
            if not stack:
                return j + 1
        j += 1
    raise LiteralError("unclosed bracket")


def scan_value(text: str, pos: int = 0) -> tuple[object, int] | None:
    """The literal that starts at ``pos`` (after spaces) and the index just past it, or None."""
    text = text.translate(_SMART_QUOTES)
    i = pos
    while i < len(text) and text[i] in " \t":
        i += 1
    if i >= len(text):
        return None
    c = text[i]
    try:
        if c in _OPEN:
            end = bracket_end(text, i)
        elif c in "\"'":
            end = _string_end(text, i)
        else:
            m = _NUMBER.match(text, i) or _KEYWORD.match(text, i)
            if m is None:
                return None
            end = m.end()
            if end < len(text) and (text[end].isalnum() or text[end] == "_"):
                return None
        return parse_value(text[i:end]), end
    except LiteralError:
        return None


def split_top_level(text: str, sep: str = ",") -> list[str]:
    """Split on ``sep`` outside brackets and strings."""
    parts: list[str] = []
    depth = 0
    start = 0
    i = 0
    while i < len(text):
        c = text[i]
        if c in "\"'":
            i = _string_end(text, i)
            continue
        if c in _OPEN:
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
        i += 1
    parts.append(text[start:])
    return parts


def _and_as_comma(text: str) -> str:
    """``text`` with each ``and`` (or ``, and``) that joins two assignments outside brackets and
    strings written as a comma: ``n = 5 and edges = [[0, 1]]`` -> ``n = 5, edges = [[0, 1]]``."""
    out: list[str] = []
    depth = 0
    i = 0
    while i < len(text):
        c = text[i]
        if c in "\"'":
            end = _string_end(text, i)
            out.append(text[i:end])
            i = end
            continue
        if c in _OPEN:
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and (m := _AND_NAME_EQ.match(text, i)) and out and "=" in "".join(out):
            out.append(", ")
            i = m.end()
            continue
        out.append(c)
        i += 1
    return "".join(out)


def parse_arguments(text: str) -> list[tuple[str | None, object]]:
    """``a = [1,2], b = 9`` -> ``[("a", [1,2]), ("b", 9)]``; ``[1,2], 9`` -> names None.

    Raises :class:`LiteralError` when a value does not parse or named and unnamed values mix.
    """
    src = clean(text.translate(_SMART_QUOTES))
    if not src:
        return []
    pieces = split_top_level(_and_as_comma(src))
    groups: list[tuple[str | None, str]] = []
    for piece in pieces:
        m = _NAME_EQ.match(piece)
        if m and m.group(1) not in _KEYWORDS:
            groups.append((m.group(1), piece[m.end() :]))
        elif groups and groups[-1][0] is not None:
            name, value = groups[-1]
            groups[-1] = (name, value + "," + piece)
        else:
            groups.append((None, piece))
    named = {name is not None for name, _ in groups}
    if len(named) > 1:
        raise LiteralError("mixes named and unnamed arguments")
    out: list[tuple[str | None, object]] = []
    for name, value in groups:
        value = value.strip().rstrip(";").strip()
        if name is None and not value:
            continue
        out.append((name, parse_value(value)))
    return out


def read_call(text: str, pos: int = 0) -> tuple[str, list[object], dict[str, object], int] | None:
    """The call ``name(1, [2], k=3)`` starting at ``pos``: ``(name, args, kwargs, end)`` or None.

    ``name`` may be dotted (``Solution().twoSum`` gives ``"twoSum"``); arguments must be literals.
    """
    m = _CALL.match(text, pos)
    if not m:
        return None
    open_at = m.end() - 1
    try:
        end = bracket_end(text, open_at)
        inner = _translate(text[open_at + 1 : end - 1], kwargs=True)
        call = ast.parse(f"f({inner})", mode="eval").body
    except (LiteralError, SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    if not isinstance(call, ast.Call) or any(k.arg is None for k in call.keywords):
        return None
    try:
        args = [ast.literal_eval(a) for a in call.args]
        kwargs = {str(k.arg): ast.literal_eval(k.value) for k in call.keywords}
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return m.group(2), args, kwargs, end


def parse_call(text: str) -> tuple[str, list[object], dict[str, object]] | None:
    """``name(1, [2], k=3)`` (the whole text) -> ``("name", [1, [2]], {"k": 3})``, else None."""
    got = read_call(text)
    if got is None or text[got[3] :].strip():
        return None
    return got[0], got[1], got[2]


def to_leetcode(value: object) -> str:
    """A value in LeetCode's notation (``true``, ``null``, double-quoted strings)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(to_leetcode(v) for v in value) + "]"
    return repr(value)
