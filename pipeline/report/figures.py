"""The report's figures, each written as PNG and PDF."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from ..search.archives import ccdf
from .runs import LABELS, Run, grid_spec, group_by_algorithm
from .table import real_archive


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _save(fig, out: Path, stem: str) -> list[str]:
    names = [f"{stem}.png", f"{stem}.pdf"]
    fig.savefig(out / names[0], dpi=110)
    fig.savefig(out / names[1])
    _plt().close(fig)
    return names


def logged_points(history: list[dict], key: str) -> tuple[np.ndarray, np.ndarray]:
    """A run's logged (evaluations, value) pairs of one metric, by evaluation count: exactly the
    rows of its metrics log that hold the metric (a later row at the same count replaces an
    earlier one, as the archive it describes does)."""
    points: dict[float, float] = {}
    for h in history:
        value = h.get(key)
        if isinstance(value, (int, float)) and math.isfinite(value) and "evaluations" in h:
            points[float(h["evaluations"])] = float(value)
    evals = np.array(sorted(points), dtype=float)
    return evals, np.array([points[e] for e in evals], dtype=float)


def common_span(points: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Several runs' points on the evaluation counts that any of them logged inside the span that
    all of them cover (from the latest first point to the earliest last point), each run linear
    between its own logged points: (counts, values per run). Nothing is carried past a run's
    last point, so a mean never holds a value that a run did not reach."""
    if not points or any(len(e) == 0 for e, _ in points):
        return np.zeros(0), np.zeros((len(points), 0))
    lo, hi = max(e[0] for e, _ in points), min(e[-1] for e, _ in points)
    grid = np.unique(np.concatenate([e[(e >= lo) & (e <= hi)] for e, _ in points]))
    return grid, np.array([np.interp(grid, e, v) for e, v in points])


def mean_band(curves: np.ndarray, low: float = -np.inf, high: float = np.inf
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean and 95% confidence band (Student t) across trials at each point, the band clipped
    to the values the metric can take ([low, high]: no negative counts, no percentages above 100)."""
    from scipy.stats import t
    n = np.sum(~np.isnan(curves), axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.nanmean(np.where(n > 0, curves, 0.0), axis=0)
        sd = np.nanstd(curves, axis=0, ddof=1) if curves.shape[0] > 1 else np.full(curves.shape[1], np.nan)
        half = t.ppf(0.975, np.maximum(n - 1, 1)) * sd / np.sqrt(np.maximum(n, 1))
    half = np.where(n > 1, half, np.nan)
    mean = np.where(n > 0, mean, np.nan)
    return mean, np.clip(mean - half, low, high), np.clip(mean + half, low, high)


# The range each progress metric can take, given the number of cells: elites are a count of
# cells; a QD-score adds one term per elite, each (f + 30) / 60 with the objective f almost
# always in [-30, 30] (the lower end follows a run that went below 0, should one).
def _progress_range(key: str, cells: int, curves: np.ndarray) -> tuple[float, float]:
    if key == "elites":
        return 0.0, float(cells)
    return min(0.0, float(np.nanmin(curves))), np.inf


def progress_plot(runs: list[Run]):
    """QD-score and elites against real evaluations: each run's logged points as markers joined
    by lines; with several trials of an algorithm, their mean and 95% band where all of them
    have data. None when no run logged two points (no curve to draw)."""
    if max((len(logged_points(r.history, "qd_score")[0]) for r in runs), default=0) < 2:
        return None
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (algorithm, group) in enumerate(group_by_algorithm(runs).items()):
        colour, cells = colours[i % len(colours)], max(grid_spec(r).cells for r in group)
        label = f"{LABELS.get(algorithm, algorithm)} (n={len(group)})"
        for ax, key in zip(axes, ("qd_score", "elites")):
            points = [logged_points(r.history, key) for r in group]
            for run, (evals, values) in zip(group, points):
                line, = ax.plot(evals, values, "o-", color=colour, markersize=3.5, linewidth=1,
                                alpha=1.0 if len(group) == 1 else 0.45, label=label if len(group) == 1 else None)
                line.set_gid(f"run:{run.algorithm}:{run.seed}:{key}")
            if len(group) > 1:
                grid, curves = common_span(points)
                if len(grid):
                    mean, lo, hi = mean_band(curves, *_progress_range(key, cells, curves))
                    line, = ax.plot(grid, mean, color=colour, linewidth=2, label=label)
                    line.set_gid(f"mean:{algorithm}:{key}")
                    ax.fill_between(grid, lo, hi, color=colour, alpha=0.2, linewidth=0)
    for ax, title in zip(axes, ("QD-score", "number of elites")):
        ax.set_xlabel("real evaluations")
        ax.set_ylabel(title)
        ax.set_title(f"{title} (dots: logged points)")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    return fig


def progress_figure(runs: list[Run], out: Path) -> tuple[list[str], str]:
    """(file names, "") or ([], why it is not drawn)."""
    fig = progress_plot(runs)
    if fig is None:
        return [], ("QD-score and elites: not drawn, every run logged its archive at most once "
                    "(a curve needs two logged points).")
    return _save(fig, out, "qd_progress"), ""


def ccdf_figure(runs: list[Run], out: Path) -> list[str]:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for algorithm, group in group_by_algorithm(runs).items():
        curves = [ccdf(real_archive(r), grid_spec(r)) for r in group]
        thresholds = curves[0][0]
        mean, lo, hi = mean_band(np.array([c[1] for c in curves]), 0.0, 100.0)  # percent of cells
        line, = ax.plot(thresholds, mean, label=LABELS.get(algorithm, algorithm))
        ax.fill_between(thresholds, lo, hi, color=line.get_color(), alpha=0.2, linewidth=0)
    ax.set_xlabel("objective threshold t (average health difference)")
    ax.set_ylabel("% of cells with an elite of f > t")
    ax.set_title("CCDF of elite objectives (mean over trials)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return _save(fig, out, "ccdf")


def heatmaps_figure(runs: list[Run], out: Path) -> list[str]:
    """Every run's final real archive on the plane of its first two measures (archives.plane),
    coloured by its objective over the objective's range."""
    from ..behavior_space import describe
    plt = _plt()
    groups = group_by_algorithm(runs)
    cols = max(len(g) for g in groups.values())
    fig, axes = plt.subplots(len(groups), cols, figsize=(3.4 * cols + 1, 2.9 * len(groups)),
                             squeeze=False, constrained_layout=True)
    image = None
    for row, (algorithm, group) in enumerate(groups.items()):
        for col in range(cols):
            ax = axes[row][col]
            if col >= len(group):
                ax.axis("off")
                continue
            run = group[col]
            image = draw_archive(ax, run.archive, grid_spec(run))
            ax.set_title(f"{run.label}, seed {run.seed}\n{run.n_evaluations} evaluations", fontsize=9)
    fig.colorbar(image, ax=axes, label=describe(grid_spec(runs[0]).behavior.objective), shrink=0.8)
    return _save(fig, out, "archive_heatmaps")


def draw_archive(ax, arrays: dict[str, np.ndarray], spec):
    """One archive's elites on the plane of its first two measures (archives.plane: one measure
    a row, a third each cell's best over it; a CVT archive's elites as points), coloured by the objective over its range, each
    axis named by its measure; returns the image (for a colour bar)."""
    from ..behavior_space import describe
    from ..search.archives import plane
    lo, hi = spec.objective_range
    if spec.kind == "cvt":  # no grid of cells: the elites themselves, on the first two measures
        image = ax.scatter(arrays["measures"][:, 0], arrays["measures"][:, 1], c=arrays["objective"], s=6,
                           cmap="viridis", vmin=lo, vmax=hi)
        ax.set_xlim(*spec.ranges[0])
        ax.set_ylim(*spec.ranges[1])
    else:
        shown, dims, ((x0, x1), (y0, y1)) = plane(arrays, spec)
        cells = np.full(int(np.prod(dims)), np.nan)
        cells[shown["index"]] = shown["objective"]
        image = ax.imshow(cells.reshape(dims).T, origin="lower", extent=(x0, x1, y0, y1), aspect="auto",
                          cmap="viridis", vmin=lo, vmax=hi)
    measures = spec.behavior.measures
    ax.set_xlabel(describe(measures[0]), fontsize=8)
    over = f" (best over {describe(measures[2])})" if len(measures) > 2 and spec.kind != "cvt" else ""
    ax.set_ylabel(describe(measures[1]) + over if len(measures) > 1 else "", fontsize=8)
    if len(measures) == 1:
        ax.set_yticks([])
    return image


def loss_curves(run: Run) -> dict[str, np.ndarray]:
    """Per outer iteration: the train and validation MSE per target logged by the surrogate
    (runs written before per-target logging give the overall losses as one 'all' target)."""
    rows = [h for h in run.history if "train_sse_per_example" in h and h.get("outer_iteration", 0) > 0]
    if not rows:
        return {}
    it = np.array([h["outer_iteration"] for h in rows], dtype=float)
    if all("train_mse_per_target" in h for h in rows):
        train = np.array([h["train_mse_per_target"] for h in rows], dtype=float)
        val = np.array([h.get("val_mse_per_target", [math.nan] * train.shape[1]) for h in rows], dtype=float)
    else:
        k = int(run.config["algorithm"]["targets"])
        train = np.array([[h["train_sse_per_example"] / k] for h in rows], dtype=float)
        val = np.array([[h.get("val_mse", math.nan)] for h in rows], dtype=float)
    return {"iteration": it, "train": train, "val": val}


MIN_LOSS_POINTS = 2  # outer iterations with logged losses before a loss curve is drawn


def loss_plot(runs: list[Run]):
    """Each run's logged train (solid) and validation (dashed) loss per target against the outer
    iteration, markers at the logged points; None when no run logged MIN_LOSS_POINTS iterations."""
    from workers.protocol.results import TARGET_NAMES
    curves = {a: [(r, c) for r in g if (c := loss_curves(r))] for a, g in group_by_algorithm(runs).items()}
    curves = {a: rc for a, rc in curves.items() if rc}
    if max((len(c["iteration"]) for rc in curves.values() for _, c in rc), default=0) < MIN_LOSS_POINTS:
        return None
    plt = _plt()
    n_targets = max(c["train"].shape[1] for rc in curves.values() for _, c in rc)
    cols = min(n_targets, 4)
    rows = math.ceil(n_targets / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 2.9 * rows), squeeze=False)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (algorithm, rc) in enumerate(curves.items()):
        colour = colours[i % len(colours)]
        for j, (run, c) in enumerate(rc):
            for t in range(c["train"].shape[1]):
                ax = axes[t // cols][t % cols]
                for kind, style in (("train", "o-"), ("val", "s--")):
                    ok = np.isfinite(c[kind][:, t]) & (c[kind][:, t] > 0)  # a log axis
                    line, = ax.plot(c["iteration"][ok], c[kind][ok, t], style, color=colour, markersize=3,
                                    linewidth=1, label=f"{LABELS.get(algorithm, algorithm)} {kind}" if j == 0 else None)
                    line.set_gid(f"{kind}:{run.algorithm}:{run.seed}:{t}")
    single = n_targets == 1 and all(c["train"].shape[1] == 1 for rc in curves.values() for _, c in rc)
    for t in range(rows * cols):
        ax = axes[t // cols][t % cols]
        if t >= n_targets:
            ax.axis("off")
            continue
        ax.set_title("all targets" if single else TARGET_NAMES[t], fontsize=9)
        ax.set_xlabel("outer iteration", fontsize=8)
        ax.set_ylabel("MSE", fontsize=8)
        ax.set_yscale("log")
        ax.xaxis.get_major_locator().set_params(integer=True)
        ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=7)
    fig.suptitle("Surrogate training (solid) and validation (dashed) loss per target, each run's logged iterations")
    fig.tight_layout()
    return fig


def loss_figure(runs: list[Run], out: Path) -> tuple[list[str], str]:
    """(file names, "") or ([], why it is not drawn; "" when no run has a surrogate)."""
    fig = loss_plot(runs)
    if fig is not None:
        return _save(fig, out, "surrogate_loss"), ""
    if not any(r.has_surrogate for r in runs):
        return [], ""
    most = max((len(c["iteration"]) for r in runs if (c := loss_curves(r))), default=0)
    return [], (f"Surrogate loss: not drawn, the runs logged the surrogate's losses for at most "
                f"{most} outer iteration{'' if most == 1 else 's'} (a curve needs {MIN_LOSS_POINTS}).")
