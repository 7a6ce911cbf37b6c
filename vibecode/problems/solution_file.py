"""The user-facing solution file: the text vibecode runs, shows and writes, byte for byte.

:func:`complete_solution` turns a candidate's code into a file that runs on its own with plain
``python``:

- a plain function where the problem asks for a ``class Solution`` method becomes a real method
  of that class (``self`` added when it lacks one; its recursive calls become ``self.f(...)``);
- the imports it uses and lacks are added at the top (:mod:`vibecode.problems.solution_imports`);
- when it uses ``ListNode`` or ``TreeNode`` without defining them,
  LeetCode's own definitions are written into it, after the imports. Pasting the file into
  LeetCode still works: a local definition of the same class shadows LeetCode's harmlessly;
- it ends with exactly one newline.

The function is idempotent (completing a completed file changes nothing), so the harness can
complete whatever it is given and still run exactly the text the pipeline reports.
"""

from __future__ import annotations

import ast
import re

from vibecode.problems.solution_imports import bound_names, free_names, missing_imports
from vibecode.types import Signature

LIST_NODE = '''class ListNode:
    """Definition for singly-linked list (as on LeetCode)."""

    def __init__(self, val=0, next=None):
        self.val = val
        self.next = next
'''

TREE_NODE = '''class TreeNode:
    """Definition for a binary tree node (as on LeetCode)."""

    def __init__(self, val=0, left=None, right=None):
        self.val = val
        self.left = left
        self.right = right
'''

NODE_CLASSES = {"ListNode": LIST_NODE, "TreeNode": TREE_NODE}


def complete_solution(code: str, signature: Signature) -> str:
    """``code`` as a self-contained solution file (see the module docstring); unchanged but
    for its ending when it does not parse (the harness reports the syntax error)."""
    code = code.replace("\r\n", "\n")
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return _ending(code)
    if signature.class_name and not _has_method(tree, signature) and _top_function(tree, signature.function):
        method = function_to_method(code, signature)
        if method is not None:
            code, tree = method, ast.parse(method)
    header = missing_imports(tree)
    free = free_names(tree)
    defined = bound_names(tree)
    nodes = [text for name, text in NODE_CLASSES.items() if name in free and name not in defined]
    if not header and not nodes:
        return _ending(code)
    lines = code.split("\n")
    at = _insert_line(tree)
    before = "\n".join(lines[:at]).rstrip()
    after = "\n".join(lines[at:]).strip("\n")
    parts = [before] if before else []
    if header:
        parts.append("\n".join(header))
    parts += [n.rstrip("\n") for n in nodes]
    parts.append(after)
    return _ending("\n\n\n".join(p for p in parts if p) if nodes else "\n\n".join(p for p in parts if p))


def _ending(code: str) -> str:
    return "\n".join(line.rstrip() for line in code.rstrip().split("\n")) + "\n"


def _insert_line(tree: ast.Module) -> int:
    """The 0-based line where added imports go: after a module docstring and ``__future__``."""
    at = 0
    for n, node in enumerate(tree.body):
        docstring = n == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
            and isinstance(node.value.value, str)
        future = isinstance(node, ast.ImportFrom) and node.module == "__future__"
        if not (docstring or future):
            break
        at = node.end_lineno or node.lineno
    return at


def _has_method(tree: ast.Module, signature: Signature) -> bool:
    return any(
        isinstance(node, ast.ClassDef) and node.name == signature.class_name
        and any(isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name == signature.function
                for m in node.body)
        for node in tree.body
    )


def _top_function(tree: ast.Module, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    return next((n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and n.name == name), None)


def function_to_method(code: str, signature: Signature) -> str | None:
    """``code`` with the top-level function ``signature.function`` moved into ``class
    Solution`` as a method (None when that cannot be done safely)."""
    tree = ast.parse(code)
    fn = _top_function(tree, signature.function)
    if fn is None or any(isinstance(n, ast.ClassDef) and n.name == signature.class_name for n in tree.body):
        return None
    params = fn.args.posonlyargs + fn.args.args
    takes_self = bool(params) and params[0].arg == "self"
    lines = code.split("\n")
    edits: list[tuple[int, int, int, int, str]] = []  # (line, col, end line, end col, new text), 1-based lines
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == fn.name and takes_self:
            if not node.args or not (isinstance(node.args[0], ast.Name) and node.args[0].id == "self"):
                return None
            first = node.args[0]
            nxt = node.args[1] if len(node.args) > 1 else (node.keywords[0] if node.keywords else None)
            stop = (nxt.lineno, nxt.col_offset) if nxt is not None else (first.end_lineno, first.end_col_offset)
            edits.append((first.lineno, first.col_offset, stop[0] or first.lineno, stop[1] or 0, ""))
        if isinstance(node, ast.Name) and node.id == fn.name:
            if not isinstance(node.ctx, ast.Load):
                return None
            edits.append((node.lineno, node.col_offset, node.end_lineno or node.lineno, node.end_col_offset or 0,
                          f"self.{fn.name}"))
    start = fn.decorator_list[0].lineno if fn.decorator_list else fn.lineno
    for node in tree.body:
        if node is fn:
            continue
        for name in ast.walk(node):
            if isinstance(name, ast.Name) and name.id == fn.name:
                if not isinstance(name.ctx, ast.Load):
                    return None
                edits.append((name.lineno, name.col_offset, name.end_lineno or name.lineno, name.end_col_offset or 0,
                              f"{signature.class_name}().{fn.name}"))
    if not takes_self:
        edits.append(_self_insertion(lines, fn))
    for line, col, end_line, end_col, text in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        if line != end_line:
            return None
        lines[line - 1] = lines[line - 1][:col] + text + lines[line - 1][end_col:]
    strings = _string_continuations(fn)
    unit = "\t" if any(lines[n - 1].startswith("\t") for n in range(fn.lineno, (fn.end_lineno or fn.lineno) + 1)) else "    "
    end = fn.end_lineno or fn.lineno
    body = [line if (n in strings or not line.strip()) else unit + line
            for n, line in enumerate(lines[start - 1 : end], start)]
    out = [*lines[: start - 1], f"class {signature.class_name}:", *body, *lines[end:]]
    text = "\n".join(out)
    try:
        if not _has_method(ast.parse(text), signature):
            return None
    except SyntaxError:
        return None
    return text


def _self_insertion(lines: list[str], fn: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[int, int, int, int, str]:
    """The edit that makes ``self`` the first parameter of ``fn``."""
    args = fn.args
    first = (args.posonlyargs + args.args)[:1] or ([args.vararg] if args.vararg else [])
    if first:
        a = first[0]
        col = a.col_offset - (1 if args.vararg is a else 0)
        return (a.lineno, col, a.lineno, col, "self, ")
    line = lines[fn.lineno - 1]
    match = re.search(rf"def\s+{re.escape(fn.name)}\s*\(", line)
    if match is None:
        return (fn.lineno, 0, fn.lineno + 1, 0, "")  # multi-line edit: refused by the caller
    rest = line[match.end():].lstrip()
    text = "self" if rest.startswith(")") else "self, "
    return (fn.lineno, match.end(), fn.lineno, match.end(), text)


def _string_continuations(fn: ast.AST) -> set[int]:
    """1-based lines that continue a multi-line string literal (indenting them would change it)."""
    lines: set[int] = set()
    for node in ast.walk(fn):
        if isinstance(node, (ast.Constant, ast.JoinedStr)) and node.end_lineno and node.end_lineno > node.lineno:
            lines.update(range(node.lineno + 1, node.end_lineno + 1))
    return lines
