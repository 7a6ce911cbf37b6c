"""The stable ``--json`` form of ``vibecode precommit`` (in the README): the check's outcome, and
the fix it found in :func:`vibecode.fix.report.fix_json`'s form."""

from __future__ import annotations

from typing import Any

from vibecode.fix.report import failing_json, fix_json
from vibecode.types import PrecommitResult


def precommit_json(result: PrecommitResult) -> dict[str, Any]:
    return {
        "mode": result.mode,
        "outcome": result.outcome,
        "exit_code": result.exit_code,
        "changed": list(result.changed),
        "selection": result.selection,
        "selected": list(result.selected),
        "tests_run": result.tests_run,
        "failing": [failing_json(c) for c in result.failing],
        "proposal_id": result.proposal_id,
        "message": result.message,
        "fix": fix_json(result.fix) if result.fix is not None else None,
        "timing": result.timing,
        "environment": result.environment,
    }
