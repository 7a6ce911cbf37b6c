"""The :class:`Check` value: one line of ``vibecode doctor``.

Each layer reports on itself with a ``diagnose() -> list[Check]`` function; only
:mod:`vibecode.doctor` gathers them, and nothing imports it back.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str | None = None  # one line, shown when not ok

    def to_json(self) -> dict[str, object]:
        return asdict(self)
