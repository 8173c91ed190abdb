"""Head-node benchmarks: `python -m pipeline.bench [--quick]`.

inner_loop_1m_predictions_s: one outer iteration's inner loop (100,000 steps of 10 decks =
1,000,000 surrogate predictions, with mutation and archive insertion), after JIT warm-up.
Target: <= 30 s on 2 CPU cores.

worker_game_time_share: share of the workers' wall time spent inside play_games while a batch
of evaluations is queued on a LocalCluster (one single-threaded worker per core). Target >= 0.95.
"""
from __future__ import annotations

import argparse
import time

import numpy as np


def time_inner_loop(iterations: int = 100_000, batch_size: int = 10, seed: int = 0) -> dict:
    from .archives import GridSpec, SurrogateGrid
    from .deck_space import DeckSpace
    from .inner_loop import run_inner_loop
    from .surrogate import Surrogate

    space = DeckSpace.from_pool_file()
    rng = np.random.default_rng(seed)
    # A model trained on synthetic data, so predictions spread over the grid as a real one's do.
    x = space.random_decks(rng, 2000)
    w = rng.normal(size=(space.size, 3))
    y = np.column_stack([x @ w[:, 0], 10 + 0.2 * (x @ w[:, 1]), 4 + 0.1 * (x @ w[:, 2])])
    model = Surrogate("mlp", space.size, 3, device="cpu", seed=seed)
    model.fit(x, y, rng, epochs=3)
    weights = model.kernel_weights()
    run_inner_loop(space, weights, SurrogateGrid(GridSpec(), space.size, 3), rng, 20, batch_size, 100)  # JIT
    grid = SurrogateGrid(GridSpec(), space.size, 3)
    start = time.perf_counter()
    made = run_inner_loop(space, weights, grid, rng, iterations, batch_size, 100)
    seconds = time.perf_counter() - start
    return {"predictions": made, "seconds": seconds, "elites": len(grid)}


def measure_worker_share(n_decks: int, games: int, games_per_task: int, player: str,
                         n_workers: int | None = None) -> dict:
    from distributed import Client, LocalCluster

    from .cluster import default_workers
    from .deck_space import DeckSpace
    from .evaluation import EvaluationClient

    space = DeckSpace.from_pool_file()
    n_workers = n_workers or default_workers()
    with LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        evaluator = EvaluationClient(client, space, run_seed=0, games=games, games_per_task=games_per_task,
                                     player=player, strategy="nn", beam_depth=13, beam_width=4,
                                     hide_deck_order=False)
        decks = space.random_decks(np.random.default_rng(0), n_decks)
        evaluator.evaluate(decks[:n_workers], np.arange(n_workers))  # warm every worker
        evaluator.evaluate(decks, np.arange(n_workers, n_workers + n_decks))
        timing = evaluator.timings[-1]
    return {"share": timing.game_time_share, "wall_s": timing.wall_s, "workers": n_workers}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs (random players)")
    args = parser.parse_args(argv)
    inner = time_inner_loop(iterations=20_000 if args.quick else 100_000)
    per_million = inner["seconds"] * 1_000_000 / inner["predictions"]
    print(f"inner_loop_1m_predictions_s: {per_million:.2f}  (target <= 30; "
          f"{inner['predictions']} predictions in {inner['seconds']:.2f} s, {inner['elites']} elites)", flush=True)
    if args.quick:
        share = measure_worker_share(n_decks=40, games=24, games_per_task=12, player="random")
    else:
        share = measure_worker_share(n_decks=8, games=20, games_per_task=10, player="beam")
    print(f"worker_game_time_share: {share['share']:.3f}  (target >= 0.95; {share['workers']} workers, "
          f"batch wall {share['wall_s']:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
