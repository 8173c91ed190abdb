"""Strategy search runs (algorithm=cma_me) in the report: their own table and figures, never
mixed with the deck searches' Table 1 (their solutions are weights, not decks, and their
archives answer another question)."""
from __future__ import annotations

import csv
import html
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import yaml

from ..behavior_space import describe
from ..search.archives import ArchiveSpec
from ..search.strategy_search import ARCHIVE, BEST_FILE, EVALUATIONS, GROUPS, check_evaluations
from ..state import checkpoint as ckpt
from ..state.config import differences
from .runs import ReportError

# What must agree for strategy runs to share a table: the fixed deck, the games, the
# players, the archive (the search settings and the budget may differ).
COMPARABLE = ("deck_space", "opponents", "strategy", "archive")


@dataclass
class StrategyRun:
    path: Path
    seed: int
    config: dict
    history: list[dict]
    archive: dict[str, np.ndarray]
    n_evaluations: int
    finished: bool = field(default=False)

    @property
    def name(self) -> str:
        return f"{self.config['algorithm']['name']} seed {self.seed}"

    @property
    def spec(self) -> ArchiveSpec:
        a = self.config["archive"]
        return ArchiveSpec.from_config(a)


def is_strategy_checkpoint(saved: ckpt.Checkpoint) -> bool:
    """A checkpoint written by the strategy search (its own groups)."""
    return EVALUATIONS in saved.arrays


def load_strategy_run(run_dir: Path, saved: ckpt.Checkpoint | None = None) -> StrategyRun:
    """The strategy run in `run_dir`, from its checkpoint `saved` when it was read already."""
    saved = ckpt.require(saved, GROUPS) if saved else ckpt.load(Path(run_dir) / ckpt.FILENAME, required=GROUPS)
    try:
        config = yaml.safe_load(saved.config_yaml)
        s = config["strategy_search"]
        per_iteration = int(s["emitters"]) * int(s["batch_size"])
        budget = int(config["algorithm"]["budget"]) // per_iteration * per_iteration
        seed = int(config["seed"])
    except (yaml.YAMLError, KeyError, TypeError, ValueError) as exc:
        raise ReportError(f"{saved.path}: unreadable config ({exc})") from None
    n = check_evaluations(saved.path, saved.arrays[EVALUATIONS], per_iteration)
    return StrategyRun(Path(run_dir), seed, config, list(saved.state.get("history", [])),
                       saved.arrays[ARCHIVE], n, finished=n >= budget)


def load_strategy_runs(dirs: list[Path], loaded: dict[Path, ckpt.Checkpoint] | None = None) -> list[StrategyRun]:
    runs = [load_strategy_run(d, (loaded or {}).get(d)) for d in dirs]
    for run in runs[1:]:
        diff = [d for section in COMPARABLE for d in differences(
            runs[0].config.get(section) or {}, run.config.get(section) or {}, section + ".")]
        decks = (runs[0].config["strategy_search"].get("deck"), run.config["strategy_search"].get("deck"))
        if decks[0] != decks[1]:
            diff.append(f"strategy_search.deck: {decks[0]!r} vs {decks[1]!r}")
        if diff:
            raise ReportError(f"strategy runs are not comparable: {runs[0].path} and {run.path} "
                              f"differ in {'; '.join(diff[:3])}")
    return sorted(runs, key=lambda r: (r.config["algorithm"]["name"], r.seed, str(r.path)))


def metrics(run: StrategyRun) -> dict:
    f = run.archive["objective"]
    lo, hi = run.spec.objective_range
    best = int(np.argmax(f)) if len(f) else None
    return {"run": str(run.path), "seed": run.seed, "evaluations": run.n_evaluations,
            "iterations": len(run.history), "finished": run.finished,
            "qd_score": float(np.sum((f - lo) / (hi - lo))), "coverage": len(f) / run.spec.cells * 100.0,
            "best_objective": float(f[best]) if best is not None else float("nan"),
            "best_win_rate": float(run.archive["targets"][best][3]) * 100.0 if best is not None else float("nan"),
            "best_weights": str(run.path / BEST_FILE)}


def write_table(runs: list[StrategyRun], out: Path) -> str:
    rows = [metrics(r) for r in runs]
    objective = describe(runs[0].spec.behavior.objective)  # the runs share their archive section
    with open(out / "strategy_runs.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    lines = [f"| Run | Seed | Evaluations | Iterations | QD-score | Cells filled % | Best {objective} "
             "| Win % of best | Best weights |", "|" + "---|" * 9]
    lines += [f"| {r['run']} | {r['seed']} | {r['evaluations']:,}{'' if r['finished'] else ' (unfinished)'} | "
              f"{r['iterations']} | {r['qd_score']:.2f} | {r['coverage']:.2f} | {r['best_objective']:+.2f} | "
              f"{r['best_win_rate']:.1f} | {r['best_weights']} |" for r in rows]
    text = ("Strategy searches (CMA-ME over the evaluated player's weights, deck fixed): final "
            f"archives ({space_words(runs[0].spec)}).\n\n" + "\n".join(lines) + "\n")
    (out / "strategy_runs.md").write_text(text)
    return text


def progress_figure(runs: list[StrategyRun], out: Path) -> list[str]:
    from .figures import _plt, _save
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for run in runs:
        evals = [h["evaluations"] for h in run.history]
        for ax, key in zip(axes, ("qd_score", "best_objective")):
            ax.plot(evals, [h[key] for h in run.history], marker=".", label=run.name)
    for ax, title in zip(axes, ("QD-score", f"best objective ({describe(runs[0].spec.behavior.objective)})")):
        ax.set_xlabel("evaluations")
        ax.set_ylabel(title)
        ax.set_title(f"{title} per iteration")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    return _save(fig, out, "strategy_progress")


def space_words(spec: ArchiveSpec) -> str:
    """The behaviour space in words: the objective and its range, each measure with its range."""
    lo, hi = spec.objective_range
    measures = ", ".join(f"{describe(m)} on [{a:g}, {b:g}]" for m, (a, b) in zip(spec.behavior.measures, spec.ranges))
    return f"objective {describe(spec.behavior.objective)} on [{lo:g}, {hi:g}]; measures {measures}"


def heatmaps_figure(runs: list[StrategyRun], out: Path) -> list[str]:
    """Each run's final archive as the deck runs' are drawn (figures.draw_archive: the first two
    measures, a third as each cell's best over it)."""
    from .figures import _plt, _save, draw_archive
    plt = _plt()
    fig, axes = plt.subplots(1, len(runs), figsize=(3.6 * len(runs) + 1, 3.2), squeeze=False,
                             constrained_layout=True)
    image = None
    for ax, run in zip(axes[0], runs):
        image = draw_archive(ax, run.archive, run.spec)
        ax.set_title(f"{run.name}\n{run.n_evaluations} evaluations", fontsize=9)
    fig.colorbar(image, ax=axes, label=describe(runs[0].spec.behavior.objective), shrink=0.8)
    return _save(fig, out, "strategy_heatmaps")


def write_section(runs: list[StrategyRun], out: Path) -> str:
    """The strategy runs' table and figures in `out`; returns the page's HTML section."""
    from .page import _figure, md_table
    if not runs:
        return ""
    table = write_table(runs, out)
    lo, hi = runs[0].spec.objective_range
    figs = [(progress_figure(runs, out)[0], "Strategy searches: QD-score and best objective per iteration"),
            (heatmaps_figure(runs, out)[0], f"Strategy searches: final archives (colour: "
                                            f"{describe(runs[0].spec.behavior.objective)} on [{lo:g}, {hi:g}])")]
    return "\n".join(["<h2>Strategy searches</h2>", md_table(table),
                      "<p><a href='strategy_runs.csv'>CSV</a> · <a href='strategy_runs.md'>Markdown</a></p>",
                      *[_figure(name, caption) for name, caption in figs],
                      f"<p>Each run's best weights are a <code>{html.escape('strategy.evaluated=<file>')}</code> "
                      "for the deck search.</p>"])
