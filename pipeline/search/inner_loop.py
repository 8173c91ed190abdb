"""MAP-Elites on the surrogate alone: many batches of mutants, no games.

Two modes make the same number of predictions (algorithm.inner.iterations x batch_size):
`serial`, the paper's chain of small steps on one core (inner_kernel.run_block), and `batched`,
fewer steps of `step_decks` decks each, spread over the head node's cores (batched_kernel).
"""
from __future__ import annotations

import time

import numba
import numpy as np

from ..behavior_space import FROM_PREDICTION
from ..cluster.local import usable_cores
from ..deck_space import DeckSpace
from .archives import SurrogateGrid
from .batched_kernel import first_layers, run_steps
from .inner_kernel import MAX_CHANGE, behavior_batch, predict_batch, run_block
from .kernel_data import Network, ValueSources

MODES = ("serial", "batched")


def run_inner_loop(space: DeckSpace, weights: Network, grid: SurrogateGrid,
                   rng: np.random.Generator, iterations: int, batch_size: int, initial: int,
                   progress=None, block: int = 1000, sources: ValueSources | None = None, *,
                   mode: str = "serial", step_decks: int = 1000, threads: int | None = None) -> int:
    """Run `iterations` steps of `batch_size` decks' worth of predictions on `grid`; returns the
    predictions made. `weights`: the surrogate's (Surrogate.kernel_weights). `sources`: where
    each deck's objective and measures come from, as behavior_space.BehaviorSpace.sources and
    behavior_space.card_features give them (default: the surrogate's first outputs, the
    objective then the measures). `threads`: the batched mode's cores (default all).

    A fresh grid starts with random decks (ceil(initial / batch_size) steps of them; batched:
    one step of `initial`); a persisting one (DSA-ME without resetting) already has elites and
    goes straight to mutation. Random numbers are drawn from `rng` per block of steps, so the
    result depends only on the generator's state, the weights and the grid (batched: not on
    the thread count either).
    """
    if mode not in MODES:
        raise ValueError(f"algorithm.inner.mode must be one of {MODES}, got {mode!r}")
    if sources is None:
        values = 1 + len(grid.dims)
        sources = ValueSources(np.full(values, FROM_PREDICTION, np.int64), np.arange(values, dtype=np.int64),
                               np.zeros((space.size, 4)))
    total = iterations * batch_size
    empty = len(grid) == 0  # no parents to mutate: random decks first
    if mode == "serial":
        step = batch_size
        random_steps = min(max(-(-initial // batch_size), 1), iterations) if empty else 0
        random_decks = random_steps * batch_size
    else:
        step, random_decks = step_decks, min(max(initial, 1), total) if empty else 0
    for count in np.diff(np.r_[0:random_decks:step, random_decks]) if random_decks else ():
        decks = space.random_decks(rng, int(count))
        predictions = predict_batch(decks, weights)
        grid.add(decks, predictions.astype(np.float64),
                 behavior_batch(decks, predictions, sources, space.deck_size))
    if progress is not None:
        progress.update(random_decks)
    if mode == "serial":
        _serial_chain(space, weights, grid, rng, iterations - random_steps, batch_size, block, sources, progress)
    else:
        _batched_steps(space, weights, grid, rng, total - random_decks, step_decks, sources, progress, threads)
    return total


def _serial_chain(space, weights, grid, rng, steps, batch_size, block, sources, progress) -> None:
    done = 0
    while done < steps:
        n = min(block, steps - done)
        ks = np.minimum(rng.geometric(0.5, size=(n, batch_size)), MAX_CHANGE)
        run_block(rng.random((n, batch_size)), ks, rng.random((n, batch_size, MAX_CHANGE)),
                  rng.random((n, batch_size, MAX_CHANGE)), space.limits, space.deck_size,
                  weights, sources, grid.kernel_archive())
        done += n
        if progress is not None:
            progress.update(n * batch_size)


def _chunks(total: int, size: int) -> list[int]:
    """`total` cut into pieces of `size`, the last one what is left."""
    return [size] * (total // size) + ([total % size] if total % size else [])


def _batched_steps(space, weights, grid, rng, decks, step_decks, sources, progress, threads) -> None:
    """Steps of `step_decks` (the last one what is left), 50 steps per kernel call so the
    progress bar moves; one 64-bit seed per step from the run's generator. Without a set
    thread count, the first two calls time all the cores and one, and each later call takes
    the count whose last call was faster: each step ends when its slowest thread does, so on
    cores busy with other work (local workers playing games) one thread beats several (0.5 s
    against 7 s for 1,000,000 predictions on a 2-core machine with its cores busy). No
    result depends on the count."""
    w0, b0 = weights.w0, weights.b0
    cell_cards = np.zeros((len(grid.objective), space.deck_size), np.int64)
    cell_hidden = np.zeros((len(grid.objective), len(b0)), np.float32)
    first_layers(grid.solution, grid.occ_list[:len(grid)], w0, b0, cell_cards, cell_hidden)
    most = min(threads or usable_cores(), numba.config.NUMBA_NUM_THREADS)
    trials = [most, 1] if threads is None and most > 1 else []
    full, rest = divmod(decks, step_decks)
    # calls of 50 steps, the trials' of 10 (on busy cores a step of several threads can take a
    # time slice: 50 of them were 0.4 s)
    probe = min(10 * len(trials), full)
    calls = [(step_decks, n) for n in _chunks(probe, 10) + _chunks(full - probe, 50)] + ([(rest, 1)] if rest else [])
    seconds_per_deck = {}
    before = numba.get_num_threads()
    try:
        for size, n in calls:
            using = trials.pop(0) if trials else min(seconds_per_deck, key=seconds_per_deck.get, default=most)
            numba.set_num_threads(using)
            start = time.perf_counter()
            run_steps(rng.bit_generator.random_raw(int(n)).astype(np.uint64), int(size), space.limits,
                      space.deck_size, weights, sources, grid.kernel_archive(), cell_cards, cell_hidden)
            seconds_per_deck[using] = (time.perf_counter() - start) / (size * n)  # the latest: load comes and goes
            if progress is not None:
                progress.update(int(size * n))
    finally:
        numba.set_num_threads(before)
