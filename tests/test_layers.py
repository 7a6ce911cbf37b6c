"""Architecture rules that code review tends to miss."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

PACKAGE = REPO / "vibecode"
# Heavy dependency -> the one module allowed to import it.
OWNERS = {
    "llama_cpp": {"vibecode/engine/llama_lib.py"},
    "docker": {"vibecode/sandbox/docker.py"},
    "git": {"vibecode/repo/git.py"},
    "huggingface_hub": {"vibecode/models/hub.py"},
    "sympy": {"vibecode/clr/math_check.py"},
    "tree_sitter": {"vibecode/syntax/treesitter.py"},
    "textual": None,  # anything under vibecode/tui/
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_heavy_dependencies_are_imported_by_their_owner_only() -> None:
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(REPO).as_posix()
        for name in _imports(path):
            if name not in OWNERS:
                continue
            owners = OWNERS[name]
            allowed = rel.startswith("vibecode/tui/") if owners is None else rel in owners
            if not allowed:
                offenders.append(f"{rel} imports {name}")
    assert offenders == []


def test_the_core_is_headless() -> None:
    core = [
        p.relative_to(REPO).with_suffix("").as_posix().replace("/", ".")
        for p in PACKAGE.rglob("*.py")
        if "tui" not in p.parts and "cli" not in p.parts and p.name != "__main__.py"
    ]
    code = "import sys, importlib\n" + "".join(f"importlib.import_module({m!r})\n" for m in core)
    code += "print('textual' in sys.modules or any(m.startswith('textual.') for m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )
    assert out.stdout.strip() == "False"


def test_only_the_cli_and_tui_print() -> None:
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(REPO).as_posix()
        if rel.startswith(("vibecode/cli/", "vibecode/tui/")):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print":
                offenders.append(f"{rel}:{node.lineno}")
    assert offenders == []


# The import order, top to bottom: a module may import from its own package, from any lower
# tier, and from a sibling in its tier unless the tier is marked independent. Imports under
# ``if TYPE_CHECKING:`` are for type hints only and do not count.
LAYERS: list[tuple[set[str], bool]] = [  # (packages, siblings may import each other)
    ({"vibecode.__main__"}, False),
    ({"vibecode.cli", "vibecode.tui"}, True),  # `vibecode tui` starts the TUI
    ({"vibecode.doctor"}, False),  # gathers every layer's diagnose(); nothing imports it back
    ({"vibecode.bench"}, False),
    ({"vibecode.session"}, False),
    ({"vibecode.precommit"}, False),
    ({"vibecode.fix", "vibecode.solve"}, False),  # the two pipelines never import each other
    ({"vibecode.clr"}, False),
    ({"vibecode.problems"}, False),
    ({"vibecode.sandbox", "vibecode.engine", "vibecode.repo", "vibecode.patch"}, True),
    ({"vibecode.models", "vibecode.syntax"}, False),
    ({"vibecode.config", "vibecode.events"}, False),
    ({"vibecode.types", "vibecode.errors", "vibecode.checks", "vibecode.termsafe", "vibecode"}, True),
]
TIER = {pkg: i for i, (pkgs, _) in enumerate(LAYERS) for pkg in pkgs}


def _module_name(path: Path) -> str:
    name = path.relative_to(REPO).with_suffix("").as_posix().replace("/", ".")
    return name.removesuffix(".__init__")


def _unit(module: str) -> str:
    """The layer unit of a module: its top-level package or module under ``vibecode``."""
    parts = module.split(".")
    return ".".join(parts[:2])


def _runtime_imports(path: Path) -> set[str]:
    """The ``vibecode`` modules that ``path`` imports when it runs (lazily or not)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    type_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            type_only.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "vibecode")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] != "vibecode":
                continue
            for alias in node.names:  # `from vibecode.tui import jobs` imports a module
                sub = f"{node.module}.{alias.name}"
                known = (PACKAGE.parent / sub.replace(".", "/")).with_suffix(".py").exists()
                found.add(sub if known else node.module)
    return found


def _graph() -> dict[str, set[str]]:
    return {_module_name(p): _runtime_imports(p) for p in PACKAGE.rglob("*.py")}


def test_every_unit_has_a_layer() -> None:
    units = {_unit(m) for m in _graph()}
    assert sorted(units - TIER.keys()) == []


def test_imports_go_down_the_layers_only() -> None:
    offenders = []
    for module, targets in _graph().items():
        src = _unit(module)
        for target in targets:
            dst = _unit(target)
            if dst == src or TIER[dst] > TIER[src]:
                continue
            if TIER[dst] == TIER[src] and LAYERS[TIER[src]][1]:
                continue
            offenders.append(f"{module} imports {target}")
    assert sorted(offenders) == []


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of ``graph`` (the nodes in order), or [] when it has none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_no_import_circles_between_modules_or_packages() -> None:
    modules = {m: {t for t in ts if t != m} for m, ts in _graph().items()}
    # a package's __init__ is where `from vibecode.sandbox import X` lands; it may re-export
    # its own modules, which then import siblings through it: not a circle of the design.
    modules = {m: {t for t in ts if not (m.startswith(t + ".") )} for m, ts in modules.items()}
    assert _cycle(modules) == []
    units: dict[str, set[str]] = {}
    for module, targets in _graph().items():
        units.setdefault(_unit(module), set()).update(_unit(t) for t in targets)
    units = {u: ts - {u} for u, ts in units.items()}
    assert _cycle(units) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) == []
