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
    "llama_cpp": {"vibecode/engine/llama.py"},
    "docker": {"vibecode/sandbox/docker.py"},
    "git": {"vibecode/repo/git.py"},
    "huggingface_hub": {"vibecode/models/hub.py"},
    "sympy": {"vibecode/clr/math_check.py"},
    "tree_sitter": {"vibecode/repo/treesitter.py"},
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
