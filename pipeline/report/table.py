"""Table 1: per algorithm, mean +- standard error over trials of the paper's four numbers."""
from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np

from ..search.archives import make_archive, qd_metrics, restore_archive
from .runs import Run, deck_space, grid_spec, group_by_algorithm

# (key, column header, scale): the paper reports win rate and coverage in percent.
METRICS = (("max_fitness", "Max avg health diff", 1.0), ("max_win_rate", "Max win %", 100.0),
           ("coverage", "Cells filled %", 100.0), ("qd_score", "QD-score", 1.0))


def real_archive(run: Run):
    """The run's final real archive as the run kept it (to reuse the pipeline's metrics): a
    sliding map is rebuilt from the run's evaluations, with the boundaries they gave."""
    a, ev, spec = run.archive, run.evaluations, grid_spec(run)
    archive = make_archive(spec, ev["decks"].shape[1], a["targets"].shape[1],
                           budget=int(run.config["algorithm"]["budget"]), seed=run.seed)
    replay = None
    if spec.kind == "sliding":
        replay = (ev["decks"], *spec.behavior.values(ev["targets"], ev["decks"], deck_space(run)),
                  np.arange(len(ev["decks"])), ev["targets"])
    return restore_archive(archive, a, replay=replay)


def run_metrics(run: Run) -> dict[str, float]:
    m = qd_metrics(real_archive(run), grid_spec(run))
    return {key: float(m[key]) * scale for key, _, scale in METRICS}


def mean_se(values: list[float]) -> tuple[float, float]:
    """Mean and standard error (sample sd / sqrt(n)); the error is nan for a single trial."""
    x = np.asarray(values, dtype=float)
    if len(x) == 0:
        return math.nan, math.nan
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else math.nan


def table_rows(runs: list[Run]) -> list[dict]:
    rows = []
    for algorithm, group in group_by_algorithm(runs).items():
        per_run = [run_metrics(r) for r in group]
        row = {"algorithm": algorithm, "label": group[0].label, "trials": len(group),
               "evaluations_mean": float(np.mean([r.n_evaluations for r in group])),
               "evaluations_min": min(r.n_evaluations for r in group),
               "evaluations_max": max(r.n_evaluations for r in group),
               "finished": sum(r.finished for r in group)}
        for key, _, _ in METRICS:
            row[f"{key}_mean"], row[f"{key}_se"] = mean_se([m[key] for m in per_run])
        rows.append(row)
    return rows


def _cell(mean: float, se: float) -> str:
    return f"{mean:.2f} +- {se:.2f}" if not math.isnan(se) else f"{mean:.2f}"


def _evals(row: dict) -> str:
    lo, hi = row["evaluations_min"], row["evaluations_max"]
    return f"{lo:,}" if lo == hi else f"{lo:,}-{hi:,}"


def paper_pointer(runs: list[Run]) -> str:
    """For runs of experiment=paper, where their numbers stand beside the paper's."""
    if not any(r.config.get("name") == "paper" for r in runs):
        return ""
    return ("Runs of experiment=paper beside the paper's own Table 1 (its means, ours over theirs, within 3 "
            "standard errors or not): `python -m pipeline.report.paper RUN_DIR...`, which `make paper-table` runs "
            "on results/paper (docs/results.md).")


def write_table(rows: list[dict], out: Path, note: str = "") -> str:
    """table1.csv (every number) and table1.md (the paper's layout), with `note` under the
    table; returns the Markdown."""
    columns = ["algorithm", "label", "trials", "finished", "evaluations_mean", "evaluations_min",
               "evaluations_max"] + [f"{k}_{s}" for k, _, _ in METRICS for s in ("mean", "se")]
    with open(out / "table1.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: (f"{row[k]:.6g}" if isinstance(row[k], float) else row[k]) for k in columns})
    head = ["Algorithm", *[h for _, h, _ in METRICS], "Trials", "Evaluations"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        cells = [row["label"], *[_cell(row[f"{k}_mean"], row[f"{k}_se"]) for k, _, _ in METRICS],
                 str(row["trials"]), _evals(row)]
        lines.append("| " + " | ".join(cells) + " |")
    text = ("Table 1: mean +- standard error over trials (final real archives); evaluations per "
            "trial as min-max.\n\n" + "\n".join(lines) + "\n" + (f"\n{note}\n" if note else ""))
    (out / "table1.md").write_text(text)
    return text
