"""Counts of the cells the statement names by what a value means, read into checks
(generate-then-filter). Built from dev lines only:

- the statement says what a value of the one grid (or list) of integers stands for: "each `1`
  marks the home of one friend", "empty spaces (represented as `0`)", "`1` representing the
  starting square", "`seats[i] = 0` represents that the i^th seat is empty";
- a line counts such cells: "There will be at least two friends in the grid"
  (best_meeting_point), "At least one seat is empty." / "At least one seat is occupied."
  (maximize_distance_to_closest_person; "occupied" is the cells that are not "empty"), "The maze
  contains at least 2 empty spaces." (the_maze, the_maze_iii), "There is exactly one starting cell
  and one ending cell." (unique_paths_iii), "Only one process has no parent." (kill_process, "Only
  one process has `ppid[i] = 0`, which means this process has no parent process") -> the number of
  cells of that value;
- "Both the ball and the destination exist in an empty space, and they will not be in the same
  position initially." (the_maze, the_maze_iii) -> the two positions (``[row, col]``) are cells of
  that value, and differ;
- "For all x that 1 <= x <= n * n there is exactly one x that is not equal to any of the grid
  members." / "... exactly one x that is equal to exactly two of the grid members." / "For all x that
  1 <= x <= n * n except two of them there is exactly one pair of i, j that ... and grid[i][j] == x."
  (find_missing_and_repeated_values, three lines of one form) -> how many values of the range occur
  0 times, twice, or once among the entries;
- ``endi < starti+1`` (interval_list_intersections, both lists): a column of row i is below another
  column of row i + 1 (the columns named in ``firstList[i] = [starti, endi]``).

A word is matched to a value only when it shares a word with that value's meaning and with no
other's; anything unclear is not read. A check that cannot read an input says None.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from vibecode.problems.constraint_types import Check, Constraints, Term, number, resolve

_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_STOP = {"the", "a", "an", "of", "one", "in", "that", "is", "are", "be", "will", "there", "which", "to", "and",
         "we", "can", "cannot", "over", "ith", "i^th", "th", "each", "it", "as", "with", "this", "by", "has", "have"}
_COUNT = re.compile(r"\b(at least|at most|exactly)?\s*(?<![\^\d])(\d+|one|two|three|four|five)\s+([a-z][a-z ]*)", re.I)
_MEANS = (  # (value, meaning words): four ways statements say what a cell value stands for
    re.compile(r"`(-?\d+)`\s+marks\s+([a-z ]{3,40})", re.I),
    re.compile(r"([a-z][a-z ]{2,40}?)\s*\(represented as `(-?\d+)`\)", re.I),
    re.compile(r"`(-?\d+)`\s+represent(?:ing|s)\s+([a-z ]{3,40})", re.I),
    re.compile(r"`(?:\w+)\[\w\](?:\[\w\])?\s*=\s*(-?\d+)`,?\s+(?:represents|which means)\s+([a-z^` ]{3,60})", re.I),
)
_MEANT = re.compile(r"`(\w+)\[\w\](?:\[\w\])?\s*=\s*-?\d+`,?\s+(?:represents|which means)\b")
_BOTH = re.compile(r"^both the (\w+) and the (\w+) exist in an? ([a-z ]+?)(, and they will not be in the same "
                   r"position(?: initially)?)?\s*\.?$", re.I)
_NEXT_ROW = re.compile(r"^(\w+?)([a-z]) < (\w+?)([a-z])\s*\+\s*1\s*\.?$")
_ANTONYM = {"occupied": "empty"}
_TALLY = re.compile(r"^for all x that (\S+) <= x <= (.+?)(?: except (\w+) of them)? there is exactly one (?:x that is not "
                    r"equal to any of the (\w+) members|x that is equal to exactly (\w+) of the (\w+) members|pair of "
                    r"i, j that .+ and (\w+)\[i\]\[j\] == x)\s*\.?$", re.I)


def _words(text: str) -> set[str]:
    out = set()
    for w in re.findall(r"[a-z^]+", text.lower()):
        w = w if w in _STOP else w[:-1] if w.endswith("s") and len(w) > 3 else w
        if w not in _STOP:
            out.add(w)
    return out


def meanings(statement: str) -> dict[int, set[str]]:
    """Each value the statement gives a meaning, with the words of that meaning (the words all
    meanings share dropped)."""
    found: dict[int, set[str]] = {}
    statement = statement.replace("**", "")
    for k, pattern in enumerate(_MEANS):
        for m in pattern.finditer(statement):
            value, words = (m.group(2), m.group(1)) if k == 1 else (m.group(1), m.group(2))
            words = re.split(r"[.,;(]", words)[0]
            found.setdefault(int(value), set()).update(_words(words))
    if len(found) > 1:
        shared = set.intersection(*found.values())
        found = {v: w - shared for v, w in found.items()}
    return {v: w for v, w in found.items() if w}


def _value_of(phrase: str, means: dict[int, set[str]], drop: set[str]) -> tuple[int, bool] | None:
    """(value, the cells of that value or not) a noun phrase names; None when unclear."""
    words = _words(phrase) - drop
    negated = False
    for word, other in _ANTONYM.items():
        if word in words and not any(word in w for w in means.values()):
            words, negated = (words - {word}) | {other}, True
    hits = [v for v, w in means.items() if words & w]
    return (hits[0], negated) if len(hits) == 1 else None


def _points(params: dict[str, str], statement: str) -> list[str]:
    """The list arguments the statement spells as a position: "`start = [start_row, start_col]`"."""
    return [n for n, k in params.items() if k == "list" and re.search(rf"`{re.escape(n)} = \[", statement)]


def _grid(params: dict[str, str], statement: str, points: list[str]) -> str | None:
    """The one list argument (other than positions) the statement names."""
    lists = [n for n, k in params.items() if k == "list" and n not in points
             and re.search(rf"`{re.escape(n)}(?:\[\w\])*(?: = [^`]*)?`", statement)]
    return lists[0] if len(lists) == 1 else None


def _cells(v: object) -> list[object] | None:
    if not isinstance(v, list):
        return None
    if all(isinstance(r, list) for r in v):
        return [x for r in v for x in r if isinstance(r, list)]
    return list(v)


def read_counts(line: str, params: dict[str, str], statement: str, c: Constraints,
                term: Callable[[str], Term | None] = lambda t: None) -> bool:
    """Add the check one of the module's sentences states; False for any other line. ``term``
    reads a bound (``n``) as the constraint reader does."""
    text = line.strip()
    m = _TALLY.match(text)
    if m:
        return _tally(line, m, params, term, c)
    m = _NEXT_ROW.match(text)
    if m and m.group(2) == m.group(4):
        a, b = c.columns.get(m.group(1) + m.group(2)), c.columns.get(m.group(3) + m.group(4))
        if a and b and a[0] == b[0]:
            name, ka, kb = a[0], a[1], b[1]
            c.checks.append(Check(line, "below the next row", lambda x: _next_row(x.get(name), ka, kb)))
            return True
        return False
    means = meanings(statement)
    if not means:
        return False
    m = _BOTH.match(text)
    if m:
        return _both(line, m, params, statement, means, c)
    meant = {n for n in _MEANT.findall(statement) if params.get(n) == "list"}  # "`ppid[i] = 0`, which means ..."
    grid = _grid(params, statement, _points(params, statement)) or (meant.pop() if len(meant) == 1 else None)
    text = re.sub(r"^only one\b", "Exactly one", text, flags=re.I)  # "Only one process has no parent."
    counts = list(_COUNT.finditer(text))
    if grid is None or not counts or not re.search(r"\b(at least|at most|exactly)\b", text, re.I):
        return False
    drop = set(params) | {"grid", "cell", "square", "space", "seat", "array", "matrix", "maze"}
    wanted: list[tuple[str, int, int, bool]] = []
    quantifier = ""
    for part in re.split(r"\band\b", text):
        found = _COUNT.search(part)
        if not found:
            return False
        quantifier = (found.group(1) or quantifier).lower()
        n = int(found.group(2)) if found.group(2).isdigit() else _NUMBER_WORDS[found.group(2).lower()]
        rest = found.group(3) + part[found.end():]
        named = _value_of(rest, means, drop)
        if not quantifier or named is None:
            return False
        wanted.append((quantifier, n, *named))
    c.checks.append(Check(line, "count of cells", lambda x: _counted(_cells(x.get(grid)), wanted)))
    return True


def _tally(line: str, m: re.Match[str], params: dict[str, str], term: Callable[[str], Term | None],
           c: Constraints) -> bool:
    """How many values of [lo, hi] occur ``times`` among the entries: exactly one (or all but
    ``except``)."""
    lo, factors = number(m.group(1)), [term(f.strip()) for f in m.group(2).split("*")]
    name = m.group(4) or m.group(6) or m.group(7)
    spare = m.group(3)
    times = 0 if m.group(4) else 1 if m.group(7) else _NUMBER_WORDS.get((m.group(5) or "").lower())
    left = None if spare is None else _NUMBER_WORDS.get(spare.lower())
    if not isinstance(lo, int) or None in factors or params.get(name) != "list" or times is None \
            or (spare is not None and (left is None or times != 1)) or (spare is None and times == 1):
        return False
    bounds = [f for f in factors if f is not None]

    def test(a: dict[str, object]) -> bool | None:
        cells, hi = _cells(a.get(name)), 1
        for f in bounds:
            v = resolve(f, a)
            if not isinstance(v, int):
                return None
            hi *= v
        if cells is None:
            return None
        counts = Counter(cells)
        found = sum(counts.get(x, 0) == times for x in range(lo, hi + 1))
        return found == (1 if left is None else hi - lo + 1 - left)

    c.checks.append(Check(line, "values counted in a range", test))
    return True


def _counted(cells: list[object] | None, wanted: list[tuple[str, int, int, bool]]) -> bool | None:
    if cells is None:
        return None
    for quantifier, n, value, negated in wanted:
        got = sum((x != value) if negated else (x == value) for x in cells)
        if (quantifier == "at least" and got < n) or (quantifier == "at most" and got > n) \
                or (quantifier == "exactly" and got != n):
            return False
    return True


def _both(line: str, m: re.Match[str], params: dict[str, str], statement: str,
          means: dict[int, set[str]], c: Constraints) -> bool:
    named = _value_of(m.group(3), means, set())
    points = [n for n in (m.group(1), m.group(2)) if n in params]
    if len(points) != 2:  # "the ball's `start` position and the `destination`"
        points = _points(params, statement)
    grid = _grid(params, statement, points)
    if named is None or named[1] or len(points) != 2 or grid is None:
        return False
    value, apart, g, (p, q) = named[0], bool(m.group(4)), grid, points
    c.checks.append(Check(line, "positions in cells", lambda x: _placed(x.get(g), [x.get(p), x.get(q)], value, apart)))
    return True


def _placed(grid: object, points: list[object], value: int, apart: bool) -> bool | None:
    if not isinstance(grid, list):
        return None
    for pt in points:
        if not (isinstance(pt, list) and len(pt) == 2 and all(isinstance(i, int) and i >= 0 for i in pt)):
            return None
        r, col = pt
        if r >= len(grid) or not isinstance(grid[r], list) or col >= len(grid[r]):
            return None  # out of the grid: the lines on its coordinates say so
        if grid[r][col] != value:
            return False
    return not (apart and points[0] == points[1])


def _next_row(rows: object, ka: int, kb: int) -> bool | None:
    if not isinstance(rows, list) or not all(isinstance(r, list) and len(r) > max(ka, kb) for r in rows):
        return None
    return all(rows[i][ka] < rows[i + 1][kb] for i in range(len(rows) - 1))


__all__ = ["meanings", "read_counts"]
