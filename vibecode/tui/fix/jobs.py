"""What the worker thread of a fix run does: drive ``Session.fix`` on the app's folder.

Like :mod:`vibecode.tui.jobs` (whose holders, batching and updates it shares), this blocks, runs
in a Textual thread worker, never touches a widget, and imports no textual. The model opens only
when a test fails (a :class:`~vibecode.engine.deferred.DeferredEngine`), so "nothing fails"
needs no model at all.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from vibecode.config import Settings
from vibecode.engine.deferred import DeferredEngine
from vibecode.engine.params import sampling_params
from vibecode.engine.spec import OpenedEngine
from vibecode.errors import Cancelled, VibecodeError
from vibecode.events import FixReady
from vibecode.session import Session
from vibecode.tui.jobs import (
    Emit,
    EngineHolder,
    EngineReady,
    FixEnded,
    Run,
    RunStarted,
    SandboxHolder,
    cached_lengths,
    cached_rates,
    drive,
    one_line,
    yield_to_the_ui,
)

if TYPE_CHECKING:
    from vibecode.fix.suite import SuiteCommand

log = logging.getLogger(__name__)


def fix_title(root: Path) -> str:
    return f"Fix failing tests · {root.name or root}"


def fix(
    run: Run,
    root: Path,
    settings: Settings,
    engines: EngineHolder,
    sandboxes: SandboxHolder,
    emit: Emit,
    command: SuiteCommand | None = None,
) -> None:
    """Run the tests of ``root``'s working tree and, when some fail, propose verified patches
    (saved as proposals); send the events; always end with :class:`~vibecode.tui.jobs.FixEnded`.
    The user's files are only read."""
    yield_to_the_ui()

    def open_model() -> OpenedEngine:
        opened = engines.get(settings)
        info = opened.engine.info()
        emit(EngineReady(info, opened.notice))
        budget = sampling_params(settings, opened.manifest).max_tokens
        emit(RunStarted(fix_title(root), "fix", 0, budget, info, cached_rates(info), cached_lengths(info)))
        return opened

    try:
        sandbox = sandboxes.get(settings)
        session = Session(DeferredEngine(open_model), sandbox, settings)
        run.session = session
        last = drive(run, session.fix(root, command=command, n=run.n), emit)
        if run.cancelled:
            emit(FixEnded(cancelled=True))
        else:
            emit(FixEnded(result=last.result if isinstance(last, FixReady) else None))
    except Cancelled:
        emit(FixEnded(cancelled=True))
    except VibecodeError as exc:
        emit(FixEnded(cancelled=True) if run.cancelled else FixEnded(error=exc))
    except Exception as exc:  # a bug must not take the app down
        log.exception("the fix run failed")
        emit(FixEnded(crash=one_line(exc)))
    finally:
        run.finished.set()
