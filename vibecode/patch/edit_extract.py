"""Edits for repo tasks, from the three formats models use.

1. SEARCH/REPLACE blocks (:mod:`vibecode.patch.search_replace`), anywhere in the answer.
2. Unified diffs (:mod:`vibecode.patch.udiff`), fenced (``diff``/``patch`` or diff-looking
   content) or not.
3. Only when the answer has neither: code blocks. A block that names its file (in the fence's
   info string, on the line above, or in a first-line comment) replaces that file when it
   restates all of the file's top-level definitions, and otherwise replaces just the
   definitions it contains (see :mod:`vibecode.patch.defs`). A Python block that names no file
   goes to the one file (the ``hint_paths`` first, then the repository) that defines its
   functions. Blocks that elide code ("# ... rest unchanged ...") never replace a whole file.

Plain code blocks next to SEARCH/REPLACE blocks or diffs are explanation and are ignored.
Later edits of the same region replace earlier ones (see :mod:`vibecode.patch.apply`).
"""

from __future__ import annotations

import ast
import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from vibecode.errors import ExtractionError
from vibecode.patch.apply import apply_edits, read_current
from vibecode.patch.edits import Edit, EditOutcome
from vibecode.patch.fences import Block, answer_only, find_blocks, is_python_tag
from vibecode.patch.match import DEFAULT_THRESHOLD, Match, find_block
from vibecode.patch.paths import PathResolver
from vibecode.patch.search_replace import has_markers, parse_search_replace, path_before
from vibecode.patch.text import split_lines, strip_ending
from vibecode.patch.udiff import FileDiff, apply_strict, looks_like_diff, parse_diff
from vibecode.types import Patch

_NOT_CODE = frozenset({"text", "txt", "console", "shell", "bash", "sh", "output", "log", "plaintext", "markdown", "md"})
_FIRST_LINE_PATH = re.compile(r"^\s*(?:#|//|--)\s*(?:(?:file(?:name)?|path)\s*:\s*)?([\w./\\-]+\.[A-Za-z0-9]+)\s*$", re.IGNORECASE)
_ELISION = re.compile(
    r"^\s*(?:#|//|/\*)\s*(?:\.{3}|…|.*\b(?:rest of|existing code|unchanged|same as (?:before|above)|"
    r"remains? the same|omitted|previous code|other (?:methods|functions)|as before)\b)",
    re.IGNORECASE,
)
_MAX_SCAN_FILES = 5000


@dataclass(frozen=True)
class ExtractedEdits:
    edits: tuple[Edit, ...]
    patch: Patch
    outcomes: tuple[EditOutcome, ...]
    format: str  # "search_replace", "diff", "code_blocks", or "+"-joined when mixed


def extract_edits(answer: str, root: Path, hint_paths: Sequence[str] = (), strict: bool = False) -> Patch:
    """The edits of a repo-task answer, applied to the files under ``root``, as a Patch.

    Raises ExtractionError when no edit can be found and ApplyError (quoting the closest
    lines) when one does not fit its file. Writes nothing. ``strict``: SEARCH texts and diff
    context must be in the file verbatim (see :mod:`vibecode.patch.apply`).
    """
    return extract_edits_detailed(answer, root, hint_paths, strict=strict).patch


def extract_edits_detailed(
    answer: str,
    root: Path,
    hint_paths: Sequence[str] = (),
    threshold: float = DEFAULT_THRESHOLD,
    strict: bool = False,
) -> ExtractedEdits:
    edits, formats = parse_edits(answer, root, hint_paths)
    applied = apply_edits(edits, root=root, threshold=threshold, strict=strict)
    if not applied.patch.changes:
        raise ExtractionError(
            f"The answer's {len(edits)} edit(s) leave every file as it was.",
            "The model restated the current code instead of changing it.",
        )
    return ExtractedEdits(tuple(edits), applied.patch, applied.outcomes, "+".join(formats))


def parse_edits(answer: str, root: Path, hint_paths: Sequence[str] = ()) -> tuple[list[Edit], list[str]]:
    """The edits an answer contains (not yet applied) and the formats they came in."""
    text = answer_only(answer)
    if not text.strip():
        raise ExtractionError(
            "The answer is empty: the model produced no text after its reasoning.",
            "It may have run out of tokens while thinking; raise max_tokens or the think budget.",
        )
    resolver = PathResolver(root)
    hints = [resolver.clean(h) for h in hint_paths]
    blocks = find_blocks(text)
    found: list[tuple[int, list[Edit]]] = []
    formats: list[str] = []
    if has_markers(text):
        for sr in parse_search_replace(text):
            path = sr.path or (hints[0] if len(hints) == 1 else None)
            if path is None and sr.search.strip():
                path = locate_file([sr.search], resolver, hints)
            if path is None:
                raise ExtractionError(
                    f"The SEARCH/REPLACE block at answer line {sr.line + 1} does not say which file it edits.",
                    "Put the file's path on the line just above the block.",
                )
            origin = f"SEARCH/REPLACE block at answer line {sr.line + 1}"
            found.append((sr.line, [Edit(resolver.resolve(path), "replace", sr.replace, sr.search, origin=origin)]))
        formats.append("search_replace")
    diff_edits = _diff_edits(text, blocks, resolver, hints)
    if diff_edits:
        found.extend(diff_edits)
        formats.append("diff")
    if found:
        found.sort(key=lambda item: item[0])
        return [e for _, group in found for e in group], formats
    problems: list[str] = []
    edits = _code_block_edits(text, blocks, resolver, hints, problems)
    if edits:
        return edits, ["code_blocks"]
    detail = (" " + "; ".join(problems) + ".") if problems else ""
    raise ExtractionError(
        "The answer contains no edit: no SEARCH/REPLACE block, no diff, and no code block that "
        f"names a file or redefines a function of the repository.{detail}",
        "Ask for SEARCH/REPLACE blocks that start with the file's path.",
    )


def _diff_edits(text: str, blocks: list[Block], resolver: PathResolver, hints: list[str]) -> list[tuple[int, list[Edit]]]:
    lines = text.split("\n")
    sections: list[tuple[int, FileDiff]] = []
    masked = list(lines)
    for block in blocks:
        for i in range(block.start, min(block.end + 1, len(lines))):
            masked[i] = ""
        if has_markers(block.content):
            continue
        if block.lang in ("diff", "patch", "udiff") or looks_like_diff(block.content):
            default = block.path or path_before(lines, block.start) or (hints[0] if len(hints) == 1 else None)
            for diff in parse_diff(block.content, lenient=True, default_path=default):
                sections.append((block.start + 1 + diff.line, diff))
    rest = "\n".join(masked)
    if looks_like_diff(rest) and not has_markers(rest):
        for diff in parse_diff(rest, lenient=False, default_path=hints[0] if len(hints) == 1 else None):
            sections.append((diff.line, diff))
    counts: dict[str | None, int] = {}
    for _, diff in sections:
        counts[diff.path] = counts.get(diff.path, 0) + 1
    return [
        (line, _file_diff_edits(diff, resolver, line, alone=counts[diff.path] == 1))
        for line, diff in sections
    ]


def _file_diff_edits(diff: FileDiff, resolver: PathResolver, line: int, alone: bool) -> list[Edit]:
    if diff.path is None and diff.old_path is None and diff.new_path is None and diff.hunks:
        located = locate_file([h.search for h in diff.hunks], resolver)
        if located is not None:
            diff.old_path = diff.new_path = located
    if diff.path is None:
        raise ExtractionError(
            f"The diff at answer line {line + 1} does not name the file it changes.",
            "Start it with --- a/PATH and +++ b/PATH lines.",
        )
    path = resolver.resolve(diff.path)
    origin = f"diff at answer line {line + 1}"
    if diff.old_path is None:
        body = "".join(t + "\n" for h in diff.hunks for k, t in h.lines if k == "+")
        if diff.hunks and diff.hunks[-1].new_no_newline and body.endswith("\n"):
            body = body[:-1]
        return [Edit(path, "create", body, origin=origin)]
    if diff.new_path is None:
        return [Edit(path, "delete", origin=origin)]
    if alone:
        current = read_current(resolver.root, path)
        exact = apply_strict(current, diff.hunks) if current is not None else None
        if exact is not None:
            return [Edit(path, "content", exact, origin=origin)]
    edits: list[Edit] = []
    for number, hunk in enumerate(diff.hunks, 1):
        eof = None
        if hunk.old_no_newline or hunk.new_no_newline:
            eof = not hunk.new_no_newline
        edits.append(
            Edit(path, "replace", hunk.replace, hunk.search, hunk.hint, f"{origin}, hunk {number}", eof)
        )
    return edits


def locate_file(searches: Sequence[str], resolver: PathResolver, hints: Sequence[str] = ()) -> str | None:
    """The one text file (hinted files first) in which every search text matches exactly or
    up to whitespace; None when there is no such file or more than one."""
    keys = [next((ln.strip() for ln in s.split("\n") if ln.strip()), "") for s in searches]
    found: list[str] = []
    candidates = list(hints) + [f for f in resolver.files[:_MAX_SCAN_FILES] if f not in hints]
    for rel in candidates:
        full = resolver.root / rel
        try:
            if full.stat().st_size > 2_000_000:
                continue
        except OSError:
            continue
        current = read_current(resolver.root, rel) if not full.is_symlink() else None
        if current is None or "\x00" in current or not all(k in current for k in keys):
            continue
        lines = split_lines(current)
        if all(_matches_closely(lines, s) for s in searches):
            if rel in hints:
                return rel
            found.append(rel)
    return found[0] if len(found) == 1 else None


def _matches_closely(lines: list[str], search: str) -> bool:
    wanted = [strip_ending(x) for x in split_lines(search.replace("\r\n", "\n"))]
    found = find_block(lines, wanted, threshold=1.01)
    return isinstance(found, Match) and found.level != "fuzzy"


def _code_block_edits(
    text: str, blocks: list[Block], resolver: PathResolver, hints: list[str], problems: list[str]
) -> list[Edit]:
    lines = text.split("\n")
    edits: list[Edit] = []
    for block in blocks:
        if block.lang in _NOT_CODE or not block.content.strip():
            continue
        content = block.content.replace("\r\n", "\n")
        path = block.path or path_before(lines, block.start)
        first = content.split("\n", 1)[0]
        comment = _FIRST_LINE_PATH.match(first)
        if path is None and comment:
            path = comment.group(1)
        origin = f"code block at answer line {block.start + 1}"
        if path is not None:
            resolved = resolver.resolve(path)
            current = read_current(resolver.root, resolved)
            if comment and comment.group(1) == path and (current is None or not current.startswith(first)):
                content = content.split("\n", 1)[1] if "\n" in content else ""
            edit = _block_edit(resolved, current, content, origin, problems)
        elif is_python_tag(block.lang):
            edit = _locate_definitions(content, resolver, hints, origin, problems)
        else:
            edit = None
        if edit is not None:
            edits.append(edit)
    return edits


def _block_edit(path: str, current: str | None, code: str, origin: str, problems: list[str]) -> Edit | None:
    if current is None:
        if _elided_lines(code):
            raise ExtractionError(f"The {origin} creates {path} but leaves parts out (\"...\").")
        return Edit(path, "whole", code, origin=origin)
    elided = _elided_lines(code)
    if not path.endswith((".py", ".pyi")):
        if elided:
            raise _elision_error(path, origin, elided)
        return Edit(path, "whole", code, origin=origin)
    block_tree = _try_parse(code)
    if block_tree is None:
        raise ExtractionError(f"The {origin} for {path} is not valid Python, so it cannot be used as its new content.")
    file_tree = _try_parse(current)
    block_names = _top_names(block_tree)
    file_names = _top_names(file_tree) if file_tree is not None else []
    similar = difflib.SequenceMatcher(None, current.splitlines(), code.splitlines(), autojunk=False).ratio()
    covers = set(file_names) <= set(block_names) and (bool(block_names) or similar >= 0.5)
    if not elided and (covers or file_tree is None):
        return Edit(path, "whole", code, origin=origin)
    if set(block_names) & set(file_names):
        inside = _elisions_inside_definitions(block_tree, elided)
        if inside:
            raise _elision_error(path, origin, inside)
        return Edit(path, "definitions", code, origin=origin)
    if elided:
        raise _elision_error(path, origin, elided)
    if block_names:
        return Edit(path, "definitions", code, origin=origin)
    problems.append(f"the {origin} for {path} is neither the whole file nor a set of its definitions")
    return None


def _locate_definitions(code: str, resolver: PathResolver, hints: list[str], origin: str, problems: list[str]) -> Edit | None:
    tree = _try_parse(code)
    if tree is None:
        return None
    names = _top_names(tree)
    if not names:
        return None
    pattern = re.compile(r"^(?:async\s+def|def|class)\s+(" + "|".join(map(re.escape, names)) + r")\b", re.MULTILINE)
    candidates = list(hints) + [f for f in resolver.files[:_MAX_SCAN_FILES] if f.endswith(".py") and f not in hints]
    scores: dict[str, int] = {}
    for rel in candidates:
        current = read_current(resolver.root, rel)
        if current is None:
            continue
        hits = {m.group(1) for m in pattern.finditer(current)}
        if hits:
            scores[rel] = len(hits)
        if rel in hints and hits:
            break  # a hinted file that defines them wins
    if not scores:
        problems.append(f"the {origin} defines {', '.join(names)}, which no file of the repository defines")
        return None
    best = max(scores.values())
    winners = [f for f, s in scores.items() if s == best]
    if len(winners) > 1 and not any(w in hints for w in winners):
        problems.append(
            f"the {origin} redefines {', '.join(names)}, defined in several files ({', '.join(winners[:4])}); it must name its file"
        )
        return None
    target = next((w for w in winners if w in hints), winners[0])
    elided = _elisions_inside_definitions(tree, _elided_lines(code))
    if elided:
        raise _elision_error(target, origin, elided)
    return Edit(target, "definitions", code, origin=origin)


def _try_parse(code: str) -> ast.Module | None:
    try:
        return ast.parse(code.replace("\r\n", "\n"))
    except (SyntaxError, ValueError):
        return None


def _top_names(tree: ast.Module) -> list[str]:
    return [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]


def _elided_lines(code: str) -> list[int]:
    return [i + 1 for i, line in enumerate(code.split("\n")) if _ELISION.match(line)]


def _elisions_inside_definitions(tree: ast.Module, elided: list[int]) -> list[int]:
    spans = [
        (n.lineno, n.end_lineno or n.lineno)
        for n in tree.body
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    ]
    return [line for line in elided if any(a <= line <= b for a, b in spans)]


def _elision_error(path: str, origin: str, lines: list[int]) -> ExtractionError:
    return ExtractionError(
        f"The {origin} for {path} leaves code out (a \"... unchanged\" comment at its line {lines[0]}), "
        "so it cannot replace the file's code.",
        "Ask for SEARCH/REPLACE blocks instead of abbreviated code.",
    )
