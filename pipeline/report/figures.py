"""The report's figures, each written as PNG and PDF."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from ..search.archives import OBJECTIVE_RANGE, ccdf
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


def step_curve(history: list[dict], key: str, grid: np.ndarray) -> np.ndarray:
    """A run's metric at each evaluation count of `grid`: the last value logged at or before
    it, 0 before the first batch, and the run's last value after its last evaluation. Carried
    forward rather than stopped: a finished run's archive no longer changes, and an unfinished
    one is shown as it stands, so every point averages the same runs and the mean does not jump
    (nor its band explode) where one run ends and another goes on."""
    evals = np.array([h["evaluations"] for h in history], dtype=float)
    vals = np.array([h.get(key, math.nan) for h in history], dtype=float)
    order = np.argsort(evals, kind="stable")
    evals, vals = evals[order], vals[order]
    pos = np.searchsorted(evals, grid, side="right") - 1
    return np.where(pos >= 0, vals[np.clip(pos, 0, None)] if len(vals) else 0.0, 0.0)


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


def progress_figure(runs: list[Run], out: Path) -> list[str]:
    plt = _plt()
    top = max(max((h["evaluations"] for h in r.history), default=0) for r in runs)
    grid = np.linspace(0, max(top, 1), 300)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for algorithm, group in group_by_algorithm(runs).items():
        cells = max(grid_spec(r).cells for r in group)
        for ax, key in zip(axes, ("qd_score", "elites")):
            curves = np.array([step_curve(r.history, key, grid) for r in group])
            mean, lo, hi = mean_band(curves, *_progress_range(key, cells, curves))
            line, = ax.plot(grid, mean, label=f"{LABELS.get(algorithm, algorithm)} (n={len(group)})")
            ax.fill_between(grid, lo, hi, color=line.get_color(), alpha=0.2, linewidth=0)
    for ax, title in zip(axes, ("QD-score", "number of elites")):
        ax.set_xlabel("real evaluations")
        ax.set_ylabel(title)
        ax.set_title(f"{title} (mean, 95% confidence band)")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    return _save(fig, out, "qd_progress")


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
    """Every run's final real archive: turns on x, hand size on y, objective on [-30, 30]."""
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
            run, spec = group[col], grid_spec(group[col])
            cells = np.full(spec.cells, np.nan)
            cells[run.archive["index"]] = run.archive["objective"]
            (t0, t1), (h0, h1) = spec.ranges
            image = ax.imshow(cells.reshape(spec.dims).T, origin="lower", extent=(t0, t1, h0, h1),
                              aspect="auto", cmap="viridis", vmin=OBJECTIVE_RANGE[0], vmax=OBJECTIVE_RANGE[1])
            ax.set_title(f"{run.label}, seed {run.seed}\n{run.n_evaluations} evaluations", fontsize=9)
            ax.set_xlabel("average turns", fontsize=8)
            ax.set_ylabel("average hand size", fontsize=8)
    fig.colorbar(image, ax=axes, label="average health difference", shrink=0.8)
    return _save(fig, out, "archive_heatmaps")


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


def loss_figure(runs: list[Run], out: Path) -> list[str]:
    from workers.protocol.results import TARGET_NAMES
    plt = _plt()
    curves = {a: [c for c in (loss_curves(r) for r in g) if c] for a, g in group_by_algorithm(runs).items()}
    curves = {a: cs for a, cs in curves.items() if cs}
    if not curves:
        return []
    n_targets = max(c["train"].shape[1] for cs in curves.values() for c in cs)
    cols = min(n_targets, 4)
    rows = math.ceil(n_targets / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 2.9 * rows), squeeze=False)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (algorithm, cs) in enumerate(curves.items()):
        colour = colours[i % len(colours)]
        length = max(len(c["iteration"]) for c in cs)
        for t in range(cs[0]["train"].shape[1]):
            ax = axes[t // cols][t % cols]
            for kind, style in (("train", "-"), ("val", "--")):
                stack = np.full((len(cs), length), np.nan)
                for j, c in enumerate(cs):
                    stack[j, :len(c["iteration"])] = c[kind][:, t]
                with np.errstate(invalid="ignore"), np.testing.suppress_warnings() as sup:
                    sup.filter(RuntimeWarning)
                    mean = np.nanmean(stack, axis=0)
                ax.plot(np.arange(1, length + 1), mean, style, color=colour,
                        label=f"{LABELS.get(algorithm, algorithm)} {kind}")
    for t in range(rows * cols):
        ax = axes[t // cols][t % cols]
        if t >= n_targets:
            ax.axis("off")
            continue
        single = n_targets == 1 and all(c["train"].shape[1] == 1 for cs in curves.values() for c in cs)
        ax.set_title("all targets" if single else TARGET_NAMES[t], fontsize=9)
        ax.set_xlabel("outer iteration", fontsize=8)
        ax.set_ylabel("MSE", fontsize=8)
        ax.set_yscale("log")
        ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=7)
    fig.suptitle("Surrogate training (solid) and validation (dashed) loss per target, mean over trials")
    fig.tight_layout()
    return _save(fig, out, "surrogate_loss")
