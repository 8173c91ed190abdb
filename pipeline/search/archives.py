"""Archives of the search and the paper's metrics.

The real archive is a ribs GridArchive. The surrogate archive of the inner loop receives
100,000 batches of 10 per outer iteration; ribs' `add` costs about 2 ms a call (input
validation, numpy-groupies aggregation), which alone would take 200 s, so the inner loop uses
`SurrogateGrid`, a minimal numpy grid with exactly ribs' cell mapping and insertion rule
(tests/pipeline/test_archives.py checks the two agree), and hands its elites over as a ribs
archive at the end.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
from ribs.archives import GridArchive

from workers.protocol.results import TARGET_NAMES

from ..behavior_space import DEFAULT_DIMS, DEFAULT_RANGES, KNOWN_OBJECTIVE_RANGES, BehaviorSpace
from .kernel_data import KernelArchive


@dataclass(frozen=True)
class ArchiveSpec:
    """The archive: its behaviour space (objective and 1 to 3 measures by name), its type (grid,
    sliding, cvt) and per measure its cells and [low, high] range (archive.dims, archive.ranges;
    a sliding map grows from start_dims to dims, a CVT archive has `cvt_cells` cells)."""
    dims: tuple[int, ...] = DEFAULT_DIMS
    ranges: tuple[tuple[float, float], ...] = DEFAULT_RANGES
    epsilon: float = 1e-6  # ribs' default, kept so both archives map measures identically
    behavior: BehaviorSpace = field(default_factory=BehaviorSpace)
    kind: str = "grid"
    start_dims: tuple[int, ...] | None = None
    remap_every: int = 0
    cvt_cells: int = 0

    @classmethod
    def from_config(cls, cfg) -> "ArchiveSpec":
        """From the config's `archive` (an OmegaConf node or a plain dict, as a run's config.yaml)."""
        start, kind = cfg.get("start_dims"), str(cfg.get("type", "grid"))
        measures = len(cfg.get("measures", (0, 0)))
        dims = (1,) * measures if kind == "cvt" else tuple(int(d) for d in cfg["dims"])  # cvt: archive.cells
        return cls(dims=dims,
                   ranges=tuple((float(lo), float(hi)) for lo, hi in cfg["ranges"]),
                   behavior=BehaviorSpace.from_config(cfg), kind=kind,
                   start_dims=None if start is None else tuple(int(d) for d in start),
                   remap_every=int(cfg.get("remap_every") or 0), cvt_cells=int(cfg.get("cells") or 0))

    @property
    def objective_range(self) -> tuple[float, float]:
        return self.behavior.objective_range

    @property
    def cells(self) -> int:
        """The most cells the archive has (a sliding map starts with fewer)."""
        return self.cvt_cells if self.kind == "cvt" else int(np.prod(self.dims))


def display_spec(archive, spec: ArchiveSpec) -> ArchiveSpec:
    """The geometry pictures draw: a grid as it is; a sliding map as its current groups, one
    unit wide each (their boundaries are quantiles, not evenly spaced)."""
    if spec.kind != "sliding":
        return spec
    return replace(spec, dims=tuple(archive.dims), ranges=tuple((0.0, float(d)) for d in archive.dims))


def plane(arrays: dict[str, np.ndarray], spec: ArchiveSpec) -> tuple[dict[str, np.ndarray], tuple, tuple]:
    """The archive on a plane, for pictures: the first two measures as axes (one measure: a row
    of cells), and with a third measure each plane cell's best elite over it. Returns the elites
    kept, with `index` the plane cell, and the plane's dims and ranges."""
    dims, ranges = tuple(spec.dims[:2]), tuple(spec.ranges[:2])
    if len(dims) == 1:
        dims, ranges = (dims[0], 1), (ranges[0], (0.0, 1.0))
    cells = np.asarray(arrays["index"], dtype=np.int64)
    if len(spec.dims) == 3:
        cells = cells // spec.dims[2]
    best = np.lexsort((-np.asarray(arrays["objective"]), cells))  # per plane cell, the best first
    first = best[np.r_[True, cells[best][1:] != cells[best][:-1]]] if len(cells) else best
    kept = {k: np.asarray(v)[first] for k, v in arrays.items()}
    kept["index"] = cells[first]
    return kept, dims, ranges


def cvt_seed(run_seed: int) -> int:
    """The seed of a run's CVT centroids: a pure function of the run's seed."""
    return int(np.random.SeedSequence([int(run_seed), 2]).generate_state(1)[0])


def make_archive(spec: ArchiveSpec, solution_dim: int, n_targets: int = 12, *, budget: int = 0,
                 seed: int = 0):
    """A ribs archive (or, for a sliding map, ours) whose elites carry their evaluation id and
    all targets. `budget`: a sliding map's evaluations in all (it grows with their share done);
    `seed`: the run's seed, from which a CVT archive's centroids come (cvt_seed).

    threshold_min = -inf and learning_rate = 1 (ribs defaults) give the classic MAP-Elites
    rule the protocol asks for: a newcomer replaces an elite only if its objective is
    strictly higher; among newcomers to one cell the first best of the batch wins.
    """
    extra = {"eval_id": ((), np.int64), "targets": ((n_targets,), np.float64)}
    if spec.kind == "sliding":
        from .sliding import SlidingArchive
        return SlidingArchive(spec.start_dims or spec.dims, spec.dims, spec.remap_every, budget, solution_dim,
                              n_targets)
    if spec.kind == "cvt":
        from ribs.archives import CVTArchive
        return CVTArchive(solution_dim=solution_dim, centroids=spec.cvt_cells, ranges=list(spec.ranges),
                          seed=cvt_seed(seed), solution_dtype=np.int16, extra_fields=extra)
    return GridArchive(solution_dim=solution_dim, dims=list(spec.dims), ranges=list(spec.ranges),
                       epsilon=spec.epsilon, solution_dtype=np.int16, extra_fields=extra)


def archive_arrays(archive: GridArchive) -> dict[str, np.ndarray]:
    """Elites sorted by cell index: a canonical form, independent of insertion history."""
    data = archive.data()
    order = np.argsort(data["index"], kind="stable")
    return {k: np.asarray(data[k])[order]
            for k in ("index", "solution", "objective", "measures", "eval_id", "targets")}


def restore_archive(archive, arrays: dict[str, np.ndarray], replay=None):
    """Refill an empty archive with saved elites (one per cell, so every one goes in); a
    sliding map instead adds again every evaluation, `replay` = (decks, objective, measures,
    eval_ids, targets), as its boundaries come from all of them."""
    archive.clear()
    if getattr(archive, "rebuilt_from_evaluations", False):
        if replay is not None and len(replay[0]):
            decks, objective, measures, ids, targets = replay
            archive.add(decks, objective, measures, eval_id=ids, targets=targets)
    elif len(arrays["index"]):
        archive.add(arrays["solution"], arrays["objective"], arrays["measures"],
                    eval_id=arrays["eval_id"], targets=arrays["targets"])
    return archive


def uniform_elites(archive: GridArchive, rng: np.random.Generator, n: int) -> np.ndarray:
    """n elite decks drawn uniformly (with replacement) using our own generator, in cell
    order, so the draw depends only on the archive's content and the generator's state."""
    solutions = archive_arrays(archive)["solution"]
    return solutions[rng.integers(0, len(solutions), size=n)]


class SurrogateGrid:
    """Numpy grid archive with ribs' GridArchive cell mapping and insertion rule; the inner
    loop's compiled kernels (inner_kernel.py) work on its arrays in place. Its objective and
    measures are those of the behaviour space; `targets` keeps what the surrogate predicted."""

    def __init__(self, spec: ArchiveSpec, solution_dim: int, n_targets: int):
        self.spec = spec
        k = len(spec.dims)
        self.dims = np.array(spec.dims, dtype=np.int64)
        self.lower = np.array([r[0] for r in spec.ranges], dtype=np.float64)
        self.interval = np.array([r[1] - r[0] for r in spec.ranges], dtype=np.float64)
        self.bounds = np.zeros((k, 0))  # a sliding map's boundaries per measure (none: uniform cells)
        self.n_bounds = np.zeros(k, dtype=np.int64)
        self.centroids = np.zeros((0, k))  # a CVT archive's centroids (none: a grid)
        self.objective = np.full(spec.cells, -np.inf)
        self.solution = np.zeros((spec.cells, solution_dim), dtype=np.int16)
        self.measures = np.zeros((spec.cells, k))
        self.targets = np.zeros((spec.cells, n_targets))
        self.occupied = np.zeros(spec.cells, dtype=bool)
        # Cells in order of first occupation: uniform parent draws in O(1).
        self.occ_list = np.zeros(spec.cells, dtype=np.int64)
        self.n_occ = np.zeros(1, dtype=np.int64)

    @classmethod
    def for_archive(cls, spec: ArchiveSpec, archive, solution_dim: int, n_targets: int) -> "SurrogateGrid":
        """A surrogate archive with the real archive's cells as they are now: a sliding map's
        current boundaries, a CVT archive's centroids."""
        if spec.kind == "sliding":
            grid = cls(replace(spec, dims=tuple(archive.dims)), solution_dim, n_targets)
            grid.bounds, grid.n_bounds = archive.bounds_array()
            return grid
        grid = cls(spec, solution_dim, n_targets)
        if spec.kind == "cvt":
            grid.centroids = np.ascontiguousarray(archive.centroids, dtype=np.float64)
        return grid

    def __len__(self) -> int:
        return int(self.n_occ[0])

    def kernel_archive(self) -> KernelArchive:
        """Its arrays as the kernels take them (the same arrays: the kernels fill them in place)."""
        return KernelArchive(self.dims, self.lower, self.interval, self.spec.epsilon, self.bounds, self.n_bounds,
                             self.centroids, self.objective, self.solution, self.measures, self.targets,
                             self.occupied, self.occ_list, self.n_occ)

    def add(self, solutions: np.ndarray, predictions: np.ndarray, behavior: np.ndarray | None = None) -> int:
        """Insert a batch: `behavior` holds each row's objective and measures, `predictions`
        the surrogate's outputs (by default also the behaviour: objective, then the measures).
        ribs' rule; returns how many cells changed."""
        from .inner_kernel import insert_batch
        predictions = np.asarray(predictions, dtype=np.float64)
        if behavior is None:
            behavior = predictions[:, :1 + len(self.dims)]
        return insert_batch(np.asarray(solutions, dtype=np.int16), predictions,
                            np.ascontiguousarray(behavior, dtype=np.float64), self.kernel_archive())

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        cells = self.occ_list[(rng.random(n) * self.n_occ[0]).astype(np.int64)]
        return self.solution[cells]

    def elites(self) -> dict[str, np.ndarray]:
        cells = np.flatnonzero(self.occupied)
        return {"index": cells, "solution": self.solution[cells], "objective": self.objective[cells],
                "measures": self.measures[cells], "targets": self.targets[cells]}

    def state(self) -> dict[str, np.ndarray]:
        return {**self.elites(), "occ_list": self.occ_list[:len(self)].copy()}

    def load_state(self, arrays: dict[str, np.ndarray]) -> None:
        cells = np.asarray(arrays["index"], dtype=np.int64)
        self.objective[cells] = arrays["objective"]
        self.solution[cells] = arrays["solution"]
        self.measures[cells] = arrays["measures"]
        self.targets[cells] = arrays["targets"]
        self.occupied[cells] = True
        order = np.asarray(arrays["occ_list"], dtype=np.int64)
        self.occ_list[:len(order)] = order
        self.n_occ[0] = len(order)


# --- metrics ------------------------------------------------------------------------------
def qd_metrics(archive: GridArchive, spec: ArchiveSpec) -> dict[str, float]:
    """The paper's numbers: QD-score = sum (f - low) / (high - low) over the elites, (f + 30) / 60
    for the health difference, coverage, max fitness, max win rate."""
    data = archive_arrays(archive)
    f = data["objective"]
    lo, hi = spec.objective_range
    if not len(f):
        return {"qd_score": 0.0, "coverage": 0.0, "max_fitness": float("nan"),
                "max_win_rate": float("nan"), "elites": 0}
    return {
        "qd_score": float(np.sum((f - lo) / (hi - lo))),
        "coverage": len(f) / archive.cells,  # a sliding map's current cells
        "max_fitness": float(f.max()),
        "max_win_rate": float(data["targets"][:, TARGET_NAMES.index("win_rate")].max()),
        "elites": int(len(f)),
    }


def ccdf(archive: GridArchive, spec: ArchiveSpec, thresholds=None) -> tuple[np.ndarray, np.ndarray]:
    """Percentage of all cells whose elite has f > t, for 61 thresholds t over the objective's
    range (the paper's health difference: the whole numbers -30 ... 30, as its CCDF has them)."""
    if thresholds is None:
        lo, hi = spec.objective_range
        paper = (lo, hi) == KNOWN_OBJECTIVE_RANGES["health_difference"]
        thresholds = np.arange(int(lo), int(hi) + 1) if paper else np.linspace(lo, hi, 61)
    thresholds = np.asarray(thresholds)
    f = archive_arrays(archive)["objective"]
    share = (f[None, :] > thresholds[:, None]).sum(axis=1) / archive.cells * 100.0
    return thresholds, share


def voronoi_cells(centroids: np.ndarray, ranges) -> list[np.ndarray]:
    """Each 2-D centroid's Voronoi cell clipped to the ranges' box, as a polygon (vertices in
    order): what a CVT archive of two measures looks like. Four far points around the box make
    every centroid's region finite."""
    from scipy.spatial import Voronoi
    (x0, x1), (y0, y1) = ranges
    w, h = x1 - x0, y1 - y0
    far = np.array([[x0 - 10 * w, y0 - 10 * h], [x1 + 10 * w, y0 - 10 * h],
                    [x1 + 10 * w, y1 + 10 * h], [x0 - 10 * w, y1 + 10 * h]])
    diagram = Voronoi(np.concatenate([np.asarray(centroids, dtype=np.float64), far]))
    cells = []
    for point in range(len(centroids)):
        polygon = diagram.vertices[diagram.regions[diagram.point_region[point]]]
        for axis, bound, keep_below in ((0, x0, False), (0, x1, True), (1, y0, False), (1, y1, True)):
            polygon = _clip(polygon, axis, bound, keep_below)
        cells.append(polygon)
    return cells


def _clip(polygon: np.ndarray, axis: int, bound: float, keep_below: bool) -> np.ndarray:
    """Sutherland-Hodgman: the part of a convex polygon on one side of a line x or y = bound."""
    inside = (lambda p: p[axis] <= bound) if keep_below else (lambda p: p[axis] >= bound)
    out = []
    for i in range(len(polygon)):
        a, b = polygon[i - 1], polygon[i]
        if inside(b):
            if not inside(a):
                out.append(a + (b - a) * (bound - a[axis]) / (b[axis] - a[axis]))
            out.append(b)
        elif inside(a):
            out.append(a + (b - a) * (bound - a[axis]) / (b[axis] - a[axis]))
    return np.array(out).reshape(-1, 2)
