"""A run logs its workers' whole CPU against the games they handed back, and tools.run_overhead
sets that beside the same decks' games played alone."""
import json

from tools import run_overhead

from .helpers import run_pipeline

GAMES = 6  # helpers.TINY's opponents.games


def test_every_batch_logs_its_workers_cpu_and_games_and_the_tool_compares_them(tmp_path, capsys):
    run_pipeline("algorithm=map_elites", run_dir=tmp_path)  # generational: nothing in flight between rows
    rows = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert len(rows) == 3
    assert all(r["games_received"] == r["batch"] * GAMES and r["workers_cpu_s"] > 0 for r in rows)
    # the first row carries the worker's start (its engine loaded and warmed), the others play only
    assert rows[0]["workers_cpu_s"] > rows[1]["workers_cpu_s"]
    assert run_overhead.main([str(tmp_path), "--decks", "3"]) == 0
    said = capsys.readouterr().out
    assert f"over {rows[-1]['evaluations'] * GAMES:,} games, evaluations 0-{rows[-1]['evaluations'] - 1})" in said
    assert "18 games of 3 of those decks" in said and "ratio:" in said
    # --since takes the rows from that evaluation on: here the last one alone
    cpu, games, covered = run_overhead.run_figures(tmp_path, since=rows[1]["evaluations"])
    assert (cpu, games) == (rows[2]["workers_cpu_s"], rows[2]["games_received"])
    assert covered == range(rows[1]["evaluations"], rows[2]["evaluations"])


def test_a_run_that_did_not_measure_is_named(tmp_path, capsys):
    (tmp_path / "metrics.jsonl").write_text(json.dumps({"evaluations": 100, "batch": 100}) + "\n")
    assert run_overhead.main([str(tmp_path)]) == 2
    assert "no row of metrics.jsonl from evaluation 0 on measured its workers' CPU" in capsys.readouterr().err


def test_workers_run_without_dasks_profiler_and_with_slow_timers(tmp_path, monkeypatch):
    """Local workers get WORKER_CONFIG from their nanny, SLURM workers from their job script's
    environment: both as the worker's own Dask config, so the sampling profiler is never set up."""
    import dask

    from pipeline.cluster.clusters import open_cluster
    from pipeline.cluster.slurm import slurm_cluster_kwargs
    from pipeline.cluster.worker_tasks import WORKER_CONFIG

    from .helpers import compose
    with open_cluster(compose("cluster.n_workers=1").cluster) as client:
        timers = client.run(lambda dask_worker: (sorted(dask_worker.periodic_callbacks), dask_worker._tick_interval,
                                                 dask.config.get("distributed.admin.system-monitor.interval")))
    [(callbacks, tick_s, monitor)] = timers.values()
    assert "tick" in callbacks and not {"profile", "profile-cycle"} & set(callbacks)
    assert (tick_s, monitor) == (1.0, "5s")
    monkeypatch.chdir(tmp_path)  # the SLURM options create their log folder here
    exports = [line.removeprefix("export ").split("=", 1)
               for line in slurm_cluster_kwargs(compose("cluster=slurm").cluster)["job_script_prologue"]]
    from_env = dask.config.collect_env(dict(exports))
    for key, value in WORKER_CONFIG.items():
        assert dask.config.get(key, config=from_env) == value
