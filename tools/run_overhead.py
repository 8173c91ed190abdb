"""A run's worker CPU per game beside the same decks' games played alone: `python -m tools.run_overhead
RUN_DIR [--decks 20] [--since N]`.

The run's figure is its workers' whole CPU (the games, their records, task set-up, seeds, Dask's
own work in the worker) over the games they handed back: `workers_cpu_s` over `games_received`,
summed over the metrics.jsonl rows that have them (with `--since N`, only rows that begin at
evaluation N or later: one engine's stretch of a run resumed on another). The first row after a
start or a resume overstates it: its CPU includes the games of the decks still in flight at its
end (up to the steady-state lag), and none were in flight at its start; `--since` the evaluation
that row ends at leaves it out. The figure alone is a sample of the decks those
rows evaluated (decks.npz), evenly spread, each deck's games played here in this one process as a
worker plays them (worker_tasks.play_chunk, the run's settings and seeds), timed in process CPU.
Both are printed with their ratio: what a run spends on a game beyond playing it. Run it on a
machine as loaded as the run's was (a shared cache makes every game dearer).
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
from omegaconf import OmegaConf

from pipeline.cluster.evaluation import evaluation_seed, task_options
from pipeline.cluster.run_client import game_settings
from pipeline.cluster.worker_tasks import engine, opponents, play_chunk
from pipeline.deck_space import DeckSpace
from pipeline.search import run_files
from pipeline.state.config import validate
from workers.inputs import ArgumentParser, InputError, int_in


def run_figures(run_dir: Path, since: int = 0) -> tuple[float, int, range]:
    """(workers' CPU seconds, games handed back, the evaluations they cover) over the rows of
    metrics.jsonl that measured them and begin at evaluation `since` or later."""
    rows = [json.loads(line) for line in (run_dir / run_files.METRICS_FILE).read_text().splitlines() if line.strip()]
    starts = [0] + [row["evaluations"] for row in rows[:-1]]
    measured = [i for i, row in enumerate(rows) if "workers_cpu_s" in row and starts[i] >= since]
    if not measured:
        raise InputError(f"{run_dir}: no row of {run_files.METRICS_FILE} from evaluation {since} on measured its "
                         "workers' CPU (a run of an earlier version, or not one batch in yet)")
    first = starts[measured[0]]
    return (sum(rows[i]["workers_cpu_s"] for i in measured), sum(rows[i]["games_received"] for i in measured),
            range(first, rows[measured[-1]]["evaluations"]))


def alone_cpu_per_game(run_dir: Path, eval_ids: np.ndarray) -> tuple[float, int]:
    """(CPU seconds a game, games played) of these evaluations' games played here as the run's
    workers played them."""
    cfg = validate(OmegaConf.create((run_dir / "config.yaml").read_text()))
    space = DeckSpace.from_config(cfg.deck_space)
    decks = run_files.read_decks(run_dir / run_files.DECKS_FILE, space)
    options = task_options(space, **game_settings(cfg))
    engine(options["engine"]).warm_up(space.stat_overrides, **options["engine_options"])  # as a worker's start
    opponents(options["opponents_path"])
    games = list(range(int(cfg.opponents.games)))
    start = time.process_time()
    for eval_id in eval_ids:
        play_chunk(tuple(space.decode(decks[eval_id])), games, evaluation_seed(int(cfg.seed), int(eval_id)), options)
    return (time.process_time() - start) / (len(eval_ids) * len(games)), len(eval_ids) * len(games)


def main(argv=None) -> int:
    parser = ArgumentParser(prog="python -m tools.run_overhead", description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--decks", type=int_in(1, 10_000), default=20, help="decks played alone (default 20)")
    parser.add_argument("--since", type=int_in(0, 10**9), default=0,
                        help="only rows that begin at this evaluation or later (default 0: all)")
    args = parser.parse_args(argv)
    try:
        cpu, games, covered = run_figures(args.run_dir, args.since)
        sample = np.unique(np.linspace(covered.start, covered.stop - 1, args.decks).round().astype(int))
        alone, played = alone_cpu_per_game(args.run_dir, sample)
    except (InputError, OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    run = cpu / max(games, 1)
    print(f"run: {run * 1000:.2f} ms of worker CPU a game ({cpu:,.0f} s over {games:,} games, evaluations "
          f"{covered.start}-{covered.stop - 1})")
    print(f"alone: {alone * 1000:.2f} ms of CPU a game ({played:,} games of {len(sample)} of those decks, one process)")
    print(f"ratio: {run / alone:.2f}x (goal: within 1.2x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
