"""The paper's surrogate analyses over a set of runs, built on pipeline.report.analysis:
- test MSE per target of each run's final surrogate on every other run's real evaluations;
- the surrogate-versus-real archive experiment (pipeline.report.analysis.run_transfer): a run's last
  surrogate archive evaluated for real, with the share retained, the share in the same cell and
  the mean Manhattan distance. This plays games, so they are kept in the report folder
  (transfer_cache.py).
"""
from __future__ import annotations

import csv
import sys
from pathlib import Path

import numpy as np

from .analysis import run_transfer, surrogate_test_mse
from .runs import LABELS, Run
from .transfer_cache import TransferCache



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


def transfer(runs: list[Run], which: str, cache: TransferCache, workers: int | None) -> tuple[list[dict], str]:
    """The transfer rows of the runs `which` names, and a note when a stop cut it short. Each run
    says what it will play and about how long it takes, and shows progress; a stop (SIGINT,
    SIGTERM) ends the transfer, the games played stay in the cache, and the report goes on
    without the runs not finished. A run already in the cache plays nothing."""
    from ..cluster.stops import Stopped
    from ..search.progress import progress_bar
    rows = []
    for run in transfer_runs(runs, which):
        key = f"{run.path.resolve()}@{run.n_evaluations}"
        if cache.row(key) is None:
            decks, played = len(run.surrogate_archive["index"]), cache.played(key)
            try:
                with progress_bar(True, total=decks, initial=len(played), desc=f"transfer {run.name}",
                                  unit="deck") as bar:
                    row = run_transfer(
                        run.checkpoint, workers, played, on_piece=lambda t, key=key: cache.keep(key, t),
                        progress=bar, announce=lambda slots: print(
                            announcement(run, decks, len(played), slots), file=sys.stderr, flush=True))
            except Stopped as stop:
                done = len(cache.played(key))
                return rows, (f"The transfer was stopped by {stop.signal_name} after {done} of {decks} decks "
                              f"of {run.name}; the games played are kept, and the next report into this "
                              "folder goes on from there.")
            cache.finish(key, row)
        rows.append({"run": str(run.path), "algorithm": run.algorithm, "seed": run.seed,
                     "evaluations": run.n_evaluations, **cache.row(key)})
    return rows, ""


def announcement(run: Run, decks: int, played: int, slots: int) -> str:
    """What the transfer of `run` is about to play, and about how long that takes at the CPU
    time a game took in the run itself."""
    games_per_deck = int(run.config["opponents"]["games"])
    games = (decks - played) * games_per_deck
    logged = [h for h in run.history if h.get("batch_game_s") and h.get("batch")]
    said = (f"transfer analysis: playing the {decks} elites of {run.name}'s last surrogate archive for real"
            + (f" ({played} played by an earlier report)" if played else "")
            + f": {decks - played} decks x {games_per_deck} games = {games:,} games on {slots} worker slots")
    if logged:
        per_game = sum(h["batch_game_s"] for h in logged) / (sum(h["batch"] for h in logged) * games_per_deck)
        said += f", about {_duration(games * per_game / slots)} at the run's own {per_game * 1000:.1f} ms a game"
    return said + ". Ctrl-C or SIGTERM stops it and the report is written without it (--transfer none skips it)."


def _duration(seconds: float) -> str:
    if seconds < 60:
        return "under a minute"
    return f"{seconds / 3600:.1f} h" if seconds >= 5400 else f"{round(seconds / 60)} min"


def write_transfer(rows: list[dict], out: Path, note: str = "") -> str:
    if not rows:
        text = note or "Surrogate-versus-real archive experiment: not run (no surrogate archive, or --transfer none)."
        (out / "surrogate_transfer.md").write_text(text + "\n")
        return text + "\n"
    lines = ["Surrogate-versus-real archive experiment: the elites of a run's last surrogate archive, "
             "evaluated for real and placed by their real measures", "",
             "| Run | Surrogate elites | Retained as elites | In the same cell | Mean Manhattan distance (cells) |",
             "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {LABELS.get(r['algorithm'], r['algorithm'])} seed {r['seed']} | {r['surrogate_elites']} | "
                     f"{r['retained_share']:.1%} | {r['same_cell_share']:.1%} | {r['mean_manhattan_distance']:.2f} |")
    text = "\n".join(lines + ([f"\n{note}"] if note else [])) + "\n"
    (out / "surrogate_transfer.md").write_text(text)
    with open(out / "surrogate_transfer.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)
    return text
