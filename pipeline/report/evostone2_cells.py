"""A run's real evaluations binned as the paper's reference code binned them.

EvoStone2's fixed-size map (DeckSearch/src/Mapping/FixedFeatureMap.cs, the map of the paper's
DSA-ME experiments: 40 x 40 over turns [5, 15] and hand size [1, 7]) puts a value at or below the
low end in cell 0, at or above the high end in the last cell, and otherwise in
floor(groups * (x - low) / (high - low + 1)): each range is divided by its width plus one. So the
cells are 10% (turns) and 17% (hand size) wider than an even split's, the indices below the high
end stop at 36 and 34, and only 38 x 36 of the 1,600 cells can be filled. The paper's Table 1 counts
those cells; ours divide the ranges evenly. These facts come from EvoStone2's source; the code is
ours."""
from __future__ import annotations

import numpy as np

ROUNDING = 1e-9  # EvoStone2 adds it before truncating, so a value on a cell's edge lands above it


def evostone2_index(values: np.ndarray, low: float, high: float, groups: int) -> np.ndarray:
    """Each value's cell along one measure, by EvoStone2's rule."""
    values = np.asarray(values, dtype=np.float64)
    inside = np.floor((groups * (values - low) + ROUNDING) / (high - low + 1)).astype(np.int64)
    return np.where(values <= low, 0, np.where(values >= high, groups - 1, inside))


def evostone2_cell(measures: np.ndarray, dims, ranges) -> np.ndarray:
    """Each row of `measures`' flat cell on EvoStone2's map (row-major over the measures)."""
    cells = np.zeros(len(measures), dtype=np.int64)
    for axis, (groups, (low, high)) in enumerate(zip(dims, ranges)):
        cells = cells * groups + evostone2_index(measures[:, axis], low, high, groups)
    return cells


def fillable_cells(dims, ranges) -> list[int]:
    """Per measure, how many of its cells a value can reach: the indices below the high end's,
    and the last cell (values at or above the high end)."""
    counts = []
    for groups, (low, high) in zip(dims, ranges):
        below_high = int(evostone2_index(np.nextafter(high, low), low, high, groups)) + 1
        counts.append(min(below_high + 1, groups))
    return counts


def evostone2_metrics(objective: np.ndarray, win_rate: np.ndarray, measures: np.ndarray, dims, ranges,
                      objective_range) -> dict[str, float]:
    """The paper's four numbers of the archive that these evaluations, added in order, build on
    EvoStone2's cells (a newcomer replaces an elite only with a strictly higher objective)."""
    cells = evostone2_cell(measures, dims, ranges)
    elite: dict[int, int] = {}
    for i, cell in enumerate(cells.tolist()):
        if cell not in elite or objective[i] > objective[elite[cell]]:
            elite[cell] = i
    kept = np.fromiter(elite.values(), dtype=np.int64, count=len(elite))
    lo, hi = objective_range
    return {"qd_score": float(np.sum((objective[kept] - lo) / (hi - lo))),
            "coverage": len(kept) / int(np.prod(dims)),
            "max_fitness": float(objective[kept].max()) if len(kept) else float("nan"),
            "max_win_rate": float(win_rate[kept].max()) if len(kept) else float("nan"),
            "elites": len(kept)}
