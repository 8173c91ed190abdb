"""Stops and faults on a local cluster: Ctrl-C and SIGTERM stop a run with one line and the
conventional exit code, and the same command resumes it to the uninterrupted result; a worker
process killed while the cluster starts does not abort the run; a driver that loses its
scheduler goes on to the uninterrupted result."""
import os
import re
import signal
import subprocess
import threading
import time

import psutil
import pytest

from pipeline.cluster.clusters import open_cluster
from pipeline.run_errors import ClusterStartError

from .helpers import (ROOT, assert_same_run, command, compose, final_state, run_pipeline,
                      saved_evaluations, wait_for)

BUDGET = 60  # helpers.TINY: 20 random decks, then one DSA-ME iteration to 60


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("reference") / "run"
    run_pipeline(run_dir=run_dir)
    return final_state(run_dir)


def _group_gone(pgid) -> bool:
    """No process of the run's process group (driver, Dask workers) is left."""
    for proc in psutil.process_iter():
        try:
            if os.getpgid(proc.pid) == pgid and proc.status() != psutil.STATUS_ZOMBIE:
                return False
        except (psutil.Error, ProcessLookupError):
            continue
    return True


@pytest.mark.parametrize("name,to_group", [("SIGINT", True), ("SIGTERM", False)],
                         ids=["ctrl-c-to-the-process-group", "sigterm-to-the-driver"])
def test_a_signal_stops_the_run_with_one_line_and_the_same_command_resumes(tmp_path, reference, name, to_group):
    signum = getattr(signal, name)
    run_dir = tmp_path / "run"
    proc = subprocess.Popen(command(run_dir=run_dir), cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert wait_for(lambda: saved_evaluations(run_dir) >= 20 or proc.poll() is not None)
        (os.killpg if to_group else os.kill)(proc.pid, signum)
        started = time.time()
        if to_group:  # a second Ctrl-C while the run stops changes nothing
            time.sleep(0.3)
            os.killpg(proc.pid, signum)
        stderr = proc.communicate(timeout=60)[1]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    stopped_in = time.time() - started
    kept = saved_evaluations(run_dir)
    assert proc.returncode == 128 + signum, stderr[-3000:]
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "run the same command again to resume" in lines[0], stderr[-3000:]
    assert lines[0].startswith(f"stopped by {name}") and "Traceback" not in stderr
    assert 20 <= kept < BUDGET and f"holds {kept} evaluations" in lines[0]  # stopped in the middle
    assert wait_for(lambda: _group_gone(proc.pid), timeout=20), "Dask processes outlived the driver"
    assert stopped_in < 30
    done = run_pipeline(run_dir=run_dir)
    assert f"resuming {run_dir} at {kept} evaluations" in done.stderr
    assert_same_run(final_state(run_dir), reference)


def test_a_stop_while_the_cluster_starts_exits_cleanly(tmp_path):
    """SIGINT to the driver while the cluster starts: the start finishes, then the run stops.
    (Sent to the driver alone: a Ctrl-C to the whole group that reaches a worker process in its
    first second, before it can ignore SIGINT, also makes that worker print a traceback.)"""
    run_dir = tmp_path / "run"
    proc = subprocess.Popen(command(run_dir=run_dir), cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        # the lock file appears when the driver has its run folder, just before the cluster starts
        assert wait_for(lambda: (run_dir / ".lock").exists() or proc.poll() is not None)
        os.kill(proc.pid, signal.SIGINT)
        stderr = proc.communicate(timeout=60)[1]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, stderr[-3000:]
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "run the same command again" in lines[0], stderr[-3000:]
    assert saved_evaluations(run_dir) == -1


def test_a_stop_raised_where_python_drops_exceptions_is_delivered_again(capfd):
    """A signal handled inside a __del__ (or a garbage-collector callback) raises Stopped where
    Python only prints "Exception ignored"; the stop must still happen."""
    from pipeline.cluster.stops import Stopped, stop_on_signals

    class SignalledWhileCollected:
        def __del__(self):
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(10000):  # the handler runs here, inside __del__
                pass

    with pytest.raises(Stopped) as stopped, stop_on_signals():
        SignalledWhileCollected()
        time.sleep(5)  # the stop arrives again meanwhile
    assert stopped.value.code == 143 and "Exception ignored" not in capfd.readouterr().err
    signal.signal(signal.SIGINT, signal.default_int_handler)  # stopped: both were left ignored
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class _WorkerKiller(threading.Thread):
    """Kills the first `count` Dask worker processes this process starts, as they appear."""

    def __init__(self, count):
        super().__init__(daemon=True)
        self.count, self.killed, self.done = count, 0, threading.Event()

    def run(self):
        seen, me = set(), psutil.Process()
        while not self.done.is_set() and self.killed < self.count:
            for child in me.children(recursive=True):
                try:
                    is_worker = child.pid not in seen and "spawn_main" in " ".join(child.cmdline())
                    if is_worker and self.killed < self.count:
                        seen.add(child.pid)
                        child.kill()
                        self.killed += 1
                except psutil.Error:
                    continue
            time.sleep(0.005)


def test_a_worker_killed_while_the_cluster_starts_does_not_abort_the_run():
    killer = _WorkerKiller(count=1)
    killer.start()
    try:
        with open_cluster(compose("cluster.n_workers=2").cluster) as client:
            assert killer.killed == 1
            assert client.submit(sum, [40, 2]).result(timeout=60) == 42
    finally:
        killer.done.set()


def test_a_cluster_that_never_starts_is_one_clear_error():
    killer = _WorkerKiller(count=10 ** 6)
    killer.start()
    try:
        with pytest.raises(ClusterStartError, match=r"did not start in 3 attempts; last error: .*Nanny failed to start"):
            with open_cluster(compose("cluster.n_workers=1").cluster):
                pass
    finally:
        killer.done.set()


class _SchedulerCut(threading.Thread):
    """Once the run in this process has a checkpoint of 20 evaluations, cuts its Dask client
    off its scheduler: `closed` closes the client, as one does that failed to reconnect (a driver
    starved of CPU); `dropped` aborts the connection, and the client reconnects, its tasks
    cancelled."""

    def __init__(self, run_dir, how):
        super().__init__(daemon=True)
        self.run_dir, self.how, self.tasks_in_flight, self.saved_at_cut = run_dir, how, None, None

    def run(self):
        from distributed import default_client
        if not wait_for(lambda: saved_evaluations(self.run_dir) >= 20):
            return
        time.sleep(0.5)  # the next batch's tasks are out
        client = default_client()
        self.tasks_in_flight = len(client.futures)
        # on a slow machine a later checkpoint may already be written: the run resumes from it
        self.saved_at_cut = saved_evaluations(self.run_dir)
        if self.how == "closed":
            client.close()
        else:
            client.loop.add_callback(lambda: client.scheduler_comm.comm.abort())


@pytest.mark.parametrize("how", ["closed", "dropped"])
def test_a_driver_that_loses_its_scheduler_goes_on_to_the_same_run(tmp_path, reference, how, capfd):
    from pipeline.driver import run
    run_dir = tmp_path / "run"
    cut = _SchedulerCut(run_dir, how)
    cut.start()
    run(compose(run_dir=run_dir))
    assert cut.tasks_in_flight, "the cut came before any task was out"
    err = capfd.readouterr().err
    if how == "closed":  # the cluster is started again and the run resumed from its checkpoint
        line = next(ln for ln in err.splitlines() if "lost its Dask scheduler" in ln)
        resumed = re.search(r"resuming from the checkpoint at (\d+) evaluations \(restart 1 of at most 3\)$", line)
        assert resumed, line
        kept = int(resumed.group(1))
        assert cut.saved_at_cut <= kept < BUDGET  # the newest checkpoint, in the middle of the run
        assert line in (run_dir / "cluster.log").read_text()
        assert f"resuming {run_dir} at {kept} evaluations" in err
    assert_same_run(final_state(run_dir), reference)


def test_a_driver_that_loses_its_scheduler_too_often_stops_with_one_line(tmp_path, monkeypatch):
    from pipeline import driver
    from pipeline.run_errors import SchedulerLost
    monkeypatch.setattr(driver, "SCHEDULER_RESTARTS", 0)
    run_dir = tmp_path / "run"
    _SchedulerCut(run_dir, "closed").start()
    with pytest.raises(SchedulerLost) as lost:
        driver.run(compose(run_dir=run_dir))
    kept = saved_evaluations(run_dir)
    assert kept >= 20 and lost.value.saved == kept
    assert str(lost.value).endswith(f"the checkpoint in {run_dir} holds {kept} evaluations; "
                                    "run the same command again to resume")
    from pipeline.state.run_dir import locked
    with locked(run_dir):  # released: the same command can take the folder up again
        pass
