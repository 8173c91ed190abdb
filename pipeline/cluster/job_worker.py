"""Preloaded into every Dask worker that a SLURM job starts (cluster=slurm, `--preload`): the
worker's own HTTP server (health and metrics pages, plain HTTP, no login) would listen on every
interface of its node, where every host of the cluster network can open it; nothing reads it, so
it is closed. (Local workers close theirs in pipeline.cluster.local.dask_setup.)"""


def dask_setup(worker) -> None:
    worker.http_server.stop()
