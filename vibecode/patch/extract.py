"""Get the intended code or edits out of a model's answer, or say precisely why not.

Both functions take a Completion's ``answer`` (never its reasoning). If they are handed text that
still holds a think block, they drop everything up to the last ``</think>`` (and everything after
an unclosed ``<think>``) first, so decoy code in the reasoning is never picked.

``extract_code`` (solve tasks): the last *complete* fenced block that is valid Python and defines
the entry point. A block is complete when it parses; an unclosed fence followed by prose is cut
back to the longest prefix that parses. Stubs (bodies of only ``pass``/``...``/a docstring) count
only when nothing else does. With no fences, code that starts at a ``def``/``class``/``import``
line of the answer is tried the same way.

``extract_edits`` (repo tasks): see :mod:`vibecode.patch.edit_extract`.
"""

from __future__ import annotations

import ast
import textwrap
from dataclasses import dataclass

from vibecode.errors import ExtractionError
from vibecode.patch.edit_extract import extract_edits, extract_edits_detailed
from vibecode.patch.fences import Block, answer_only, find_blocks, is_python_tag

__all__ = ["answer_only", "extract_code", "extract_edits", "extract_edits_detailed"]

@dataclass(frozen=True)
class _Candidate:
    code: str
    origin: str  # "block at line N", "unfenced code"
    stub: bool


def extract_code(answer: str, entry_point: str | None = None) -> str:
    """The final Python code of a solve-task answer (see the module docstring).

    ``entry_point`` is a function name (``two_sum``), a method name (``twoSum``, found in any
    class) or ``Class.method`` (``Solution.twoSum``). None accepts any code that defines
    something.
    """
    text = answer_only(answer).replace("\r\n", "\n")
    if not text.strip():
        raise ExtractionError(
            "The answer is empty: the model produced no text after its reasoning.",
            "It may have run out of tokens while thinking; raise max_tokens or the think budget.",
        )
    blocks = find_blocks(text)
    problems: list[str] = []
    found: list[_Candidate] = []
    for block in blocks:
        candidate = _from_block(block, entry_point, problems)
        if candidate is not None:
            found.append(candidate)
    if not found:
        candidate = _unfenced(text, entry_point, problems, fenced=bool(blocks))
        if candidate is not None:
            found.append(candidate)
    real = [c for c in found if not c.stub]
    chosen = (real or found)[-1] if found else None
    if chosen is not None:
        return chosen.code
    raise ExtractionError(_explain(blocks, entry_point, problems))


def _from_block(block: Block, entry: str | None, problems: list[str]) -> _Candidate | None:
    origin = f"the code block at answer line {block.start + 1}"
    code = _tidy(block.content)
    if not code.strip():
        return None
    tree, error = _parse(code)
    pythonish = is_python_tag(block.lang) or "def " in code or "class " in code
    if tree is None and not block.closed:
        code, tree = _longest_parsing_prefix(code)
        if tree is None:
            if pythonish:
                problems.append(f"{origin} never closes and is cut off ({error})")
            return None
    if tree is None:
        if pythonish:
            problems.append(f"{origin} is not valid Python ({error})")
        return None
    if not _defines(tree, entry):
        return None
    return _Candidate(code, origin, _is_stub(tree, entry))


def _unfenced(text: str, entry: str | None, problems: list[str], fenced: bool) -> _Candidate | None:
    lines = text.split("\n")
    starts = [
        i for i, line in enumerate(lines)
        if line.startswith(("def ", "async def ", "class ", "import ", "from ", "@"))
    ]
    for start in starts:
        code = _tidy("\n".join(line for line in lines[start:] if not line.lstrip().startswith(("```", "~~~"))))
        tree, _ = _parse(code)
        if tree is None:
            code, tree = _longest_parsing_prefix(code)
        if tree is not None and _defines(tree, entry):
            return _Candidate(code, "unfenced code", _is_stub(tree, entry))
    if not fenced and starts:
        problems.append("the answer has code outside any fence, but it is not valid Python")
    return None


def _tidy(code: str) -> str:
    code = textwrap.dedent(code.replace("\r\n", "\n"))
    lines = [line.rstrip() for line in code.split("\n")]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines) + "\n" if lines else ""


def _parse(code: str) -> tuple[ast.Module | None, str]:
    try:
        return ast.parse(code), ""
    except SyntaxError as exc:
        return None, f"{exc.msg} at line {exc.lineno}"
    except ValueError as exc:  # null bytes
        return None, str(exc)


def _longest_parsing_prefix(code: str) -> tuple[str, ast.Module | None]:
    """Cut trailing lines (at top-level line starts) until the code parses."""
    lines = code.split("\n")
    for end in range(len(lines) - 1, 0, -1):
        if lines[end][:1].strip() or not lines[end].strip():
            prefix = _tidy("\n".join(lines[:end]))
            if not prefix:
                continue
            tree, _ = _parse(prefix)
            if tree is not None and tree.body:
                return prefix, tree
    return code, None


def _functions(body: list[ast.stmt]) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    return {n.name: n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _target(tree: ast.Module, entry: str | None) -> list[ast.AST]:
    if entry is None:
        return [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    cls_name, _, name = entry.rpartition(".")
    out: list[ast.AST] = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and (not cls_name or node.name == cls_name):
            if name in _functions(node.body):
                out.append(_functions(node.body)[name])
            elif node.name == name:
                out.append(node)
        elif not cls_name and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            out.append(node)
    return out


def _defines(tree: ast.Module, entry: str | None) -> bool:
    return bool(_target(tree, entry))


def _is_stub(tree: ast.Module, entry: str | None) -> bool:
    for node in _target(tree, entry):
        body = getattr(node, "body", [])
        meaningful = [
            s for s in body
            if not (isinstance(s, ast.Pass) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)))
        ]
        if meaningful:
            return False
    return True


def _explain(blocks: list[Block], entry: str | None, problems: list[str]) -> str:
    what = f"defines {entry!r}" if entry else "defines a function or class"
    if not blocks and not problems:
        return f"The answer has no code block and no Python code that {what}."
    if problems:
        detail = "; ".join(problems[-3:])
        return f"No complete Python code block {what}: {detail}."
    names = sorted({n for b in blocks for n in _defined_names(b.content)})
    seen = f" (the blocks define: {', '.join(names)})" if names else ""
    return f"The answer has {len(blocks)} code block(s), but none {what}{seen}."


def _defined_names(code: str) -> list[str]:
    tree, _ = _parse(_tidy(code))
    if tree is None:
        return []
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.append(node.name)
        elif isinstance(node, ast.ClassDef):
            names.extend(f"{node.name}.{m}" for m in _functions(node.body))
            names.append(node.name)
    return names
