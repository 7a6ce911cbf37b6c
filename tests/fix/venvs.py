"""Real virtual environments for the fix tests, made offline.

``python -m venv`` from the base interpreter of the running Python, then pytest (with the
packages it needs) installed into it by copying the files its installed distribution lists
(``importlib.metadata``), exactly what pip would have unpacked, then an editable install of the
project with ``setup.py develop`` (the ``easy-install.pth`` path line that ``pip install -e``
writes with setuptools' legacy path) or setuptools' own PEP 660 ``__editable__`` finder.
"""

from __future__ import annotations

import importlib.metadata as metadata
import shutil
import subprocess
import sys
from pathlib import Path

PYTEST_DISTS = ("pytest", "pluggy", "iniconfig", "packaging", "pygments")


def base_python() -> str:
    return getattr(sys, "_base_executable", None) or sys.executable


def make_venv(folder: Path, with_pytest: bool = True) -> Path:
    """A real venv at ``folder``; returns its interpreter."""
    done = subprocess.run([base_python(), "-m", "venv", str(folder)], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, f"python -m venv failed: {done.stderr}"
    python = folder / "bin" / "python"
    if with_pytest:
        site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                   capture_output=True, text=True, check=True).stdout.strip())
        for name in PYTEST_DISTS:
            install_copy(name, site)
    return python


def install_copy(name: str, site: Path) -> None:
    """Install distribution ``name`` into ``site`` from this interpreter's installed copy."""
    dist = metadata.distribution(name)
    files = dist.files
    assert files, f"{name} lists no files; cannot install it offline"
    for f in files:
        src = Path(str(dist.locate_file(f)))
        if not src.is_file() or "__pycache__" in f.parts or str(f).startswith(".."):
            continue
        dst = site / f
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)


def develop(python: Path, project: Path) -> None:
    """``setup.py develop``: the editable install that writes a path line into easy-install.pth."""
    done = subprocess.run([str(python), "setup.py", "-q", "develop"], cwd=project, capture_output=True, text=True,
                          timeout=180)
    assert done.returncode == 0, f"setup.py develop failed: {done.stderr[-2000:]}"


def editable_finder(python: Path, name: str, package_dir: Path) -> None:
    """setuptools' PEP 660 editable install for package ``name`` at ``package_dir``: the
    ``__editable___<name>_finder.py`` module that setuptools itself generates, and the .pth
    that installs it."""
    code = (
        "import sys, sysconfig, pathlib\n"
        "from setuptools.command.editable_wheel import _finder_template\n"
        "name, path = sys.argv[1], sys.argv[2]\n"
        "site = pathlib.Path(sysconfig.get_paths()['purelib'])\n"
        "module = f'__editable___{name}_finder'\n"
        "(site / f'{module}.py').write_text(_finder_template(name, {name: path}, {}))\n"
        "(site / f'__editable__.{name}.pth').write_text(f'import {module}; {module}.install()\\n')\n"
    )
    done = subprocess.run([str(python), "-c", code, name, str(package_dir)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, f"writing the editable finder failed: {done.stderr[-2000:]}"
