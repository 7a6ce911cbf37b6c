"""Planning a request's wall time from the measured speed of this model on this machine.

The engine records, after each long enough request, the aggregate generation tokens/s it reached
with K sequences (:func:`record`). They are kept per model and backend in the user cache dir
(``throughput.json``), each K's figure refreshed by use (a moving average). From them:

- :func:`estimate` gives the wall time of K sequences of up to ``max_tokens`` tokens each, and of
  the request's :class:`Helpers` (the oracle, the input generator, the edge cases): in the
  candidates' batch they make the first steps dearer; as requests of their own they come on top;
- :func:`plan` says, given a time budget, whether K x max_tokens fits, and when it does not,
  proposes a smaller K (down to :data:`MIN_K`) and then a smaller thinking budget, and names the
  change in :attr:`Plan.reason`. It never cuts silently: the caller shows ``reason``.

Between two measured K the time of one decode step is interpolated linearly; outside them it is
extrapolated conservatively (beyond the largest K a step costs proportionally more; below the
smallest it costs no less).

While sampling, :func:`tokens_left`, :func:`helper_tokens_left` and :func:`sampling_left_s` give
the remaining time: each open sequence (the candidates and the helper sequences of the batch) may
still generate up to its budget, and the decode steps are timed from the run's own measured steps
a second (shaped by the cached per-K figures when there are any, since on a CPU a step with fewer
open sequences is cheaper). The K and budgets come from the sample stage's
:class:`~vibecode.events.SampleBudget` (the plan may have lowered them), never from its text.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from pathlib import Path
from typing import Any

from vibecode.types import EngineInfo, SamplingParams

ALPHA = 0.5  # weight of a new measurement in the moving average
MIN_K = 4  # fewer candidates than this and the clusters say little; only the think budget goes
MIN_THINK = 512  # a thinking budget below this is not worth sampling
MIN_RECORD_S = 2.0  # decodes shorter than this measure start-up more than speed
MIN_RECORD_TOKENS = 32


@dataclass(frozen=True)
class Helpers:
    """The helper sequences a request brings: ``budgets(k, max_tokens)`` gives each one's token
    budget beside K candidates of ``max_tokens`` (they shrink with K), and ``batched`` says whether
    they decode in the candidates' batch or as requests of their own, one sequence each."""

    budgets: Callable[[int, int], Sequence[int]]
    batched: bool = True


@dataclass(frozen=True)
class Estimate:
    wall_s: float
    tokens_per_s: float  # aggregate, over every sequence (the K candidates and the helpers)
    measured_k: tuple[int, ...]  # the K values the estimate comes from
    helpers: int = 0  # helper sequences counted in ``wall_s``
    helper_tokens: int = 0  # their budgets, together


@dataclass(frozen=True)
class Plan:
    k: int
    max_tokens: int
    max_think_tokens: int | None
    estimate: Estimate | None  # None: this model has not been measured on this machine yet
    fits: bool  # whether the plan fits the budget (always True without a budget or a figure)
    reason: str | None = None  # what was changed from the request and why; None when nothing

    def describe(self) -> str:
        """One line for the progress output: the ETA, and any change."""
        if self.estimate is None:
            eta = "no estimate yet (the speed of this model on this machine is measured by use)"
        else:
            helpers = self.estimate.helpers
            also = (f" and {helpers} helper{'s' if helpers > 1 else ''} ({self.estimate.helper_tokens} tokens)"
                    if helpers else "")
            eta = (f"about {_duration(self.estimate.wall_s)} for {self.k} x {self.max_tokens} "
                   f"tokens{also} at {self.estimate.tokens_per_s:.1f} tokens/s")
        return f"{eta}; {self.reason}" if self.reason else eta


def cache_path() -> Path:
    base = os.environ.get("VIBECODE_CACHE")
    if not base:
        from platformdirs import user_cache_dir

        base = user_cache_dir("vibecode")
    return Path(base) / "throughput.json"


def model_key(model: str, backend: str) -> str:
    return f"{model}|{backend}"


def load_rates(key: str, path: Path | None = None) -> dict[int, float]:
    """The recorded aggregate tokens/s per K for ``key`` (empty when none, or unreadable)."""
    try:
        data = json.loads((path or cache_path()).read_text(encoding="utf-8"))
        return {int(k): float(v) for k, v in data.get(key, {}).items() if float(v) > 0}
    except (OSError, ValueError, AttributeError, TypeError):
        return {}


def record(key: str, k: int, tokens: int, seconds: float, path: Path | None = None) -> bool:
    """Fold one request's aggregate rate into the cache; False when too short to count or the
    cache cannot be written (a cache, never an error)."""
    if seconds < MIN_RECORD_S or tokens < MIN_RECORD_TOKENS or k < 1:
        return False
    path = path or cache_path()
    data = read_cache(path)
    rate = tokens / seconds
    found = data.get(key)
    rates: dict[str, float] = found if isinstance(found, dict) else {}
    old = rates.get(str(k))
    rates[str(k)] = rate if not isinstance(old, (int, float)) else ALPHA * rate + (1 - ALPHA) * old
    data[key] = rates
    return write_cache(path, data)


def read_cache(path: Path) -> dict[str, Any]:
    """A JSON cache file's object; empty when it is missing, unreadable or not an object."""
    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_cache(path: Path, data: Mapping[str, Any]) -> bool:
    """Replace a JSON cache file at once (a reader never sees half of it); False when it cannot
    be written (a cache, never an error)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        return False
    return True


def plan_request(
    info: EngineInfo, k: int, params: SamplingParams, budget_s: float | None, path: Path | None = None,
    helpers: Helpers | None = None,
) -> Plan:
    """:func:`plan` for a request to the engine described by ``info``, from its cached rates."""
    rates = load_rates(model_key(info.model, info.backend), path)
    return plan(rates, k, params.max_tokens, params.max_think_tokens, budget_s, helpers)


def planned_request(
    info: EngineInfo, k: int, params: SamplingParams, budget_s: float | None, path: Path | None = None,
    helpers: Helpers | None = None,
) -> tuple[int, SamplingParams, str]:
    """The K and sampling parameters to use (the plan's, when it had to change them to fit the
    budget), and the line to show: the ETA and the change, or "" when nothing is known."""
    chosen = plan_request(info, k, params, budget_s, path, helpers)
    if chosen.estimate is None:
        return k, params, ""
    fitted = replace(params, max_tokens=chosen.max_tokens, max_think_tokens=chosen.max_think_tokens)
    return chosen.k, fitted, chosen.describe()


def step_seconds(rates: Mapping[int, float], k: int) -> float | None:
    """Seconds per decode step (one token for each of K sequences), from the measured rates."""
    if not rates:
        return None
    points = sorted((kk, kk / r) for kk, r in rates.items())  # (K, seconds per step)
    if k <= points[0][0]:
        return points[0][1]  # fewer sequences never step faster than the smallest measured
    if k >= points[-1][0]:
        last_k, last_s = points[-1]
        return last_s * k / last_k  # the same aggregate rate: more sequences, longer steps
    for (k0, s0), (k1, s1) in pairwise(points):
        if k0 <= k <= k1:
            return s0 + (s1 - s0) * (k - k0) / (k1 - k0)
    return None  # unreachable: k lies within the points


def estimate(rates: Mapping[int, float], k: int, max_tokens: int, helpers: Helpers | None = None,
             ) -> Estimate | None:
    """The wall time of K sequences that each generate up to ``max_tokens`` tokens, with the
    ``helpers``: in the batch, each decode step costs what a step of the sequences still open
    costs; apart, each helper is a request of one sequence before or after the batch."""
    step = step_seconds(rates, k)
    if step is None:
        return None
    measured = tuple(sorted(rates))
    extra = [h for h in (helpers.budgets(k, max_tokens) if helpers is not None else ()) if h > 0]
    if not extra:
        return Estimate(step * max_tokens, k / step, measured)
    assert helpers is not None
    if helpers.batched:
        lengths = [max_tokens] * k + extra
        wall, done = 0.0, 0
        for end in sorted(set(lengths)):
            open_now = sum(length > done for length in lengths)
            wall += (step_seconds(rates, open_now) or step) * (end - done)
            done = end
    else:
        wall = step * max_tokens + (step_seconds(rates, 1) or step) * sum(extra)
    tokens = k * max_tokens + sum(extra)
    return Estimate(wall, tokens / wall, measured, len(extra), sum(extra))


def plan(
    rates: Mapping[int, float],
    k: int,
    max_tokens: int,
    max_think_tokens: int | None,
    budget_s: float | None,
    helpers: Helpers | None = None,
) -> Plan:
    """What to sample within ``budget_s`` seconds, the ``helpers`` counted: the request itself
    when it fits, else a smaller K (not below MIN_K), else also a smaller thinking budget (not
    below MIN_THINK). When even that does not fit, the smallest plan is returned with
    ``fits=False``."""
    asked = Plan(k, max_tokens, max_think_tokens, estimate(rates, k, max_tokens, helpers), True)
    if budget_s is None or asked.estimate is None or asked.estimate.wall_s <= budget_s:
        return asked
    over = f"{_duration(asked.estimate.wall_s)} is over the {_duration(budget_s)} budget"
    for smaller in range(k - 1, min(k, MIN_K) - 1, -1):
        guess = estimate(rates, smaller, max_tokens, helpers)
        if guess is not None and guess.wall_s <= budget_s:
            return replace(asked, k=smaller, estimate=guess,
                           reason=f"K x max_tokens = {k} x {max_tokens}: {over}, so K is {smaller}")
    k_floor = min(k, MIN_K)
    step = step_seconds(rates, k_floor) or 0.0
    answer = max(0, max_tokens - (max_think_tokens or 0))  # room kept for the answer
    helper_s = _helper_seconds(rates, k_floor, max_tokens, helpers)
    fit_tokens = int(max(0.0, budget_s - helper_s) / step) if step > 0 else max_tokens
    think = fit_tokens - answer
    floor = min(MIN_THINK, max_think_tokens or MIN_THINK)
    if max_think_tokens is not None and think >= floor:
        think = min(think, max_think_tokens)
        total = answer + think
        fitted = estimate(rates, k_floor, total, helpers)
        return replace(asked, k=k_floor, max_tokens=total, max_think_tokens=think, estimate=fitted,
                       fits=fitted is not None and fitted.wall_s <= budget_s,
                       reason=(f"K x max_tokens = {k} x {max_tokens}: {over}, so K is {k_floor} "
                               f"and the thinking budget {think} tokens (was {max_think_tokens})"))
    least = floor if max_think_tokens is not None else None
    total = answer + floor if max_think_tokens is not None else max_tokens
    guess = estimate(rates, k_floor, total, helpers)
    return replace(asked, k=k_floor, max_tokens=total, max_think_tokens=least, estimate=guess,
                   fits=guess is not None and guess.wall_s <= budget_s,
                   reason=(f"K x max_tokens = {k} x {max_tokens}: {over}; even K={k_floor} with "
                           f"{total} tokens needs {_duration(guess.wall_s if guess else 0)}"))


def _helper_seconds(rates: Mapping[int, float], k: int, max_tokens: int, helpers: Helpers | None) -> float:
    """What the helpers add to K candidates' wall (an upper bound for a smaller ``max_tokens``:
    their budgets shrink with it)."""
    alone, both = estimate(rates, k, max_tokens), estimate(rates, k, max_tokens, helpers)
    return both.wall_s - alone.wall_s if alone is not None and both is not None else 0.0


def tokens_left(tokens: Mapping[int, int], finished: Collection[int], k: int, max_tokens: int) -> list[int]:
    """The tokens each sequence still open may generate: the K sequences (numbered from 0) and any
    other that sent tokens, less the finished ones; one not heard from yet has its whole budget."""
    open_ = (set(range(k)) | set(tokens)) - set(finished)
    return sorted(max(0, max_tokens - tokens.get(i, 0)) for i in open_)


def helper_tokens_left(helpers: int, helper_max_tokens: int, tokens: Mapping[int, int]) -> list[int]:
    """The tokens each helper sequence of the batch may still generate. They send no progress,
    but they started with the candidates and decode a token at every step, so after as many steps
    as the longest candidate has tokens (``tokens``), one still open has at most the rest of its
    budget to go; one that already finished is counted as open (an upper bound, never too small)."""
    steps = max(tokens.values(), default=0)
    return [max(0, helper_max_tokens - steps)] * max(0, helpers)


def sampling_left_s(left: Sequence[int], steps_per_s: float | None,
                    rates: Mapping[int, float] | None = None) -> float | None:
    """Seconds until the open sequences, with ``left`` tokens each to go (the candidates and the
    helpers of the batch), have all used their budget, at the ``steps_per_s`` decode steps a
    second measured so far in this run; None while that is not known. An upper bound in tokens
    (a sequence may stop early), not a promise.

    The sequences decode together: one step gives each open sequence a token, so the number of
    steps so far is the longest sequence's tokens, and its rate is measured whatever the mix of
    sequences (helpers send no tokens, finished candidates send no more). The shortest finishes
    first and the later steps serve fewer sequences. Such a step is no cheaper than the ones
    measured (on a GPU, or the paced replay, it costs the same), unless the cached per-K figures
    (``rates``) say how much cheaper it is on this machine: :func:`step_seconds`, scaled so that
    the current number of open sequences matches the measured step."""
    if steps_per_s is None or steps_per_s <= 0:
        return None
    order = sorted(x for x in left if x > 0)
    if not order:
        return 0.0
    now = len(order)
    step_now = 1.0 / steps_per_s
    cached = step_seconds(rates, now) if rates else None

    def step(n: int) -> float:
        if cached is None or not rates:
            return step_now
        return step_now * (step_seconds(rates, n) or 0.0) / cached

    total, done = 0.0, 0
    for i, tokens in enumerate(order):  # sequences still open from here on: now - i
        total += (tokens - done) * step(now - i)
        done = tokens
    return total


def within_budget(left_s: float | None, budget_s: float | None, elapsed_s: float) -> float | None:
    """The time left, no longer than what remains of ``--time-budget`` (sampling stops there)."""
    if left_s is None or budget_s is None:
        return left_s
    return min(left_s, max(0.0, budget_s - elapsed_s))


def left_text(seconds: float, likely: float | None = None) -> str:
    """The remaining time as the progress shows it: "up to 6 min of sampling left" (an upper
    bound: every sequence may stop before its budget), or "about 2 min (up to 6 min) of sampling
    left" where ``likely`` (from how long this model's completions ran before,
    :mod:`vibecode.engine.lengths`) reads shorter than the bound. It is the sample stage's time
    only: the sandbox runs and the claim verdicts asked after sampling come on top, so it says so."""
    bound = _duration(seconds)
    if likely is not None and likely < seconds and _duration(likely) != bound:
        return f"about {_duration(likely)} (up to {bound}) of sampling left"
    return f"up to {bound} of sampling left"


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
