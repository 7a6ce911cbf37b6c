"""JSON forms of verification evidence that every report shares (solve, fix, bench)."""

from __future__ import annotations

from typing import Any

from vibecode.types import Claim


def claim_json(claim: Claim) -> dict[str, Any]:
    return {"text": claim.text, "kind": claim.kind, "method": claim.method,
            "verdict": claim.verdict, "detail": claim.detail}
