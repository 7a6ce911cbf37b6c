"""How long this model's completions run, for the likely sampling time left (issue 18).

The time left that :func:`vibecode.engine.plan.sampling_left_s` gives is an upper bound: every
open sequence may use its whole token budget. Most stop well before it, so the bound alone says
"up to 14 min" for a run that takes one. The engine records, after each request, how many
tokens each finished sequence generated and what its budget was (:func:`record`), kept per model
and backend beside the throughput cache (``lengths.json``, the last :data:`KEEP`). From them
:func:`likely_tokens_left` gives what each open sequence will likely still generate: for one at
``t`` tokens of a budget ``M``, the median of ``f * M - t`` over the recorded fractions ``f`` of
a budget with ``f * M > t`` (a completion that has run this long, among those seen, runs about
this much longer); its whole budget where fewer than :data:`MIN_SEEN` recorded ones ran past ``t``.
The estimate is shown beside the bound, never in place of it.
"""

from __future__ import annotations

import statistics
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

from vibecode.engine.plan import cache_path, read_cache, sampling_left_s, write_cache

KEEP = 256  # recorded completions per model and backend
MIN_SEEN = 3  # recorded completions past a sequence's tokens needed to estimate its length


def lengths_path() -> Path:
    return cache_path().with_name("lengths.json")


def load(key: str, path: Path | None = None) -> list[float]:
    """The recorded fractions of a budget that completions used for ``key`` (oldest first; empty
    when none, or unreadable)."""
    found = read_cache(path or lengths_path()).get(key)
    return [float(f) for f in found if isinstance(f, (int, float)) and 0 < f <= 1] if isinstance(found, list) else []


def record(key: str, finished: Sequence[tuple[int, int]], path: Path | None = None) -> bool:
    """Add each finished sequence's (tokens generated, token budget) as a fraction of its budget;
    False when there is nothing to add or the cache cannot be written (a cache, never an error)."""
    fractions = [min(1.0, tokens / budget) for tokens, budget in finished if budget > 0 and tokens > 0]
    if not fractions:
        return False
    path = path or lengths_path()
    data = read_cache(path)
    found = data.get(key)
    kept = [f for f in found if isinstance(f, (int, float))] if isinstance(found, list) else []
    data[key] = [round(f, 4) for f in (kept + fractions)[-KEEP:]]
    return write_cache(path, data)


def likely_tokens_left(tokens: Mapping[int, int], finished: Collection[int], k: int, max_tokens: int,
                       seen: Sequence[float]) -> list[int] | None:
    """The tokens each open sequence (as :func:`vibecode.engine.plan.tokens_left` counts them)
    will likely still generate, from the recorded fractions ``seen`` (see the module); None when
    no open sequence has an estimate below its whole budget."""
    open_ = (set(range(k)) | set(tokens)) - set(finished)
    out, estimated = [], False
    for i in sorted(open_):
        t = tokens.get(i, 0)
        bound = max(0, max_tokens - t)
        past = [f * max_tokens for f in seen if f * max_tokens > t]
        likely = min(bound, max(0, round(statistics.median(past)) - t)) if len(past) >= MIN_SEEN else bound
        estimated |= likely < bound
        out.append(likely)
    return sorted(out) if estimated else None


def likely_left_s(tokens: Mapping[int, int], finished: Collection[int], k: int, max_tokens: int,
                  helper_left: Sequence[int], steps_per_s: float | None, rates: Mapping[int, float] | None,
                  seen: Sequence[float]) -> float | None:
    """The likely seconds of sampling left: :func:`vibecode.engine.plan.sampling_left_s` over
    the candidates' likely tokens left (:func:`likely_tokens_left`) and the helpers' whole rest
    (``helper_left``: they send no progress, so they keep their bound); None where there is no
    estimate below the bound."""
    likely = likely_tokens_left(tokens, finished, k, max_tokens, seen)
    return None if likely is None else sampling_left_s([*likely, *helper_left], steps_per_s, rates)
