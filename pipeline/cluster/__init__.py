"""Where the games run: Dask clusters and the evaluation client.

- `clusters`: open_cluster, the one the config names: `local` (one worker per core, loopback,
  TLS), `slurm` (dask-jobqueue's SLURMCluster) or an address;
- `job_watch`: a SLURM run's worker jobs watched, lost ones replaced; `worker_watch`: the srun
  script's workers watched; `periodic`: the thread both run in;
- `security`: TLS and the dashboard; `stops`: SIGINT and SIGTERM; `events`: the run's cluster.log;
- `evaluation`: the client that turns decks into seeded tasks and results; `run_client`: that
  client on the cluster a run's config names, with its engine checked;
- `worker_tasks`: what those tasks call on a worker, with the registry of engines;
  `job_worker`: preloaded by SLURM workers;
- `__main__`: `python -m pipeline.cluster tls|host` for the srun script.

Imports `pipeline.run_errors`, `pipeline.deck_space` and `workers`."""
