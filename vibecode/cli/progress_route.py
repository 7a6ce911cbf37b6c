"""Where a command's progress goes when its result is JSON.

``--json`` keeps stdout for the one JSON object. Progress then goes to stderr: the usual
progress lines when stderr is a terminal (someone is watching), nothing otherwise (a script
that parses stdout should not get chatter it did not ask for), and with ``--progress`` a stream
of the session's events as JSON lines on stderr, whatever stderr is.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any, TextIO

from vibecode.events import Event

PROGRESS_HELP = ("with --json: stream the session's events as JSON lines on stderr (without it, "
                 "progress lines go to stderr only when it is a terminal)")


def add_progress_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--progress", action="store_true", help=PROGRESS_HELP)


def progress_sink(args: argparse.Namespace, lines: Callable[[Event], None],
                  to_json: Callable[[Event], dict[str, Any]], err: TextIO | None = None) -> Callable[[Event], None]:
    """The callable that shows each event's progress for these arguments (stdout untouched
    except by ``--json-events``, which streams there)."""
    stream = err or sys.stderr
    if getattr(args, "json_events", False):
        return lambda event: print(json.dumps(to_json(event), ensure_ascii=False), flush=True)
    if getattr(args, "progress", False):
        def events(event: Event) -> None:
            stream.write(json.dumps(to_json(event), ensure_ascii=False) + "\n")
            stream.flush()
        return events
    if not getattr(args, "json", False) or stream.isatty():
        return lines
    return lambda event: None
