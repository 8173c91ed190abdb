"""Head-node benchmarks, the second half of `make bench`.

    python -m tools.bench.head_node [--quick] [--surrogate-only]

inner_loop_1m_predictions_s: one outer iteration's inner loop (100,000 steps of 10 decks =
1,000,000 surrogate predictions, with mutation and archive insertion), after JIT warm-up.
Target: <= 30 s on 2 CPU cores.

inner_loop_batched_1m_predictions_s: the same predictions in the batched mode (1,000 steps of
1,000 decks on the cores the process may use), timed in the same run. Goal: at least 5x faster
than the serial chain on a 2-core machine.

surrogate_train_s: training the deck surrogate (the protocol's MLP, 3 targets) on 10,000 decks for
20 epochs with the paper's settings (Adam lr 0.01, batch 64, 90/10 split), on the CPU and, when
one is visible, on the GPU, each after a small untimed warm-up fit. Goal: the GPU at least 5x
faster than the CPU of the same machine (an H100 machine before issue 11: GPU 9.2 s, CPU 4.1 s).

worker_game_time_share: share of the workers' wall time spent inside play_games while a batch
of evaluations is queued on a LocalCluster (one single-threaded worker per core). Target >= 0.95.
"""
from __future__ import annotations

import time

import numpy as np

from workers.inputs import ArgumentParser


def time_inner_loop(iterations: int = 100_000, batch_size: int = 10, seed: int = 0, mode: str = "serial") -> dict:
    from pipeline.deck_space import DeckSpace
    from pipeline.search.archives import ArchiveSpec, SurrogateGrid
    from pipeline.search.inner_loop import run_inner_loop
    from pipeline.search.surrogate import Surrogate

    space = DeckSpace.from_pool_file()
    rng = np.random.default_rng(seed)
    # A model trained on synthetic data, so predictions spread over the grid as a real one's do.
    x = space.random_decks(rng, 2000)
    w = rng.normal(size=(space.size, 3))
    y = np.column_stack([x @ w[:, 0], 10 + 0.2 * (x @ w[:, 1]), 4 + 0.1 * (x @ w[:, 2])])
    model = Surrogate("mlp", space.size, 3, device="cpu", seed=seed)
    model.fit(x, y, rng, epochs=3)
    weights = model.kernel_weights()
    run_inner_loop(space, weights, SurrogateGrid(ArchiveSpec(), space.size, 3), rng, 200, batch_size, 100,
                   mode=mode, step_decks=1000)  # JIT
    grid = SurrogateGrid(ArchiveSpec(), space.size, 3)
    start = time.perf_counter()
    made = run_inner_loop(space, weights, grid, rng, iterations, batch_size, 100, mode=mode, step_decks=1000)
    seconds = time.perf_counter() - start
    return {"predictions": made, "seconds": seconds, "elites": len(grid)}


def synthetic_training_data(n: int, targets: int = 3, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """n random decks and targets that depend on them, with the measures in the grid's ranges."""
    from pipeline.deck_space import DeckSpace

    space = DeckSpace.from_pool_file()
    rng = np.random.default_rng(seed)
    x = space.random_decks(rng, n)
    w = rng.normal(size=(space.size, targets))
    y = x @ w * 0.5
    if targets >= 3:
        y[:, 1], y[:, 2] = 10 + 0.05 * y[:, 1], 4 + 0.05 * y[:, 2]
    return x, y


def time_surrogate_training(device: str, n: int = 10_000, epochs: int = 20, targets: int = 3,
                            repeats: int = 1, seed: int = 0) -> float:
    """Seconds of one Surrogate.fit (paper settings) on `device`, the median of `repeats`, each
    on a fresh model, after an untimed warm-up fit (CUDA context, kernels, allocator)."""
    import statistics

    from pipeline.search.surrogate import Surrogate

    x, y = synthetic_training_data(n, targets, seed)
    Surrogate("mlp", x.shape[1], targets, device=device, seed=seed).fit(
        x[:500], y[:500], np.random.default_rng(seed), epochs=2)
    times = []
    for r in range(repeats):
        model = Surrogate("mlp", x.shape[1], targets, device=device, seed=seed + r)
        rng = np.random.default_rng(seed + r)
        start = time.perf_counter()
        model.fit(x, y, rng, epochs=epochs)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def gpu_name() -> str | None:
    import torch

    if torch.cuda.is_available():
        return torch.cuda.get_device_name()
    return None


def measure_worker_share(n_decks: int, games: int, games_per_task: int, player: str,
                         n_workers: int | None = None) -> dict:
    from distributed import Client, LocalCluster

    from pipeline.cluster.local import usable_cores
    from pipeline.cluster.evaluation import EvaluationClient
    from pipeline.deck_space import DeckSpace

    space = DeckSpace.from_pool_file()
    n_workers = n_workers or usable_cores()
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


def report_surrogate_training(repeats: int) -> None:
    from pipeline.search.surrogate import TRAIN_THREADS

    setting = "10,000 decks x 20 epochs, batch 64, Adam lr 0.01, 3 targets"
    cpu_s = time_surrogate_training("cpu", repeats=repeats)
    print(f"surrogate_train_s: {cpu_s:.2f}  (cpu, {TRAIN_THREADS} thread; {setting}; median of {repeats}; "
          f"goal: the GPU >= 5x faster than this machine's CPU; H100 machine before issue 11: "
          f"GPU 9.2 s, CPU 4.1 s)", flush=True)
    name = gpu_name()
    if name is None:
        print("gpu: none visible", flush=True)
        return
    gpu_s = time_surrogate_training("cuda", repeats=repeats)
    speedup = cpu_s / gpu_s
    print(f"surrogate_train_gpu_s: {gpu_s:.2f}  ({name}, CUDA graphs; {speedup:.1f}x faster than the CPU, "
          f"goal >= 5x: {'met' if speedup >= 5 else 'NOT met'})", flush=True)


def report_inner_loop(iterations: int) -> None:
    from pipeline.cluster.local import usable_cores
    per_million = {}
    for mode in ("serial", "batched"):
        inner = time_inner_loop(iterations=iterations, mode=mode)
        per_million[mode] = inner["seconds"] * 1_000_000 / inner["predictions"]
        said = f"{inner['predictions']} predictions in {inner['seconds']:.2f} s, {inner['elites']} elites"
        if mode == "serial":
            print(f"inner_loop_1m_predictions_s: {per_million[mode]:.2f}  (the serial chain; target <= 30; {said})",
                  flush=True)
            continue
        speedup = per_million["serial"] / per_million[mode]
        print(f"inner_loop_batched_1m_predictions_s: {per_million[mode]:.2f}  ({usable_cores()} cores, the thread "
              f"count chosen by timing; "
              f"{speedup:.1f}x faster than the serial chain, goal >= 5x on 2 cores: "
              f"{'met' if speedup >= 5 else 'NOT met'}; {said})", flush=True)


def main(argv=None) -> None:
    parser = ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs (random players)")
    parser.add_argument("--surrogate-only", action="store_true", help="only surrogate_train_s")
    args = parser.parse_args(argv)
    repeats = 1 if args.quick else 3
    if args.surrogate_only:
        report_surrogate_training(repeats)
        return
    report_inner_loop(iterations=20_000 if args.quick else 100_000)
    report_surrogate_training(repeats)
    if args.quick:
        share = measure_worker_share(n_decks=40, games=24, games_per_task=12, player="random")
    else:
        share = measure_worker_share(n_decks=8, games=20, games_per_task=10, player="beam")
    print(f"worker_game_time_share: {share['share']:.3f}  (target >= 0.95; {share['workers']} workers, "
          f"batch wall {share['wall_s']:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
