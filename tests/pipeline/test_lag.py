"""The steady-state loop's lag: `auto` follows the slots a run has when it starts, a run keeps its
lag when resumed on other slots, a run started under the old `auto` (4% of the budget) resumes
with it, and a stop keeps every result that had arrived."""
import json
import os
import shutil
import signal
import subprocess
import sys

import pytest
from omegaconf import OmegaConf

from pipeline.cluster.clusters import planned_slots
from pipeline.search.loop import LAG_FLOOR, legacy_lag, steady_state_lag

from .helpers import (ROOT, assert_same_run, command, final_state, kill_group, run_pipeline, saved_evaluations,
                      start_pipeline, wait_for)

# A run started on 24084ff (the old default, algorithm.lag=auto: 4% of 500 = 20 decks) with these
# overrides, stopped by SIGTERM at 274 evaluations with two batches in flight (its config.yaml).
OLD_RUN = ROOT / "tests" / "pipeline" / "data" / "steady_state_24084ff"
OLD_OVERRIDES = ["experiment=smoke_random", "seed=3", "cluster.n_workers=2", "surrogate.hidden=[16,8]",
                 "progress=false"]


def _algo(lag="auto", budget=10_000):
    return OmegaConf.create({"lag": lag, "budget": budget})


@pytest.mark.parametrize("slots,budget,lag", [
    (200, 10_000, 600),     # 3 per slot
    (1000, 10_000, 3000),
    (2, 10_000, LAG_FLOOR),  # a small cluster still plays while the head node works
    (1000, 500, 150),       # but never more than 30% of the budget
    (2, 6, 6),              # nor more than the budget
])
def test_auto_lag_is_three_decks_per_slot_within_bounds(slots, budget, lag):
    assert steady_state_lag(_algo(budget=budget), slots) == lag
    assert steady_state_lag(_algo(lag=7, budget=budget), slots) == 7  # a number is kept as it is
    assert legacy_lag(_algo(budget=budget)) == max(1, round(0.04 * budget))


def test_planned_slots_are_those_the_config_starts():
    local = OmegaConf.create({"kind": "local", "n_workers": 6})
    slurm = OmegaConf.create({"kind": "slurm", "jobs": 10, "slurm": {"cores": 20, "processes": 20}})
    threaded = OmegaConf.create({"kind": "slurm", "jobs": 3, "slurm": {"cores": 8, "processes": 2}})
    assert planned_slots(local) == 6
    assert planned_slots(slurm) == 200  # every job's, also before they arrive
    assert planned_slots(threaded) == 24
    assert planned_slots(local, started_here=False) is None  # a cluster started elsewhere: count its workers


def _rows(run_dir):
    return [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines()]


def _trained_with_lag(rows, lag) -> bool:
    """Each surrogate was trained on all but the last `lag` decks submitted before its batch."""
    trained = [r for r in rows if "trained_on" in r]
    return bool(trained) and all(r["trained_on"] == r["evaluations"] - r["batch"] - lag
                                 and r.get("lag", lag) == lag for r in trained)


def test_a_run_started_on_24084ffs_defaults_resumes_with_the_lag_it_began_with(tmp_path):
    run_dir = tmp_path / "old"
    shutil.copytree(OLD_RUN, run_dir)
    assert "lag" not in final_state(run_dir)["state"]  # the old checkpoint does not say it
    done = subprocess.run([sys.executable, "-m", "pipeline", *OLD_OVERRIDES, f"run_dir={run_dir}"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "resuming" in done.stderr
    resumed = final_state(run_dir)
    assert resumed["state"]["lag"] == 20  # not the 10 that auto gives 2 slots now
    assert _trained_with_lag(_rows(run_dir), 20)
    # the same as a whole run with that lag on the new code
    fresh = tmp_path / "fresh"
    done = subprocess.run([sys.executable, "-m", "pipeline", *OLD_OVERRIDES, "algorithm.lag=20", f"run_dir={fresh}"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert_same_run(resumed, final_state(fresh))


def test_a_run_keeps_its_lag_when_resumed_on_fewer_slots(tmp_path):
    run_dir = tmp_path / "run"
    six = ["algorithm.budget=80", "cluster.n_workers=6"]  # auto: 18 decks (3 x 6, under 30% of 80)
    proc = start_pipeline(*six, run_dir=run_dir)
    assert wait_for(lambda: saved_evaluations(run_dir) >= 20 or proc.poll() is not None)
    kill_group(proc)
    assert final_state(run_dir)["state"]["lag"] == 18
    done = run_pipeline("algorithm.budget=80", "cluster.n_workers=1", run_dir=run_dir)  # auto would be 10
    assert "resuming" in done.stderr
    assert final_state(run_dir)["state"]["lag"] == 18 and _trained_with_lag(_rows(run_dir), 18)
    whole = tmp_path / "whole"
    run_pipeline("algorithm.budget=80", "algorithm.lag=18", run_dir=whole)
    assert_same_run(final_state(run_dir), final_state(whole))


def _games_done(client) -> tuple[int, int]:
    """The scheduler's count of the run's game tasks finished so far, and of those whose result
    the run has not taken in yet (a task's result is released once the run has it)."""
    def counts(dask_scheduler):
        prefix = dask_scheduler.task_prefixes.get("play_chunk")
        return (0, 0) if prefix is None else (prefix.state_counts["memory"], prefix.states["memory"])
    return tuple(client.run_on_scheduler(counts))


def _hold_the_slot(started: str, release: str) -> None:
    """A task of the test's own: it takes the cluster's one worker slot until `release` is set."""
    from distributed import Event
    Event(started).set()
    Event(release).wait()


def test_a_stop_keeps_every_result_that_had_arrived(tmp_path):
    """SIGTERM in the middle of the first batch (200 random decks, 2 tasks each), at a known
    point, not after a guessed time: the run plays on a cluster of the test's (cluster.kind=
    address) with one worker slot; once some of its games are in, a task of the test's takes that
    slot, so no more game ends, and the stop comes once the run has taken in every result there
    is (the scheduler holds none it has not released). The checkpoint keeps the decks whose games
    were in, where a stop used to keep none of the batch until all of it was in."""
    from distributed import Client, Event, LocalCluster
    run_dir = tmp_path / "run"
    slow = ["algorithm.budget=220", "algorithm.initial=200", "opponents.games=100", "cluster.games_per_task=50"]
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        proc = subprocess.Popen(command(*slow, "cluster.kind=address", f"cluster.address={cluster.scheduler_address}",
                                        run_dir=run_dir), cwd=ROOT, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        started, release = Event("lag-test-started", client=client), Event("lag-test-release", client=client)
        try:
            # two decks' tasks ended: the first deck was added while the next tasks played
            assert wait_for(lambda: _games_done(client)[0] >= 4 or proc.poll() is not None), "no game task ended"
            assert proc.poll() is None, proc.communicate()[1][-3000:]
            holder = client.submit(_hold_the_slot, started.name, release.name, priority=10, pure=False)
            assert started.wait(timeout=120), "the test's task did not get the slot"
            assert wait_for(lambda: _games_done(client)[1] == 0), "the run did not take in the games that ended"
            done = _games_done(client)[0]
            os.kill(proc.pid, signal.SIGTERM)
            stderr = proc.communicate(timeout=60)[1]
        finally:
            release.set()
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
        holder.result(timeout=60)
    kept = saved_evaluations(run_dir)
    assert proc.returncode == 143 and f"holds {kept} evaluations" in stderr, stderr[-3000:]
    assert 0 < kept <= done // 2 < 200  # a deck is kept once both its tasks are in
    resumed = run_pipeline(*slow, run_dir=run_dir)
    assert f"at {kept} evaluations" in resumed.stderr
    whole = tmp_path / "whole"
    run_pipeline(*slow, run_dir=whole)
    assert_same_run(final_state(run_dir), final_state(whole))
