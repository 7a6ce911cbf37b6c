"""Verification and claim-level reliability.

``harness`` runs one candidate on many inputs in one process; ``compare`` judges outputs;
``inputs`` makes extra inputs; ``claims`` / ``claim_check`` / ``math_check`` find and check the
claims of the reasoning; ``score`` clusters candidates and decides; ``mathmode`` does the same
for boxed math answers. The formula is in ``score``'s docstring.
"""
