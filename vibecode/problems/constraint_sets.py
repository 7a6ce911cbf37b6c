"""Character sets, value sets and sorted/distinct readings for :mod:`vibecode.problems.constraints`.

``s consists of lowercase English letters``, ``grid[i][j] is '0' or '1'``, "nums is sorted",
"distinct integers nums"; and the check that drops a sorted/distinct reading an example breaks.
"""

from __future__ import annotations

import re
import string

from vibecode.problems.constraint_types import Check, Constraints, number
from vibecode.types import Problem

_SYMBOLS = "!#$%&()*+,-./:;<=>?@[]^_{|}~"
# A span of digits: "digit 1-9", "digits from 1 to 9", "a digit in the range [1, 9]".
_DIGIT_SPAN = re.compile(r"\bdigits?\s+(?:from\s+)?`?([0-9])`?\s*(?:-|to|through)\s*`?([0-9])\b"
                         r"|\bdigits?\s+in\s+the\s+range\s+\[\s*([0-9])\s*,\s*([0-9])\s*\]")


def drop_what_examples_break(problem: Problem, c: Constraints) -> None:
    """An example's input is a real input: a sorted/distinct reading it breaks was a misreading
    ("nums1 and nums2, sorted" where nums1 ends in padding zeros), so it is dropped."""
    for ex in problem.examples:
        for name in list(c.sorted):
            v = ex.inputs.get(name)
            flat = [x for x in v if not isinstance(x, list)] if isinstance(v, list) else []
            try:
                if flat and flat != sorted(flat, key=lambda x: (x is None, x)):
                    c.sorted.discard(name)
            except TypeError:
                c.sorted.discard(name)
        for name in list(c.chars):  # "lower and upper case letters" read as upper case only
            text = "".join(str(x) for x in _strings(ex.inputs.get(name)))
            if set(text) - set(c.chars[name]):
                del c.chars[name]
        for name in list(c.choices):
            leaves = _strings(ex.inputs.get(name), keep=True)
            if any(v not in c.choices[name] for v in leaves if v is not None):
                del c.choices[name]
        for name in list(c.unique):
            v = ex.inputs.get(name)
            flat = [repr(x) for x in v if x is not None] if isinstance(v, list) else []
            if len(set(flat)) != len(flat):
                c.unique.discard(name)


def _strings(value: object, keep: bool = False) -> list[object]:
    """The leaves of a value: strings only, or (``keep``) every leaf."""
    if isinstance(value, list):
        return [x for v in value for x in _strings(v, keep)]
    return [value] if keep or isinstance(value, str) else []


# ascending only: "sorted in non-increasing / descending / decreasing / reverse order" is not
# (no reading keeps the order descending, so such a line is left unread: skipped)
_DOWN = r"(?:non-?increasing|descending|decreasing|reverse)\b"
SORTED = re.compile(rf"\bsorted\b(?!\W+(?:in\W+)?(?:(?:a|an|the|strictly)\W+)*{_DOWN})"
                    r"|(?<!non-)(?<!non)\b(?:non-?decreasing|ascending|increasing)\s+order\b", re.I)
UNIQUE = re.compile(r"\b(?:unique|distinct)\b", re.I)


_GENERIC = re.compile(r"(?:all|the|of|in|given|input|array|list|elements?|values?|integers?|numbers?|strings?|"
                      r"words?|points?|items?|entries|are|is|and|pairwise|each|every|an?|has|have|tree|nodes?|pairs?|positions?|"
                      r"locations?|coordinates?|intervals?|start|end|points?|[a-z]+_?i|\W)+", re.I)


def marked(word: re.Pattern[str], statement: str, lines: list[str], names: list[str],
           params: dict[str, str] | None = None) -> set[str]:
    """The arguments that ``word`` ("sorted", "distinct") is said of: a constraint line with the
    word names them (or there is one candidate, and the line names no other argument and says it
    of the input's items, not "Heights of all trees"); in the statement the word must stand within
    a few words of the argument's name, in a sentence that is not about the answer."""
    out: set[str] = set()
    others = [n for n in (params or {}) if n not in names]
    for line in lines:
        if word.search(line) and not re.search(r"\b(?:return|answer|output|result)\b", line, re.I):
            named = [n for n in names if re.search(rf"\b{re.escape(n)}\b", line)]
            said_of = line[: word.search(line).start()]  # type: ignore[union-attr]
            lone = len(names) == 1 and not any(re.search(rf"\b{re.escape(n)}\b", line) for n in others) \
                and bool(_GENERIC.fullmatch(said_of or " "))
            out.update(named or (names if lone else []))
    for sentence in re.split(r"(?<=[.!?])\s+|\n", statement):
        if not word.search(sentence) or re.match(r"\W*(?:return|find|output|count)\b", sentence, re.I):
            continue
        if re.search(r"\brotated\b|\bpossibly\b", sentence, re.I):
            continue
        # "distinct integers nums", "nums of unique elements"; not "distinct indices", "unique combinations"
        w = word.pattern if word is SORTED else rf"(?:{word.pattern})\s+(?:integers|numbers|values|elements|strings|words|characters|letters)"
        for n in names:
            if params and params.get(n) == "list" and re.search(r"(?:unique|distinct)\s+(?:characters|letters)", sentence, re.I):
                continue  # "arr ... that has unique characters": the letters of its strings, not its items
            near = rf"(?:{w})\W+(?:\w+\W+){{0,3}}?{re.escape(n)}\b|\b{re.escape(n)}\W+(?:\w+\W+){{0,3}}?(?:{w})"
            if re.search(near, sentence, re.I):
                out.add(n)
    return out


def read_chars(subject: str, desc: str, params: dict[str, str], c: Constraints) -> bool:
    names = [n for n in re.findall(r"\w+", subject) if n in params]
    names += [m for m in re.findall(r"(\w+)\[\w+\]", subject) if m in params and m not in names]
    names += _all_columns(subject, c)
    if re.fullmatch(r"\s*(?:the (?:letters|characters) (?:in|of) )?all (?:the )?(?:input )?strings\s*", subject, re.I):
        # "All strings consist of ...", "The letters in all input strings are from the set ...": the
        # strings and the lists (a list's characters are checked in its strings only)
        names = [n for n, k in params.items() if k in ("str", "list")]
    if not names:
        return False
    chars = ""
    low = desc.lower()
    quoted = re.findall(r"'([^']+)'|\"([^\"]+)\"", desc)
    for a, b in quoted:
        chars += a or b
    if chars and re.search(r"\bfrom the set\b", low):  # "lowercase letters from the set {'a', ..., 'f'}": those only
        low = ""
    low = low.replace("lower and upper case", "lowercase uppercase").replace("lower case", "lowercase").replace("lower-case", "lowercase").replace("upper case", "uppercase").replace("upper-case", "uppercase")
    if "lowercase" in low:
        chars += string.ascii_lowercase
    if "uppercase" in low:
        chars += string.ascii_uppercase
    letters = re.search(r"(?<!lowercase )(?<!uppercase )english letters?\b", low) or \
        (re.search(r"\bletters?\b", low) and "lowercase" not in low and "uppercase" not in low)
    if letters and not _listed(low, "letter"):
        chars += string.ascii_letters
    span = _digit_span(low)
    if span:  # "a digit 1-9 or '.'": those digits, not every digit
        chars += "".join(str(d) for d in range(span[0], span[1] + 1))
    elif "digit" in low and not _listed(low, "digit"):
        chars += string.digits
    if "parenthes" in low:
        chars += "()"
    if "space" in low:
        chars += " "
    if "symbol" in low or "punctuation" in low:
        chars += _SYMBOLS
    if not chars:
        return False
    unique = "".join(dict.fromkeys(chars))
    for n in names:
        c.chars[n] = unique
    return True


def _digit_span(low: str) -> tuple[int, int] | None:
    """The first and last digit of a span the text names ("digit 1-9", "digits in the range [1, 9]")."""
    found = _DIGIT_SPAN.search(low)
    if found is None:
        return None
    first, last = (int(d) for d in found.groups() if d is not None)
    return (first, last) if first <= last else None


def _listed(low: str, word: str) -> bool:
    """Whether the quoted characters right after ``word`` are the ones meant ("only of digits
    '0' and '1'", ones_and_zeroes; "the letters 'a' and 'b'"), so not the whole class; the
    quoted ones are read already."""
    quoted = r"['\"][^'\"]+['\"]"
    found = re.search(rf"\b{word}s?\s*:?\s*{quoted}(?:\s*(?:,|and|or)\s*{quoted})*", low)
    return found is not None and not re.match(r"\s*(?:,|and|or)\s*\w", low[found.end():])  # not "... '.' and digits"


def _all_columns(subject: str, c: Constraints) -> list[str]:
    """The lists whose every column the subject names ("fromi and toi" with ``tickets[i] =
    [fromi, toi]``): what is said of those names is said of every string in the list."""
    words = set(re.findall(r"\w+", re.sub(r"<sub>(\w+)</sub>", r"\1", subject)))
    out = []
    for name in dict.fromkeys(n for n, _ in c.columns.values()):
        cols = {k for a, (n, k) in c.columns.items() if n == name}
        if {k for a, (n, k) in c.columns.items() if n == name and a in words} == cols:
            out.append(name)
    return out


def read_choice(subject: str, desc: str, params: dict[str, str], c: Constraints) -> bool:
    """``grid[i][j] is '0' or '1'``, ``x is either 0 or 1``, ``board[i][j] is either 'M', 'E', or a
    digit from '1' to '8'``: a set of values (or characters)."""
    names = [n for n in re.findall(r"\w+", subject) if n in params]
    if re.fullmatch(r"\s*(?:node|Node|treeNode|TreeNode|ListNode)\.val\s*", subject):
        names = [n for n, k in params.items() if k in ("treenode", "listnode")]
    if not names or re.search(r"[<>=]", desc):
        return False
    items = [t.strip().strip("`") for t in re.split(r",|\bor\b", desc) if t.strip()]
    values: list[object] = []
    for item in items:
        span = re.fullmatch(r"an? (?:digit|letter|character) from '(.)' to '(.)'", item)
        if span and span.group(1) <= span.group(2):  # "or a digit from '1' to '8'"
            values += [chr(k) for k in range(ord(span.group(1)), ord(span.group(2)) + 1)]
            continue
        q = re.fullmatch(r"'(.*)'|\"(.*)\"", item)
        if q:
            values.append(q.group(1) if q.group(1) is not None else q.group(2))
            continue
        n = number(item)
        if n is None:
            return False
        values.append(n)
    if len(values) < 2:
        return False
    cell = re.fullmatch(r"\s*(\w+)((?:\[\w+\])+)\s*", subject)
    at = re.findall(r"\[(\w+)\]", cell.group(2)) if cell else []
    if cell and any(len(k) > 1 for k in at):  # "board[clickr][clickc] is either 'M' or 'E'": one cell
        known = all(len(k) == 1 or k.isdigit() or k in c.columns for k in at)
        return known and _cell_choice(subject.strip(), cell.group(1), at, values, c)
    for name in names:
        if all(isinstance(v, str) and len(v) == 1 for v in values):
            c.chars[name] = "".join(str(v) for v in values)
        else:
            c.choices[name] = values
    return True


def _cell_choice(line: str, name: str, at: list[str], values: list[object], c: Constraints) -> bool:
    """The cells of ``name`` at the indices ``at`` hold one of ``values``: a check. An index is a
    letter (every item: ``details[i][10]``), a position (``10``) or a column of another argument
    (``board[clickr][clickc]``, ``clickr`` being ``click[0]``)."""

    def test(args: dict[str, object]) -> bool | None:
        level: list[object] = [args.get(name)]
        for k in at:
            nxt: list[object] = []
            for v in level:
                if not isinstance(v, (list, str)):
                    return None
                if len(k) == 1 and not k.isdigit():
                    nxt += list(v)
                    continue
                if k.isdigit():
                    index: object = int(k)
                else:
                    source, col = c.columns[k]
                    row = args.get(source)
                    index = row[col] if isinstance(row, list) and col < len(row) else None
                if not isinstance(index, int) or not 0 <= index < len(v):
                    return None
                nxt.append(v[index])
            level = nxt
        return all(x in values for x in level)

    c.checks.append(Check(line, "cells' values", test))
    return True
