"""`make scale`: the pipeline at cluster scale, on one machine. The real driver, Dask scheduler
and client, and the real head-node work (surrogate training, inner loop, archive, checkpoints)
run with N worker slots (threads in a few worker processes) whose game tasks are the STAND-IN
engine `scale_standin` (workers/protocol/timed_standin.py): each sleeps as long as real games of
the protocol took on this machine and returns a real evaluation's records from a table.

    python -m tools.scale [--slots 200 1000] [--budget 5000] [--processes 2] [--slurm] [--json OUT]

First it calibrates (once; `--recalibrate` again): real protocol games of random decks, timed
per task, make the table. Then for each N it runs DSA-ME with steady_state off (the paper's
synchronous loop) and on (the steady-state loop with the default lag, 3 N), both with the batched inner loop
(`algorithm.inner.mode=serial` after `--` runs the paper's chain), and prints per run:
evaluations per hour, the workers' busy share (time in tasks over slot time), the head node's
seconds per outer iteration by phase, the scheduler's overhead per task, the driver's CPU per task
and per iteration, the driver's peak memory (the scheduler runs inside the driver's process) and
the projected wall time of the paper's trial (10,000 evaluations of 200 games) at that rate.
With --slurm the slots are SLURM worker jobs on the three-host cluster of slurm/nodes_slurm.sh
(the driver on its controller; TLS and a real network between the hosts). It ends with one line
per N and mode:

    scale N=200 steady_state=on: busy_share 0.93, evaluations_per_hour 61000, head_s_per_iteration 7.9, ...
    scale N=200 steady_state=on slurm: busy_share 0.91, ...
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from pipeline.run_errors import PipelineError
from workers.inputs import ArgumentParser, int_in
from workers.protocol.timed_standin import RECORD_FIELDS

from .run_config import checked_config, fail

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "results" / "scale"
NODES_SCRIPT = ROOT / "slurm" / "nodes_slurm.sh"
PAPER_EVALUATIONS = 10_000
PHASES = ("train_s", "inner_loop_s", "select_s", "dispatch_s", "checkpoint_s")


# --- calibration ---------------------------------------------------------------------------------
def _play_timed(cards: list[str], games: list[int], seed: int) -> tuple[list[list[int]], float]:
    from workers.protocol.evaluate import play_games
    start = time.perf_counter()
    records = play_games(cards, games, seed)
    seconds = time.perf_counter() - start
    if any(r.error for r in records):
        raise RuntimeError(f"a calibration game raised: {next(r.error for r in records if r.error)}")
    return [[int(getattr(r, f)) for f in RECORD_FIELDS] for r in records], seconds


def calibrate(path: Path, decks: int, games: int, games_per_task: int, workers: int, seed: int = 0) -> dict:
    """Plays `games` real protocol games of each of `decks` random decks (in tasks of
    `games_per_task`, `workers` processes) and writes the stand-in's table."""
    from pipeline.deck_space import DeckSpace
    space = DeckSpace.from_pool_file()
    rng = np.random.default_rng(seed)
    deck_rows = space.random_decks(rng, decks)
    card_lists = [space.decode(d) for d in deck_rows]
    chunks = [list(range(s, min(s + games_per_task, games))) for s in range(0, games, games_per_task)]
    start = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        futures = [[pool.submit(_play_timed, cards, chunk, 1000 + d) for chunk in chunks]
                   for d, cards in enumerate(card_lists)]
        done = [[f.result() for f in row] for row in futures]
    records = np.array([[rec for recs, _ in row for rec in recs] for row in done], dtype=np.int64)
    per_game = np.array([seconds / len(chunk) for row in done for (_, seconds), chunk in zip(row, chunks)])
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, card_ids=np.array([c.id for c in space.cards]), decks=deck_rows.astype(np.int16),
             records=records, seconds_per_game=per_game, games_per_chunk=np.array(games_per_task))
    return {"decks": decks, "games": games, "wall_s": time.perf_counter() - start,
            "seconds_per_game_mean": float(per_game.mean()), "seconds_per_game_sd": float(per_game.std())}


# --- one scale run -------------------------------------------------------------------------------
def compose(*overrides: str):
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        return hydra_compose("config", overrides=list(overrides))


def _noop(_) -> None:
    return None


def scheduler_overhead_s(client, tasks: int) -> float:
    """Seconds per task of the scheduler and client alone: `tasks` tasks that do nothing."""
    start = time.perf_counter()
    client.gather(client.map(_noop, range(tasks), pure=False))
    return (time.perf_counter() - start) / tasks


@contextlib.contextmanager
def local_client(processes: int, threads: int):
    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=processes, threads_per_worker=threads, processes=True,
                      dashboard_address=None, silence_logs=40) as cluster, Client(cluster) as client:
        yield client


@contextlib.contextmanager
def slurm_client(processes: int, threads: int, logs: Path):
    """`processes` SLURM worker jobs of one worker process with `threads` slots each (one CPU
    asked of SLURM: the stand-in sleeps), through the pipeline's own SLURMCluster set-up (TLS,
    the scheduler on this host's network address), once every job's worker is up."""
    from pipeline.cluster.clusters import open_cluster
    from pipeline.state.config import validate
    cfg = validate(compose("cluster=slurm", f"cluster.jobs={processes}", f"cluster.slurm.cores={threads}",
                           "cluster.slurm.processes=1", "+cluster.slurm.job_cpu=1", "cluster.slurm.memory=2GB",
                           "cluster.slurm.walltime=01:00:00", "cluster.slurm.death_timeout=60",
                           f"cluster.slurm.log_directory={logs}", "cluster.slurm.job_name=dsame-scale"))
    with open_cluster(cfg.cluster) as client:
        client.wait_for_workers(processes, timeout=300)
        yield client


def warm_imports() -> None:
    """What `python -m pipeline` loads before it starts its cluster (the search, torch, ribs,
    the optimizer's compiler hooks): here the cluster is up first, so it is loaded before the
    clock starts rather than counted as the workers' idle time."""
    import torch

    import pipeline.search.deck_search  # noqa: F401  (ribs, numba, the report writers)
    torch.optim.Adam([torch.zeros(1, requires_grad=True)])


def run_overrides(steady_state: bool, table: Path, budget: int, run_dir: Path, extra: list[str]) -> list[str]:
    """The config of one scale run: the default lag (algorithm.lag=auto, 3 decks per slot the
    run has) and the batched inner loop, the fastest whose quality holds
    (docs/pipeline.md#the-surrogate-inner-loop)."""
    return ["experiment=paper", "algorithm.lag=auto", "algorithm.min_batch=auto", "surrogate.device=auto",
            "engine=scale_standin", f"engine.table={table}", f"algorithm.budget={budget}",
            f"algorithm.steady_state={str(steady_state).lower()}", "algorithm.inner.mode=batched",
            f"run_dir={run_dir}", "progress=false", *extra]


def slots_of(slots: int, processes: int) -> tuple[int, int]:
    """(processes, threads each) that hold `slots` worker slots."""
    processes = max(1, min(processes, slots))
    return processes, -(-slots // processes)


def scale_run(slots: int, processes: int, steady_state: bool, table: Path, budget: int, run_dir: Path,
              extra: list[str], overhead_tasks: int, slurm: bool = False) -> dict:
    """One DSA-ME run with `slots` stand-in worker slots (a LocalCluster, or SLURM worker jobs);
    its figures."""
    from distributed import get_task_stream

    from pipeline.driver import run
    from pipeline.state import checkpoint as ckpt
    warm_imports()
    processes, threads = slots_of(slots, processes)
    shutil.rmtree(run_dir, ignore_errors=True)
    cfg = compose(*run_overrides(steady_state, table, budget, run_dir, extra))
    clients = slurm_client(processes, threads, run_dir.parent / "slurm-logs") if slurm else local_client(processes, threads)
    with clients as client:
        overhead = scheduler_overhead_s(client, overhead_tasks)
        start, cpu, thread_cpu, clock = time.perf_counter(), time.process_time(), time.thread_time(), time.time()
        with get_task_stream(client) as stream:
            run(cfg, client=client)
            wall = time.perf_counter() - start
            cpu, thread_cpu = time.process_time() - cpu, time.thread_time() - thread_cpu
        spans = [(s["start"], s["stop"]) for task in stream.data for s in task["startstops"] if s["action"] == "compute"]
    rows = [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines()]
    lag = ckpt.load(run_dir / ckpt.FILENAME).state.get("lag", 0)  # the steady-state loop's, as resolved
    game_s = sum(r.get("batch_game_s", 0.0) for r in rows)
    iterations = [r for r in rows if "inner_loop_s" in r]
    phases = {p: float(np.mean([r.get(p, 0.0) for r in iterations])) if iterations else 0.0 for p in PHASES}
    rate = budget / wall * 3600
    games = int(cfg.opponents.games)
    tasks = len(spans)
    size = budget * games / tasks
    return {"slots": processes * threads, "steady_state": steady_state, "lag": lag, "slurm": slurm,
            "evaluations": budget, "wall_s": wall,
            "busy_share": game_s / (processes * threads * wall), "evaluations_per_hour": rate,
            "head_s_per_iteration": sum(phases.values()), **{f"head_{p}": v for p, v in phases.items()},
            "outer_iterations": len(iterations), "scheduler_s_per_task": overhead,
            "games_per_task": size, "tasks": tasks,
            # where the slots waited: before the first task ran, and after the last one ended
            "startup_s": min(a for a, _ in spans) - clock, "tail_s": clock + wall - max(b for _, b in spans),
            # the driver process's CPU (search, client and, here, the scheduler) and its main
            # thread's alone (search and client-side result handling), per task and per iteration
            "head_cpu_ms_per_task": cpu / tasks * 1000, "search_cpu_ms_per_task": thread_cpu / tasks * 1000,
            "head_cpu_s_per_iteration": cpu / max(len(iterations), 1),
            "driver_peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "paper_trial_projected_h": PAPER_EVALUATIONS / rate}


RESULT = "scale-result "


def run_name(slots: int, mode: str, slurm: bool) -> str:
    """A run's name in what this tool prints ("N=200 steady_state=on slurm")."""
    return f"N={slots} steady_state={mode}{' slurm' if slurm else ''}"


def run_folder(runs_dir: Path, slots: int, mode: str, slurm: bool) -> Path:
    """A run's folder under --runs-dir ("N200-steady_state-on-slurm")."""
    return runs_dir / f"N{slots}-steady_state-{mode}{'-slurm' if slurm else ''}"


def _run_in_child(args, slots: int, mode: str) -> dict:
    """One run in a process of its own, so its peak memory is its own (with --slurm: on the
    three-host cluster's controller, where its scheduler is reachable from the compute nodes)."""
    import subprocess
    command = [sys.executable, "-m", "tools.scale", "--one", str(slots), mode, "--processes", str(args.processes),
               "--budget", str(args.budget), "--table", str(args.table.resolve()),
               "--overhead-tasks", str(args.overhead_tasks), "--runs-dir", str(args.runs_dir.resolve()),
               *(["--slurm"] if args.slurm else []), *args.overrides]
    if args.slurm:
        command = ["bash", str(NODES_SCRIPT), "on", f"{os.environ.get('SLURM_NODES_NAME', 'dsame')}-ctl", *command]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    found = [ln for ln in done.stdout.splitlines() if ln.startswith(RESULT)]
    if done.returncode != 0 or not found:
        # one line: the child's own error line, else its last line with its whole output kept
        lines = done.stderr.strip().splitlines() or ["(no output)"]
        said = lines[-1].removeprefix("error: ")
        if not lines[-1].startswith("error: "):
            kept = run_folder(args.runs_dir, slots, mode, args.slurm).with_suffix(".stderr")
            kept.parent.mkdir(parents=True, exist_ok=True)
            kept.write_text(done.stderr)
            said += f" (its whole output: {kept})"
        fail(f"the scale run {run_name(slots, mode, args.slurm)} failed ({done.returncode}): {said}")
    return json.loads(found[-1][len(RESULT):])


def line(r: dict) -> str:
    return (f"scale {run_name(r['slots'], 'on' if r['steady_state'] else 'off', bool(r.get('slurm')))}: "
            f"busy_share {r['busy_share']:.2f}, lag {r['lag']}, "
            f"evaluations_per_hour {r['evaluations_per_hour']:.0f}, "
            f"head_s_per_iteration {r['head_s_per_iteration']:.1f}, "
            f"scheduler_ms_per_task {r['scheduler_s_per_task'] * 1000:.2f}, "
            f"head_cpu_ms_per_task {r['head_cpu_ms_per_task']:.2f}, "
            f"head_cpu_s_per_iteration {r['head_cpu_s_per_iteration']:.1f}, "
            f"driver_peak_mib {r['driver_peak_mib']:.0f}, paper_trial_h {r['paper_trial_projected_h']:.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = ArgumentParser(prog="python -m tools.scale", description=__doc__.split("\n\n")[0])
    parser.add_argument("--slots", type=int_in(1, 10 ** 5), nargs="+", default=[200, 1000], help="worker slots N")
    parser.add_argument("--processes", type=int_in(1, 10 ** 4), default=None,
                        help="worker processes holding the slots (default 2; with --slurm: worker jobs, one per node)")
    parser.add_argument("--budget", type=int_in(1, 10 ** 7), default=5000, help="evaluations per run")
    parser.add_argument("--modes", nargs="+", choices=("off", "on"), default=["off", "on"], help="off: the paper's synchronous loop; on: the steady-state loop")
    parser.add_argument("--table", type=Path, default=OUT / "table.npz", help="the stand-in's table")
    parser.add_argument("--runs-dir", type=Path, default=OUT / "runs", help="where the runs' folders go")
    parser.add_argument("--recalibrate", action="store_true", help="play the calibration games again")
    parser.add_argument("--calibration-decks", type=int_in(1, 10 ** 4), default=40)
    parser.add_argument("--calibration-games", type=int_in(1, 10 ** 5), default=24, help="games per calibration deck")
    parser.add_argument("--overhead-tasks", type=int_in(1, 10 ** 6), default=2000, help="no-op tasks timing the scheduler")
    parser.add_argument("--slurm", action="store_true",
                        help="the workers as SLURM jobs on the three-host cluster of slurm/nodes_slurm.sh (root; "
                             "started and stopped here when it is not up): the driver on its controller, "
                             "N / --processes slots per job, one job per compute node by default")
    parser.add_argument("--json", type=Path, default=None, help="also write every figure here")
    parser.add_argument("--one", nargs=2, metavar=("N", "MODE"), help=argparse.SUPPRESS)  # a child's run
    parser.add_argument("overrides", nargs="*", help="more config overrides for every run (key=value)")
    args = parser.parse_args(argv)
    args.processes = args.processes or 2
    if not args.one:  # every run's config checked before anything is calibrated, started or written
        for mode in args.modes:
            checked_config(*run_overrides(mode == "on", args.table.resolve(), args.budget,
                                          args.runs_dir.resolve() / "check", args.overrides))
    if args.recalibrate or not args.table.is_file():
        found = calibrate(args.table, args.calibration_decks, args.calibration_games, 12, os.cpu_count() or 1)
        print(f"calibrated: {found['decks']} decks x {found['games']} real games in {found['wall_s']:.0f} s, "
              f"{found['seconds_per_game_mean'] * 1000:.1f} +- {found['seconds_per_game_sd'] * 1000:.1f} ms "
              f"per game -> {args.table}", flush=True)
    if args.one:
        slots, mode = int(args.one[0]), args.one[1]
        try:
            r = scale_run(slots, args.processes, mode == "on", args.table.resolve(), args.budget,
                          run_folder(args.runs_dir, slots, mode, args.slurm), args.overrides,
                          args.overhead_tasks, slurm=args.slurm)
        except PipelineError as exc:
            fail(str(exc))
        print(RESULT + json.dumps(r))
        return 0
    with (nodes_cluster() if args.slurm else contextlib.nullcontext()):
        results = [_run_and_say(args, slots, mode) for slots in args.slots for mode in args.modes]
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    for r in results:
        print(line(r))
    return 0


def _run_and_say(args, slots: int, mode: str) -> dict:
    r = _run_in_child(args, slots, mode)
    print(f"{run_name(r['slots'], mode, r['slurm'])}: {r['evaluations']} evaluations in "
          f"{r['wall_s']:.0f} s ({r['startup_s']:.1f} s before the first task, {r['tail_s']:.1f} s after the last), "
          f"{r['tasks']} tasks of {r['games_per_task']:.0f} games on average, "
          f"{r['outer_iterations']} outer iterations; head node per iteration: "
          + ", ".join(f"{p[:-2]} {r['head_' + p]:.2f} s" for p in PHASES), flush=True)
    return r


MUNGED_PID = Path("/run/munge/munged.pid")  # the machine's munged, which nodes_slurm.sh starts when it is not up


@contextlib.contextmanager
def nodes_cluster():
    """The three-host SLURM cluster: the one that is up (the SLURM tests' own), or one started
    here and stopped afterwards, with the munged its start started (as `make test` leaves nothing
    it started: nodes_slurm.sh stop leaves munged to whoever else may use it)."""
    import subprocess
    name = os.environ.get("SLURM_NODES_NAME", "dsame")
    up = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True)
    if up.returncode == 0 and f"{name}-ctl" in up.stdout.split():
        yield
        return
    munged_before = _running_pid(MUNGED_PID)
    done = subprocess.run(["bash", str(NODES_SCRIPT), "start"], cwd=ROOT, capture_output=True, text=True)
    munged = _running_pid(MUNGED_PID)
    started_munged = munged if munged is not None and munged != munged_before else None
    try:
        if done.returncode != 0:
            lines = done.stderr.strip().splitlines() or done.stdout.strip().splitlines() or ["(no output)"]
            fail(f"cannot start the three-host SLURM cluster: {lines[-1]}")
        yield
    finally:
        subprocess.run(["bash", str(NODES_SCRIPT), "stop"], cwd=ROOT, capture_output=True, text=True)
        if started_munged is not None:
            _stop(started_munged)


def _running_pid(pid_file: Path) -> int | None:
    """The pid in `pid_file` when that process runs, else None."""
    try:
        pid = int(pid_file.read_text().split()[0])
        os.kill(pid, 0)
        return pid
    except (OSError, ValueError, IndexError):
        return None


def _stop(pid: int, wait_s: float = 10) -> None:
    """SIGTERM to `pid`, and SIGKILL if it is still there after `wait_s`."""
    import signal
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGTERM)
        end = time.monotonic() + wait_s
        while time.monotonic() < end:
            os.kill(pid, 0)  # OSError once it is gone
            time.sleep(0.1)
        os.kill(pid, signal.SIGKILL)


if __name__ == "__main__":
    sys.exit(main())
