"""The paper's tables and figures from any set of run directories:
`python -m pipeline.report RUN_OR_SWEEP_DIR... [--out DIR]`.

Reads only what runs leave on disk (checkpoint.h5 and metrics.jsonl), so it works on finished
and unfinished runs alike; modules: `runs` (finding, loading, comparability), `table`
(Table 1), `stats` (ANOVAs, pairwise tests), `figures`, `surrogates` (test MSE, real
re-evaluation of surrogate elites), `transfer_cache` (the games that re-evaluation played, kept
in the report folder), `decks`, `page` (index.html), `build` (all of it), and
`analysis` (the paper's surrogate analyses, also `python -m pipeline.report.analysis`). Imports
`pipeline.search` and below. `paper` (`python -m pipeline.report.paper`) sets runs' summaries
(config.yaml, metrics.jsonl) beside the paper's Table 1, without their checkpoints.
"""
