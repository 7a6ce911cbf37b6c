"""The function a candidate must write, read from starter code or inferred from examples.

Starter code is usually incomplete (a ``def`` line with no body), so the header is cut out with a
bracket matcher and parsed on its own with ``ast``; commented-out lines (LeetCode's
``# class ListNode:`` definitions) are ignored.
"""

from __future__ import annotations

import ast
import re

from vibecode.errors import ProblemError
from vibecode.problems.design import design_signature
from vibecode.problems.literals import LiteralError, bracket_end
from vibecode.problems.typespec import format_type, infer_type
from vibecode.types import Example, Param, Signature

_DEF = re.compile(r"^([ \t]*)def[ \t]+([A-Za-z_]\w*)[ \t]*\(", re.M)
_CLASS = re.compile(r"^([ \t]*)class[ \t]+([A-Za-z_]\w*)\b", re.M)
_NODE_LIST_NAMES = re.compile(r"^(head|l\d|list\d?|node|head[AB]?)$", re.I)
_NODE_TREE_NAMES = re.compile(r"^(root\d?|tree\d?|p|q)$", re.I)


def _uncommented(code: str) -> str:
    """The code with comment-only lines blanked (offsets are kept)."""
    return "\n".join("" if line.lstrip().startswith("#") else line for line in code.split("\n"))


def _header_params(header: str) -> tuple[list[Param], str | None]:
    try:
        tree = ast.parse(header + " pass")
    except SyntaxError as exc:
        raise ProblemError(
            f"The starter code's function header does not parse: {header.strip()!r}.",
            "Write it as valid Python, e.g. `def twoSum(self, nums: List[int], target: int) -> List[int]:`.",
        ) from exc
    fn = tree.body[0]
    assert isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
    params = [
        Param(a.arg, ast.unparse(a.annotation) if a.annotation is not None else None)
        for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]
    ]
    returns = ast.unparse(fn.returns) if fn.returns is not None else None
    return params, returns


def _method_header(header: str) -> tuple[list[Param], str | None]:
    params, returns = _header_params(header)
    return (params[1:] if params and params[0].name in ("self", "cls") else params), returns


def signature_from_starter(code: str) -> Signature | None:
    """The entry point of starter code: the first public method of ``class Solution`` (or of the
    only class), else the first top-level function. None when the code defines neither."""
    src = _uncommented(code)
    classes = [(m.start(), len(m.group(1).expandtabs()), m.group(2)) for m in _CLASS.finditer(src)]
    defs = []
    for m in _DEF.finditer(src):
        indent = len(m.group(1).expandtabs())
        try:
            close = bracket_end(src, m.end() - 1)
        except LiteralError:
            continue
        rest = re.match(r"\s*(->\s*[^:\n]+)?\s*:", src[close:])
        header = src[m.start() : close] + ((rest.group(1) or "") if rest else "") + ":"
        owner = None
        for start, cindent, cname in classes:
            if start < m.start() and cindent < indent:
                owner = cname
        defs.append((m.group(2), indent, owner, header.strip()))
    if not defs:
        return None
    owners = [d[2] for d in defs if d[2] is not None]
    if owners:
        cls = "Solution" if "Solution" in owners else owners[0]
        methods = [d for d in defs if d[2] == cls]
        public = [d for d in methods if not d[0].startswith("_")]
        init = next((d for d in methods if d[0] == "__init__"), None)
        takes = init is not None and bool(_method_header(init[3])[0])  # "Solution(int[] nums)": state to keep
        if public and ((cls != "Solution" and (init is not None or len(public) > 1)) or takes):  # design
            return design_signature(cls, [(d[0], *_method_header(d[3])) for d in methods])
        if public:
            name, _, _, header = public[0]
            params, returns = _header_params(header)
            if params and params[0].name in ("self", "cls"):
                params = params[1:]
            return Signature(name, tuple(params), returns, class_name=cls)
    top = [d for d in defs if d[2] is None]
    if not top:
        return None
    least = min(d[1] for d in top)
    top = [d for d in top if d[1] == least]
    name, _, _, header = top[-1]
    params, returns = _header_params(header)
    return Signature(name, tuple(params), returns)


def camel_name(title: str) -> str:
    words = re.findall(r"[A-Za-z0-9]+", title)
    if not words:
        return "solve"
    name = words[0].lower() + "".join(w[:1].upper() + w[1:].lower() for w in words[1:])
    return name if name[0].isalpha() else "solve" + name[:1].upper() + name[1:]


def infer_signature(title: str, examples: list[Example], prose: str) -> Signature:
    """A ``class Solution`` method whose names and types come from the examples."""
    names = list(examples[0].inputs)
    params = []
    lower = prose.lower()
    for name in names:
        spec = infer_type([ex.inputs.get(name) for ex in examples if name in ex.inputs])
        text = format_type(spec)
        if "linked list" in lower and _NODE_LIST_NAMES.match(name) and spec.base.kind in ("list", "any"):
            text = "Optional[ListNode]"
        elif "tree" in lower and _NODE_TREE_NAMES.match(name) and spec.base.kind in ("list", "any"):
            text = "Optional[TreeNode]"
        params.append(Param(name, text))
    out_spec = infer_type([ex.output for ex in examples])
    returns = format_type(out_spec)
    node_params = [p.type for p in params if p.type in ("Optional[ListNode]", "Optional[TreeNode]")]
    if node_params and out_spec.base.kind == "list" and len(set(node_params)) == 1 and (
        "return the" in lower and ("head" in lower or "root" in lower or "list" in lower)
    ):
        returns = node_params[0]
    return Signature(camel_name(title), tuple(params), returns, class_name="Solution", inferred=True)


def starter_for(sig: Signature) -> str:
    """Starter code for a signature, LeetCode style."""
    args = ", ".join(f"{p.name}: {p.type}" if p.type else p.name for p in sig.params)
    ret = f" -> {sig.returns}" if sig.returns else ""
    if sig.class_name:
        args = "self" + (", " + args if args else "")
        return f"class {sig.class_name}:\n    def {sig.function}({args}){ret}:\n"
    return f"def {sig.function}({args}){ret}:\n"
