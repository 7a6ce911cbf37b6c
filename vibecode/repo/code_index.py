"""A tree-sitter index of a repository: definitions, references, scopes and a ranked repo map.

:meth:`CodeIndex.build` lists the files (git's tracked + untracked-not-ignored files in a git
working tree, else a walk that skips vendored and build folders), and parses each source file
whose language has a grammar installed (:mod:`vibecode.syntax.treesitter`). Per-file results are
cached on disk keyed by the SHA-1 of the file's bytes (and the language), in one JSON file:
``.git/vibecode/index/cache.json`` in a git working tree, else
``<platform cache dir>/vibecode/index/<hash of the folder path>/cache.json``. A warm build reads
and hashes every file but parses only the changed ones.

The repo map ranks definitions the way aider's does, in a simpler form: a graph of files where
file A points to file B for each name A references that B defines (weighted by the square
root of the number of references, boosted for names the caller mentions, and split among the
files that define the name; names defined in more than ``MAX_DEFINERS`` files add no edges), PageRank personalized on the files of interest, then each
definition scored by the rank flowing into it. The rendered map lists the best definitions'
signature lines grouped by file, as many as fit the token budget.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vibecode.syntax.symbols import Definition, file_symbols, supported
from vibecode.syntax.treesitter import has_language, language_for_path

CACHE_FORMAT = 1
MAX_FILE_BYTES = 1_000_000
# A name defined in more files than this (``__init__``, ``run``, ``get``) says nothing about which
# file a reference means: it adds no edges to the ranking graph (mentioning it still ranks it).
MAX_DEFINERS = 24
TokenCounter = Callable[[str], int]


@dataclass(frozen=True)
class FileIndex:
    path: str
    language: str
    sha1: str
    definitions: tuple[Definition, ...]
    references: dict[str, list[int]] = field(default_factory=dict)


@dataclass(frozen=True)
class IndexStats:
    files: int
    parsed: int  # parsed this time (cache misses)
    cached: int
    seconds: float
    cache_path: str | None


def approx_tokens(text: str) -> int:
    """A rough token count (4 characters a token) for when no tokenizer is at hand."""
    return (len(text) + 3) // 4


def default_cache_dir(root: Path) -> Path:
    from vibecode.repo.git import find_repo

    repo = find_repo(root)
    if repo is not None:
        return repo.git_dir / "vibecode" / "index"
    from platformdirs import user_cache_dir

    digest = hashlib.sha1(str(root.resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return Path(user_cache_dir("vibecode")) / "index" / digest


def list_source_files(root: Path) -> list[str]:
    from vibecode.repo.git import find_repo

    repo = find_repo(root)
    if repo is not None and repo.root == root.resolve():
        files = repo.list_files()
    else:
        from vibecode.patch.paths import list_files

        files = list_files(root)
    return [f for f in files if language_for_path(f) is not None]


class CodeIndex:
    def __init__(self, root: Path, files: dict[str, FileIndex], stats: IndexStats) -> None:
        self.root = root
        self.files = files
        self.stats = stats
        self._defs_by_name: dict[str, list[Definition]] = {}
        self._refs_by_name: dict[str, list[str]] = {}
        for path, entry in files.items():
            for d in entry.definitions:
                self._defs_by_name.setdefault(d.name, []).append(d)
            for name in entry.references:
                self._refs_by_name.setdefault(name, []).append(path)

    # ---- building -------------------------------------------------------------------

    @classmethod
    def build(
        cls,
        root: Path,
        paths: Sequence[str] | None = None,
        cache_dir: Path | None = None,
        use_cache: bool = True,
    ) -> CodeIndex:
        started = time.perf_counter()
        root = root.resolve()
        rel_paths = list(paths) if paths is not None else list_source_files(root)
        cache_file = (cache_dir or default_cache_dir(root)) / "cache.json" if use_cache else None
        cache = _load_cache(cache_file) if cache_file is not None else {}
        used: dict[str, Any] = {}
        files: dict[str, FileIndex] = {}
        parsed = cached = 0
        for rel in rel_paths:
            language = language_for_path(rel)
            if language is None or not supported(language) or not has_language(language):
                continue
            full = root / rel
            try:
                if full.is_symlink() or full.stat().st_size > MAX_FILE_BYTES:
                    continue
                source = full.read_bytes()
            except OSError:
                continue
            key = language + ":" + hashlib.sha1(source).hexdigest()
            raw = cache.get(key)
            if raw is None:
                definitions, references = file_symbols(source, language, rel)
                raw = _entry_json(definitions, references)
                parsed += 1
            else:
                cached += 1
            used[key] = raw
            files[rel] = _entry_from_json(rel, language, key, raw)
        if cache_file is not None and (parsed or set(used) != set(cache)):
            _save_cache(cache_file, used)
        stats = IndexStats(len(files), parsed, cached, time.perf_counter() - started, str(cache_file) if cache_file else None)
        return cls(root, files, stats)

    # ---- questions -------------------------------------------------------------------

    def definitions(self, name: str) -> list[Definition]:
        """Definitions named ``name`` (or with qualified name ``name``, e.g. ``Class.method``)."""
        if "." in name:
            short = name.rsplit(".", 1)[-1]
            return [d for d in self._defs_by_name.get(short, []) if d.qualname == name or d.qualname.endswith("." + name)]
        return list(self._defs_by_name.get(name, []))

    def references(self, name: str) -> list[tuple[str, int]]:
        """(path, line) of each reference to ``name`` (up to a cap of lines per file)."""
        return [(p, line) for p in self._refs_by_name.get(name, []) for line in self.files[p].references[name]]

    def files_referencing(self, name: str) -> list[str]:
        return sorted(self._refs_by_name.get(name, []))

    def definitions_in(self, path: str) -> list[Definition]:
        entry = self.files.get(path)
        return list(entry.definitions) if entry else []

    def scopes_at(self, path: str, line: int) -> list[Definition]:
        """The definitions containing ``line`` of ``path``, outermost first."""
        found = [d for d in self.definitions_in(path) if d.contains(line) and d.kind != "variable"]
        return sorted(found, key=lambda d: (d.line, -d.end_line))

    def enclosing(self, path: str, line: int) -> Definition | None:
        """The innermost definition (function, method, class...) containing the line."""
        scopes = self.scopes_at(path, line)
        return scopes[-1] if scopes else None

    def function_at(self, path: str, line: int) -> Definition | None:
        """The innermost function or method containing the line."""
        for d in reversed(self.scopes_at(path, line)):
            if d.kind in ("function", "method"):
                return d
        return None

    # ---- ranking -----------------------------------------------------------------------

    def ranked_definitions(
        self, focus: Sequence[str] = (), mentioned: Sequence[str] = (), include_focus: bool = False
    ) -> list[tuple[Definition, float]]:
        mentioned_set = set(mentioned)
        definers = {name: sorted({d.path for d in defs}) for name, defs in self._defs_by_name.items()}
        edges: dict[str, list[tuple[str, str, float]]] = {}
        for path, entry in self.files.items():
            out = edges.setdefault(path, [])
            for name, lines in entry.references.items():
                targets = definers.get(name)
                if not targets or len(targets) > MAX_DEFINERS:
                    continue
                weight = math.sqrt(len(lines)) * (10.0 if name in mentioned_set else 1.0)
                if name.startswith("_"):
                    weight *= 0.1
                weight /= len(targets)
                out.extend((target, name, weight) for target in targets if target != path)
        ranks = _pagerank(list(self.files), edges, [f for f in focus if f in self.files])
        scores: dict[tuple[str, str], float] = {}
        for source, out in edges.items():
            total = sum(w for _, _, w in out) or 1.0
            for target, name, weight in out:
                scores[(target, name)] = scores.get((target, name), 0.0) + ranks[source] * weight / total
        focus_set = set(focus)
        ranked: list[tuple[Definition, float]] = []
        for name, defs in self._defs_by_name.items():
            for d in defs:
                if d.path in focus_set and not include_focus:
                    continue
                score = scores.get((d.path, name), 0.0)
                if name in mentioned_set:
                    score += 1.0
                if score > 0 or not focus:
                    ranked.append((d, score + ranks.get(d.path, 0.0) * 1e-3))
        ranked.sort(key=lambda item: (-item[1], item[0].path, item[0].line))
        return ranked

    def repo_map(
        self,
        focus: Sequence[str] = (),
        mentioned: Sequence[str] = (),
        max_tokens: int = 1024,
        count_tokens: TokenCounter = approx_tokens,
        include_focus: bool = False,
    ) -> str:
        """The best-ranked definitions' signatures, grouped by file, within ``max_tokens``."""
        ranked = self.ranked_definitions(focus, mentioned, include_focus)
        if not ranked or max_tokens <= 0:
            return ""
        low, high, best = 1, len(ranked), ""
        while low <= high:
            middle = (low + high) // 2
            text = render_map([d for d, _ in ranked[:middle]])
            if count_tokens(text) <= max_tokens:
                best, low = text, middle + 1
            else:
                high = middle - 1
        return best


def render_map(definitions: Sequence[Definition]) -> str:
    by_file: dict[str, list[Definition]] = {}
    for d in definitions:
        by_file.setdefault(d.path, []).append(d)
    blocks: list[str] = []
    for path, defs in by_file.items():
        lines = [f"{path}:"]
        for d in sorted(defs, key=lambda x: x.line):
            lines.append(f"{d.line:>5}| {d.signature}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def _pagerank(
    nodes: list[str], edges: dict[str, list[tuple[str, str, float]]], focus: list[str], damping: float = 0.85, rounds: int = 30
) -> dict[str, float]:
    if not nodes:
        return {}
    personal = {n: 0.0 for n in nodes}
    for f in focus or nodes:
        personal[f] = 1.0 / len(focus or nodes)
    out_weight = {n: sum(w for _, _, w in edges.get(n, [])) for n in nodes}
    rank = dict(personal)
    for _ in range(rounds):
        new = {n: (1 - damping) * personal[n] for n in nodes}
        dangling = sum(rank[n] for n in nodes if out_weight[n] == 0)
        for n in nodes:
            total = out_weight[n]
            if total == 0:
                continue
            share = damping * rank[n] / total
            for target, _, weight in edges.get(n, []):
                new[target] += share * weight
        for n in nodes:
            new[n] += damping * dangling * personal[n]
        rank = new
    return rank


def _entry_json(definitions: list[Definition], references: dict[str, list[int]]) -> dict[str, Any]:
    return {
        "d": [[d.name, d.qualname, d.kind, d.line, d.end_line, d.signature] for d in definitions],
        "r": references,
    }


def _entry_from_json(path: str, language: str, key: str, raw: dict[str, Any]) -> FileIndex:
    definitions = tuple(Definition(n, q, k, path, a, b, s) for n, q, k, a, b, s in raw["d"])
    return FileIndex(path, language, key.split(":", 1)[1], definitions, raw["r"])


def _load_cache(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT:
        return {}
    entries = data.get("entries")
    return entries if isinstance(entries, dict) else {}


def _save_cache(path: Path, entries: dict[str, Any]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"format": CACHE_FORMAT, "entries": entries}, separators=(",", ":")), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass  # a cache that cannot be written only costs time
