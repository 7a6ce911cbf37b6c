"""Carry out :class:`Edit`s on file contents, robustly, and say precisely why when it fails.

Nothing here writes a file: :func:`apply_edits` reads the current contents (from a folder or a
mapping) and returns the result as a :class:`Patch` (whole-file old -> new), so every call is a
dry run. Writing a Patch to the user's working tree, with a journal for undo, is
:mod:`vibecode.repo.workspace`.

Matching order for a SEARCH text: exact, whitespace-tolerant, unique fuzzy (see
:mod:`vibecode.patch.match`); a single line that is found nowhere as a whole line may also match
as a unique substring. With ``strict=True`` (what ``vibecode apply`` uses on the user's files)
only the exact level counts: a SEARCH text that is not in the file verbatim is refused with a diff
of what differs, and nothing is superseded. When a later edit of a file only matches the file as it was before the
earlier edits, and overlaps an earlier edit's region, it is taken as the model's correction of that
edit and replaces it ("several versions, the last one counts").
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from vibecode.errors import ApplyError
from vibecode.patch.defs import merge_definitions
from vibecode.patch.edits import Edit, EditOutcome
from vibecode.patch.match import DEFAULT_THRESHOLD, Match, NoMatch, find_block, find_exact, reindent
from vibecode.patch.tabs import tabs_for_spaces, uses_tabs
from vibecode.patch.text import (
    decode,
    dominant_newline,
    line_ending,
    split_lines,
    strip_ending,
    to_lf,
)
from vibecode.types import FileChange, Patch

_QUOTE_LINES = 12


@dataclass(frozen=True)
class AppliedEdits:
    patch: Patch
    outcomes: tuple[EditOutcome, ...]


def read_current(root: Path, path: str) -> str | None:
    """The file's content (lossless str), or None when it does not exist."""
    target = root / path
    if target.is_symlink():
        raise ApplyError(f"{path} is a symbolic link; vibecode does not edit through links.")
    if not target.exists():
        return None
    if not target.is_file():
        raise ApplyError(f"{path} exists but is not a regular file.")
    return decode(target.read_bytes())


def apply_edits(
    edits: Sequence[Edit],
    root: Path | None = None,
    files: Mapping[str, str | None] | None = None,
    threshold: float = DEFAULT_THRESHOLD,
    strict: bool = False,
) -> AppliedEdits:
    """Apply ``edits`` to the contents in ``files`` (path -> text, None = missing), falling back
    to reading them from ``root``. Returns the resulting Patch (unchanged files omitted)."""
    if root is None and files is None:
        raise ValueError("apply_edits needs root or files")
    order: list[str] = []
    grouped: dict[str, list[Edit]] = {}
    for edit in edits:
        if edit.path not in grouped:
            order.append(edit.path)
        grouped.setdefault(edit.path, []).append(edit)
    changes: list[FileChange] = []
    outcomes: list[EditOutcome] = []
    for path in order:
        if files is not None and path in files:
            original = files[path]
        elif root is not None:
            original = read_current(root, path)
        else:
            original = None
        new, file_outcomes = apply_file_edits(path, original, grouped[path], threshold, strict)
        outcomes.extend(file_outcomes)
        if new != original:
            changes.append(FileChange(path, original, new))
    return AppliedEdits(Patch(tuple(changes)), tuple(outcomes))


def apply_file_edits(
    path: str,
    original: str | None,
    edits: Sequence[Edit],
    threshold: float = DEFAULT_THRESHOLD,
    strict: bool = False,
) -> tuple[str | None, list[EditOutcome]]:
    """Apply the edits of one file in order, with the supersede rule of the module docstring."""
    if strict:
        return _apply_strict(path, original, edits)
    active = list(edits)
    superseded: list[Edit] = []
    while True:
        content = original
        outcomes: list[EditOutcome] = []
        try:
            for edit in active:
                content, outcome = apply_one(path, content, edit, threshold)
                outcomes.append(outcome)
            return content, [EditOutcome(e, "superseded", 0.0, True) for e in superseded] + outcomes
        except ApplyError as failure:
            failed = active[len(outcomes)]
            earlier = _superseded_by(path, original, active[: len(outcomes)], failed, threshold)
            if earlier is None:
                raise failure from None
            active.remove(earlier)
            superseded.append(earlier)


def _apply_strict(path: str, original: str | None, edits: Sequence[Edit]) -> tuple[str | None, list[EditOutcome]]:
    """The edits of one file in order, each SEARCH text found verbatim among the user's own lines:
    never in lines an earlier edit of the same patch wrote (a hunk whose context is gone from the
    file must not match the text the hunk before it put there), and a diff's hunk (it has a line
    hint) only after the lines the hunk before it wrote: hunks are in file order, so one whose
    context now matches only above its predecessor has lost its place and is refused."""
    content = original
    own: list[bool] | None = None  # per line of ``content``: the user's, untouched by an earlier edit
    floor = 0  # a diff's hunks come in file order: the next one starts after the last one's lines
    outcomes: list[EditOutcome] = []
    for edit in edits:
        before = len(split_lines(content)) if content is not None else 0
        mask = own if own is not None and len(own) == before else [True] * before
        ordered = mask if edit.hint_line is None else [False] * min(floor, before) + mask[floor:]
        content, outcome = apply_one(path, content, edit, strict=True, usable=ordered)
        after = len(split_lines(content)) if content is not None else 0
        if outcome.span is not None:  # a replace: the lines it wrote are the patch's
            start, end = outcome.span
            own = mask[:start] + [False] * max(0, after - start - (before - end)) + mask[end:]
            floor = start + max(0, after - start - (before - end)) if edit.hint_line is not None else floor
        elif outcome.level == "append":  # lines at the end: the patch's
            own = mask + [False] * (after - before)
        else:
            own = None  # a whole new content: its lines are taken as they are
        outcomes.append(outcome)
    return content, outcomes


def _superseded_by(
    path: str, original: str | None, earlier: Sequence[Edit], failed: Edit, threshold: float
) -> Edit | None:
    if original is None or failed.kind != "replace" or not failed.search.strip():
        return None
    lines = split_lines(original)
    region = _region(lines, failed, threshold)
    if region is None:
        return None
    for edit in reversed(earlier):
        if edit.kind == "replace" and edit.search.strip():
            other = _region(lines, edit, threshold)
            if other is not None and other[0] < region[1] and region[0] < other[1]:
                return edit
        elif edit.kind in ("whole", "content", "definitions"):
            return edit
    return None


def _region(lines: list[str], edit: Edit, threshold: float) -> tuple[int, int] | None:
    found = find_block(lines, _search_lines(edit.search), edit.hint_line, threshold)
    return (found.start, found.end) if isinstance(found, Match) else None


def apply_one(
    path: str, content: str | None, edit: Edit, threshold: float = DEFAULT_THRESHOLD, strict: bool = False,
    usable: Sequence[bool] | None = None,
) -> tuple[str | None, EditOutcome]:
    """One edit on one file's content (None = the file does not exist). ``strict``: a SEARCH text
    must be in the content verbatim, on ``usable`` lines only (all when None)."""
    where = f" ({edit.origin})" if edit.origin else ""
    if edit.kind == "delete":
        if content is None:
            raise ApplyError(f"The edit deletes {path}{where}, but there is no such file.")
        return None, EditOutcome(edit, "delete")
    if edit.kind == "create":
        if content is not None and to_lf(content) != to_lf(edit.text):
            raise ApplyError(
                f"The edit creates {path}{where}, but that file already exists.",
                "Send an edit of the existing file instead.",
            )
        return (edit.text if content is None else content), EditOutcome(edit, "new")
    if edit.kind == "content":
        if content is None:
            raise ApplyError(f"The edit of {path}{where} changes a file that does not exist.")
        return edit.text, EditOutcome(edit, "exact")
    if edit.kind == "whole":
        return _whole(content, edit.text), EditOutcome(edit, "whole")
    if edit.kind == "definitions":
        if content is None:
            return edit.text, EditOutcome(edit, "new")
        return merge_definitions(content, edit.text, path), EditOutcome(edit, "definitions")
    if not edit.search.strip():
        if content is None:
            return edit.text, EditOutcome(edit, "new")
        return _append(content, edit.text), EditOutcome(edit, "append")
    if content is None:
        raise ApplyError(
            f"The edit of {path}{where} searches for text in a file that does not exist.",
            "Check the file name; to create a file, leave the SEARCH part empty.",
        )
    if strict:
        return _replace_exact(path, content, edit, usable)
    return _replace(path, content, edit, threshold)


def _whole(content: str | None, text: str) -> str:
    if content is None:
        return text
    lines = split_lines(content)
    newline = dominant_newline(lines)
    new = to_lf(text)
    if newline != "\n":
        new = new.replace("\n", newline)
    if content.endswith("\n") and not new.endswith("\n"):
        new += newline
    return new


def _append(content: str, text: str) -> str:
    newline = dominant_newline(split_lines(content))
    add = to_lf(text).replace("\n", newline)
    if content and not content.endswith("\n"):
        content += newline
    return content + add


def _search_lines(search: str) -> list[str]:
    return [strip_ending(line) for line in split_lines(to_lf(search))]


def _trim_blank(search: list[str], replace: list[str]) -> tuple[list[str], list[str]]:
    while search and not search[0].strip():
        search = search[1:]
        if replace and not replace[0].strip():
            replace = replace[1:]
    while search and not search[-1].strip():
        search = search[:-1]
        if replace and not replace[-1].strip():
            replace = replace[:-1]
    return search, replace


def _replace(path: str, content: str, edit: Edit, threshold: float) -> tuple[str, EditOutcome]:
    lines = split_lines(content)
    search = _search_lines(edit.search)
    replace = _search_lines(edit.text)
    found = find_block(lines, search, edit.hint_line, threshold)
    if isinstance(found, NoMatch):
        trimmed_search, trimmed_replace = _trim_blank(search, replace)
        if trimmed_search != search and trimmed_search:
            retry = find_block(lines, trimmed_search, edit.hint_line, threshold)
            if isinstance(retry, Match):
                found, search, replace = retry, trimmed_search, trimmed_replace
    if isinstance(found, NoMatch):
        substituted = _substring(content, edit)
        if substituted is not None:
            return substituted, EditOutcome(edit, "substring")
        done = find_block(lines, replace, edit.hint_line, threshold=1.01) if any(r.strip() for r in replace) else None
        if isinstance(done, Match):
            where = f" ({edit.origin})" if edit.origin else ""
            raise ApplyError(
                f"The edit of {path}{where} seems to be applied already: its SEARCH text is not in the "
                f"file, but its replacement is (lines {done.start + 1}-{done.end})."
            )
        raise ApplyError(no_match_message(path, lines, search, found, edit.origin))
    tabbed = uses_tabs(lines)
    new_lines = reindent(replace, found.indent_map, tabbed) if found.level != "exact" else replace
    if tabbed:  # the file's own indentation, never the model's spaces (vibecode/patch/tabs.py)
        new_lines = tabs_for_spaces(new_lines, [strip_ending(ln) for ln in lines[found.start : found.end]])
    return _splice(lines, found, new_lines, edit), EditOutcome(edit, found.level, found.score)


def _replace_exact(path: str, content: str, edit: Edit, usable: Sequence[bool] | None = None,
                   ) -> tuple[str, EditOutcome]:
    """The edit with its SEARCH text found verbatim (on ``usable`` lines only; the outcome's
    ``span`` says which lines it replaced); otherwise an ApplyError that shows what differs."""
    lines = split_lines(content)
    search = _search_lines(edit.search)
    found = find_exact(lines, search, edit.hint_line, usable)
    if isinstance(found, Match):
        spliced = _splice(lines, found, _search_lines(edit.text), edit)
        return spliced, EditOutcome(edit, "exact", 1.0, span=(found.start, found.end))
    where = f" ({edit.origin})" if edit.origin else ""
    if found.reason == "ambiguous":
        raise ApplyError(no_match_message(path, lines, search, found, edit.origin))
    replace = _search_lines(edit.text)
    done = find_exact(lines, replace, edit.hint_line) if any(r.strip() for r in replace) else None
    if isinstance(done, Match):
        raise ApplyError(
            f"The edit of {path}{where} seems to be applied already: its SEARCH text is not in the "
            f"file, but its replacement is (lines {done.start + 1}-{done.end})."
        )
    loose = find_block(lines, search, edit.hint_line, DEFAULT_THRESHOLD)
    span = (loose.start, loose.end) if isinstance(loose, Match) else loose.closest
    head = f"The patch's context for {path}{where} does not match the file exactly"
    if span is None:
        raise ApplyError(f"{head}, and no similar lines were found. The patch expects:\n" + _quote_search(search))
    actual = [strip_ending(line) for line in lines[span[0] : span[1]]]
    diff = difflib.unified_diff(
        search, actual, "the patch expects", f"{path} now (lines {span[0] + 1}-{span[1]})", lineterm="", n=1
    )
    raise ApplyError(f"{head}; what differs:\n" + "\n".join(list(diff)[: 4 * _QUOTE_LINES]))


def _splice(lines: list[str], found: Match, replace: list[str], edit: Edit) -> str:
    """``lines`` with the matched region replaced by ``replace`` (no re-indenting)."""
    lines = list(lines)
    newline = dominant_newline(lines)
    rendered = [line + newline for line in replace]
    at_eof = found.end == len(lines)
    if rendered and at_eof and not lines[-1].endswith("\n"):
        rendered[-1] = rendered[-1][: -len(newline)]
    elif not rendered and at_eof and found.start > 0 and not lines[-1].endswith("\n"):
        # The deleted region held the unterminated last line: the new last line loses its ending.
        lines[found.start - 1] = strip_ending(lines[found.start - 1])
    result = "".join(lines[: found.start] + rendered + lines[found.end :])
    if at_eof and edit.eof_newline is not None and result:
        if edit.eof_newline and not result.endswith("\n"):
            result += newline
        elif not edit.eof_newline and result.endswith("\n"):
            result = result[: -len(line_ending(split_lines(result)[-1]))]
    return result


def _substring(content: str, edit: Edit) -> str | None:
    search = to_lf(edit.search).strip("\n")
    if "\n" in search or not search.strip():
        return None
    if content.count(search) != 1:
        return None
    replacement = to_lf(edit.text).strip("\n")
    if "\n" in replacement:
        return None
    return content.replace(search, replacement, 1)


def no_match_message(
    path: str, lines: list[str], search: list[str], found: NoMatch, origin: str = ""
) -> str:
    """An error text that quotes the closest lines of the file, for a retry prompt."""
    where = f" ({origin})" if origin else ""
    if found.reason == "ambiguous":
        places = ", ".join(str(s + 1) for s in found.candidates[:8])
        return (
            f"The SEARCH text for {path}{where} matches {len(found.candidates)} places "
            f"(starting at lines {places}); it must match exactly one. Include more of the "
            f"surrounding lines so that it is unique. The first match is:\n"
            + _quote(lines, found.closest)
        )
    head = f"The SEARCH text for {path}{where} does not match the file."
    if found.closest is None:
        return head + " No similar lines were found. The SEARCH text was:\n" + _quote_search(search)
    start, end = found.closest
    return (
        f"{head} The closest lines are {start + 1}-{end} ({found.score:.0%} similar):\n"
        + _quote(lines, found.closest)
        + "\nThe SEARCH text was:\n"
        + _quote_search(search)
    )


def _quote(lines: list[str], span: tuple[int, int] | None) -> str:
    if span is None:
        return ""
    start, end = span
    end = min(end, start + _QUOTE_LINES)
    width = len(str(end))
    return "\n".join(f"{i + 1:>{width}} | {strip_ending(lines[i])}" for i in range(start, min(end, len(lines))))


def _quote_search(search: list[str]) -> str:
    shown = search[:_QUOTE_LINES]
    more = len(search) - len(shown)
    tail = [f"... ({more} more lines)"] if more > 0 else []
    return "\n".join(["    " + line for line in shown] + tail)

