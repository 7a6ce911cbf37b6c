"""Sampling parameters for a request: the model manifest's recommendation, then the settings."""

from __future__ import annotations

import dataclasses
from typing import Any

from vibecode.config import Settings
from vibecode.models import Manifest
from vibecode.types import SamplingParams

DEFAULT_MAX_TOKENS = 4096


def sampling_params(
    settings: Settings, manifest: Manifest | None, **overrides: Any
) -> SamplingParams:
    """Manifest defaults < settings (temperature, top_p, top_k, seed, budgets) < ``overrides``.

    ``overrides`` whose value is None are ignored, so unset CLI flags change nothing.
    """
    params = SamplingParams(max_tokens=DEFAULT_MAX_TOKENS)
    if manifest is not None:
        s = manifest.sampling
        params = dataclasses.replace(
            params,
            max_tokens=s.max_tokens or DEFAULT_MAX_TOKENS,
            temperature=s.temperature,
            top_p=s.top_p,
            top_k=s.top_k,
            min_p=s.min_p,
            max_think_tokens=s.max_think_tokens,
        )
    from_settings = {
        "max_tokens": settings.max_tokens,
        "temperature": settings.temperature,
        "top_p": settings.top_p,
        "top_k": settings.top_k,
        "seed": settings.seed,
        "max_think_tokens": settings.max_think_tokens,
    }
    values = {k: v for k, v in {**from_settings, **overrides}.items() if v is not None}
    return dataclasses.replace(params, **values)
