"""Tasks of a command-line tool on a local Dask cluster: the pipeline's LocalCluster (loopback
only, TLS with credentials made for this run, so no other user of a shared node can reach the
scheduler), one single-threaded worker process per slot."""
from __future__ import annotations

from pipeline.cluster.local import start_local_cluster
from pipeline.cluster.security import temporary_security


def run_on_local_cluster(run_task, tasks: dict, workers: int):
    """Run `tasks` ({index: task}) on a local Dask cluster of `workers` processes; yield
    (index, part) as each finishes."""
    import dask
    from distributed import Client, as_completed

    dask.config.set({"distributed.scheduler.allowed-failures": 3})
    security = temporary_security()
    with start_local_cluster(workers, security) as cluster, Client(cluster, security=security) as client:
        futures = {client.submit(run_task, task, pure=False): i for i, task in tasks.items()}
        for future in as_completed(list(futures)):
            yield futures[future], future.result()
            future.release()
