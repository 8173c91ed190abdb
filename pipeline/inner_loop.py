"""MAP-Elites on the surrogate alone: many small batches, no games."""
from __future__ import annotations

import numpy as np

from .archives import SurrogateGrid
from .deck_space import DeckSpace
from .emitters import DeckMutationEmitter


def run_inner_loop(space: DeckSpace, predict, grid: SurrogateGrid, rng: np.random.Generator,
                   iterations: int, batch_size: int, initial: int, progress=None,
                   progress_every: int = 1000) -> int:
    """Run `iterations` ask/predict/insert steps on `grid`; returns the predictions made.

    A fresh grid starts from `initial` random decks; a persisting one (DSA-ME without
    resetting) already has elites and goes straight to mutation.
    """
    emitter = DeckMutationEmitter(grid, space, rng, batch_size,
                                  initial=initial if len(grid) == 0 else 0)
    made = 0
    for it in range(iterations):
        decks = emitter.ask()
        pred = predict(decks)
        grid.add(decks, pred[:, 0], pred[:, 1:3], pred)
        made += len(decks)
        if progress is not None and (it + 1) % progress_every == 0:
            progress.update(progress_every)
    if progress is not None:
        progress.update(iterations % progress_every)
    return made
