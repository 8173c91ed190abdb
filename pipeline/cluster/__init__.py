"""Where the games run: Dask clusters (`clusters` opens the one the config names: `local`,
`slurm` with its `job_watch`, or an address; `security` for TLS and the dashboard, `stops` for
SIGINT and SIGTERM, `events` for the run's cluster.log), the evaluation client that turns decks
into seeded tasks and results (`evaluation`), and the functions those tasks call on a worker
(`worker_tasks`, with the registry of engines). Imports `pipeline.run_errors`, `pipeline.deck_space`
and `workers`."""
