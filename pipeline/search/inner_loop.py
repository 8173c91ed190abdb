"""MAP-Elites on the surrogate alone: many small batches, no games."""
from __future__ import annotations

import numpy as np

from ..deck_space import DeckSpace
from .archives import SurrogateGrid
from .inner_kernel import MAX_CHANGE, behavior_batch, predict_batch, run_block


def run_inner_loop(space: DeckSpace, weights: tuple[tuple, tuple], grid: SurrogateGrid,
                   rng: np.random.Generator, iterations: int, batch_size: int, initial: int,
                   progress=None, block: int = 1000, sources: tuple | None = None) -> int:
    """Run `iterations` steps of `batch_size` decks on `grid`; returns the predictions made.
    `sources`: where each deck's objective and measures come from, (kinds, indices,
    card_features) as behavior_space.BehaviorSpace.sources and behavior_space.card_features give them
    (default: the surrogate's first outputs, the objective then the measures).

    A fresh grid starts with ceil(initial / batch_size) steps of random decks; a persisting
    one (DSA-ME without resetting) already has elites and goes straight to mutation.
    Random numbers are drawn per block of steps, so the result depends only on the
    generator's state, the weights and the grid.
    """
    # An empty grid has no parents to mutate: it always starts with at least one random step.
    if sources is None:
        values = 1 + len(grid.dims)
        sources = (np.zeros(values, np.int64), np.arange(values, dtype=np.int64), np.zeros((space.size, 4)))
    random_steps = min(max(-(-initial // batch_size), 1), iterations) if len(grid) == 0 else 0
    for _ in range(random_steps):
        decks = space.random_decks(rng, batch_size)
        predictions = predict_batch(decks, *weights)
        grid.add(decks, predictions.astype(np.float64),
                 behavior_batch(decks, predictions, *sources, space.deck_size))
    if progress is not None:
        progress.update(random_steps * batch_size)
    done = random_steps
    while done < iterations:
        n = min(block, iterations - done)
        ks = np.minimum(rng.geometric(0.5, size=(n, batch_size)), MAX_CHANGE)
        run_block(rng.random((n, batch_size)), ks, rng.random((n, batch_size, MAX_CHANGE)),
                  rng.random((n, batch_size, MAX_CHANGE)), space.limits, space.deck_size,
                  *weights, *sources, *grid.kernel_args())
        done += n
        if progress is not None:
            progress.update(n * batch_size)
    return iterations * batch_size
