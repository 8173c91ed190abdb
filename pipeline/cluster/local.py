"""The local cluster (cluster.kind=local): one single-threaded worker process per core, on the
loopback interface, TLS only."""
from __future__ import annotations

import logging
import os
import signal
import threading
import time

from ..run_errors import ClusterStartError
from .security import LOOPBACK, dashboard_bind, http_pages, temporary_security
from .stops import close_quietly, stop_pending, stops_deferred, take_pending_stop
from .worker_tasks import WORKER_CONFIG

START_ATTEMPTS = 3  # a local cluster whose start fails (a worker process killed early) starts again


def usable_cores() -> int:
    """The cores this process may run on (a SLURM job's share, not the node's count): one local
    worker each by default, and the batched inner loop's threads."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def dask_setup(worker) -> None:
    """Run in each local worker process (start_local_cluster preloads this module). The workers
    share the driver's terminal and process group: a Ctrl-C reaches them too, but the driver
    closes them itself, so they ignore it instead of dying with a KeyboardInterrupt traceback
    each. Their complaints about a scheduler going away (it lives in the driver and closes on
    purpose) are silenced: whatever goes wrong in a worker reaches the driver as a failed or lost
    task. The worker's own HTTP server (health and metrics pages, open to every local user) is
    closed: nothing here reads it."""
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    worker.http_server.stop()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def start_local_cluster(n_workers: int | None, security, dashboard_address=None, dashboard: bool = False,
                        attempts: int = START_ATTEMPTS):
    """A LocalCluster on the loopback interface, TLS only, its scheduler's HTTP server serving
    nothing unless `dashboard`; started again if a worker process dies before the cluster is up
    ("Nanny failed to start"), one clear error after `attempts`."""
    from distributed import LocalCluster
    n = int(n_workers or usable_cores())
    problem = None
    for attempt in range(attempts):
        if attempt:
            time.sleep(1.0)
        try:
            with http_pages(dashboard):
                return LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host=LOOPBACK,
                                    protocol="tls://", security=security, preload=["pipeline.cluster.local"],
                                    config=WORKER_CONFIG,  # handed to each worker by its nanny
                                    dashboard_address=dashboard_bind(dashboard_address),
                                    scheduler_kwargs={"dashboard": dashboard}, silence_logs=logging.ERROR)
        except Exception as exc:  # noqa: BLE001 - whatever stopped it, the next attempt may start
            if stop_pending():  # a Ctrl-C may have ended the workers: no retry
                raise take_pending_stop() from None
            problem = exc
    raise ClusterStartError(f"the local Dask cluster ({n} workers) did not start in {attempts} "
                            f"attempts; last error: {type(problem).__name__}: {problem}")


def open_local(cfg, stack):
    """A client of a new local cluster; `stack` closes both."""
    from distributed import Client
    with stops_deferred():  # a stop while the cluster starts takes effect once it can be closed
        cluster = start_local_cluster(cfg.n_workers, temporary_security(), cfg.dashboard_address,
                                      bool(cfg.dashboard))
        stack.callback(close_quietly, cluster.close)
    client = Client(cluster, security=cluster.security)
    stack.callback(close_quietly, client.close)
    return client
