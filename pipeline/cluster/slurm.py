"""The SLURM cluster (cluster.kind=slurm): dask-jobqueue's SLURMCluster set up from cluster.slurm,
its scheduler in the driver on an address the compute nodes reach, its worker jobs watched for
the whole run (job_watch.py), faults noticed after the timeouts of docs/slurm.md#faults."""
from __future__ import annotations

import contextlib
import ipaddress
import os
import socket
import sys
from pathlib import Path

from ..run_errors import ClusterStartError, ConfigError
from .job_watch import MAX_FAILED_JOBS, JobWatch, job_log_paths, log_ending, squeue_states
from .security import dashboard_bind, http_pages, temporary_security
from .stops import close_quietly, stops_deferred
from .worker_tasks import worker_config_exports
from .worker_watch import scheduler_workers

# Keys of cluster.slurm that the pipeline reads itself; the rest go to dask_jobqueue.SLURMCluster.
PIPELINE_SLURM_KEYS = ("qos", "tls", "lifetime_margin_min", "lifetime_stagger_min", "dashboard_address",
                       "tcp_timeout_s", "worker_ttl_s", "lost_job_after_s", "watch_every_s", "max_failed_jobs")
# How faults are noticed (docs/slurm.md#faults), seconds; cluster.slurm.<key> overrides each.
FAULT_DEFAULTS = {"tcp_timeout_s": 30, "worker_ttl_s": 60, "lost_job_after_s": 60, "watch_every_s": 5}
MIN_TCP_TIMEOUT_S = 11  # distributed's keepalive: 10 probes plus an idle second


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
    being killed with their tasks; qos becomes a job directive; the dashboard is off unless
    cluster.dashboard is true, and then listens on loopback unless a host is named."""
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
    # The worker's HTTP server (health and metrics pages, plain HTTP) would listen on every
    # interface of the node, open to every host of the cluster network: closed, as nothing reads it.
    opts["worker_extra_args"] += ["--preload", "pipeline.cluster.job_worker"]
    # A worker whose scheduler stops answering (its node cut off) notices after the same timeout
    # as the scheduler does, closes and ends its job, which is then replaced.
    opts["job_script_prologue"] = [*(opts.get("job_script_prologue") or []),
                                   f"export DASK_DISTRIBUTED__COMM__TIMEOUTS__TCP={fault_settings(cfg)['tcp_timeout_s']:g}s",
                                   *worker_config_exports()]
    scheduler_options = dict(opts.pop("scheduler_options", None) or {})
    if not opts.get("interface") and not {"host", "interface"} & set(scheduler_options):
        scheduler_options["host"] = scheduler_host()
    scheduler_options.setdefault("dashboard_address", dashboard_bind(ours.get("dashboard_address")))
    scheduler_options.setdefault("dashboard", bool(cfg.dashboard))
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


def fault_settings(cfg) -> dict:
    """cluster.slurm's fault timeouts (FAULT_DEFAULTS), checked: seconds as floats."""
    slurm = cfg.slurm if cfg.get("slurm") is not None else {}
    out = {}
    for key, default in FAULT_DEFAULTS.items():
        value = slurm.get(key, default)
        value = default if value is None else value
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 86400:
            raise ConfigError(f"cluster.slurm.{key} must be a number of seconds between 0 and 86400, got {value!r}")
        out[key] = float(value)
    if out["tcp_timeout_s"] < MIN_TCP_TIMEOUT_S:
        raise ConfigError(f"cluster.slurm.tcp_timeout_s must be at least {MIN_TCP_TIMEOUT_S} (Dask's TCP keepalive "
                          f"sends 10 probes), got {out['tcp_timeout_s']:g}")
    return out


def fault_dask_config(settings: dict) -> dict:
    """The scheduler's side (it runs in the driver): a connection silent for tcp_timeout_s is dead
    (TCP keepalive and user timeout), so a worker on a node that went down or was cut off leaves
    the scheduler then and its tasks run again elsewhere; a worker that sends no heartbeat for
    worker_ttl_s is dropped even if its connection looks alive. jobqueue's own handling of a lost
    worker (cancel its job after 15 s, only for one-process jobs) is left to the JobWatch."""
    return {"distributed.comm.timeouts.tcp": f"{settings['tcp_timeout_s']:g}s",
            "distributed.scheduler.worker-ttl": f"{settings['worker_ttl_s']:g}s",
            "distributed.deploy.lost-worker-timeout": "3650 days"}


def max_failed_jobs(cfg) -> int:
    """cluster.slurm.max_failed_jobs (checked with the config: pipeline/state/config.py)."""
    value = (cfg.slurm if cfg.get("slurm") is not None else {}).get("max_failed_jobs")
    return MAX_FAILED_JOBS if value is None else int(value)


def _ipv4_interfaces() -> list[tuple[str, str]]:
    """(name, address) of each IPv4 address of an interface that is up, loopback left out."""
    import psutil
    stats = psutil.net_if_stats()
    return [(name, a.address) for name, addrs in sorted(psutil.net_if_addrs().items())
            for a in addrs if a.family == socket.AF_INET and name in stats and stats[name].isup
            and not ipaddress.ip_address(a.address).is_loopback]


def scheduler_host(choose: str = "set cluster.slurm.interface to the interface") -> str:
    """The address that worker jobs on other nodes reach the scheduler at, chosen as Dask would
    (the interface of this host's route off the host, else what its name resolves to) but never a
    loopback address, where a worker job would reach its own node instead. A host without a
    default route whose name resolves to loopback (Debian's 127.0.1.1) gets the address of its
    one other interface; with several, the user must say which (`choose`)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("8.8.8.8", 80))  # UDP: nothing is sent, the kernel only picks a route
        if not ipaddress.ip_address(probe.getsockname()[0]).is_loopback:
            return probe.getsockname()[0]
    with contextlib.suppress(OSError):  # socket.gaierror included
        for *_, (address, _) in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            if not ipaddress.ip_address(address).is_loopback:
                return address
    others = _ipv4_interfaces()
    if len(others) == 1:
        return others[0][1]
    found = ", ".join(f"{name} {address}" for name, address in others) or "none"
    raise ConfigError(f"this host ({socket.gethostname()}) has no route off it and its name resolves to no "
                      "address but loopback, where Dask workers on other nodes cannot reach its "
                      f"scheduler; {choose} the compute nodes reach this host on (its interfaces but "
                      f"loopback: {found})")


def open_slurm(cfg, stack):
    """A client of a new SLURM cluster once a worker has connected; `stack` closes both (the
    cluster cancels its worker jobs)."""
    import dask
    from dask_jobqueue import SLURMCluster
    from distributed import Client
    if int(cfg.jobs) < 1:
        raise ConfigError(f"cluster.jobs must be at least 1 for cluster=slurm, got {cfg.jobs}")
    settings = fault_settings(cfg)
    dask.config.set(fault_dask_config(settings))  # before the scheduler starts: it reads them then
    with stops_deferred(), http_pages(bool(cfg.dashboard)):
        cluster = SLURMCluster(**slurm_cluster_kwargs(cfg))
        stack.callback(close_quietly, cluster.close)  # cancels the worker jobs
    cluster.scale(jobs=int(cfg.jobs))
    client = Client(cluster, security=cluster.security)
    stack.callback(close_quietly, client.close)
    job_log = job_log_paths(cfg.slurm)
    _wait_for_a_worker(cluster, client, job_log)
    # From here a worker job that ends (walltime, killed, out of memory, its node down) or whose
    # workers all left the scheduler is replaced by a new one, and each loss is said.
    watch = JobWatch(cluster, int(cfg.jobs), lost_after=settings["lost_job_after_s"],
                     every=settings["watch_every_s"], max_failed=max_failed_jobs(cfg), job_log=job_log)
    watch.start()
    stack.callback(watch.stop)  # before the cluster closes (a stack unwinds last in, first out)
    return client


def _wait_for_a_worker(cluster, client, job_log, poll: float = 5.0) -> None:
    """Waits for the first worker while its jobs are queued or running. dask-jobqueue does not
    notice a job that ends before its worker connects (a scheduler address the nodes cannot
    reach, a log folder or TLS files on a path only this host sees, a Python the nodes lack), and
    would wait for it forever; once every job submitted so far has ended with no worker
    connected, the run stops with what the first job's log (`job_log`: job id -> path) says."""
    while True:
        try:
            client.wait_for_workers(1, timeout=poll)
            return
        except TimeoutError:
            pass
        submitted = [job.job_id for job in list(cluster.workers.values()) if getattr(job, "job_id", None)]
        if not submitted or squeue_states(submitted) != {}:  # one still listed, or squeue cannot tell
            continue
        if scheduler_workers(client):
            return
        raise ClusterStartError(_ended_before_a_worker(submitted, cluster.scheduler_address, job_log))


def _ended_before_a_worker(job_ids, address: str, job_log) -> str:
    first = job_ids[0]
    log = job_log(first)
    said = log_ending(log) or (f"it wrote no log {log}: cluster.slurm.log_directory must be on a file system "
                               "that every node mounts (it also holds the workers' TLS files)")
    return (f"the {len(job_ids)} worker job(s) ({', '.join(map(str, job_ids))}) ended before a worker "
            f"reached the scheduler at {address}; job {first}: {said}")
