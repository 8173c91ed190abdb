"""Compiled kernels of the inner loop: deck mutation, MLP prediction and grid insertion.

The inner loop is 100,000 sequential steps of 10 decks per outer iteration. In numpy each
step costs ~0.5 ms of per-call overhead (about 60 small array operations), twice the
budget of 1,000,000 predictions in 30 s, so a step runs as one numba function over a block
of steps. All random numbers are drawn beforehand by numpy from the run's generator, so the
kernels are deterministic and the generator state stays checkpointable. The network, the
value sources and the archive come as the named tuples of kernel_data.py.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..behavior_space import FROM_DECK, FROM_PREDICTION

MAX_CHANGE = 30  # K is capped at the deck size


@njit(cache=True)
def cell_of(m, archive):
    """The cell of measures `m` in `archive` (a KernelArchive): with centroids (a CVT archive),
    the nearest centroid; with boundaries (a sliding map), per measure the last boundary below
    it; else ribs' GridArchive.index_of (same float operations, truncation, clip), row-major over
    the measures."""
    if archive.centroids.shape[0]:
        return _nearest(m, archive.centroids)
    dims = archive.dims
    if archive.n_bounds[0]:
        return _sliding_cell(m, dims, archive.bounds, archive.n_bounds)
    cell = 0
    for i in range(m.shape[0]):
        g = np.int64(np.int32((dims[i] * (m[i] - archive.lower[i]) + archive.eps) / archive.interval[i]))
        cell = cell * dims[i] + min(max(g, 0), dims[i] - 1)
    return cell


@njit(cache=True)
def _sliding_cell(m, dims, bounds, n_bounds):
    cell = 0
    for i in range(m.shape[0]):
        g = np.int64(np.searchsorted(bounds[i, :n_bounds[i]], m[i])) - 1  # the boundaries below m[i]
        cell = cell * dims[i] + min(max(g, 0), dims[i] - 1)
    return cell


@njit(cache=True)
def _nearest(m, centroids):
    best, nearest = np.inf, 0
    for c in range(centroids.shape[0]):
        d = 0.0
        for i in range(m.shape[0]):
            d += (m[i] - centroids[c, i]) ** 2
        if d < best:
            best, nearest = d, c
    return nearest


@njit(cache=True)
def behavior_of(counts, pred, sources, deck_size, out):
    """The objective and measures of one deck (`out`): each from the surrogate's prediction or,
    for a deck-level statistic, exactly from the deck (`sources`, a ValueSources:
    pipeline.behavior_space.BehaviorSpace.sources)."""
    kinds, indices, card_features = sources
    for v in range(kinds.shape[0]):
        if kinds[v] == FROM_PREDICTION:
            out[v] = np.float64(pred[indices[v]])
        elif kinds[v] == FROM_DECK:
            total = 0.0
            for i in range(counts.shape[0]):
                total += counts[i] * card_features[i, indices[v]]
            out[v] = total
        else:  # FROM_COST_VARIANCE: the population variance of the deck's costs (column 0: cost)
            mean = 0.0
            for i in range(counts.shape[0]):
                mean += counts[i] * card_features[i, 0]
            mean /= deck_size
            spread = 0.0
            for i in range(counts.shape[0]):
                spread += counts[i] * (card_features[i, 0] - mean) ** 2
            out[v] = spread / deck_size


@njit(cache=True, fastmath=True)
def _elu_expm1_dense(h, w, b):
    """ELU on h (by expm1), then the dense layer w (n_out, n_in), b: each output is one
    reduction. (The batched kernel's _elu_poly_dense is the vectorised form.)"""
    for j in range(h.shape[0]):
        if h[j] < 0:
            h[j] = np.expm1(h[j])
    out = np.empty(w.shape[0], dtype=np.float32)
    for o in range(w.shape[0]):
        acc = b[o]
        for i in range(w.shape[1]):
            acc += w[o, i] * h[i]
        out[o] = acc
    return out


@njit(cache=True, fastmath=True)
def predict_one(counts, net, out):
    """Forward pass for one deck of `net` (a Network): the deck's at most 30 cards select and
    sum w0's rows, then each further layer after an ELU. The layers are fields, not a
    sequence: numba specialises on each one far better than on a loop over a tuple of layers."""
    w0 = net.w0
    h = net.b0.copy()
    for i in range(w0.shape[0]):
        c = np.float32(counts[i])
        if c != 0:
            for j in range(h.shape[0]):
                h[j] += c * w0[i, j]
    if net.n_layers > 1:
        h = _elu_expm1_dense(h, net.w1, net.b1)
    if net.n_layers > 2:
        h = _elu_expm1_dense(h, net.w2, net.b2)
    if net.n_layers > 3:
        h = _elu_expm1_dense(h, net.w3, net.b3)
    for j in range(h.shape[0]):
        out[j] = h[j]


@njit(cache=True)
def predict_batch(decks, net):
    out = np.empty((decks.shape[0], net.n_out), dtype=np.float32)
    for b in range(decks.shape[0]):
        predict_one(decks[b], net, out[b])
    return out


@njit(cache=True)
def insert_batch(decks, preds, behavior, archive):
    """ribs' insertion rule (place_batch); returns cells changed."""
    return place_batch(decks, preds, behavior, archive, np.empty(decks.shape[0], dtype=np.int64))


@njit(cache=True)
def place_batch(decks, preds, behavior, archive, placed):
    """ribs' insertion rule into `archive` (a KernelArchive): an entry enters its cell only with
    a strictly higher objective; in batch order, so among equal best newcomers the first one
    wins. `behavior` holds each deck's objective and measures, `preds` what the surrogate
    predicted (kept as its targets). `placed[b]`: the cell deck b entered, or -1. Returns cells
    changed."""
    objective, solution, measures, targets = archive.objective, archive.solution, archive.measures, archive.targets
    occupied, occ_list, n_occ = archive.occupied, archive.occ_list, archive.n_occ
    changed = 0
    for b in range(decks.shape[0]):
        f = behavior[b, 0]
        cell = cell_of(behavior[b, 1:], archive)
        placed[b] = -1
        if f > objective[cell]:
            if not occupied[cell]:
                occupied[cell] = True
                occ_list[n_occ[0]] = cell
                n_occ[0] += 1
            objective[cell] = f
            solution[cell, :] = decks[b]
            for i in range(measures.shape[1]):
                measures[cell, i] = behavior[b, 1 + i]
            for t in range(preds.shape[1]):
                targets[cell, t] = preds[b, t]
            placed[b] = cell
            changed += 1
    return changed


@njit(cache=True)
def behavior_batch(decks, preds, sources, deck_size):
    out = np.empty((decks.shape[0], sources.kinds.shape[0]), dtype=np.float64)
    for b in range(decks.shape[0]):
        behavior_of(decks[b], preds[b], sources, deck_size, out[b])
    return out


@njit(cache=True)
def mutate_one(parent, limits, k, u_remove, u_add, deck_size, out):
    """The protocol's mutation: remove k copies uniformly, then add k copies one at a time,
    each of a card drawn uniformly among the cards still under their limit."""
    size = parent.shape[0]
    copies = np.empty(deck_size, dtype=np.int64)
    n = 0
    for i in range(size):
        out[i] = parent[i]
        for _ in range(parent[i]):
            copies[n] = i
            n += 1
    for j in range(k):
        pos = int(u_remove[j] * (n - j))
        card = copies[pos]
        out[card] -= 1
        copies[pos] = copies[n - j - 1]
    free = 0
    for i in range(size):
        if out[i] < limits[i]:
            free += 1
    for j in range(k):
        r = int(u_add[j] * free)
        for i in range(size):
            if out[i] < limits[i]:
                if r == 0:
                    out[i] += 1
                    if out[i] == limits[i]:
                        free -= 1
                    break
                r -= 1


@njit(cache=True, nogil=True)  # the Dask client and scheduler threads go on meanwhile
def run_block(u_parent, ks, u_remove, u_add, limits, deck_size, net, sources, archive):
    """Steps of the inner loop on `archive` (a KernelArchive): draw parents uniformly from the
    occupied cells, mutate, predict with `net`, take the objective and measures from `sources`,
    insert; each step's batch is built from the archive as the step before left it."""
    n_steps, batch = u_parent.shape
    solution, occ_list, n_occ = archive.solution, archive.occ_list, archive.n_occ
    decks = np.empty((batch, solution.shape[1]), dtype=solution.dtype)
    behavior = np.empty((batch, sources.kinds.shape[0]), dtype=np.float64)
    changed = 0
    for s in range(n_steps):
        for b in range(batch):
            parent = solution[occ_list[int(u_parent[s, b] * n_occ[0])]]
            mutate_one(parent, limits, ks[s, b], u_remove[s, b], u_add[s, b], deck_size, decks[b])
        preds = predict_batch(decks, net)
        for b in range(batch):
            behavior_of(decks[b], preds[b], sources, deck_size, behavior[b])
        changed += insert_batch(decks, preds, behavior, archive)
    return changed
