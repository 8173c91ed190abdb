"""Where the games run: Dask clusters (`clusters`: local, SLURM, an address; TLS; stop
signals), the evaluation client that turns decks into seeded tasks and results
(`evaluation`), and the functions those tasks call on a worker (`worker_tasks`, with the
registry of engines). Imports `pipeline.errors`, `pipeline.deck_space` and `workers`."""
