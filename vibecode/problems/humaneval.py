"""HumanEval-style problems: a Python function signature whose docstring holds the examples.

Examples are read from ``>>> f(args)`` lines (the expected value on the following lines, up to a
blank line or the next ``>>>``) and from lines such as ``f(args) == value``, ``f(args) ➞ value``,
``f(args) => value`` or ``f(args) should return value``. Examples that are not a call of the entry
function with literal arguments and a literal result are skipped and listed in
``Problem.warnings``.
"""

from __future__ import annotations

import ast
import inspect
import re

from vibecode.errors import ProblemError
from vibecode.problems.binding import bind_arguments, detect_output_order
from vibecode.problems.literals import (
    LiteralError,
    parse_arguments,
    parse_value,
    read_call,
    scan_value,
)
from vibecode.problems.signature import signature_from_starter
from vibecode.types import Example, Problem, Signature

_FENCE = re.compile(r"```[\w+-]*[^\n]*\n(.*?)```", re.S)
_LABELLED = re.compile(r"^\s*input\s*:\s*(.+?)\n\s*output\s*:\s*([^\n]+)", re.I | re.M | re.S)
# After the expected value: an arithmetic operator, so the "value" was the start of a calculation.
_EXPRESSION_GOES_ON = re.compile(r"\s*(?:[-+*/%]|\*\*)\s*[\w(]")
_LAST_EQUALS = re.compile(r"(?<![=<>!])=(?!=)(?!.*(?<![=<>!])=(?!=))\s*")
_ARROW = re.compile(r"\s*(?:==>|-->|==|➞|=>|->|→|=|should\s+return|returns|should\s+be|gives)\s*")


def _code_of(text: str) -> str | None:
    """The Python source in the text: the whole text, or its first code fence with a ``def``."""
    candidates = [text] + [m.group(1) for m in _FENCE.finditer(text)]
    for src in candidates:
        if "def " not in src:
            continue
        try:
            tree = ast.parse(src)
        except SyntaxError:
            continue
        if any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in tree.body):
            return src
    return None


def _doc(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, int]:
    """The function's docstring (also one placed after imports) and the line where it ends."""
    for stmt in fn.body[:4]:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
            return inspect.cleandoc(stmt.value.value), stmt.end_lineno or fn.lineno
        if not isinstance(stmt, (ast.Import, ast.ImportFrom)):
            break
    return "", fn.lineno


def looks_like_humaneval(text: str) -> bool:
    """A text whose code is a top-level function with a docstring and no class, and that has no
    LeetCode ``Input:`` lines outside that code."""
    src = _code_of(text)
    if src is None:
        return False
    outside = text.replace(src, "") if src != text else ""
    if re.search(r"^\s*(?:\*\*)?\s*input\s*(?:\*\*)?\s*:", outside, re.I | re.M):
        return False
    tree = ast.parse(src)
    fns = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return bool(fns) and not any(isinstance(n, ast.ClassDef) for n in tree.body) and any(_doc(f)[0] for f in fns)


def parse_humaneval(text: str) -> Problem:
    src = _code_of(text)
    if src is None:
        raise ProblemError(
            "The HumanEval-style problem has no Python function that parses.",
            "Give the signature and its docstring as valid Python.",
        )
    tree = ast.parse(src)
    fns = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    documented = [f for f in fns if _doc(f)[0]]
    fn = documented[-1] if documented else fns[-1]
    sig = signature_from_starter(ast.get_source_segment(src, fn) or "")
    if sig is None or sig.function != fn.name:
        sig = Signature(fn.name, tuple(), None)
    doc, prompt_end = _doc(fn)
    warnings: list[str] = []
    examples = tuple(_doc_examples(doc, sig, warnings))
    starter = "\n".join(src.split("\n")[:prompt_end]).rstrip() + "\n"
    statement = re.split(r"^\s*(?:>>>|for example|example)", doc, maxsplit=1, flags=re.I | re.M)[0]
    return Problem(
        style="humaneval",
        title=fn.name,
        statement=statement.strip() or doc,
        signature=sig,
        examples=examples,
        constraints=(),
        starter=starter,
        output_order=detect_output_order(doc),
        text=text,
        warnings=tuple(warnings),
    )


def _bind(sig: Signature, args: list[object], kwargs: dict[str, object], where: str) -> dict[str, object]:
    names = sig.arg_names
    if len(args) > len(names):
        raise ProblemError(f"{where} passes {len(args)} arguments to `{sig.function}`, which takes {len(names)}.")
    pairs: list[tuple[str | None, object]] = [(names[i], v) for i, v in enumerate(args)]
    pairs += [(k, v) for k, v in kwargs.items()]
    return bind_arguments(sig, pairs, where)


def _add_example(out: list[Example], sig: Signature, call: tuple[str, list[object], dict[str, object], int], expected: object, source: str, where: str,
                 warnings: list[str]) -> None:
    """Append the example of ``call`` (its arguments bound to the signature), or warn why not."""
    try:
        inputs = _bind(sig, call[1], call[2], where)
    except ProblemError as exc:
        warnings.append(f"{where}: skipped ({exc.message})")
        return
    out.append(Example(inputs, expected, source=source))


def _doc_examples(doc: str, sig: Signature, warnings: list[str]) -> list[Example]:
    lines = doc.split("\n")
    out: list[Example] = []
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        where = f"Docstring example {len(out) + 1}"
        if line.startswith(">>>"):
            expr = line[3:].strip()
            i += 1
            while i < len(lines) and lines[i].strip().startswith("..."):
                expr += " " + lines[i].strip()[3:].strip()
                i += 1
            expected_lines = []
            while i < len(lines) and lines[i].strip() and not lines[i].strip().startswith(">>>"):
                expected_lines.append(lines[i].strip())
                i += 1
            call = read_call(expr)
            if call is None or call[0] != sig.function or expr[call[3] :].strip():
                warnings.append(f"{where}: skipped `{expr[:60]}` (not a call of {sig.function} with literal arguments).")
                continue
            try:
                expected = parse_value(" ".join(expected_lines))
            except LiteralError:
                warnings.append(f"{where}: skipped `{expr[:60]}` (the expected output is not a literal).")
                continue
            _add_example(out, sig, call, expected, f">>> {expr}\n{' '.join(expected_lines)}", where, warnings)
            continue
        i += 1
        pos = line.find(sig.function + "(")
        if pos < 0:
            continue
        call = read_call(line, pos)
        if call is None or call[0] != sig.function:
            continue
        arrow = _ARROW.match(line, call[3])
        got = scan_value(line, arrow.end()) if arrow else None
        if got is not None and _EXPRESSION_GOES_ON.match(line, got[1]):
            # "f(x) -> 19 - 5 - 6 = 8": the value is the one after the last "=" of the chain.
            tail = _LAST_EQUALS.search(line, got[1])
            got = scan_value(line, tail.end()) if tail else None
            if got is None or line[got[1]:].strip():
                warnings.append(f"{where}: skipped `{line[:60]}` (the expected output is an expression).")
                continue
        if got is None:
            continue
        _add_example(out, sig, call, got[0], line, where, warnings)
    if not out:
        out = _labelled_examples(doc, sig, warnings)
    return out


def _labelled_examples(doc: str, sig: Signature, warnings: list[str]) -> list[Example]:
    """LeetCode-style ``Input: ... / Output: ...`` pairs inside a docstring."""
    out: list[Example] = []
    for m in _LABELLED.finditer(doc):
        where = f"Docstring example {len(out) + 1}"
        try:
            pairs = parse_arguments(" ".join(m.group(1).split()))
            expected = scan_value(" ".join(m.group(2).split()))
            if expected is None:
                raise LiteralError("no output value")
            inputs = bind_arguments(sig, pairs, where)
        except (LiteralError, ProblemError) as exc:
            warnings.append(f"{where}: skipped ({getattr(exc, 'message', exc)})")
            continue
        out.append(Example(inputs, expected[0], source=m.group(0).strip()))
    return out
