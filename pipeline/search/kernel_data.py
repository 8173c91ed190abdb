"""What the inner loop's compiled kernels (inner_kernel.py, batched_kernel.py) take, as named
tuples: numba passes one as a typed struct and resolves each field at compile time, so a field
costs what a separate argument did, and an argument can no longer be passed in the wrong place.

- `Network`: the surrogate's weights (Surrogate.kernel_network);
- `ValueSources`: where each deck's objective and measures come from (BehaviorSpace.sources);
- `KernelArchive`: the surrogate archive, its geometry and its elites (SurrogateGrid.kernel_archive).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Network(NamedTuple):
    """A network of 1 (linear) to 4 (the MLP) layers with ELU between layers, float32: w0 is
    (n_in, n_out) (a deck's cards select and sum its rows), the others (n_out, n_in); unused
    layers are empty arrays, so every field keeps one type whatever the depth."""
    w0: np.ndarray
    b0: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    w3: np.ndarray
    b3: np.ndarray
    n_layers: int
    n_out: int


class ValueSources(NamedTuple):
    """For the objective and each measure: `kinds` (behavior_space.FROM_*), `indices` (the
    surrogate's output or the column of `card_features`), and the cards' deck-level features
    (behavior_space.card_features)."""
    kinds: np.ndarray
    indices: np.ndarray
    card_features: np.ndarray


class KernelArchive(NamedTuple):
    """The surrogate archive (archives.SurrogateGrid) as the kernels change it in place. Its
    geometry: cells per measure, ranges as lower and interval, ribs' epsilon; a sliding map's
    boundaries (n_bounds[0] == 0: uniform cells); a CVT archive's centroids (none: a grid).
    Then per cell its elite, which cells are occupied, and their order of first occupation."""
    dims: np.ndarray
    lower: np.ndarray
    interval: np.ndarray
    eps: float
    bounds: np.ndarray
    n_bounds: np.ndarray
    centroids: np.ndarray
    objective: np.ndarray
    solution: np.ndarray
    measures: np.ndarray
    targets: np.ndarray
    occupied: np.ndarray
    occ_list: np.ndarray
    n_occ: np.ndarray
