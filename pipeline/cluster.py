"""Starting the Dask cluster the config names: LocalCluster by default, SLURM, or an address."""
from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
from pathlib import Path

from .errors import ConfigError

# Keys of cluster.slurm that the pipeline reads itself; the rest go to dask_jobqueue.SLURMCluster.
PIPELINE_SLURM_KEYS = ("qos", "tls", "lifetime_margin_min", "lifetime_stagger_min",
                       "dashboard_address")


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def walltime_minutes(walltime: str) -> float:
    """SLURM's time formats: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS."""
    text = str(walltime).strip()
    days = 0
    try:
        if "-" in text:
            d, text = text.split("-", 1)
            days = int(d)
            parts = [int(p) for p in text.split(":")] + [0] * (3 - len(text.split(":")))
            h, m, s = parts[:3]
        else:
            parts = [int(p) for p in text.split(":")]
            h, m, s = {1: (0, parts[0], 0), 2: (0, *parts), 3: tuple(parts)}[len(parts)]
    except (ValueError, KeyError):
        raise ConfigError(f"cluster.slurm.walltime={walltime!r} is not a SLURM time "
                          "(MM, HH:MM:SS or D-HH:MM:SS)") from None
    return days * 1440 + h * 60 + m + s / 60


def slurm_cluster_kwargs(cfg, security=None) -> dict:
    """dask_jobqueue.SLURMCluster's arguments from cluster.slurm: workers leave `lifetime_margin_min`
    (plus up to `lifetime_stagger_min`) before the walltime, so they retire cleanly instead of
    being killed with their tasks; qos becomes a job directive; the dashboard stays local."""
    from omegaconf import DictConfig, OmegaConf
    slurm = OmegaConf.to_container(cfg.slurm, resolve=True) if isinstance(cfg.slurm, DictConfig) else dict(cfg.slurm)
    opts = {k: v for k, v in slurm.items() if v is not None}
    ours = {k: opts.pop(k) for k in PIPELINE_SLURM_KEYS if k in opts}
    for key in ("cores", "memory", "walltime"):
        if key not in opts:
            raise ConfigError(f"cluster.slurm.{key} is required for cluster=slurm")
    minutes = walltime_minutes(opts["walltime"])
    margin = float(ours.get("lifetime_margin_min", 5))
    stagger = float(ours.get("lifetime_stagger_min", 2))
    if minutes <= margin + stagger:
        raise ConfigError(f"cluster.slurm.walltime={opts['walltime']} leaves no time before the "
                          f"worker lifetime margin ({margin:g} + {stagger:g} minutes)")
    extra = list(opts.pop("worker_extra_args", None) or [])
    extra += ["--lifetime", f"{int((minutes - margin) * 60)}s",
              "--lifetime-stagger", f"{int(stagger * 60)}s"]
    opts["worker_extra_args"] = extra
    directives = list(opts.pop("job_extra_directives", None) or [])
    if ours.get("qos"):
        directives.append(f"--qos={ours['qos']}")
    opts["job_extra_directives"] = directives
    opts.setdefault("python", sys.executable)
    scheduler_options = dict(opts.pop("scheduler_options", None) or {})
    scheduler_options.setdefault("dashboard_address", ours.get("dashboard_address") or "localhost:0")
    opts["scheduler_options"] = scheduler_options
    if ours.get("tls", True):
        opts["security"] = security if security is not None else temporary_security()
        # Workers read their certificate from files; only this user may read them.
        shared = Path(os.path.expandvars(os.path.expanduser(
            str(opts.get("shared_temp_directory") or opts.get("log_directory") or "."))))
        shared.mkdir(parents=True, exist_ok=True)
        opts["shared_temp_directory"] = str(shared.resolve())
    if opts.get("log_directory"):
        log_dir = Path(os.path.expandvars(os.path.expanduser(str(opts["log_directory"]))))
        log_dir.mkdir(parents=True, exist_ok=True)
        opts["log_directory"] = str(log_dir.resolve())
    return opts


def temporary_security():
    """Self-signed credentials made for this run: without them no one can talk to the scheduler."""
    from distributed.security import Security
    try:
        return Security.temporary()
    except ImportError as exc:  # pragma: no cover - cryptography is a dependency
        raise ConfigError(f"TLS on SLURM needs the cryptography package ({exc})") from None


@contextlib.contextmanager
def _terminate_cleanly():
    """SLURM ends a job (scancel, time limit, preemption) with SIGTERM: turn it into SystemExit
    in the main thread so the worker jobs are cancelled instead of left waiting for a dead
    scheduler. The last checkpoint is complete on disk either way."""
    import threading
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def open_cluster(cfg):
    """Yields a distributed.Client; one single-threaded worker process per core by default
    (the engine is pure Python, so threads would only contend for the GIL)."""
    import dask
    from distributed import Client, LocalCluster

    # Games of one chunk take seconds; a task may be re-run where its worker died.
    dask.config.set({"distributed.scheduler.allowed-failures": int(cfg.max_retries)})
    guard = contextlib.nullcontext()
    if cfg.kind == "local":
        n = int(cfg.n_workers or default_workers())
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                               dashboard_address=cfg.dashboard_address or ":0", silence_logs=logging.ERROR)
        client = Client(cluster)
        close = [client, cluster]
    elif cfg.kind == "slurm":
        from dask_jobqueue import SLURMCluster
        if int(cfg.jobs) < 1:
            raise ConfigError(f"cluster.jobs must be at least 1 for cluster=slurm, got {cfg.jobs}")
        guard = _terminate_cleanly()
        guard.__enter__()
        cluster = SLURMCluster(**slurm_cluster_kwargs(cfg))
        # adapt with minimum = maximum: a job that ends (walltime, lifetime, scancel, node
        # failure) is replaced by a new one; plain scale() would not resubmit it.
        cluster.adapt(minimum_jobs=int(cfg.jobs), maximum_jobs=int(cfg.jobs))
        client = Client(cluster, security=cluster.security)
        client.wait_for_workers(1)
        close = [client, cluster]
    elif cfg.kind == "address":
        if not cfg.address:
            raise ConfigError("cluster.kind=address needs cluster.address (tcp://host:port)")
        client = Client(cfg.address)  # TLS, where used, comes from dask's config (DASK_DISTRIBUTED__COMM__TLS__*)
        close = [client]
    else:
        raise ConfigError(f"cluster.kind must be local, slurm or address, got {cfg.kind!r}")
    try:
        yield client
    finally:
        for item in close:
            with contextlib.suppress(Exception):
                item.close()
        guard.__exit__(None, None, None)


def write_tls_files(directory: str) -> None:
    """CA, certificate and key for a cluster started by hand (slurm/dsa_me_srun.sbatch): files
    readable by this user only, and the dask config variables that point at them."""
    from distributed.security import Security
    sec = Security.temporary()
    path = Path(directory)
    path.mkdir(parents=True, exist_ok=True)
    os.chmod(path, 0o700)
    files = {"ca.pem": sec.tls_ca_file, "cert.pem": sec.tls_client_cert, "key.pem": sec.tls_client_key}
    for name, text in files.items():
        fd = os.open(path / name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(text)
    env = {"DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION": "True",
           "DASK_DISTRIBUTED__COMM__TLS__CA_FILE": path / "ca.pem"}
    for role in ("SCHEDULER", "WORKER", "CLIENT"):
        env[f"DASK_DISTRIBUTED__COMM__TLS__{role}__CERT"] = path / "cert.pem"
        env[f"DASK_DISTRIBUTED__COMM__TLS__{role}__KEY"] = path / "key.pem"
    print("\n".join(f"export {k}={v}" for k, v in env.items()))


if __name__ == "__main__":  # python -m pipeline.cluster tls DIR
    if len(sys.argv) != 3 or sys.argv[1] != "tls":
        print("usage: python -m pipeline.cluster tls DIR", file=sys.stderr)
        sys.exit(2)
    write_tls_files(sys.argv[2])
