"""The ``vibecode`` command line.

Each sub-command lives in its own module ``vibecode/cli/cmd_<name>.py`` that defines
``ORDER`` (its place in ``--help``) and ``register(subparsers)``; this module finds them, builds the
parser and maps :class:`VibecodeError` to a one-paragraph message and a non-zero exit. Importing it must stay cheap: ``vibecode --help`` loads no heavy dependency.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType

from vibecode import __version__
from vibecode.errors import VibecodeError

# What a bare ``vibecode`` runs, when that command is installed.
DEFAULT_COMMAND = "tui"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="vibecode",
        description=(
            "Offline coding assistant: samples several candidates from a local model, "
            "verifies them in a sandbox and proposes the result with a reliability score. "
            "Run without a command to open the terminal UI."
        ),
    )
    parser.add_argument("--version", action="version", version=f"vibecode {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in sorted(_command_modules(), key=lambda m: (m.ORDER, m.__name__)):
        module.register(sub)
    return parser


def _command_modules() -> list[ModuleType]:
    here = __name__
    names = [m.name for m in pkgutil.iter_modules(__path__) if m.name.startswith("cmd_")]
    return [importlib.import_module(f"{here}.{name}") for name in names]


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(args_list)
    if args.command is None:
        if not any(m.__name__.endswith(f"cmd_{DEFAULT_COMMAND}") for m in _command_modules()):
            parser.print_help()
            return 0
        args = parser.parse_args([DEFAULT_COMMAND, *args_list])
    try:
        return int(args.func(args) or 0)
    except VibecodeError as exc:
        report_error(exc)
        return exc.exit_code
    except OSError as exc:
        if exc.filename is None:
            raise
        report_error(file_error(exc))
        return FILE_ERROR_EXIT
    except KeyboardInterrupt:
        print("vibecode: interrupted.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


# A file or folder vibecode must write cannot be written (permissions, a read-only mount, a full disk).
FILE_ERROR_EXIT = 8


def file_error(exc: OSError) -> VibecodeError:
    what = exc.strerror or type(exc).__name__
    return VibecodeError(
        f"Cannot write {exc.filename}: {what}. Nothing else was changed.",
        "Check that the folder is writable by you (permissions, a read-only mount) and that the "
        "disk has room, or choose another location.",
    )


def report_error(exc: VibecodeError) -> None:
    text = f"vibecode: {exc.message}"
    if exc.hint:
        text += ("\n" if "\n" in exc.message else " ") + exc.hint
    print(text, file=sys.stderr)
