"""Starting the Dask cluster the config names: LocalCluster by default (local.py), SLURM
(slurm.py), or an address.

Every cluster the pipeline starts speaks TLS with credentials made for the run, and its
dashboard is off unless asked for (security.py). SIGINT and SIGTERM become a `Stopped` exit that
closes the cluster on the way out (stops.py)."""
from __future__ import annotations

import contextlib
import logging

from ..run_errors import ConfigError
from .local import open_local, usable_cores
from .security import close_or_announce_dashboard, one_line_request_errors
from .slurm import fault_settings, open_slurm
from .stops import close_quietly, stop_on_signals
from .worker_watch import WorkerWatch, scheduler_workers


@contextlib.contextmanager
def open_cluster(cfg):
    """Yields a distributed.Client; one single-threaded worker process per core by default
    (the engine is pure Python, so threads would only contend for the GIL). SIGINT and SIGTERM
    raise Stopped meanwhile; whatever was started is closed on the way out."""
    import dask

    # Games of one chunk take seconds; a task may be re-run where its worker died.
    dask.config.set({"distributed.scheduler.allowed-failures": int(cfg.max_retries)})
    openers = {"local": open_local, "slurm": open_slurm, "address": _open_address}
    if cfg.kind not in openers:
        raise ConfigError(f"cluster.kind must be local, slurm or address, got {cfg.kind!r}")
    logging.getLogger("tornado.application").addFilter(one_line_request_errors)
    with stop_on_signals(), contextlib.ExitStack() as stack:
        client = openers[cfg.kind](cfg, stack)
        if cfg.kind != "address":  # a cluster started elsewhere keeps the dashboard it has
            close_or_announce_dashboard(client, bool(cfg.dashboard))
        yield client


def _open_address(cfg, stack):
    from distributed import Client
    if not cfg.address:
        raise ConfigError("cluster.kind=address needs cluster.address (tcp://host:port)")
    settings = fault_settings(cfg)
    client = Client(cfg.address)  # TLS, where used, comes from dask's config (DASK_DISTRIBUTED__COMM__TLS__*)
    stack.callback(close_quietly, client.close)
    # Nothing replaces a worker of this scheduler (an srun task whose node went down): say each
    # one lost, with its node, and stop a run that has none left.
    watch = WorkerWatch(lambda: scheduler_workers(client), every=settings["watch_every_s"],
                        lost_after=settings["lost_job_after_s"])
    watch.start()
    stack.callback(watch.stop)  # before the client closes
    return client


def planned_slots(cfg, started_here: bool = True) -> int | None:
    """The worker slots (single-threaded task places) a run plans on, for the cluster the config
    starts: local, cluster.n_workers or the usable cores; SLURM, every job's (jobs x processes x
    threads each), whenever they arrive. None for a cluster started elsewhere (cluster.kind=address,
    a client handed to the driver): the evaluation client counts the workers connected then."""
    if started_here and cfg.kind == "local":
        return int(cfg.n_workers or usable_cores())
    if started_here and cfg.kind == "slurm":
        cores = int(cfg.slurm.cores)
        processes = int(cfg.slurm.get("processes") or cores)
        return int(cfg.jobs) * processes * max(cores // processes, 1)
    return None
