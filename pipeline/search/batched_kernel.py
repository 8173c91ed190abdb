"""The batched inner loop's kernel: steps of many decks, each mutated and predicted on any core.

The paper's chain (inner_kernel.run_block) is 100,000 steps of 10 decks on one core. Here a step
holds about 1,000 decks: they are mutated and predicted independently, spread over the head
node's cores (numba prange), then inserted one by one in deck order, so the archive does not
depend on which thread did what. Each deck's random numbers come from a counter-based hash of
(the step's seed, the deck's place in the step) instead of arrays drawn beforehand by numpy:
drawing 61 numbers a deck cost as much as the whole chain's kernel, and a deck's draws must
not depend on the thread that makes them.

A prediction reuses its parent's work: each elite keeps its card list and its first layer's
pre-activation (the sum of its cards' rows), so a child costs its K removed and K added rows
(K is 2 on average) instead of 30. The dense layers are dot products in float32 with
reassociation allowed (vectorised), and ELU is a polynomial (_elu), not a call of expm1.

The network, the value sources and the archive come as the named tuples of kernel_data.py.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from workers.engine.rng import GOLDEN, MIX_1, MIX_2

from .inner_kernel import MAX_CHANGE, behavior_of, place_batch

# SplitMix64's increment and output multipliers: the engine's stream's (workers/engine/rng.py)
_GAMMA, _M1, _M2 = np.uint64(GOLDEN), np.uint64(MIX_1), np.uint64(MIX_2)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)


@njit(inline="always")
def _splitmix64(z):
    """SplitMix64's output function: a well-spread 64-bit value from a counter."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(inline="always")
def _below(state, n):
    """(the next state, an integer uniform in [0, n))."""
    state += _GAMMA
    return state, np.int64(np.float64(_splitmix64(state) >> _S11) * (1.0 / 9007199254740992.0) * n)


@njit(inline="always")
def _change_size(state):
    """(the next state, K ~ Geometric(0.5) capped at MAX_CHANGE): one plus the number of
    trailing one bits of a random word, each bit a fair coin."""
    state += _GAMMA
    bits, k = _splitmix64(state), 1
    while bits & np.uint64(1) and k < MAX_CHANGE:
        bits >>= np.uint64(1)
        k += 1
    return state, k


@njit(inline="always")
def _mutate(parent, parent_cards, parent_hidden, limits, w0, state, copies, out, hidden):
    """The protocol's mutation (inner_kernel.mutate_one's rule): remove K of the deck's copies
    uniformly, then add K copies one at a time, each of a card uniform among the cards still
    under their limit (drawn by rejection: a uniform card of the pool, kept when it is under
    its limit; a free card always exists). `copies` ends as the child's card list, `hidden`
    as its first layer's pre-activation: the parent's, less the rows removed, plus those added."""
    out[:] = parent
    copies[:] = parent_cards
    hidden[:] = parent_hidden
    n = copies.shape[0]
    state, k = _change_size(state)
    for j in range(k):
        state, pos = _below(state, n - j)
        card = copies[pos]
        out[card] -= 1
        for h in range(hidden.shape[0]):
            hidden[h] -= w0[card, h]
        copies[pos] = copies[n - j - 1]
    for j in range(k):
        while True:
            state, card = _below(state, parent.shape[0])
            if out[card] < limits[card]:
                break
        out[card] += 1
        for h in range(hidden.shape[0]):
            hidden[h] += w0[card, h]
        copies[n - k + j] = card


@njit(inline="always")
def _elu(x):
    """ELU (alpha 1) without a call to expm1, which cost more than the rest of a prediction: for
    x < 0, e^x = (e^(x/32))^32, e^(x/32) by its Taylor series to degree 10 (|x/32| <= 0.63 after
    clamping x at -20, where e^x - 1 is -1 in float32), in float64; within a float32 rounding
    of expm1. Branch-free, so a loop over a layer vectorises."""
    y = max(min(np.float64(x), 0.0), -20.0) * (1.0 / 32.0)
    e = 1.0 + y * (1.0 + y * (1.0 / 2 + y * (1.0 / 6 + y * (1.0 / 24 + y * (1.0 / 120 + y * (
        1.0 / 720 + y * (1.0 / 5040 + y * (1.0 / 40320 + y * (1.0 / 362880 + y * (1.0 / 3628800))))))))))
    for _ in range(5):
        e *= e
    return np.float32(x) if x > 0 else np.float32(e - 1.0)


@njit(fastmath={"reassoc", "contract"})
def _elu_poly_dense(h, w, b, out):
    """out = b + w @ ELU(h) with the polynomial _elu, w (n_out, n_in): each output one dot
    product, whose sum may be reordered (vectorised); the same order on every thread."""
    for i in range(h.shape[0]):
        h[i] = _elu(h[i])
    for o in range(w.shape[0]):
        acc = np.float32(0)
        for i in range(w.shape[1]):
            acc += w[o, i] * h[i]
        out[o] = b[o] + acc


@njit(inline="always")
def _predict(hidden, net, h_a, h_b, out):
    """The surrogate's forward pass (`net`, a Network) from the first layer's pre-activation
    `hidden` (kept); h_a, h_b scratch rows."""
    if net.n_layers == 1:
        out[:] = hidden
        return
    b1, b2 = net.b1, net.b2
    h_a[:hidden.shape[0]] = hidden
    _elu_poly_dense(h_a[:hidden.shape[0]], net.w1, b1, h_b[:b1.shape[0]])
    if net.n_layers == 2:
        out[:] = h_b[:b1.shape[0]]
        return
    _elu_poly_dense(h_b[:b1.shape[0]], net.w2, b2, h_a[:b2.shape[0]])
    if net.n_layers == 3:
        out[:] = h_a[:b2.shape[0]]
        return
    _elu_poly_dense(h_a[:b2.shape[0]], net.w3, net.b3, out)


@njit(cache=True, nogil=True)
def first_layers(solution, cells, w0, b0, cell_cards, cell_hidden):
    """For each of `cells`: its elite's card list and first-layer pre-activation."""
    for c in cells:
        n = 0
        cell_hidden[c, :] = b0
        for i in range(solution.shape[1]):
            for _ in range(solution[c, i]):
                cell_cards[c, n] = i
                n += 1
                for h in range(b0.shape[0]):
                    cell_hidden[c, h] += w0[i, h]


@njit(cache=True, parallel=True, nogil=True)  # nogil: the Dask client's threads go on meanwhile
def run_steps(seeds, batch, limits, deck_size, net, sources, archive, cell_cards, cell_hidden):
    """One step per seed on `archive` (a KernelArchive): `batch` decks, each a mutation of a
    parent drawn uniformly from the occupied cells as they were before the step, predicted with
    `net`, valued from `sources`, then all inserted in deck order. `cell_cards`, `cell_hidden`:
    each elite's card list and first layer (first_layers), kept up to date. Returns cells changed."""
    w0, b0 = net.w0, net.b0
    solution, occ_list, n_occ = archive.solution, archive.occ_list, archive.n_occ
    width = max(net.b1.shape[0], net.b2.shape[0], net.b3.shape[0], 1)
    decks = np.empty((batch, solution.shape[1]), dtype=solution.dtype)
    copies = np.empty((batch, deck_size), dtype=cell_cards.dtype)
    hidden = np.empty((batch, b0.shape[0]), dtype=np.float32)
    preds = np.empty((batch, net.n_out), dtype=np.float32)
    behavior = np.empty((batch, sources.kinds.shape[0]), dtype=np.float64)
    h_a = np.empty((batch, max(width, b0.shape[0])), dtype=np.float32)
    h_b = np.empty((batch, width), dtype=np.float32)
    placed = np.empty(batch, dtype=np.int64)
    changed = 0
    for s in range(seeds.shape[0]):
        parents = n_occ[0]
        for b in prange(batch):
            state = _splitmix64(seeds[s] + np.uint64(b) * _GAMMA)
            state, pick = _below(state, parents)
            cell = occ_list[pick]
            _mutate(solution[cell], cell_cards[cell], cell_hidden[cell], limits, w0, state,
                    copies[b], decks[b], hidden[b])
            _predict(hidden[b], net, h_a[b], h_b[b], preds[b])
            behavior_of(decks[b], preds[b], sources, deck_size, behavior[b])
        changed += place_batch(decks, preds, behavior, archive, placed)
        for b in range(batch):  # in deck order: a cell keeps its last newcomer's lists
            if placed[b] >= 0:
                cell_cards[placed[b]] = copies[b]
                cell_hidden[placed[b]] = hidden[b]
    return changed
