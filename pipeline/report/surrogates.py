"""The paper's surrogate analyses over a set of runs, built on pipeline.report.analysis:
- test MSE per target of each run's final surrogate on every other run's real evaluations;
- the surrogate-versus-real archive experiment (pipeline.report.analysis.elite_transfer): a run's last
  surrogate archive evaluated for real, with the share retained, the share in the same cell and
  the mean Manhattan distance. This plays games, so results are cached in the report folder.
"""
from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np

from .analysis import _transfer_cli, surrogate_test_mse
from .runs import LABELS, Run

TRANSFER_CACHE = "transfer.json"


def mse_pairs(runs: list[Run]) -> list[dict]:
    """One row per (model run, data run) pair of different runs."""
    rows = []
    for model in runs:
        if not model.has_surrogate:
            continue
        for data in runs:
            if data.path == model.path or data.n_evaluations == 0:
                continue
            mse = surrogate_test_mse(model.checkpoint, data.checkpoint)
            rows.append({"model_run": str(model.path), "model_algorithm": model.algorithm,
                         "model_seed": model.seed, "data_run": str(data.path),
                         "data_algorithm": data.algorithm, "data_seed": data.seed,
                         "examples": data.n_evaluations, **mse})
    return rows


def write_mse(rows: list[dict], out: Path) -> str:
    from workers.protocol.results import TARGET_NAMES
    if not rows:
        (out / "surrogate_mse.md").write_text("No run holds a surrogate model.\n")
        return ""
    columns = list(rows[0].keys())
    for r in rows:
        columns += [k for k in r if k not in columns]
    with open(out / "surrogate_mse.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns, restval="")
        writer.writeheader()
        writer.writerows(rows)
    targets = [t for t in TARGET_NAMES if any(t in r for r in rows)]
    lines = ["Surrogate test MSE per target: a run's final surrogate on another run's real "
             "evaluations (mean over pairs of runs)", "",
             "| Surrogate of | Data of | Pairs | " + " | ".join(targets) + " |",
             "|---|---|---|" + "---|" * len(targets)]
    pairs: dict[tuple[str, str], list[dict]] = {}
    for r in rows:
        pairs.setdefault((r["model_algorithm"], r["data_algorithm"]), []).append(r)
    for (m, d), rs in pairs.items():
        cells = [f"{np.mean([r[t] for r in rs if t in r]):.3g}" if any(t in r for r in rs) else "-"
                 for t in targets]
        lines.append(f"| {LABELS.get(m, m)} | {LABELS.get(d, d)} | {len(rs)} | " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    (out / "surrogate_mse.md").write_text(text)
    return text


def transfer_runs(runs: list[Run], which: str) -> list[Run]:
    """Runs whose last surrogate archive is re-evaluated: none, the first (lowest seed) run of
    each surrogate algorithm, or all."""
    eligible = [r for r in runs if r.surrogate_archive is not None and len(r.surrogate_archive["index"])]
    if which == "none":
        return []
    if which == "all":
        return eligible
    first: dict[str, Run] = {}
    for r in eligible:
        first.setdefault(r.algorithm, r)
    return list(first.values())


def transfer(runs: list[Run], which: str, out: Path, workers: int | None) -> list[dict]:
    cache_path = out / TRANSFER_CACHE
    cache = json.loads(cache_path.read_text()) if cache_path.is_file() else {}
    rows = []
    for run in transfer_runs(runs, which):
        key = f"{run.path.resolve()}@{run.n_evaluations}"
        if key not in cache:
            cache[key] = _transfer_cli(run.checkpoint, workers)
            cache_path.write_text(json.dumps(cache, indent=1))
        rows.append({"run": str(run.path), "algorithm": run.algorithm, "seed": run.seed,
                     "evaluations": run.n_evaluations, **cache[key]})
    return rows


def write_transfer(rows: list[dict], out: Path) -> str:
    if not rows:
        text = "Surrogate-versus-real archive experiment: not run (no surrogate archive, or --transfer none).\n"
        (out / "surrogate_transfer.md").write_text(text)
        return text
    lines = ["Surrogate-versus-real archive experiment: the elites of a run's last surrogate archive, "
             "evaluated for real and placed by their real measures", "",
             "| Run | Surrogate elites | Retained as elites | In the same cell | Mean Manhattan distance (cells) |",
             "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {LABELS.get(r['algorithm'], r['algorithm'])} seed {r['seed']} | {r['surrogate_elites']} | "
                     f"{r['retained_share']:.1%} | {r['same_cell_share']:.1%} | {r['mean_manhattan_distance']:.2f} |")
    text = "\n".join(lines) + "\n"
    (out / "surrogate_transfer.md").write_text(text)
    with open(out / "surrogate_transfer.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)
    return text
