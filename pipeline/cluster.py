"""Starting the Dask cluster the config names: LocalCluster by default, SLURM, or an address."""
from __future__ import annotations

import contextlib
import logging
import os

from .errors import ConfigError


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


@contextlib.contextmanager
def open_cluster(cfg):
    """Yields a distributed.Client; one single-threaded worker process per core by default
    (the engine is pure Python, so threads would only contend for the GIL)."""
    import dask
    from distributed import Client, LocalCluster

    # Games of one chunk take seconds; a task may be re-run where its worker died.
    dask.config.set({"distributed.scheduler.allowed-failures": int(cfg.max_retries)})
    if cfg.kind == "local":
        n = int(cfg.n_workers or default_workers())
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                               dashboard_address=cfg.dashboard_address or ":0", silence_logs=logging.ERROR)
        client = Client(cluster)
        close = [client, cluster]
    elif cfg.kind == "slurm":
        from dask_jobqueue import SLURMCluster
        cluster = SLURMCluster(**dict(cfg.slurm))
        cluster.scale(jobs=int(cfg.jobs))
        client = Client(cluster)
        client.wait_for_workers(1)
        close = [client, cluster]
    elif cfg.kind == "address":
        if not cfg.address:
            raise ConfigError("cluster.kind=address needs cluster.address (tcp://host:port)")
        client = Client(cfg.address)
        close = [client]
    else:
        raise ConfigError(f"cluster.kind must be local, slurm or address, got {cfg.kind!r}")
    try:
        yield client
    finally:
        for item in close:
            with contextlib.suppress(Exception):
                item.close()
