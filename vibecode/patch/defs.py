"""Definition-level merge of a Python code block into a Python file (with :mod:`ast`).

Used when a model sends a block with some functions or classes instead of an edit: each
top-level function/class of the block replaces the one of the same name in the file (a class
that only lists some of the file's methods replaces those methods one by one), definitions the
file lacks are appended, and ``import`` lines the file lacks are added after its imports.
Other top-level statements of the block (example calls, prints) are ignored.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from vibecode.errors import ApplyError
from vibecode.patch.text import dominant_newline, split_lines, strip_ending

_DEF_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


@dataclass(frozen=True)
class _Span:
    start: int  # 0-based first line (decorators included)
    end: int  # one past the last line


def parse_python(text: str, what: str) -> ast.Module:
    try:
        return ast.parse(text.replace("\r\n", "\n"))
    except (SyntaxError, ValueError) as exc:
        line = getattr(exc, "lineno", None)
        where = f" at line {line}" if line else ""
        raise ApplyError(f"{what} is not valid Python{where}: {getattr(exc, 'msg', exc)}.") from None


def top_level_names(module: ast.Module) -> list[str]:
    return [node.name for node in module.body if isinstance(node, _DEF_TYPES)]


def _span(node: Def) -> _Span:
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return _Span(first - 1, node.end_lineno or node.lineno)


def _segment(lines: list[str], span: _Span) -> list[str]:
    return [strip_ending(line) for line in lines[span.start : span.end]]


def merge_definitions(file_text: str, block: str, path: str) -> str:
    """The file's text with the block's definitions merged in (see the module docstring)."""
    file_tree = parse_python(file_text, path)
    block_tree = parse_python(block, f"The code block for {path}")
    file_lines = split_lines(file_text)
    block_lines = split_lines(block.replace("\r\n", "\n"))
    newline = dominant_newline(file_lines)
    # (span in file, replacement lines) pairs, applied bottom-up
    replacements: list[tuple[_Span, list[str]]] = []
    appended: list[list[str]] = []
    by_name = {n.name: n for n in file_tree.body if isinstance(n, _DEF_TYPES)}
    for node in block_tree.body:
        if not isinstance(node, _DEF_TYPES):
            continue
        new_lines = _segment(block_lines, _span(node))
        target = by_name.get(node.name)
        if target is None:
            appended.append(new_lines)
        elif isinstance(node, ast.ClassDef) and isinstance(target, ast.ClassDef) and _partial(node, target):
            replacements.extend(_method_replacements(node, target, block_lines, file_lines))
        else:
            replacements.append((_span(target), new_lines))
    imports = _missing_imports(file_tree, block_tree, block_lines)
    out = [strip_ending(line) for line in file_lines]
    for span, new in sorted(replacements, key=lambda r: r[0].start, reverse=True):
        out[span.start : span.end] = new
    for new in appended:
        while out and not out[-1].strip():
            out.pop()
        out.extend(["", "", *new])
    if imports:
        at = _import_insertion_line(file_tree)
        out[at:at] = imports
    ends_with_newline = not file_lines or file_lines[-1].endswith("\n")
    text = newline.join(out)
    return text + newline if ends_with_newline else text


def _partial(block_cls: ast.ClassDef, file_cls: ast.ClassDef) -> bool:
    """True when the block's class only restates some methods (and nothing else) of the file's."""
    block_methods = {n.name for n in block_cls.body if isinstance(n, _DEF_TYPES)}
    file_methods = {n.name for n in file_cls.body if isinstance(n, _DEF_TYPES)}
    others = [
        n for n in block_cls.body
        if not isinstance(n, _DEF_TYPES) and not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))
    ]
    return bool(block_methods) and not others and block_methods < file_methods


def _method_replacements(
    block_cls: ast.ClassDef, file_cls: ast.ClassDef, block_lines: list[str], file_lines: list[str]
) -> list[tuple[_Span, list[str]]]:
    by_name = {n.name: n for n in file_cls.body if isinstance(n, _DEF_TYPES)}
    out: list[tuple[_Span, list[str]]] = []
    for node in block_cls.body:
        if isinstance(node, _DEF_TYPES) and node.name in by_name:
            target = by_name[node.name]
            new = _segment(block_lines, _span(node))
            shift = target.col_offset - node.col_offset
            out.append((_span(target), _shift(new, shift, _indent_char(file_lines))))
    return out


def _indent_char(lines: Sequence[str]) -> str:
    tabs = sum(1 for line in lines if line.startswith("\t"))
    spaces = sum(1 for line in lines if line.startswith(" "))
    return "\t" if tabs > spaces else " "


def _shift(lines: list[str], delta: int, char: str) -> list[str]:
    if delta == 0:
        return lines
    if delta > 0:
        return [char * delta + line if line.strip() else line for line in lines]
    cut = -delta
    return [line[cut:] if line[:cut].strip() == "" else line.lstrip() for line in lines]


def _missing_imports(file_tree: ast.Module, block_tree: ast.Module, block_lines: list[str]) -> list[str]:
    have = {ast.unparse(n) for n in file_tree.body if isinstance(n, (ast.Import, ast.ImportFrom))}
    have_names = {
        alias.asname or alias.name
        for n in file_tree.body
        if isinstance(n, (ast.Import, ast.ImportFrom))
        for alias in n.names
    }
    out: list[str] = []
    for node in block_tree.body:
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        names = {alias.asname or alias.name for alias in node.names}
        if ast.unparse(node) in have or names <= have_names:
            continue
        out.extend(_segment(block_lines, _Span(node.lineno - 1, node.end_lineno or node.lineno)))
    return out


def _import_insertion_line(tree: ast.Module) -> int:
    last = 0
    for index, node in enumerate(tree.body):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            last = node.end_lineno or node.lineno
        elif index == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            last = node.end_lineno or node.lineno  # after a module docstring
    return last
