"""Starting the Dask cluster the config names: LocalCluster by default, SLURM, or an address.

Every cluster this module starts speaks TLS with credentials made for the run, so no one without
them (another user on a shared node included) can submit code to its workers. The dashboard is
off unless asked for (cluster.dashboard=true): it has no login, and even on the loopback interface
every local user can open it. SIGINT and SIGTERM become a `Stopped` exit that closes the cluster
on the way out."""
from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
import signal
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

from ..errors import ConfigError, PipelineError

# Keys of cluster.slurm that the pipeline reads itself; the rest go to dask_jobqueue.SLURMCluster.
PIPELINE_SLURM_KEYS = ("qos", "tls", "lifetime_margin_min", "lifetime_stagger_min",
                       "dashboard_address", "tcp_timeout_s", "worker_ttl_s", "lost_job_after_s", "watch_every_s")
# How faults are noticed (docs/slurm.md#faults), seconds; cluster.slurm.<key> overrides each.
FAULT_DEFAULTS = {"tcp_timeout_s": 30, "worker_ttl_s": 60, "lost_job_after_s": 60, "watch_every_s": 5}
MIN_TCP_TIMEOUT_S = 11  # distributed's keepalive: 10 probes plus an idle second
LOOPBACK = "127.0.0.1"
START_ATTEMPTS = 3  # a local cluster whose start fails (a worker process killed early) starts again
log = logging.getLogger(__name__)


class ClusterStartError(PipelineError):
    """The cluster did not start, after retries."""


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


def dashboard_bind(address) -> str:
    """Where a dashboard listens: null, a port or ":port" mean the loopback interface; only an
    address that names a host ("0.0.0.0:8787", "node1:8787") opens it to that host's interfaces."""
    text = str(address or "").strip()
    host, _, port = text.rpartition(":")
    return text if host else f"{LOOPBACK}:{port or 0}"


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
                                   f"export DASK_DISTRIBUTED__COMM__TIMEOUTS__TCP={fault_settings(cfg)['tcp_timeout_s']:g}s"]
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


def temporary_security():
    """Self-signed credentials made for this run: without them no one can talk to the scheduler,
    the workers or the nannies."""
    from distributed.security import Security
    try:
        return Security.temporary()
    except ImportError as exc:  # pragma: no cover - cryptography is a dependency
        raise ConfigError(f"TLS needs the cryptography package ({exc})") from None


# --- stopping on SIGINT and SIGTERM ------------------------------------------------------
class Stopped(SystemExit):
    """SIGINT or SIGTERM as an exit: a SystemExit, so no `except Exception` on the way swallows
    it and a caller that does not catch it exits quietly with the conventional 128 + signal."""

    def __init__(self, signum: int):
        super().__init__(128 + signum)
        self.signum = signum
        self.signal_name = signal.Signals(signum).name


_STOP = {"installed": False, "deferring": 0, "pending": None, "stopping": False}


def _on_signal(signum, frame) -> None:
    if _STOP["stopping"] or _STOP["pending"] is not None:
        return  # already on the way out: let closing the cluster finish
    if _STOP["deferring"]:
        _STOP["pending"] = signum
        return
    _STOP["stopping"] = True
    raise Stopped(signum)


@contextlib.contextmanager
def stop_on_signals():
    """SIGINT (Ctrl-C) and SIGTERM (kill, scancel, a batch system's time limit) raise Stopped in
    the main thread, so `with` blocks close the cluster (a SLURM cluster cancels its worker jobs).
    Nested uses and other threads leave the first one in charge."""
    if _STOP["installed"] or threading.current_thread() is not threading.main_thread():
        yield
        return
    _STOP.update(installed=True, deferring=0, pending=None, stopping=False)
    previous = {s: signal.signal(s, _on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    previous_hook, sys.unraisablehook = sys.unraisablehook, _stop_again(sys.unraisablehook)
    try:
        yield
    finally:
        sys.unraisablehook = previous_hook
        for s, handler in previous.items():
            # once stopping, a second signal must not cut the exit short (exit code, clean-up)
            signal.signal(s, signal.SIG_IGN if _STOP["stopping"] else handler)
        _STOP["installed"] = False


def _stop_again(hook):
    """Python drops an exception raised where it cannot propagate (a garbage-collector callback,
    a __del__): a Stopped lost there is signalled again a moment later, after this hook has
    returned (and again, should it land in such a place once more)."""
    def unraisable(info):
        if isinstance(info.exc_value, Stopped):
            _STOP["stopping"] = False
            again = threading.Timer(0.1, os.kill, (os.getpid(), info.exc_value.signum))
            again.daemon = True
            again.start()
        else:
            hook(info)
    return unraisable


@contextlib.contextmanager
def stops_deferred():
    """A stop that arrives inside this block takes effect when it ends: a file being written (a
    checkpoint, a report) or a cluster being started is finished, not left half done."""
    _STOP["deferring"] += 1
    try:
        yield
    finally:
        _STOP["deferring"] -= 1
    if not _STOP["deferring"] and _STOP["pending"] is not None and not _STOP["stopping"]:
        _STOP["stopping"] = True
        raise Stopped(_STOP["pending"])


def dask_setup(worker) -> None:
    """Run in each local worker process (distributed.worker.preload). The workers share the
    driver's terminal and process group: a Ctrl-C reaches them too, but the driver closes them
    itself, so they ignore it instead of dying with a KeyboardInterrupt traceback each. Their
    complaints about a scheduler going away (it lives in the driver and closes on purpose) are
    silenced: whatever goes wrong in a worker reaches the driver as a failed or lost task.
    The worker's own HTTP server (health and metrics pages, open to every local user) is closed:
    nothing here reads it."""
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    worker.http_server.stop()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


# --- the cluster -------------------------------------------------------------------------
def start_local_cluster(n_workers: int | None, security, dashboard_address=None, dashboard: bool = False,
                        attempts: int = START_ATTEMPTS):
    """A LocalCluster on the loopback interface, TLS only, its scheduler's HTTP server serving
    nothing unless `dashboard`; started again if a worker process dies before the cluster is up
    ("Nanny failed to start"), one clear error after `attempts`."""
    from distributed import LocalCluster
    n = int(n_workers or default_workers())
    problem = None
    for attempt in range(attempts):
        if attempt:
            time.sleep(1.0)
        try:
            with _http_pages(dashboard):
                return LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host=LOOPBACK,
                                    protocol="tls://", security=security, preload=["pipeline.cluster.clusters"],
                                    dashboard_address=dashboard_bind(dashboard_address),
                                    scheduler_kwargs={"dashboard": dashboard}, silence_logs=logging.ERROR)
        except Exception as exc:  # noqa: BLE001 - whatever stopped it, the next attempt may start
            if _STOP["pending"] is not None:  # a Ctrl-C may have ended the workers: no retry
                _STOP["stopping"] = True
                raise Stopped(_STOP["pending"]) from None
            problem = exc
    raise ClusterStartError(f"the local Dask cluster ({n} workers) did not start in {attempts} "
                            f"attempts; last error: {type(problem).__name__}: {problem}")


@contextlib.contextmanager
def open_cluster(cfg):
    """Yields a distributed.Client; one single-threaded worker process per core by default
    (the engine is pure Python, so threads would only contend for the GIL). SIGINT and SIGTERM
    raise Stopped meanwhile; whatever was started is closed on the way out."""
    import dask

    # Games of one chunk take seconds; a task may be re-run where its worker died.
    dask.config.set({"distributed.scheduler.allowed-failures": int(cfg.max_retries)})
    openers = {"local": _open_local, "slurm": _open_slurm, "address": _open_address}
    if cfg.kind not in openers:
        raise ConfigError(f"cluster.kind must be local, slurm or address, got {cfg.kind!r}")
    logging.getLogger("tornado.application").addFilter(_one_line_request_errors)
    with stop_on_signals(), contextlib.ExitStack() as stack:
        client = openers[cfg.kind](cfg, stack)
        if cfg.kind != "address":  # a cluster started elsewhere keeps the dashboard it has
            _dashboard(client, bool(cfg.dashboard))
        yield client


def _http_pages(dashboard: bool):
    """Besides the dashboard, the scheduler's HTTP server serves JSON, info and metrics pages
    (workers, tasks, logs): with the dashboard off, none of them while the cluster starts."""
    import dask
    return contextlib.nullcontext() if dashboard else dask.config.set({"distributed.scheduler.http.routes": []})


def _dashboard(client, on: bool) -> None:
    """Off: the scheduler's HTTP server, serving nothing, is closed. On: one line says where the
    dashboard is and who can open it (it has no login)."""
    if not on:
        client.run_on_scheduler(_close_http_server)
        return
    host, port = client.run_on_scheduler(_http_address)
    if host in ("0.0.0.0", "::"):
        host, who = socket.gethostname(), "on every network interface: anyone who can reach this host"
    elif ipaddress.ip_address(host).is_loopback:
        who = "on loopback: every user of this host (from elsewhere: ssh -L)"
    else:
        who = f"anyone who can reach {host}"
    print(f"dashboard: http://{host}:{port}/status, no login; {who} can open it", file=sys.stderr)


def _close_http_server(dask_scheduler) -> None:
    dask_scheduler.http_server.stop()
    dask_scheduler.services.pop("dashboard", None)  # so no one is pointed at a closed port


def _http_address(dask_scheduler) -> tuple[str, int]:
    return dask_scheduler.http_server.address, dask_scheduler.http_server.port


def _one_line_request_errors(record: logging.LogRecord) -> bool:
    """tornado logs a page that fails (any local user can make /json/identity.json fail) with a
    25-line traceback into the run's output: one line at debug level instead."""
    if record.exc_info and str(record.msg).startswith("Uncaught exception"):
        exc = record.exc_info[1]
        log.debug("dashboard: %s (%s: %s)", record.getMessage().splitlines()[0], type(exc).__name__, exc)
        return False
    return True


def _open_local(cfg, stack):
    from distributed import Client
    with stops_deferred():  # a stop while the cluster starts takes effect once it can be closed
        cluster = start_local_cluster(cfg.n_workers, temporary_security(), cfg.dashboard_address,
                                      bool(cfg.dashboard))
        stack.callback(_quietly, cluster.close)
    client = Client(cluster, security=cluster.security)
    stack.callback(_quietly, client.close)
    return client


def _open_slurm(cfg, stack):
    import dask
    from dask_jobqueue import SLURMCluster
    from distributed import Client
    if int(cfg.jobs) < 1:
        raise ConfigError(f"cluster.jobs must be at least 1 for cluster=slurm, got {cfg.jobs}")
    settings = fault_settings(cfg)
    dask.config.set(fault_dask_config(settings))  # before the scheduler starts: it reads them then
    with stops_deferred(), _http_pages(bool(cfg.dashboard)):
        cluster = SLURMCluster(**slurm_cluster_kwargs(cfg))
        stack.callback(_quietly, cluster.close)  # cancels the worker jobs
    cluster.scale(jobs=int(cfg.jobs))
    client = Client(cluster, security=cluster.security)
    stack.callback(_quietly, client.close)
    _wait_for_a_worker(cluster, client, cfg)
    # From here a worker job that ends (walltime, killed, out of memory, its node down) or whose
    # workers all left the scheduler is replaced by a new one, and each loss is said.
    log_dir = Path(os.path.expandvars(os.path.expanduser(str(cfg.slurm.get("log_directory") or ".")))).resolve()
    watch = JobWatch(cluster, int(cfg.jobs), lost_after=settings["lost_job_after_s"],
                     every=settings["watch_every_s"],
                     job_log=lambda job_id: log_dir / f"{cfg.slurm.get('job_name') or 'worker'}-{job_id}.err")
    watch.start()
    stack.callback(watch.stop)  # before the cluster closes (a stack unwinds last in, first out)
    return client


def _wait_for_a_worker(cluster, client, cfg, poll: float = 5.0) -> None:
    """Waits for the first worker while its jobs are queued or running. dask-jobqueue does not
    notice a job that ends before its worker connects (a scheduler address the nodes cannot
    reach, a log folder or TLS files on a path only this host sees, a Python the nodes lack), and
    would wait for it forever; once every job submitted so far has ended with no worker
    connected, the run stops with what the first job's log says."""
    while True:
        try:
            client.wait_for_workers(1, timeout=poll)
            return
        except TimeoutError:
            pass
        submitted = [job.job_id for job in list(cluster.workers.values()) if getattr(job, "job_id", None)]
        if not submitted or _queued(submitted):
            continue
        if client.scheduler_info()["workers"]:
            return
        raise ClusterStartError(_ended_jobs(submitted, cluster.scheduler_address, cfg))


def _queued(job_ids) -> bool:
    """Whether one of `job_ids` is pending or running (True when squeue cannot tell)."""
    import getpass
    import subprocess
    try:
        done = subprocess.run(["squeue", "-h", "-o", "%i", "-u", getpass.getuser()], capture_output=True,
                              text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return True
    return done.returncode != 0 or bool(set(done.stdout.split()) & set(map(str, job_ids)))


def _ended_jobs(job_ids, address: str, cfg) -> str:
    log_dir = Path(os.path.expandvars(os.path.expanduser(str(cfg.slurm.get("log_directory") or ".")))).resolve()
    first = job_ids[0]
    log = log_dir / f"{cfg.slurm.get('job_name') or 'worker'}-{first}.err"
    try:
        lines = [line.strip() for line in log.read_text(errors="replace").splitlines() if line.strip()]
        said = f"its log {log} ends: {lines[-1] if lines else '(empty)'}"
    except OSError:
        said = (f"it wrote no log {log}: cluster.slurm.log_directory must be on a file system that "
                "every node mounts (it also holds the workers' TLS files)")
    return (f"the {len(job_ids)} worker job(s) ({', '.join(map(str, job_ids))}) ended before a worker "
            f"reached the scheduler at {address}; job {first}: {said}")


# --- what a run's cluster does to it, said ----------------------------------------------
_EVENTS = {"path": None}


def set_event_log(path) -> None:
    """Cluster events (lost workers and jobs, replacements) are also appended to this file (the
    run's cluster.log, private to the user); None: stderr only."""
    _EVENTS["path"] = None if path is None else Path(path)


def say(line: str) -> None:
    """One line about the cluster, on stderr (the driver job's output file under sbatch) and in
    the run's cluster.log, stamped with the UTC time."""
    text = f"cluster {time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime())}: {line}"
    print(text, file=sys.stderr, flush=True)
    path = _EVENTS["path"]
    if path is not None:
        with contextlib.suppress(OSError):
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            with os.fdopen(fd, "a") as f:
                f.write(text + "\n")


ENDING = ("COMPLETING", "CG")  # a job SLURM is ending: as good as gone


class JobWatch:
    """Keeps `jobs` worker jobs up for the whole run. Every `every` seconds it compares the
    cluster's worker jobs with squeue and with the workers connected to the scheduler:

    - a worker that left the scheduler is said at once (its tasks already run again elsewhere:
      the scheduler reschedules them, the evaluation client resubmits a task that failed);
    - a job that SLURM no longer runs (walltime, killed, out of memory, node failure, a worker
      that closed after losing the scheduler), or that runs but none of whose workers has been
      connected for `lost_after` seconds (its node down or cut off: SLURM notices a node only
      after SlurmdTimeout), is lost: it is cancelled (a job on a node that is gone ends when the
      node answers again) and a new job is submitted in its place, to keep `jobs` up.

    dask-jobqueue's own adapt/lost-worker handling is not used: it replaced a lost job only for
    one-process jobs and said nothing. Runs in a thread of the driver; the cluster's state is
    changed on the cluster's event loop."""

    def __init__(self, cluster, jobs: int, *, lost_after: float, every: float, squeue=None, emit=say,
                 job_log=None):
        self.cluster, self.jobs, self.lost_after, self.every = cluster, jobs, lost_after, every
        self.job_log = job_log  # job id -> the path of its stderr file, to quote a job that never connected
        self.squeue, self.emit = squeue or _squeue, emit
        self.lost = self.replaced = 0
        self.known: dict[str, str] = {}        # job name -> SLURM job id, jobs seen submitted
        self.node: dict[str, str] = {}         # job id -> node it ran on
        self.connected_at: dict[str, float] = {}  # job id -> when a worker of it was last connected
        self.workers: dict[str, tuple[str, str]] = {}  # worker address -> (worker name, job id)
        self.waiting: list[str] = []           # lost job ids whose replacement is not submitted yet
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="dsame-job-watch", daemon=True)

    def start(self) -> None:
        self.check(first=True)
        self.thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self.thread.is_alive():
            self.thread.join(timeout=10)  # a stop's grace period is short; the thread is a daemon
        if self.lost:
            self.emit(f"{self.lost} worker job(s) lost and {self.replaced} replaced in this run")

    def _loop(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.check()
            except Exception as exc:  # noqa: BLE001 - the watch must outlive a bad moment
                log.warning("job watch: %s: %s", type(exc).__name__, exc)

    def check(self, first: bool = False) -> None:
        from distributed.core import Status
        cluster = self.cluster
        if self._stop.is_set() or cluster.status in (Status.closing, Status.closed):
            return
        now = time.monotonic()
        jobs = {name: str(job.job_id) for name, job in list(cluster.workers.items())
                if getattr(job, "job_id", None)}
        for name, job_id in jobs.items():
            if self.known.get(name) != job_id:
                if not first and self.waiting:
                    old = self.waiting.pop(0)
                    self.replaced += 1
                    self.emit(f"worker job {job_id} submitted in place of lost job {old} "
                              f"({self.lost} lost, {self.replaced} replaced so far)")
                self.known[name] = job_id
        workers = {}
        for address, info in list(cluster.scheduler_info.get("workers", {}).items()):
            name = str(info.get("name"))
            job_name = name if name in jobs else name.rsplit("-", 1)[0]
            if job_name in jobs:
                workers[address] = (name, jobs[job_name])
                self.connected_at[jobs[job_name]] = now
        for address in set(self.workers) - set(workers):
            name, job_id = self.workers[address]
            where = f" on {self.node[job_id]}" if job_id in self.node else ""
            self.emit(f"lost worker {name} ({address}, job {job_id}{where}); its tasks run again on the "
                      f"other workers")
        self.workers = workers
        states = self.squeue([*jobs.values()])
        if states is None:  # squeue did not answer: judge nothing this time
            return
        for name, job_id in jobs.items():
            state, node = states.get(job_id, ("", ""))
            if node and node not in ("(null)", "-"):
                self.node[job_id] = node
            where = f" on {self.node[job_id]}" if job_id in self.node else ""
            if not state or state in ENDING:
                ended = _ended_state(job_id) if not state else "COMPLETING"
                reason = f"ended ({ended or 'gone from squeue'})"
                if job_id not in self.connected_at:
                    reason += f" before a worker of it reached the scheduler{self._log_end(job_id)}"
            elif state == "RUNNING" and job_id in self.connected_at and \
                    now - self.connected_at[job_id] >= self.lost_after:
                reason = (f"running, but none of its workers has reached the scheduler for "
                          f"{now - self.connected_at[job_id]:.0f} s (its node down or cut off?)")
            else:
                continue
            self.lost += 1
            self.emit(f"lost worker job {job_id}{where}: {reason}; cancelling it and submitting a new "
                      f"one to keep {self.jobs} ({self.lost} lost so far)")
            self.waiting.append(job_id)
            cluster.sync(self._replace, name)

    def _log_end(self, job_id: str) -> str:
        """'; its log ends: <last line>' for a job that never connected (a Python or a folder its
        node lacks, a scheduler it cannot reach), so a run whose new jobs all fail says why."""
        if self.job_log is None:
            return ""
        path = Path(self.job_log(job_id))
        try:
            lines = [line.strip() for line in path.read_text(errors="replace").splitlines() if line.strip()]
        except OSError:
            return f"; it wrote no log {path}"
        return f"; its log {path} ends: {lines[-1] if lines else '(empty)'}"

    async def _replace(self, name: str) -> None:
        """On the cluster's loop: forget job `name`, cancel it, and scale back up to `jobs`."""
        cluster = self.cluster
        if self._stop.is_set():  # the cluster is closing: it cancels what it has, submits nothing
            return
        job = cluster.workers.pop(name, None)
        cluster.worker_spec.pop(name, None)
        if job is not None:
            with contextlib.suppress(Exception):
                await job.close()  # scancel; SLURM ends it on a node that is gone once it answers
        cluster.scale(jobs=self.jobs)


def _squeue(job_ids) -> dict[str, tuple[str, str]] | None:
    """Job id -> (state, node) of those of `job_ids` that SLURM still lists; None when squeue
    cannot tell."""
    import getpass
    import subprocess
    if not job_ids:
        return {}
    try:
        done = subprocess.run(["squeue", "-h", "-u", getpass.getuser(), "-o", "%i %T %N"], capture_output=True,
                              text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    rows = (f"{line} -".split()[:3] for line in done.stdout.splitlines() if line.strip())
    return {job: (state, node) for job, state, node in rows if job in set(job_ids)}


def _ended_state(job_id: str) -> str:
    """How SLURM says job `job_id` ended (TIMEOUT, OUT_OF_MEMORY, NODE_FAIL, CANCELLED, FAILED,
    COMPLETED ...), '' if it no longer knows."""
    import subprocess
    with contextlib.suppress(OSError, subprocess.TimeoutExpired):
        out = subprocess.run(["scontrol", "-o", "show", "job", str(job_id)], capture_output=True, text=True,
                             timeout=30).stdout
        fields = dict(f.split("=", 1) for f in out.split() if "=" in f)
        state = fields.get("JobState", "")
        if state and fields.get("Reason", "None") not in ("None", ""):
            state += f", {fields['Reason']}"
        return state
    return ""


def _open_address(cfg, stack):
    from distributed import Client
    if not cfg.address:
        raise ConfigError("cluster.kind=address needs cluster.address (tcp://host:port)")
    client = Client(cfg.address)  # TLS, where used, comes from dask's config (DASK_DISTRIBUTED__COMM__TLS__*)
    stack.callback(_quietly, client.close)
    return client


def _quietly(close) -> None:
    with contextlib.suppress(Exception):
        close()


# --- credentials for a cluster started by hand -------------------------------------------
def _write_private(path: Path, text: str) -> None:
    """Write `text` to `path` readable by this user only, whatever was there before: a new file
    made 0600, then renamed over the old one (never opened through it, so neither its mode nor
    a link in its place carries over)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_tls_files(directory: str) -> None:
    """CA, certificate and key for a cluster started by hand (slurm/dsa_me_srun.sbatch): files
    readable by this user only, and the dask config variables that point at them."""
    from distributed.security import Security
    sec = Security.temporary()
    path = Path(directory)
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(path, 0o700)
    files = {"ca.pem": sec.tls_ca_file, "cert.pem": sec.tls_client_cert, "key.pem": sec.tls_client_key}
    for name, text in files.items():
        _write_private(path / name, text)
    env = {"DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION": "True",
           "DASK_DISTRIBUTED__COMM__TLS__CA_FILE": path / "ca.pem"}
    for role in ("SCHEDULER", "WORKER", "CLIENT"):
        env[f"DASK_DISTRIBUTED__COMM__TLS__{role}__CERT"] = path / "cert.pem"
        env[f"DASK_DISTRIBUTED__COMM__TLS__{role}__KEY"] = path / "key.pem"
    print("\n".join(f"export {k}={v}" for k, v in env.items()))
