"""A run's folder: the config's checks and identity (`config`), the HDF5 checkpoint written
atomically and checked on load (`checkpoint`), and the run directory with its lock
(`run_dir`). Imports `pipeline.cluster` and below."""
