"""Syntax check, normalized form and dedupe of candidate code (Python).

**Syntax check.** tree-sitter first (it reports the position of the first ERROR or MISSING node),
then :mod:`ast` as a second opinion: tree-sitter's grammar accepts some things CPython rejects
(Python 2 ``print x``, ``return`` outside a function...), and ``ast`` is what will run the code.
Either one failing drops the candidate; the error (line, column, message, which checker) is kept.

**Normalized form.** A canonical rendering of the tree-sitter tree in which these differences
vanish:

- formatting: whitespace, line breaks, indentation width, redundant parentheses, trailing and
  separating commas, quote style and escapes of plain string literals, number spelling
  (``1_000`` vs ``1000``, ``0x10`` vs ``16``);
- comments, and docstrings (a string statement first in a module, class or function body);
- ``pass`` next to other statements;
- names of local variables.

**How far renaming goes.** A name is renamed when it is local to a function: bound inside the
function body (assignment and augmented-assignment targets, ``for``/comprehension targets,
``with ... as``, ``except ... as``, ``:=``, imports inside the function, nested ``def``/``class``
names) and not declared ``global``/``nonlocal``; parameters of nested functions and lambdas are
local too. Names are replaced by ``_v0``, ``_v1``... in order of their first binding in the
source. Not renamed: module-level names, parameters of module-level functions and methods (a
caller may pass them by keyword), attribute names, keyword-argument names, class attributes.
So two solutions are one candidate when they are the same program up to formatting, comments,
docstrings and the names of their locals; anything else (a different algorithm, a different
order of statements, different public names) stays apart for the sandbox to judge.
"""

from __future__ import annotations

import ast
import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from vibecode.syntax.treesitter import SyntaxIssue, parse, syntax_issues

__all__ = ["DedupeResult", "SyntaxIssue", "check_syntax", "dedupe", "normalize", "normalized_key"]

_FUNCTIONS = ("function_definition", "lambda")
_DROP_TOKENS = frozenset({"(", ")", "[", "]", "{", "}", ",", ";", ":", "\\"})
_KEEP_PUNCT_IN = frozenset({"slice", "subscript", "format_specifier"})
_COMPREHENSIONS = frozenset({"list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression"})


@dataclass(frozen=True)
class DedupeResult:
    index: int
    key: str | None  # sha256 of the normalized form; None when the code does not parse
    duplicate_of: int | None  # index of the first candidate with the same key
    error: SyntaxIssue | None
    normalized: str | None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def distinct(self) -> bool:
        """Parses and is the first of its kind: the candidates worth running."""
        return self.error is None and self.duplicate_of is None


def check_syntax(code: str) -> SyntaxIssue | None:
    """The first syntax error of Python ``code`` (tree-sitter, then ``ast``), or None."""
    source = code.encode("utf-8", errors="surrogateescape")
    issues = syntax_issues(source, "python", limit=1)
    if issues:
        return issues[0]
    try:
        ast.parse(code)
    except SyntaxError as exc:
        return SyntaxIssue(exc.lineno or 1, exc.offset or 1, exc.msg, "ast")
    except ValueError as exc:  # source with NUL bytes
        return SyntaxIssue(1, 1, str(exc), "ast")
    return None


def normalize(code: str) -> str:
    """The normalized form (see the module docstring). The code must parse."""
    source = code.encode("utf-8", errors="surrogateescape")
    root = parse(source, "python").root_node
    return " ".join(_Normalizer(source).tokens(root))


def normalized_key(code: str) -> str:
    return hashlib.sha256(normalize(code).encode("utf-8", errors="surrogateescape")).hexdigest()


def dedupe(codes: Sequence[str]) -> list[DedupeResult]:
    """For each candidate: its syntax error, or its key and the first earlier duplicate."""
    first: dict[str, int] = {}
    results: list[DedupeResult] = []
    for index, code in enumerate(codes):
        error = check_syntax(code)
        if error is not None:
            results.append(DedupeResult(index, None, None, error, None))
            continue
        form = normalize(code)
        key = hashlib.sha256(form.encode("utf-8", errors="surrogateescape")).hexdigest()
        results.append(DedupeResult(index, key, first.get(key), None, form))
        first.setdefault(key, index)
    return results


class _Normalizer:
    def __init__(self, source: bytes) -> None:
        self.source = source
        self.counter = 0
        self.scopes: list[dict[str, str]] = []

    def text(self, node: Any) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", errors="surrogateescape")

    def tokens(self, node: Any, field: str | None = None, parent: Any = None) -> Iterator[str]:
        kind = node.type
        if kind == "comment" or _is_docstring(node):
            return
        if kind == "parenthesized_expression":
            inner = [c for c in node.named_children if c.type != "comment"]
            if len(inner) == 1 and inner[0].type not in ("yield",):
                yield from self.tokens(inner[0], field, parent)
                return
        if kind in _FUNCTIONS:
            yield from self._function(node, parent)
            return
        if kind == "identifier":
            yield self._name(node, field, parent)
            return
        if kind in ("integer", "float"):
            yield _literal(self.text(node))
            return
        if kind in ("string", "concatenated_string") and not _has_interpolation(node):
            yield _literal(self.text(node))
            return
        if node.child_count == 0:
            if not node.is_named:
                if kind in _DROP_TOKENS and (parent is None or parent.type not in _KEEP_PUNCT_IN):
                    return
                yield kind
            else:
                yield f"{kind}:{self.text(node)}"
            return
        yield f"({kind}"
        children = node.children
        named = [c for c in children if c.is_named and c.type not in ("comment", "pass_statement")]
        for i, child in enumerate(children):
            if child.type == "pass_statement" and named and kind in ("block", "module"):
                continue
            yield from self.tokens(child, node.field_name_for_child(i), node)
        yield ")"

    def _name(self, node: Any, field: str | None, parent: Any) -> str:
        name = self.text(node)
        if parent is not None:
            if parent.type == "attribute" and field == "attribute":
                return f".{name}"
            if parent.type == "keyword_argument" and field == "name":
                return f"{name}="
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return name

    def _function(self, node: Any, parent: Any) -> Iterator[str]:
        nested = bool(self.scopes)
        local_names = _bindings(node, self.source, include_params=nested or node.type == "lambda")
        mapping: dict[str, str] = {}
        for name in local_names:
            mapping[name] = f"_v{self.counter}"
            self.counter += 1
        yield f"({node.type}"
        for i, child in enumerate(node.children):
            field = node.field_name_for_child(i)
            if field == "name":
                # The function's own name lives in the enclosing scope.
                yield self._name(child, None, None)
                continue
            if field == "parameters":
                self.scopes.append(mapping)
                yield from self.tokens(child, field, node)
                self.scopes.pop()
                continue
            if field == "body":
                self.scopes.append(mapping)
                yield from self.tokens(child, field, node)
                self.scopes.pop()
                continue
            yield from self.tokens(child, field, node)
        yield ")"


def _is_docstring(node: Any) -> bool:
    if node.type != "expression_statement" or node.named_child_count != 1:
        return False
    if node.named_children[0].type not in ("string", "concatenated_string"):
        return False
    parent = node.parent
    if parent is None or parent.type not in ("module", "block"):
        return False
    first = next((c for c in parent.named_children if c.type != "comment"), None)
    if first is None or first.id != node.id:
        return False
    return parent.type == "module" or (parent.parent is not None and parent.parent.type in ("function_definition", "class_definition"))


def _has_interpolation(node: Any) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "interpolation":
            return True
        stack.extend(current.children)
    return False


def _literal(text: str) -> str:
    try:
        return repr(ast.literal_eval(text))
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text


# ---- local-name analysis ---------------------------------------------------------------


def _bindings(func: Any, source: bytes, include_params: bool) -> list[str]:
    """Names local to ``func`` in order of first binding (see the module docstring)."""
    def text(n: Any) -> str:
        return source[n.start_byte : n.end_byte].decode("utf-8", errors="surrogateescape")

    ordered: list[str] = []
    excluded: set[str] = set()

    def bind(name: str) -> None:
        if name not in ordered:
            ordered.append(name)

    params = func.child_by_field_name("parameters")
    if include_params and params is not None:
        for name_node in _parameter_names(params):
            bind(text(name_node))
    body = func.child_by_field_name("body")
    stack = [body] if body is not None else []
    order: list[Any] = []
    while stack:  # pre-order, left to right, not into nested functions/classes
        node = stack.pop()
        order.append(node)
        if node.type in ("function_definition", "class_definition", "lambda") and node is not body:
            continue
        stack.extend(reversed(node.children))
    for node in order:
        kind = node.type
        if kind in ("global_statement", "nonlocal_statement"):
            excluded.update(text(c) for c in node.named_children if c.type == "identifier")
        elif kind in ("function_definition", "class_definition") and node is not body:
            name = node.child_by_field_name("name")
            if name is not None:
                bind(text(name))
        elif kind in ("assignment", "augmented_assignment", "for_statement", "for_in_clause"):
            target = node.child_by_field_name("left")
            if target is not None:
                for ident in _pattern_names(target):
                    bind(text(ident))
        elif kind == "as_pattern_target":
            for ident in _pattern_names(node):
                bind(text(ident))
        elif kind == "named_expression":
            name = node.child_by_field_name("name")
            if name is not None:
                bind(text(name))
        elif kind == "aliased_import":
            alias = node.child_by_field_name("alias")
            if alias is not None:
                bind(text(alias))
        elif kind in ("import_statement",) :
            for child in node.named_children:
                if child.type == "dotted_name" and child.named_child_count:
                    bind(text(child.named_children[0]))
        elif kind == "import_from_statement":
            for i, child in enumerate(node.children):
                if node.field_name_for_child(i) == "name" and child.type == "dotted_name":
                    bind(text(child.named_children[-1]))
    return [name for name in ordered if name not in excluded]


def _parameter_names(params: Any) -> Iterator[Any]:
    for child in params.named_children:
        if child.type == "identifier":
            yield child
        elif child.type in ("default_parameter", "typed_default_parameter"):
            name = child.child_by_field_name("name")
            if name is not None:
                yield name
        elif child.type in ("typed_parameter", "list_splat_pattern", "dictionary_splat_pattern"):
            ident = next((c for c in child.named_children if c.type == "identifier"), None)
            if ident is not None:
                yield ident


def _pattern_names(target: Any) -> Iterator[Any]:
    """Identifiers bound by an assignment target (not attributes or subscripts)."""
    if target.type == "identifier":
        yield target
        return
    if target.type in ("pattern_list", "tuple_pattern", "list_pattern", "tuple", "list",
                       "list_splat_pattern", "as_pattern_target", "parenthesized_expression",
                       "expression_list"):
        for child in target.named_children:
            yield from _pattern_names(child)
