"""Definitions and references of one source file, with tree-sitter queries.

Per language: a definitions query (each pattern captures ``@def`` = the whole definition and
``@name``; the pattern's position gives its kind) and the identifier node types that count as
references. Qualified names come from the enclosing definitions (``Class.method``,
``outer.inner``; Go methods get their receiver type, Rust ``impl`` blocks their type).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vibecode.syntax.treesitter import captures, matches, parse


@dataclass(frozen=True)
class Definition:
    name: str
    qualname: str
    kind: str  # "function", "method", "class", "variable", "interface", "type", "enum", "module", ...
    path: str
    line: int  # 1-based first line
    end_line: int  # 1-based last line
    signature: str  # the first line of the definition, indentation kept, capped

    def contains(self, line: int) -> bool:
        return self.line <= line <= self.end_line


@dataclass(frozen=True)
class _Spec:
    definitions: tuple[tuple[str, str], ...]  # (pattern, kind)
    references: str  # query capturing @ref
    scopes: frozenset[str]  # node types whose name prefixes qualnames
    method_parents: frozenset[str]  # a function directly inside these is a "method"


_SPECS: dict[str, _Spec] = {
    "python": _Spec(
        (
            ("(function_definition name: (identifier) @name) @def", "function"),
            ("(class_definition name: (identifier) @name) @def", "class"),
            ("(module (expression_statement (assignment left: (identifier) @name) @def))", "variable"),
        ),
        "(identifier) @ref",
        frozenset({"function_definition", "class_definition"}),
        frozenset({"class_definition"}),
    ),
    "javascript": _Spec(
        (
            ("(function_declaration name: (identifier) @name) @def", "function"),
            ("(generator_function_declaration name: (identifier) @name) @def", "function"),
            ("(class_declaration name: (identifier) @name) @def", "class"),
            ("(method_definition name: (property_identifier) @name) @def", "method"),
            ("(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)]) @def", "function"),
        ),
        "(identifier) @ref (property_identifier) @ref",
        frozenset({"function_declaration", "class_declaration", "method_definition"}),
        frozenset({"class_declaration"}),
    ),
    "typescript": _Spec(
        (
            ("(function_declaration name: (identifier) @name) @def", "function"),
            ("(class_declaration name: (type_identifier) @name) @def", "class"),
            ("(abstract_class_declaration name: (type_identifier) @name) @def", "class"),
            ("(method_definition name: (property_identifier) @name) @def", "method"),
            ("(interface_declaration name: (type_identifier) @name) @def", "interface"),
            ("(type_alias_declaration name: (type_identifier) @name) @def", "type"),
            ("(enum_declaration name: (identifier) @name) @def", "enum"),
            ("(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)]) @def", "function"),
        ),
        "(identifier) @ref (property_identifier) @ref (type_identifier) @ref",
        frozenset({"function_declaration", "class_declaration", "abstract_class_declaration", "method_definition", "interface_declaration"}),
        frozenset({"class_declaration", "abstract_class_declaration"}),
    ),
    "go": _Spec(
        (
            ("(function_declaration name: (identifier) @name) @def", "function"),
            ("(method_declaration name: (field_identifier) @name) @def", "method"),
            ("(type_spec name: (type_identifier) @name) @def", "type"),
        ),
        "(identifier) @ref (field_identifier) @ref (type_identifier) @ref",
        frozenset({"function_declaration"}),
        frozenset(),
    ),
    "rust": _Spec(
        (
            ("(function_item name: (identifier) @name) @def", "function"),
            ("(function_signature_item name: (identifier) @name) @def", "function"),
            ("(struct_item name: (type_identifier) @name) @def", "class"),
            ("(enum_item name: (type_identifier) @name) @def", "enum"),
            ("(trait_item name: (type_identifier) @name) @def", "interface"),
            ("(type_item name: (type_identifier) @name) @def", "type"),
            ("(mod_item name: (identifier) @name) @def", "module"),
        ),
        "(identifier) @ref (field_identifier) @ref (type_identifier) @ref",
        frozenset({"function_item", "trait_item", "mod_item", "impl_item"}),
        frozenset({"impl_item", "trait_item"}),
    ),
}
_SPECS["tsx"] = _SPECS["typescript"]
MAX_REF_LINES = 64  # per name and file


def supported(language: str) -> bool:
    return language in _SPECS


def _definitions_query(language: str) -> str:
    return "\n".join(pattern for pattern, _ in _SPECS[language].definitions)


def file_symbols(source: bytes, language: str, path: str) -> tuple[list[Definition], dict[str, list[int]]]:
    """(definitions, name -> 1-based lines where it is referenced) of one file."""
    spec = _SPECS[language]
    root = parse(source, language).root_node
    lines = source.split(b"\n")
    definitions: list[Definition] = []
    name_spans: set[tuple[int, int]] = set()
    for pattern_index, caps in matches(language, _definitions_query(language), root):
        nodes, names = caps.get("def"), caps.get("name")
        if not nodes or not names:
            continue
        node, name_node = nodes[0], names[0]
        name_spans.add((name_node.start_byte, name_node.end_byte))
        kind = spec.definitions[pattern_index][1]
        name = _text(source, name_node)
        scope = _scope(node, source, spec)
        if kind == "function" and _parent_scope_type(node, spec) in spec.method_parents:
            kind = "method"
        if language == "go" and kind == "method":
            receiver = _go_receiver(node, source)
            scope = [receiver] if receiver else scope
        start, end = node.start_point[0], node.end_point[0]
        signature = lines[start].decode("utf-8", "replace").rstrip()[:200] if start < len(lines) else ""
        definitions.append(
            Definition(name, ".".join([*scope, name]), kind, path, start + 1, end + 1, signature)
        )
    references: dict[str, list[int]] = {}
    for nodes in captures(language, spec.references, root).values():
        for node in nodes:
            if (node.start_byte, node.end_byte) in name_spans:
                continue
            name = _text(source, node)
            seen = references.setdefault(name, [])
            line = node.start_point[0] + 1
            if len(seen) < MAX_REF_LINES and (not seen or seen[-1] != line):
                seen.append(line)
    for seen in references.values():
        seen.sort()
    definitions.sort(key=lambda d: (d.line, d.end_line))
    return definitions, references


def _text(source: bytes, node: Any) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _scope_name(node: Any, source: bytes) -> str | None:
    name = node.child_by_field_name("name") or node.child_by_field_name("type")
    return _text(source, name) if name is not None else None


def _scope(node: Any, source: bytes, spec: _Spec) -> list[str]:
    names: list[str] = []
    parent = node.parent
    while parent is not None:
        if parent.type in spec.scopes:
            name = _scope_name(parent, source)
            if name:
                names.append(name)
        parent = parent.parent
    return list(reversed(names))


def _parent_scope_type(node: Any, spec: _Spec) -> str | None:
    parent = node.parent
    while parent is not None:
        if parent.type in spec.scopes or parent.type in spec.method_parents:
            return str(parent.type)
        parent = parent.parent
    return None


def _go_receiver(node: Any, source: bytes) -> str | None:
    receiver = node.child_by_field_name("receiver")
    if receiver is None:
        return None
    stack = [receiver]
    while stack:
        current = stack.pop()
        if current.type == "type_identifier":
            return _text(source, current)
        stack.extend(current.children)
    return None
