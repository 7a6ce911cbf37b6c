"""Find where a block of lines from a model's edit sits in a file.

Three levels, tried in order, each only when the one before found nothing:

1. ``exact``: the lines are in the file verbatim (line endings aside).
2. ``whitespace``: equal once trailing whitespace and ``\\r`` are ignored and the indentation is
   allowed to differ by a consistent mapping (a uniform offset, or tabs for spaces).
3. ``fuzzy``: the one window of the file whose text is at least ``threshold`` similar
   (difflib ratio over the stripped lines) and holds at least half of the search lines
   verbatim; a second such window within ``AMBIGUITY_MARGIN`` of the best makes it ambiguous.

Several matches at one level are ambiguous unless a line-number hint (from a diff hunk header)
picks the nearest one. :class:`NoMatch` carries the closest region for the error message.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Literal

from vibecode.patch.text import TAB_SIZE, indent_of, indent_width, strip_ending

Level = Literal["exact", "whitespace", "fuzzy"]
DEFAULT_THRESHOLD = 0.8
# A fuzzy match is unique when no other (non-overlapping) window scores within this of it.
AMBIGUITY_MARGIN = 0.05
# ...and at least this share of its non-blank lines occur verbatim (stripped) in the window, so
# that a similar-looking but different function is never taken for the one the model meant.
_MIN_SAME_LINES = 0.5
_MAX_FUZZY_CANDIDATES = 400


@dataclass(frozen=True)
class Match:
    start: int  # first matched line (0-based)
    end: int  # one past the last matched line
    level: Level
    score: float
    # search-block indentation width -> the file's indentation string at that width
    indent_map: dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class NoMatch:
    reason: Literal["missing", "ambiguous"]
    closest: tuple[int, int] | None  # (start, end) of the nearest region, if any
    score: float
    candidates: tuple[int, ...] = ()  # starts of the ambiguous matches


def find_block(
    file_lines: list[str],
    search: list[str],
    hint: int | None = None,
    threshold: float = DEFAULT_THRESHOLD,
) -> Match | NoMatch:
    """Locate ``search`` (lines without endings) in ``file_lines`` (lines with endings)."""
    keys = [strip_ending(line) for line in file_lines]
    m = len(search)
    if m == 0:
        return NoMatch("missing", None, 0.0)
    for level, equal in (("exact", _eq_exact), ("whitespace", _eq_rstrip)):
        starts = [i for i in range(len(keys) - m + 1) if equal(keys, i, search)]
        result = _pick(starts, m, level, 1.0, hint)  # type: ignore[arg-type]
        if result is not None:
            return result
    stripped_search = [s.strip() for s in search]
    stripped_keys = [k.strip() for k in keys]
    starts = [
        i
        for i in range(len(keys) - m + 1)
        if stripped_keys[i : i + m] == stripped_search
        and _indent_mapping(keys[i : i + m], search) is not None
    ]
    result = _pick(starts, m, "whitespace", 1.0, hint)
    if result is not None:
        return _with_map(result, keys, search)
    return _fuzzy(keys, search, hint, threshold)


def find_exact(file_lines: list[str], search: list[str], hint: int | None = None,
               usable: Sequence[bool] | None = None) -> Match | NoMatch:
    """Only the ``exact`` level of :func:`find_block` (line endings aside): for applying to the
    user's files, where a loose match would overwrite an edit the patch did not expect. With
    ``usable`` (one flag a line), a match must lie on usable lines only."""
    keys = [strip_ending(line) for line in file_lines]
    m = len(search)
    if m == 0:
        return NoMatch("missing", None, 0.0)
    starts = [i for i in range(len(keys) - m + 1)
              if _eq_exact(keys, i, search) and (usable is None or all(usable[i : i + m]))]
    return _pick(starts, m, "exact", 1.0, hint) or NoMatch("missing", None, 0.0)


def _eq_exact(keys: list[str], i: int, search: list[str]) -> bool:
    return keys[i : i + len(search)] == search


def _eq_rstrip(keys: list[str], i: int, search: list[str]) -> bool:
    return all(keys[i + j].rstrip() == s.rstrip() for j, s in enumerate(search))


def _pick(
    starts: list[int], m: int, level: Level, score: float, hint: int | None
) -> Match | NoMatch | None:
    if not starts:
        return None
    if len(starts) == 1:
        return Match(starts[0], starts[0] + m, level, score)
    if hint is not None:
        ranked = sorted(starts, key=lambda s: abs(s - hint))
        if abs(ranked[0] - hint) < abs(ranked[1] - hint):
            return Match(ranked[0], ranked[0] + m, level, score)
    return NoMatch("ambiguous", (starts[0], starts[0] + m), score, tuple(starts))


def _with_map(result: Match | NoMatch, keys: list[str], search: list[str]) -> Match | NoMatch:
    if isinstance(result, NoMatch):
        return result
    mapping = _indent_mapping(keys[result.start : result.end], search) or {}
    return Match(result.start, result.end, result.level, result.score, mapping)


def _indent_mapping(region: list[str], search: list[str]) -> dict[int, str] | None:
    """Search indent width -> file indent string, if consistent and order-preserving."""
    mapping: dict[int, str] = {}
    for file_line, search_line in zip(region, search, strict=False):
        if not search_line.strip():
            continue
        width = indent_width(indent_of(search_line))
        file_indent = indent_of(file_line)
        known = mapping.setdefault(width, file_indent)
        if indent_width(known) != indent_width(file_indent):
            return None
    widths = sorted(mapping)
    targets = [indent_width(mapping[w]) for w in widths]
    if any(b <= a for a, b in pairwise(targets)):
        return None
    return mapping


def _fuzzy(keys: list[str], search: list[str], hint: int | None, threshold: float) -> Match | NoMatch:
    m = len(search)
    stripped = [k.strip() for k in keys]
    target = "\n".join(s.strip() for s in search)
    # Anchor candidate windows on lines that occur in both (cheap), then score those windows.
    where: dict[str, list[int]] = {}
    for i, line in enumerate(stripped):
        if len(line) > 2:
            where.setdefault(line, []).append(i)
    starts: set[int] = set()
    for j, s in enumerate(search):
        for i in where.get(s.strip(), ())[:50]:
            for delta in (-1, 0, 1):
                if 0 <= i - j + delta < len(keys):
                    starts.add(i - j + delta)
    # Also lines similar to the first and last search lines, so that rivals are seen.
    edges = [s.strip() for s in search if s.strip()]
    for j, line in ((0, edges[0] if edges else ""), (m - 1, edges[-1] if edges else "")):
        close = set(difflib.get_close_matches(line, list(where), n=5, cutoff=0.6))
        for i, text in enumerate(stripped):
            if text in close and 0 <= i - j < len(keys):
                starts.add(i - j)
    wanted = [s.strip() for s in search if s.strip()]
    scored: list[tuple[float, int, int]] = []
    closest: tuple[float, int, int] | None = None
    for start in sorted(starts)[:_MAX_FUZZY_CANDIDATES]:
        for size in range(max(1, m - 2), m + 3):
            end = min(len(keys), start + size)
            if end <= start:
                continue
            window = "\n".join(stripped[start:end])
            matcher = difflib.SequenceMatcher(None, window, target, autojunk=False)
            if matcher.real_quick_ratio() < threshold * 0.9 and closest is not None:
                continue
            entry = (matcher.ratio(), start, end)
            if closest is None or entry[0] > closest[0]:
                closest = entry
            present = set(stripped[start:end])
            if sum(1 for w in wanted if w in present) >= _MIN_SAME_LINES * len(wanted):
                scored.append(entry)
    if closest is None:
        return NoMatch("missing", None, 0.0)
    scored.sort(key=lambda t: (-t[0], t[1]))
    if not scored or scored[0][0] < threshold:
        return NoMatch("missing", (closest[1], closest[2]), closest[0])
    best_score, best_start, best_end = scored[0]
    rivals = [
        s
        for s in scored[1:]
        if s[0] >= max(threshold, best_score - AMBIGUITY_MARGIN)
        and (s[2] <= best_start or s[1] >= best_end)
    ]
    if rivals:
        if hint is not None:
            best_d = abs(best_start - hint)
            if all(abs(r[1] - hint) > best_d for r in rivals):
                rivals = []
        if rivals:
            starts_all = (best_start, *sorted({r[1] for r in rivals}))
            return NoMatch("ambiguous", (best_start, best_end), best_score, starts_all)
    mapping = _aligned_mapping(keys[best_start:best_end], search)
    return Match(best_start, best_end, "fuzzy", best_score, mapping)


def _aligned_mapping(region: list[str], search: list[str]) -> dict[int, str]:
    """Indent map from the lines that are equal (stripped) in region and search."""
    a = [r.strip() for r in region]
    b = [s.strip() for s in search]
    pairs_region: list[str] = []
    pairs_search: list[str] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            pairs_region.extend(region[i1:i2])
            pairs_search.extend(search[j1:j2])
    return _indent_mapping(pairs_region, pairs_search) or {}


def reindent(lines: list[str], mapping: dict[int, str], file_uses_tabs: bool) -> list[str]:
    """Re-indent replacement lines (without endings) through a search->file indent mapping."""
    if all(" " * w == s for w, s in mapping.items()):
        return lines
    fit = _linear_fit(mapping)
    out: list[str] = []
    for line in lines:
        if not line.strip():
            out.append(line.strip(" \t"))
            continue
        indent = indent_of(line)
        width = indent_width(indent)
        if width in mapping:
            new_indent = mapping[width]
        elif fit is not None:
            target = max(0, round(fit[0] * width + fit[1]))
            new_indent = _render_indent(target, file_uses_tabs)
        else:
            new_indent = indent
        out.append(new_indent + line[len(indent) :])
    return out


def _linear_fit(mapping: dict[int, str]) -> tuple[float, float] | None:
    points = sorted((w, indent_width(s)) for w, s in mapping.items())
    if not points:
        return None
    if len(points) == 1:
        return 1.0, float(points[0][1] - points[0][0])
    (x0, y0), (x1, y1) = points[0], points[-1]
    slope = (y1 - y0) / (x1 - x0)
    return slope, y0 - slope * x0


def _render_indent(width: int, tabs: bool) -> str:
    if tabs:
        return "\t" * (width // TAB_SIZE) + " " * (width % TAB_SIZE)
    return " " * width
