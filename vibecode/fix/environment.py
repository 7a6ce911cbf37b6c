"""The project's own Python environment: found by itself, probed once, used for every test run.

Where the interpreter comes from, first found wins:

1. the interpreter named in ``--test-cmd`` (``.venv/bin/python -m pytest``; a relative path is
   resolved against the repository root; a bare ``python``/``python3`` means the project's
   environment found below, else that name on PATH, never vibecode's own interpreter);
2. an active ``$VIRTUAL_ENV`` (unless it is vibecode's own environment);
3. ``.venv`` or ``venv`` in the repository (uv's and most tools' in-project default;
   ``$UV_PROJECT_ENVIRONMENT`` when set);
4. poetry's and hatch's environments at their conventional paths (nothing is run to find them);
5. ``python3`` on PATH when it has pytest ("the system Python");
6. vibecode's own interpreter, said so in the output.

The interpreter is run once outside the sandbox (``python -I -c``, from ``/``) to learn its real
executable, prefixes, ``sys.path`` and pytest version. What it needs outside the repository is
made visible read-only in the sandbox (``Limits.ro_paths``). Editable installs (``.pth`` path
lines and setuptools' ``__editable__`` finders) point at the user's own source folders; each such
folder inside the repository is put first on ``PYTHONPATH`` as its copy in the workspace, so the
tests import the patched copy (or exactly what is staged), never the user's files.
"""

from __future__ import annotations

import ast
import base64
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from vibecode.errors import SandboxError

_PROBE = r"""
import json, os, sys
try:
    from importlib.metadata import version
    pytest_version = version("pytest")
except Exception:
    pytest_version = None
site = []
try:
    import site as _site
    site = list(_site.getsitepackages())
except Exception:
    pass
print(json.dumps({"executable": sys.executable, "prefix": sys.prefix, "base_prefix": sys.base_prefix,
                  "version": "%d.%d.%d" % sys.version_info[:3], "pytest": pytest_version,
                  "path": [p for p in sys.path if p], "site": site}))
"""
_BARE_PYTHON = re.compile(r"^python(\d+(\.\d+)?)?$")
_MAPPING = re.compile(r"^MAPPING\s*(?::[^=]*)?=\s*(\{.*?\})\s*$", re.M | re.S)
PROBE_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class ProjectEnv:
    """The interpreter the tests run with, and what the sandbox needs to run it."""

    python: str  # absolute path of the interpreter to run
    kind: str  # "test-cmd" | "VIRTUAL_ENV" | ".venv" | "venv" | "uv" | "poetry" | "hatch" | "system" | "vibecode"
    prefix: str  # sys.prefix (the venv folder for a venv)
    version: str  # the Python version
    pytest: str | None  # pytest's version in that environment
    ro_paths: tuple[str, ...] = ()  # what must be readable inside the sandbox
    editable: tuple[str, ...] = ()  # repository-relative folders that editable installs point at
    notes: tuple[str, ...] = field(default=())

    def describe(self) -> str:
        what = {"test-cmd": "the interpreter of --test-cmd", "VIRTUAL_ENV": "the active $VIRTUAL_ENV",
                "system": "the system Python", "vibecode": "vibecode's own interpreter (no project environment found)",
                }.get(self.kind, f"the project's {self.kind} environment")
        py = f"pytest {self.pytest}" if self.pytest else "no pytest"
        edit = f"; editable install of {', '.join(self.editable)} redirected to the copy" if self.editable else ""
        return f"{what}: {self.python} (Python {self.version}, {py}){edit}"

    def json(self) -> dict[str, object]:
        return {"kind": self.kind, "python": self.python, "prefix": self.prefix, "version": self.version,
                "pytest": self.pytest, "editable": list(self.editable), "description": self.describe()}

    def pythonpath(self, workspace: Path) -> str:
        """The ``PYTHONPATH`` entries that point the editable installs at ``workspace``."""
        return os.pathsep.join(str(workspace / rel) if rel != "." else str(workspace) for rel in self.editable)


def find_environment(root: Path, python: str | None = None, environ: Mapping[str, str] | None = None) -> ProjectEnv:
    """The environment to run the tests of the repository at ``root`` with (module docstring).
    ``python``: the interpreter named in the test command, if any."""
    env = os.environ if environ is None else environ
    root = Path(root).resolve()
    if python is not None and not _BARE_PYTHON.match(python):
        path = Path(python).expanduser()
        if not path.is_absolute():
            path = root / path if ("/" in python or os.sep in python) else Path(shutil.which(python) or root / path)
        if not path.exists():
            raise SandboxError(
                f"The interpreter of the test command, {python}, does not exist (looked for {path}).",
                "Create the project's environment first (python -m venv .venv && .venv/bin/pip install -e . pytest), "
                "or name an interpreter that exists.",
            )
        return probe(str(path), "test-cmd", root)
    for kind, folder in candidates(root, env):
        exe = _venv_python(folder)
        if exe is not None:
            return probe(exe, kind, root)
    if python is not None:  # "python -m pytest" with no project environment: that name on PATH
        found = shutil.which(python, path=env.get("PATH"))
        if found is None:
            raise SandboxError(f"The test command names {python}, which is not on PATH.",
                               "Name the project's interpreter, e.g. --test-cmd '.venv/bin/python -m pytest'.")
        return probe(found, "system", root)
    system = shutil.which("python3", path=env.get("PATH"))
    if system is not None and os.path.realpath(system) != os.path.realpath(sys.executable):
        try:
            found_env = probe(system, "system", root)
        except SandboxError:
            found_env = None
        if found_env is not None and found_env.pytest:
            return found_env
    return probe(sys.executable, "vibecode", root)


def candidates(root: Path, env: Mapping[str, str]) -> list[tuple[str, Path]]:
    """Virtual environments that may be the project's, in order of preference."""
    out: list[tuple[str, Path]] = []
    active = env.get("VIRTUAL_ENV")
    if active and os.path.realpath(active) != os.path.realpath(sys.prefix):
        out.append(("VIRTUAL_ENV", Path(active)))
    uv = env.get("UV_PROJECT_ENVIRONMENT")
    if uv:
        out.append(("uv", Path(uv) if os.path.isabs(uv) else root / uv))
    out += [(".venv", root / ".venv"), ("venv", root / "venv")]
    name = _project_name(root)
    home = Path(env.get("HOME") or Path.home())
    if name:
        cache = Path(env.get("POETRY_CACHE_DIR") or home / ".cache" / "pypoetry")
        out += [("poetry", p) for p in sorted((cache / "virtualenvs").glob(f"{_poetry_prefix(name, root)}-py*"))]
        data = Path(env.get("HATCH_DATA_DIR") or home / ".local" / "share" / "hatch")
        out += [("hatch", p) for p in sorted((data / "env" / "virtual" / name).glob(f"*/{name}"))]
    return out


def _venv_python(folder: Path) -> str | None:
    if not (folder / "pyvenv.cfg").is_file():
        return None
    for name in ("bin/python", "bin/python3", "Scripts/python.exe"):
        if (folder / name).exists():
            return str(folder / name)
    return None


def _project_name(root: Path) -> str | None:
    try:
        text = (root / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        return None
    found = re.search(r'^\s*name\s*=\s*["\']([^"\']+)["\']', text, re.M)
    return found.group(1) if found else None


def _poetry_prefix(name: str, root: Path) -> str:
    """How poetry names a project's environment: ``<sanitized name>-<8 chars of its path's hash>``."""
    sanitized = re.sub(r'[ $`!*@"\\\r\n\t]', "_", name.lower().replace("_", "-"))[:42]
    digest = base64.urlsafe_b64encode(hashlib.sha256(str(root).encode()).digest()).decode()[:8]
    return f"{sanitized}-{digest}"


@functools.lru_cache(maxsize=32)
def probe(python: str, kind: str, root: Path) -> ProjectEnv:
    """Run ``python`` once (outside the sandbox, isolated mode, from ``/``) and describe it."""
    try:
        done = subprocess.run([python, "-I", "-c", _PROBE], cwd="/", capture_output=True, text=True,
                              timeout=PROBE_TIMEOUT_S, check=False, env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})
        info = json.loads(done.stdout.strip().splitlines()[-1]) if done.returncode == 0 and done.stdout.strip() else None
    except (OSError, subprocess.TimeoutExpired, ValueError, IndexError) as exc:
        raise SandboxError(f"Cannot run the project's interpreter {python}: {exc}.",
                           "Check that the environment works: run it with `-c 'import sys'`.") from None
    if not isinstance(info, dict):
        tail = (done.stderr or "").strip()[-500:]
        raise SandboxError(f"Cannot run the project's interpreter {python} (exit code {done.returncode}). {tail}".strip(),
                           "Recreate the environment, or name another interpreter with --test-cmd.")
    exe = str(info.get("executable") or "") or os.path.abspath(python)  # a shim (pyenv) resolves to the real one
    editable = _editable_folders(info, root)
    needed: set[str] = {os.path.dirname(exe), os.path.dirname(os.path.realpath(exe)),
                        str(info["prefix"]), str(info["base_prefix"])}
    needed |= {p for p in (*info.get("path", []), *info.get("site", [])) if isinstance(p, str) and os.path.isabs(p)}
    ro = sorted({os.path.realpath(p) for p in needed if os.path.exists(p) and not _inside(os.path.realpath(p), root)}
                | ({os.path.realpath(str(info["prefix"]))} if os.path.isdir(str(info["prefix"])) else set()))
    return ProjectEnv(exe, kind, str(info["prefix"]), str(info.get("version", "")), info.get("pytest"),
                      tuple(ro), tuple(editable))


def _editable_folders(info: dict[str, object], root: Path) -> list[str]:
    """Repository-relative folders that the environment imports the project from: ``sys.path``
    entries inside ``root`` (``.pth`` path lines) and the folders that ``__editable__`` finders
    map the project's packages to."""
    found: list[str] = []
    paths = info.get("path", [])
    prefixes = [str(info.get("prefix", "")), str(info.get("base_prefix", ""))]
    for p in paths if isinstance(paths, list) else []:
        rel = _relative(str(p), root)
        if rel is not None and not any(_relative(str(p), Path(x)) is not None for x in prefixes if x):
            found.append(rel)
    sites = info.get("site", [])
    for site in sites if isinstance(sites, list) else []:
        try:
            names = sorted(os.listdir(site))
        except OSError:
            continue
        for name in names:
            if name.startswith("__editable__") and name.endswith("_finder.py"):
                for target in _finder_mapping(os.path.join(site, name)):
                    rel = _relative(os.path.dirname(target.rstrip("/")), root)
                    if rel is not None:
                        found.append(rel)
    return list(dict.fromkeys(found))


def _finder_mapping(path: str) -> list[str]:
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
        found = _MAPPING.search(text)
        mapping = ast.literal_eval(found.group(1)) if found else {}
    except (OSError, ValueError, SyntaxError):
        return []
    return [v for v in mapping.values() if isinstance(v, str)] if isinstance(mapping, dict) else []


def _relative(path: str, root: Path) -> str | None:
    real = os.path.realpath(path)
    base = os.path.realpath(root)
    if real == base:
        return "."
    if real.startswith(base.rstrip("/") + "/"):
        return os.path.relpath(real, base)
    return None


def _inside(path: str, root: Path) -> bool:
    return _relative(path, root) is not None
