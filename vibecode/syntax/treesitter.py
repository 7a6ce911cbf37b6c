"""The one module that imports ``tree_sitter`` and the grammar packages (lazily).

Languages: Python (``tree-sitter-python``, required), and JavaScript, TypeScript/TSX, Go and
Rust when their grammar wheels (``tree-sitter-javascript``, ``-typescript``, ``-go``, ``-rust``)
are installed. Parsers and compiled queries are cached per language. Nodes are returned as
tree-sitter's own objects (typed ``Any`` here so that callers need not import tree-sitter).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from typing import Any

from vibecode.checks import Check
from vibecode.errors import VibecodeError

# language -> (module, attribute of the function returning the language pointer)
_GRAMMARS: dict[str, tuple[str, str]] = {
    "python": ("tree_sitter_python", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "go": ("tree_sitter_go", "language"),
    "rust": ("tree_sitter_rust", "language"),
}
EXTENSIONS: dict[str, str] = {
    ".py": "python", ".pyi": "python",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
    ".go": "go", ".rs": "rust",
}


class GrammarMissing(VibecodeError):
    """The grammar package for a language is not installed."""


@dataclass(frozen=True)
class SyntaxIssue:
    line: int  # 1-based
    column: int  # 1-based, in characters of the line
    message: str
    source: str = "tree-sitter"  # or "ast"

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}: {self.message}"


def language_for_path(path: str) -> str | None:
    dot = path.rfind(".")
    return EXTENSIONS.get(path[dot:].lower()) if dot != -1 else None


@cache
def _language(name: str) -> Any:
    if name not in _GRAMMARS:
        raise GrammarMissing(f"No tree-sitter grammar is known for {name!r}.")
    module_name, attr = _GRAMMARS[name]
    try:
        import tree_sitter

        module = importlib.import_module(module_name)
    except ImportError as exc:
        package = module_name.replace("_", "-")
        raise GrammarMissing(
            f"The tree-sitter grammar for {name} is not installed ({exc}).",
            f"pip install {package}",
        ) from None
    return tree_sitter.Language(getattr(module, attr)())


def has_language(name: str) -> bool:
    try:
        _language(name)
    except GrammarMissing:
        return False
    return True


def available_languages() -> list[str]:
    return [name for name in _GRAMMARS if has_language(name)]


@cache
def _parser(name: str) -> Any:
    import tree_sitter

    return tree_sitter.Parser(_language(name))


def parse(source: bytes, language: str = "python") -> Any:
    """The tree-sitter Tree of ``source``."""
    return _parser(language).parse(source)


@cache
def query(language: str, text: str) -> Any:
    import tree_sitter

    return tree_sitter.Query(_language(language), text)


def captures(language: str, query_text: str, node: Any) -> dict[str, list[Any]]:
    """Capture name -> nodes, for one compiled query run over ``node``."""
    import tree_sitter

    cursor = tree_sitter.QueryCursor(query(language, query_text))
    result: dict[str, list[Any]] = cursor.captures(node)
    return result


def matches(language: str, query_text: str, node: Any) -> list[tuple[int, dict[str, list[Any]]]]:
    import tree_sitter

    cursor = tree_sitter.QueryCursor(query(language, query_text))
    result: list[tuple[int, dict[str, list[Any]]]] = cursor.matches(node)
    return result


def syntax_issues(source: bytes, language: str = "python", limit: int = 3) -> list[SyntaxIssue]:
    """Where tree-sitter found errors (ERROR or MISSING nodes), first ones first."""
    root = parse(source, language).root_node
    if not root.has_error:
        return []
    issues: list[SyntaxIssue] = []
    stack = [root]
    while stack and len(issues) < limit:
        node = stack.pop()
        if node.is_missing:
            issues.append(_issue(source, node, f"missing {node.type!r}"))
            continue
        if node.is_error:
            snippet = source[node.start_byte : node.end_byte].decode("utf-8", "replace").strip()
            snippet = snippet.split("\n")[0][:40]
            issues.append(_issue(source, node, f"unexpected {snippet!r}" if snippet else "syntax error"))
            continue
        stack.extend(reversed([c for c in node.children if c.has_error or c.is_missing]))
    return issues


def _issue(source: bytes, node: Any, message: str) -> SyntaxIssue:
    row, byte_col = node.start_point
    line_start = source.rfind(b"\n", 0, node.start_byte) + 1
    column = len(source[line_start : line_start + byte_col].decode("utf-8", "replace")) + 1
    return SyntaxIssue(row + 1, column, message)


def diagnose() -> list[Check]:
    """Doctor section: which tree-sitter grammars the code index can use."""
    checks: list[Check] = []
    for name, (module, _) in _GRAMMARS.items():
        if name == "tsx":
            continue
        ok = has_language(name)
        fix = None if ok or name != "python" else "pip install tree-sitter tree-sitter-python"
        detail = f"{module} installed" if ok else f"{module} not installed (the index skips {name} files)"
        checks.append(Check(f"grammar {name}", ok or name != "python", detail, fix))
    return checks
