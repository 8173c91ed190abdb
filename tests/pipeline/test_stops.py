"""Stops and faults on a local cluster: Ctrl-C and SIGTERM stop a run with one line and the
conventional exit code, and the same command resumes it to the uninterrupted result; a worker
process killed while the cluster starts does not abort the run."""
import os
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
