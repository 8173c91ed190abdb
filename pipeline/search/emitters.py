"""The one emitter ribs lacks: random decks first, then the protocol's deck mutation."""
from __future__ import annotations

import numpy as np
from ribs.emitters import EmitterBase

from ..deck_space import DeckSpace
from .archives import uniform_elites


class DeckMutationEmitter(EmitterBase):
    """Asks for `initial` random decks, then for mutations of uniformly drawn elites.

    Used on the real ribs archive (the inner loop runs the same steps compiled, see
    inner_kernel.py). All randomness comes from `rng`, which the caller checkpoints; `emitted`
    is the only other state.
    """

    def __init__(self, archive, space: DeckSpace, rng: np.random.Generator, batch_size: int,
                 initial: int, emitted: int = 0):
        super().__init__(archive, solution_dim=space.size,
                         bounds=None, lower_bounds=np.zeros(space.size), upper_bounds=space.limits)
        self.space = space
        self.rng = rng
        self.batch_size = batch_size
        self.initial = initial
        self.emitted = emitted

    def ask(self) -> np.ndarray:
        if self.emitted < self.initial or len(self.archive) == 0:
            n = min(self.batch_size, self.initial - self.emitted) if self.emitted < self.initial \
                else self.batch_size  # exactly `initial` random decks, then mutations
            decks = self.space.random_decks(self.rng, n)
        else:
            parents = uniform_elites(self.archive, self.rng, self.batch_size)
            decks = self.space.mutate(self.rng, parents)
        self.emitted += len(decks)
        return decks
