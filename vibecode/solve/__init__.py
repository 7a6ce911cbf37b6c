"""The solve pipeline: prompts, sampling, verification of candidate solutions, and the JSON report."""
