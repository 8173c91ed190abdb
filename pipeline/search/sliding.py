"""The sliding-boundary map of Fontaine et al. (GECCO 2019), as EvoStone2's SlidingFeatureMap
keeps it: every `remap_every` evaluations each measure's boundaries are redrawn at the quantiles
of every value seen so far, the map grows from `start_dims` to `dims` cells per measure as the
budget is used, and every evaluation is inserted again.

The rule, step by step (EvoStone2's, followed exactly): the n-th evaluation added (from 1) redraws
the map when n % remap_every == 1, otherwise it is inserted alone. A redraw sizes each measure to
min(int((n / budget + 1e-9) * (end - start)) + start, end) groups, takes boundary x as the
(x * n // groups)-th smallest value seen, and inserts every evaluation again in order. A value
falls in the group of the last boundary strictly below it (the first group if none is); a
newcomer replaces a cell's elite only with a strictly higher objective. Its state is a function
of the evaluations in order, so a resumed run rebuilds it by adding them again.
"""
from __future__ import annotations

import numpy as np


class SlidingArchive:
    """The real archive of `archive.type=sliding`, with the parts of ribs' archive interface the
    search uses (add, data, clear, len, cells)."""

    rebuilt_from_evaluations = True  # restored by adding every evaluation again (archives.restore_archive)

    def __init__(self, start_dims, end_dims, remap_every: int, budget: int, solution_dim: int, n_targets: int):
        self.start = np.array(start_dims, dtype=np.int64)
        self.end = np.array(end_dims, dtype=np.int64)
        self.remap_every, self.budget = int(remap_every), int(budget)
        self.solution_dim, self.n_targets = solution_dim, n_targets
        self.clear()

    def clear(self) -> None:
        k, capacity = len(self.end), 1024
        self.n = 0  # evaluations added; the arrays below hold them in their first n rows
        self.solutions = np.zeros((capacity, self.solution_dim), dtype=np.int16)
        self.objectives = np.zeros(capacity)
        self.all_measures = np.zeros((capacity, k))
        self.eval_ids = np.zeros(capacity, dtype=np.int64)
        self.all_targets = np.zeros((capacity, self.n_targets))
        self.dims = tuple(int(d) for d in self.start)
        self.boundaries = [np.zeros(0) for _ in range(k)]
        self.elite_of: dict[int, int] = {}  # cell -> row of its elite among everything added

    def __len__(self) -> int:
        return len(self.elite_of)

    @property
    def cells(self) -> int:
        return int(np.prod(self.dims))

    def add(self, solution, objective, measures, eval_id, targets) -> None:
        """Adds evaluations one by one, in order, redrawing the map where the rule says."""
        for i in range(len(objective)):
            if self.n == len(self.objectives):
                self._grow()
            row = self.n
            self.solutions[row], self.objectives[row] = solution[i], objective[i]
            self.all_measures[row], self.eval_ids[row], self.all_targets[row] = measures[i], eval_id[i], targets[i]
            self.n += 1
            if self.n % self.remap_every == 1:
                self._remap()
            else:
                self._insert(row, int(self.index_of(self.all_measures[row:row + 1])[0]))

    def _grow(self) -> None:
        for name in ("solutions", "objectives", "all_measures", "eval_ids", "all_targets"):
            old = getattr(self, name)
            setattr(self, name, np.concatenate([old, np.zeros_like(old)]))

    def _remap(self) -> None:
        n = self.n
        grown = ((n / self.budget + 1e-9) * (self.end - self.start)).astype(np.int64) + self.start
        self.dims = tuple(int(d) for d in np.minimum(grown, self.end))
        ordered = np.sort(self.all_measures[:n], axis=0)
        self.boundaries = [ordered[np.arange(g) * n // g, i] for i, g in enumerate(self.dims)]
        # everything again, in order: per cell the first of the highest objectives wins
        cells = self.index_of(self.all_measures[:n])
        order = np.lexsort((np.arange(n), -self.objectives[:n], cells))
        first = order[np.r_[True, cells[order][1:] != cells[order][:-1]]]
        self.elite_of = {int(cells[r]): int(r) for r in first}

    def _insert(self, row: int, cell: int) -> None:
        elite = self.elite_of.get(cell)
        if elite is None or self.objectives[row] > self.objectives[elite]:
            self.elite_of[cell] = row

    def index_of(self, measures: np.ndarray) -> np.ndarray:
        """The cells of rows of measures under the current boundaries (row-major over measures)."""
        groups = [np.maximum(np.searchsorted(b, measures[:, i], side="left") - 1, 0)
                  for i, b in enumerate(self.boundaries)]
        return np.ravel_multi_index(groups, self.dims) if len(measures) else np.zeros(0, dtype=np.int64)

    def data(self) -> dict[str, np.ndarray]:
        cells = np.array(sorted(self.elite_of), dtype=np.int64)
        rows = np.array([self.elite_of[c] for c in cells], dtype=np.int64)
        return {"index": cells, "solution": self.solutions[rows], "objective": self.objectives[rows],
                "measures": self.all_measures[rows], "eval_id": self.eval_ids[rows],
                "targets": self.all_targets[rows]}

    def bounds_array(self) -> tuple[np.ndarray, np.ndarray]:
        """The boundaries as the inner-loop kernel takes them: (measures x most groups, groups)."""
        width = max(self.dims)
        bounds = np.full((len(self.dims), width), np.inf)
        for i, b in enumerate(self.boundaries):
            bounds[i, :len(b)] = b
        return bounds, np.array([len(b) for b in self.boundaries], dtype=np.int64)
