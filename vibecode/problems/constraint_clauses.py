"""The clauses of one constraint line, and whether a reading of the line read every one of them.

A line may make several claims ("The given input is guaranteed to be a tree and there will be no
repeated edges", "Both the ball and the destination exist in an empty space, and they will not be
in the same position initially"). A reader that recognises one of them reads the line, but the
line counts as understood (and vouches for generated inputs, see :func:`vibecode.clr.trust.tiers_vouched`)
only when every clause was read.

:func:`clauses` splits a line at its top-level conjunctions (``and``, ``but``, ``;``, a sentence
break; never inside parentheses, brackets or quotes). The split is deliberately generous ("s and t
consist of ..." splits after ``s``): a clause counts as read when it is read on its own, or when
leaving it out changes the line's reading (:func:`reading_key`): "s" is read, since without it the
reading no longer bounds ``s``. A clause that is neither, such as "they will not be in the same
position initially", was not read.
"""

from __future__ import annotations

import contextlib
import copy
import re
from collections.abc import Callable

from vibecode.problems.constraint_promises import PROMISED as _PROMISED
from vibecode.problems.constraint_types import Constraints, Term

# where a line may change claim: "; ", a sentence break, ", and", " and ", " but "
_SPLIT = re.compile(r"\s*;\s+|(?<=[.!?])\s+(?=[A-Z])|,?\s+(?:and|but)\s+", re.I)
_OPEN, _CLOSE = "([{", ")]}"


def _top_level(line: str) -> str:
    """``line`` with everything inside parentheses, brackets and quotes blanked out (same length)."""
    out, depth, quote = [], 0, ""
    for k, ch in enumerate(line):
        if quote:
            quote = "" if ch == quote else quote
            out.append("_")
        elif ch in "'\"" and not (k and line[k - 1].isalnum()):  # a quote, not "don't"
            quote = ch
            out.append("_")
        elif ch in _OPEN:
            depth += 1
            out.append("_")
        elif ch in _CLOSE and depth:
            depth -= 1
            out.append("_")
        else:
            out.append("_" if depth else ch)
    return "".join(out)


# a word that makes a clause a claim; a part without one is a fragment of its neighbour's list
# ("Both num1" and "num2 do not contain ...", "digits '0'" and "'1'", "one starting cell" and "one ending cell")
_VERB = re.compile(
    r"\b(?:is|are|be|been|has|have|consists?|contains?|represents?|exists?|will|do|does|can|cannot|may|must|"
    r"appears?|forms?|equals?|sorted|rotated|separated|guaranteed|lies|holds?)\b", re.I)
# a clause that permits rather than restricts ("and may contain leading zero(s)"): nothing to read
_PERMITS = re.compile(r"^\s*(?:\w+\s+)?may\s+(?!not\b)", re.I)


def clauses(line: str) -> list[tuple[int, int]]:
    """The spans of ``line``'s claims (start, end): split at its top-level conjunctions after any
    promise wording ("It is guaranteed that ..."), a fragment without a verb joined to its
    neighbour, a clause that only permits something ("may contain ...") left out; one span for a
    line with one claim."""
    text = line.rstrip().rstrip(".").rstrip()
    lead = _PROMISED.match(text)
    start = lead.end() if lead else 0
    spans: list[tuple[int, int]] = []
    for m in _SPLIT.finditer(_top_level(text), start):
        if m.start() > start:
            spans.append((start, m.start()))
        start = m.end()
    if start < len(text):
        spans.append((start, len(text)))
    joined: list[tuple[int, int]] = []
    pending: int | None = None  # the start of leading fragments ("Both num1", "d1i, d2i")
    for a, b in spans:
        verb = _VERB.search(_top_level(text)[a:b])
        if pending is not None:
            a, pending = pending, None
        if verb:
            joined.append((a, b))
        elif joined:
            joined[-1] = (joined[-1][0], b)
        else:
            pending = a
    if pending is not None:
        joined.append((pending, len(text)))
    claims = [(a, b) for a, b in joined if not _PERMITS.match(text[a:b])]
    return claims if len(claims) > 1 else [(0, len(line))]


def without(line: str, span: tuple[int, int], spans: list[tuple[int, int]]) -> str:
    """``line`` without the clause at ``span`` (joined by the conjunction that preceded the next)."""
    k = spans.index(span)
    if k + 1 < len(spans):
        return (line[: span[0]] + line[spans[k + 1][0]:]).strip()
    if k == 0:
        return ""
    return line[: spans[k - 1][1]].strip()


def _plain_value(value: object) -> object:
    if isinstance(value, (set, frozenset)):
        return sorted(repr(v) for v in value)
    if isinstance(value, dict):
        return sorted((repr(k), repr(_plain_value(v))) for k, v in value.items())
    return repr(value)


def _behaviour(value: object, depth: int = 0) -> object:
    """What a check's test depends on: its code and what its closure holds (plain values as they
    are, nested functions the same way, anything else by its type): "they will not be in the same
    position" is a flag in the closure of the check "the positions are empty cells"."""
    if isinstance(value, str) and len(value.split()) >= 3:
        return "<text>"  # the line a check keeps for its notes, not what it tests
    if isinstance(value, (str, int, float, bool, type(None))):
        return value
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_behaviour(v, depth) for v in value]
        return sorted(map(repr, items)) if isinstance(value, (set, frozenset)) else items
    code = getattr(value, "__code__", None)
    if code is not None and depth < 4:
        cells = getattr(value, "__closure__", None) or ()
        return (code.co_filename, code.co_firstlineno, [_behaviour(cell.cell_contents, depth + 1) for cell in cells])
    return type(value).__name__


def reading_key(c: Constraints) -> str:
    """What ``c`` holds, comparable between two readings (checks by kind, by what their tests
    depend on (:func:`_behaviour`) and by the arguments they draw from; length rules by their
    names; the rest as written)."""
    fields = sorted((name, repr(_plain_value(value))) for name, value in vars(c).items()
                    if name not in ("checks", "length_rules"))
    checks = sorted(repr((check.kind, check.members, check.pool, _behaviour(check.test))) for check in c.checks)
    rules = sorted((name, sorted(deps)) for name, (deps, _) in c.length_rules.items())
    return repr((fields, checks, rules))


PARTLY_READ = "partly read"  # the kind of a line a reader read only some clauses of
Aliases = dict[str, Term]
Reader = Callable[[str, Constraints, Aliases], bool]


def read_clauses(line: str, before: tuple[Constraints, Aliases], after: tuple[Constraints, Aliases],
                 read: Reader) -> tuple[Constraints, Aliases, bool]:
    """Check that the reading ``after`` of ``line`` (from the state ``before``) read each of its
    clauses: leaving the clause out changes the reading, or the clause is read on its own (then
    its own reading is added: the reader that took the whole line may have stopped at another
    clause). Returns the reading and whether every clause was read."""
    spans = clauses(line)
    if len(spans) < 2:
        return after[0], after[1], True
    key = reading_key(after[0])
    c, aliases, every = after[0], after[1], True
    for span in spans:
        rest = without(line, span, spans)
        c_rest, aliases_rest = copy.deepcopy(before[0]), dict(before[1])
        if rest:
            with contextlib.suppress(TypeError, ValueError, KeyError, IndexError):
                read(rest, c_rest, aliases_rest)
        if reading_key(c_rest) != key:
            continue  # the clause counts in the reading
        c_alone, aliases_alone = copy.deepcopy(c), dict(aliases)
        alone = False
        with contextlib.suppress(TypeError, ValueError, KeyError, IndexError):
            alone = read(line[span[0]: span[1]], c_alone, aliases_alone)
        if alone:
            c, aliases = c_alone, aliases_alone
        else:
            every = False
    return c, aliases, every
