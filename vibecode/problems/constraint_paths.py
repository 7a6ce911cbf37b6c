"""Strings that start with a given character, and paths in a given format, for
:mod:`vibecode.problems.constraints`. Read from examined lines (remove_sub_folders_from_the_filesystem):

- the line "folder[i] always starts with the character '/'." -> a check, and the ``made`` rule
  ``prefix`` (the drawn string's first character replaced);
- the description's sentence "The format of a path is one or more concatenated strings of the
  form: '/' followed by one or more lowercase English letters." -> for the argument whose
  characters include '/', a check (``(/[a-z]+)+``) and the ``made`` rule ``path`` (runs of '/'
  made single, a '/' first, none last, each name at least one letter). Blind draws over
  ``/a-z`` are almost never such paths.

The sentence counts as read (no promise for :func:`vibecode.clr.trust.tiers_vouched`) as a
whole: its check's line is the sentence.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from vibecode.problems.constraint_types import Check, Constraints

_STARTS = re.compile(r"(\w+)(?:\[i\])? (?:always )?starts? with (?:the character )?'(.)'\s*\.?", re.I)
_PATH = re.compile(r"the format of a path is one or more concatenated strings of the form:? ?'/' followed by one or "
                   r"more lowercase english letters\s*\.?", re.I)
PATH = re.compile(r"(?:/[a-z]+)+")


def string_items(v: object) -> list[str] | None:
    """A string argument as one item, a list of strings as its items; None for anything else."""
    if isinstance(v, str):
        return [v]
    if isinstance(v, list) and all(isinstance(x, str) for x in v):
        return list(v)
    return None


def every_string(name: str, fn: Callable[[str], bool]) -> Callable[[dict[str, object]], bool | None]:
    """A test that ``fn`` holds for the string ``name`` or each of its strings; None for anything else."""
    def test(args: dict[str, object]) -> bool | None:
        items = string_items(args.get(name))
        return None if items is None else all(fn(s) for s in items)

    return test


def read_starts(line: str, params: dict[str, str], c: Constraints) -> bool:
    """"folder[i] always starts with the character '/'": a check and the ``prefix`` rule."""
    m = _STARTS.fullmatch(line.strip())
    if not m or params.get(m.group(1)) not in ("str", "list"):
        return False
    name, ch = m.groups()
    c.checks.append(Check(line, "first character", every_string(name, lambda s: s.startswith(ch)), made=(name, "prefix", ch)))
    return True


def read_path_format(sentences: list[str], params: dict[str, str], c: Constraints) -> list[str]:
    """The path-format sentences read (see the module); their checks and rules are added to ``c``."""
    names = [n for n in params if params[n] in ("str", "list") and "/" in c.chars.get(n, "")]
    read = []
    for sentence in sentences:
        if len(names) == 1 and _PATH.fullmatch(sentence.strip()):
            c.checks.append(Check(sentence, "path format", every_string(names[0], lambda s: PATH.fullmatch(s) is not None),
                                  made=(names[0], "path", "/")))
            read.append(sentence)
    return read
