"""Install and remove vibecode's git pre-commit hook, chaining a hook that is already there.

The hook lives in git's hooks folder (``git rev-parse --git-path hooks``: ``.git/hooks``, or
``core.hooksPath``). Installing over another hook moves that one to
``pre-commit.vibecode-chained``; vibecode's hook runs it first (its failure blocks the commit
as before) and then ``vibecode precommit``. Uninstalling removes vibecode's hook and moves the
chained one back, byte for byte. A hook that is not vibecode's is never overwritten or deleted.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from vibecode.errors import GitError

HOOK = "pre-commit"
CHAINED = "pre-commit.vibecode-chained"
MARKER = "# vibecode-hook: 1"
MODES = ("soft", "hard")


@dataclass(frozen=True)
class HookReport:
    path: Path
    action: str  # "installed", "updated", "uninstalled"
    chained: Path | None = None  # the other hook run before vibecode (or restored)
    mode: str | None = None


def hooks_dir(root: Path) -> Path:
    """Git's hooks folder for the repository at ``root``."""
    try:
        # Relative to ``root`` (git before 2.31 has no --path-format=absolute).
        out = subprocess.run(["git", "rev-parse", "--git-path", "hooks"], cwd=root, capture_output=True,
                             text=True, check=False, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise GitError(f"Cannot run git in {root}: {exc}.") from None
    if out.returncode != 0:
        raise GitError(f"{root} is not inside a git repository: {out.stderr.strip()}",
                       "Run `vibecode hook install` inside a git working tree.")
    return (root / out.stdout.strip()).resolve()


def is_ours(path: Path) -> bool:
    try:
        return path.is_file() and MARKER in path.read_text(encoding="utf-8", errors="replace")[:2000]
    except OSError:
        return False


def hook_mode(path: Path) -> str | None:
    if not is_ours(path):
        return None
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("# mode: "):
            return line.split(": ", 1)[1].strip()
    return None


def hook_script(mode: str, python: str, extra: Sequence[str] = ()) -> str:
    args = " ".join(shlex.quote(a) for a in ("precommit", "--mode", mode, *extra))
    missing_exit = 1 if mode == "hard" else 0
    return f"""#!/bin/sh
# vibecode pre-commit hook: runs the tests on the staged changes and suggests verified fixes.
# Installed by `vibecode hook install`; remove it with `vibecode hook uninstall` (that restores
# the hook it chains, if any). Skip it once with `git commit --no-verify`.
{MARKER}
# mode: {mode}
hooks=$(dirname "$0")
if [ -x "$hooks/{CHAINED}" ]; then
    "$hooks/{CHAINED}" "$@" || exit $?
fi
python={shlex.quote(python)}
if [ -x "$python" ] && "$python" -c "import vibecode" >/dev/null 2>&1; then
    exec "$python" -m vibecode {args}
elif command -v vibecode >/dev/null 2>&1; then
    exec vibecode {args}
fi
echo "vibecode pre-commit hook: vibecode is not installed any more ($python); run \\`vibecode hook uninstall\\` or reinstall vibecode." >&2
exit {missing_exit}
"""


def install(root: Path, mode: str = "hard", python: str | None = None, extra: Sequence[str] = ()) -> HookReport:
    if mode not in MODES:
        raise GitError(f"Unknown hook mode {mode!r}.", f"Use one of: {', '.join(MODES)}.")
    folder = hooks_dir(root)
    folder.mkdir(parents=True, exist_ok=True)
    hook, chained = folder / HOOK, folder / CHAINED
    action = "installed"
    if is_ours(hook):
        action = "updated"
    elif os.path.lexists(hook):
        if os.path.lexists(chained):
            raise GitError(
                f"Both {hook} and {chained} exist, and {HOOK} is not vibecode's: installing would lose one.",
                f"Merge them by hand, or move {chained} away, then install again.",
            )
        os.rename(hook, chained)
    script = hook_script(mode, python or sys.executable, extra)
    tmp = hook.with_name(f".{HOOK}.vibecode-tmp")
    tmp.write_text(script, encoding="utf-8")
    os.chmod(tmp, 0o755)
    os.replace(tmp, hook)
    return HookReport(hook, action, chained if os.path.lexists(chained) else None, mode)


def uninstall(root: Path) -> HookReport:
    folder = hooks_dir(root)
    hook, chained = folder / HOOK, folder / CHAINED
    if not os.path.lexists(hook):
        if os.path.lexists(chained):
            os.rename(chained, hook)
            return HookReport(hook, "uninstalled", hook)
        raise GitError(f"There is no pre-commit hook in {folder} to uninstall.")
    if not is_ours(hook):
        raise GitError(f"{hook} is not vibecode's hook; it was left alone.")
    hook.unlink()
    restored = None
    if os.path.lexists(chained):
        os.rename(chained, hook)
        restored = hook
    return HookReport(hook, "uninstalled", restored)
