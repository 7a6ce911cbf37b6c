"""Strings in a format the statement lists, for :mod:`vibecode.problems.constraints`. Read from an
examined problem (crawler_log_folder):

- the constraint line "logs[i] follows the format described in the statement." names the
  argument (a string, or a list of strings);
- the statement lists the forms as items that start with a quoted literal and a colon
  ("- `'../'` : Move to the parent folder ...", "- `'./'` : ...", "- `'x/'` : Move to the child
  folder named x ..."); a single letter that its own item calls "named x" stands for a name;
- the line "Folder names consist of lowercase English letters and digits." (the noun of "folder
  named x") gives the name's characters.

Read together: a check (each string is one of the forms, a name of those characters in place of
the letter) and the ``made`` rule ``format`` (each drawn string replaced by one of the forms, a
name made of the drawn string's own characters of the name's set, as short as it allows), since a
blind draw over the characters almost never is an operation (the forms without a name, where
answers differ, never come). The lines are then read; a promise inside a listed form's item ("This
folder is guaranteed to always exist") is part of that form's meaning, which every made input
keeps, so it no longer sets the inputs aside (:func:`in_format_item`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from vibecode.problems.constraint_sets import read_chars
from vibecode.problems.constraint_types import Check, Constraints

_FORMAT_LINE = re.compile(r"(\w+)(?:\[i\])? (?:follows|is in|matches) the format (?:described|given) in the "
                          r"(?:statement|description|problem)\s*\.?", re.I)
_ITEM = re.compile(r"^\s*[-*]\s*`?'([^'`\s]+)'`?\s*:\s*(.*)$", re.M)
_NAMES = re.compile(r"(\w+?)s? names consist (?:only )?of (.+?)\s*\.?", re.I)


def _forms(statement: str) -> list[tuple[str, str, str]]:
    """The listed forms: (literal, the letter that stands for a name or "", that name's noun)."""
    out = []
    for m in _ITEM.finditer(statement):
        literal, text = m.group(1), m.group(2)
        holder, noun = "", ""
        for letter in dict.fromkeys(ch for ch in literal if ch.isalpha() and ch.islower()):
            named = re.search(rf"\b(\w+) (?:named|called) `?{letter}`?\b", text)
            if named and literal.count(letter) == 1 and sum(ch.isalpha() for ch in literal) == 1:
                holder, noun = letter, named.group(1).lower()
        out.append((literal, holder, noun))
    return out


def format_items(statement: str) -> list[str]:
    """The statement's items that list the forms (their text after the quoted literal), where it
    lists at least two."""
    items = [m.group(2) for m in _ITEM.finditer(statement)]
    return items if len(items) >= 2 else []


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[*`]+", "", text).split())


def in_format_item(sentence: str, statement: str) -> bool:
    """The sentence is part of one of the statement's listed forms' items, or holds one whole: a
    promise in it ("This folder is guaranteed to always exist") belongs to that form, which every
    made input keeps."""
    plain = _plain(sentence).rstrip(".")
    return bool(plain) and any(plain in item or item.rstrip(".") in plain
                               for item in map(_plain, format_items(statement)))


def _pattern(forms: list[tuple[str, str, str]], chars: str) -> re.Pattern[str]:
    parts = []
    for literal, holder, _ in forms:
        if holder:
            i = literal.index(holder)
            parts.append(re.escape(literal[:i]) + f"[{re.escape(chars)}]+" + re.escape(literal[i + 1:]))
        else:
            parts.append(re.escape(literal))
    return re.compile("|".join(f"(?:{p})" for p in parts))


def _every(name: str, pattern: re.Pattern[str]) -> Callable[[dict[str, object]], bool | None]:
    def test(args: dict[str, object]) -> bool | None:
        v = args.get(name)
        items = [v] if isinstance(v, str) else v if isinstance(v, list) and all(isinstance(x, str) for x in v) else None
        return None if items is None else all(pattern.fullmatch(s) is not None for s in items)

    return test


def read_described_format(lines: list[str], statement: str, params: dict[str, str], c: Constraints) -> list[str]:
    """The lines read (see the module): the format line and the names line it needs; their check
    and rule are added to ``c``. Nothing is read unless both are there and the forms are listed."""
    forms = _forms(statement) if format_items(statement) else []
    nouns = {noun for _, holder, noun in forms if holder}
    for line in lines:
        m = _FORMAT_LINE.fullmatch(line.strip())
        if not m or params.get(m.group(1)) not in ("str", "list") or not forms or len(nouns) > 1:
            continue
        chars, said = "", []
        for other in lines:
            n = _NAMES.fullmatch(other.strip())
            if n and n.group(1).lower() in nouns:
                probe = Constraints()
                if read_chars("name", n.group(2), {"name": "str"}, probe):
                    chars, said = probe.chars["name"], [other]
        if nouns and not chars:
            continue
        spec = json.dumps({"forms": [[lit, holder] for lit, holder, _ in forms], "chars": chars})
        c.checks.append(Check(line, "described format", _every(m.group(1), _pattern(forms, chars)),
                              made=(m.group(1), "format", spec)))
        return [line, *said]
    return []


def format_line(lines: list[str]) -> bool:
    """Some line says the arguments follow the format the statement describes."""
    return any(_FORMAT_LINE.fullmatch(line.strip()) for line in lines)


__all__ = ["format_items", "format_line", "in_format_item", "read_described_format"]
