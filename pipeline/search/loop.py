"""The steady-state loop's numbers: how many decks stay in flight while the head node works
(algorithm.lag) and how many each outer iteration queues at least (algorithm.min_batch), and
their resolution from `auto` when a run starts (docs/pipeline.md#the-steady-state-loop). Kept
apart from the search, so the driver resolves them before it touches the run folder without
importing the search's libraries."""
from __future__ import annotations

LAGS_PER_SLOT = 3  # algorithm.lag=auto: decks in flight per worker slot (docs/pipeline.md#the-steady-state-loop)
LAG_FLOOR = 10  # ... but never fewer: a small cluster still plays while the head node works
LAG_MOST_SHARE = 0.3  # ... nor more than this share of the budget, which the surrogates would miss
LEGACY_LAG_SHARE = 0.04  # the old algorithm.lag=auto, kept by runs whose checkpoint has no "lag"


def steady_state_lag(algo, slots: int) -> int:
    """algorithm.lag: a count of decks, or auto: LAGS_PER_SLOT decks per worker slot the run has
    (what docs/pipeline.md#the-steady-state-loop works out for this machine's head node), at
    least LAG_FLOOR and at most LAG_MOST_SHARE of the budget. Resolved once, when a run starts, and
    kept in its checkpoint: the run's data at each step depends on it, so a resume keeps it
    whatever the slots are then."""
    if algo.lag != "auto":
        return int(algo.lag)
    budget = int(algo.budget)
    return max(min(LAGS_PER_SLOT * int(slots), round(LAG_MOST_SHARE * budget)), min(LAG_FLOOR, budget))


def loop_is_auto(algo) -> bool:
    """Whether a steady-state surrogate search leaves its lag or min_batch to the machine."""
    return algo.kind == "surrogate" and bool(algo.steady_state) and "auto" in (algo.lag, algo.min_batch)


def resolve_loop(cfg, slots: int):
    """The config with algorithm.lag and min_batch as the numbers a steady-state run on `slots`
    worker slots uses: they decide which data each surrogate sees, so they are part of what the
    run computes (its identity, its folder's name and its config.yaml), not of the machine."""
    if not loop_is_auto(cfg.algorithm):
        return cfg
    cfg = cfg.copy()
    lag = steady_state_lag(cfg.algorithm, slots)
    cfg.algorithm.min_batch = steady_state_min_batch(cfg.algorithm, lag)
    cfg.algorithm.lag = lag
    return cfg


def legacy_lag(algo) -> int:
    """The lag of a run whose checkpoint's state has no "lag" (begun under the old auto, then
    LEGACY_LAG_SHARE of the budget): such a run resumes with the lag it began with."""
    if algo.lag != "auto":
        return int(algo.lag)
    return max(1, round(LEGACY_LAG_SHARE * int(algo.budget)))


def steady_state_min_batch(algo, lag: int) -> int:
    """algorithm.min_batch: a count of decks, or auto: half the lag, so each outer iteration
    queues at least what the workers play while the head node makes the next one
    (docs/pipeline.md#the-steady-state-loop)."""
    if algo.min_batch != "auto":
        return int(algo.min_batch)
    return lag // 2
