"""Extra inputs for telling candidates apart: the entry points of the input stages.

- :func:`generate_inputs`: type- and constraint-driven inputs of the ``edge`` and ``random`` tiers
  (``clr.inputs_tiers``; the ``stress`` tier runs apart, with a time limit, in ``clr.stress``);
- :func:`validate_input`: what is wrong with one input for the problem (``clr.inputs_check``);
- :func:`edge_case_prompt` / :func:`parse_model_inputs`: edge cases the model proposes
  (``clr.inputs_model``).

Values come from ``clr.inputs_values``. Sizes of the edge and random tiers stay small (lists of at
most ``MAX_LEN`` items, scalar arguments within ``±SCALAR_CAP``; list items use their whole stated
range, up to the 32-bit bounds) so every input runs fast. Where a bound is unknown the examples'
own ranges are used (never wider). A constraint line that is not understood is skipped and named
in the notes; it never switches generation off.
"""

from __future__ import annotations

from vibecode.clr.inputs_bugs import BUG_INPUTS
from vibecode.clr.inputs_check import validate_input
from vibecode.clr.inputs_model import edge_case_prompt, parse_model_inputs
from vibecode.clr.inputs_tiers import TieredInputs, generate_tiers
from vibecode.clr.inputs_values import MAX_LEN, SCALAR_CAP
from vibecode.types import InputSet, Problem


def generate_inputs(problem: Problem, *, seed: int = 0, max_inputs: int = 16, bugs: int = BUG_INPUTS) -> InputSet:
    """Edge inputs first (up to 6), then random ones up to ``max_inputs`` in all, then up to
    ``bugs`` bug-seeking ones (edge tier, ``clr.inputs_bugs``), validated, each labelled with its
    tier in ``InputSet.tiers``; see the module doc."""
    edge = min(6, max_inputs)
    got = generate_tiers(problem, seed=seed, edge=edge, random_count=max(0, max_inputs - edge), stress=0, bugs=bugs)
    return InputSet(got.inputs, "type", got.notes, got.tiers)


__all__ = ["BUG_INPUTS", "MAX_LEN", "SCALAR_CAP", "TieredInputs", "edge_case_prompt", "generate_inputs", "generate_tiers",
           "parse_model_inputs", "validate_input"]
