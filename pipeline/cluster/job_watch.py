"""A SLURM cluster's worker jobs, watched: what squeue says of them, how SLURM says one ended,
the last line of a job's log, and JobWatch, which replaces a lost job for the whole run."""
from __future__ import annotations

import contextlib
import getpass
import logging
import os
import subprocess
import threading
import time
from pathlib import Path

from .events import say

log = logging.getLogger(__name__)
ENDING = "COMPLETING"  # a job SLURM is ending (squeue's %T prints long state names): as good as gone


def squeue_states(job_ids) -> dict[str, tuple[str, str]] | None:
    """Job id -> (state, node) of those of `job_ids` that SLURM still lists (pending, running or
    ending); None when squeue cannot tell."""
    if not job_ids:
        return {}
    wanted = set(map(str, job_ids))
    try:
        done = subprocess.run(["squeue", "-h", "-u", getpass.getuser(), "-o", "%i %T %N"], capture_output=True,
                              text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    rows = (f"{line} -".split()[:3] for line in done.stdout.splitlines() if line.strip())
    return {job: (state, node) for job, state, node in rows if job in wanted}


def ended_state(job_id: str) -> str:
    """How SLURM says job `job_id` ended (TIMEOUT, OUT_OF_MEMORY, NODE_FAIL, CANCELLED, FAILED,
    COMPLETED ...), '' if it no longer knows."""
    with contextlib.suppress(OSError, subprocess.TimeoutExpired):
        out = subprocess.run(["scontrol", "-o", "show", "job", str(job_id)], capture_output=True, text=True,
                             timeout=30).stdout
        fields = dict(f.split("=", 1) for f in out.split() if "=" in f)
        state = fields.get("JobState", "")
        if state and fields.get("Reason", "None") not in ("None", ""):
            state += f", {fields['Reason']}"
        return state
    return ""


def job_log_paths(slurm):
    """Job id -> the path of that worker job's stderr file, as dask-jobqueue names it in
    cluster.slurm.log_directory (`slurm`), the folder resolved once, now."""
    log_dir = Path(os.path.expandvars(os.path.expanduser(str(slurm.get("log_directory") or ".")))).resolve()
    job_name = slurm.get("job_name") or "worker"
    return lambda job_id: log_dir / f"{job_name}-{job_id}.err"


def log_ending(path) -> str | None:
    """'its log <path> ends: <its last line>', to say why a job whose worker never connected
    ended (a Python or a folder its node lacks, a scheduler it cannot reach); None when the log
    cannot be read."""
    try:
        lines = [line.strip() for line in Path(path).read_text(errors="replace").splitlines() if line.strip()]
    except OSError:
        return None
    return f"its log {path} ends: {lines[-1] if lines else '(empty)'}"


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
    changed on the cluster's event loop. `squeue`, `ended_state`, `clock` and `emit` are what it
    asks SLURM, reads the time from and says with (a test passes its own)."""

    def __init__(self, cluster, jobs: int, *, lost_after: float, every: float, squeue=squeue_states,
                 ended_state=ended_state, clock=time.monotonic, emit=say, job_log=None):
        self.cluster, self.jobs, self.lost_after, self.every = cluster, jobs, lost_after, every
        self.job_log = job_log  # job id -> the path of its stderr file, to quote a job that never connected
        self.squeue, self.ended_state, self.clock, self.emit = squeue, ended_state, clock, emit
        self.lost = self.replaced = 0
        self.known: dict[str, str] = {}        # job name -> SLURM job id, jobs seen submitted
        self.node: dict[str, str] = {}         # job id -> node it ran on
        self.connected_at: dict[str, float] = {}  # job id -> when a worker of it was last connected
        self.workers: dict[str, tuple[str, str]] = {}  # worker address -> (worker name, job id)
        self.waiting: list[str] = []           # lost job ids whose replacement is not submitted yet
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="dsame-job-watch", daemon=True)

    def start(self) -> None:
        """One check now (a job that ended while the cluster started is replaced before the run
        goes on), then one every `every` seconds in the watch's thread until stop()."""
        self.check()
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

    def check(self) -> None:
        """One look at the cluster, unless it is closing: the jobs it has, the workers connected,
        and what squeue says of each job."""
        from distributed.core import Status
        if self._stop.is_set() or self.cluster.status in (Status.closing, Status.closed):
            return
        now = self.clock()
        jobs = self._record_jobs()
        self._notice_lost_workers(jobs, now)
        self._replace_lost_jobs(jobs, now)

    def _record_jobs(self) -> dict[str, str]:
        """Job name -> SLURM job id of the cluster's jobs; a job new since the last look, while a
        lost one waits for its replacement, is said as that replacement."""
        jobs = {name: str(job.job_id) for name, job in list(self.cluster.workers.items())
                if getattr(job, "job_id", None)}
        for name, job_id in jobs.items():
            if self.known.get(name) != job_id:
                if self.waiting:
                    old = self.waiting.pop(0)
                    self.replaced += 1
                    self.emit(f"worker job {job_id} submitted in place of lost job {old} "
                              f"({self.lost} lost, {self.replaced} replaced so far)")
                self.known[name] = job_id
        return jobs

    def _notice_lost_workers(self, jobs: dict[str, str], now: float) -> None:
        """Says each worker that left the scheduler since the last look; notes when each job last
        had a worker connected."""
        workers = {}
        for address, info in list(self.cluster.scheduler_info.get("workers", {}).items()):
            name = str(info.get("name"))
            job_name = name if name in jobs else name.rsplit("-", 1)[0]  # <job>-<i>: one of several processes
            if job_name in jobs:
                workers[address] = (name, jobs[job_name])
                self.connected_at[jobs[job_name]] = now
        for address in set(self.workers) - set(workers):
            name, job_id = self.workers[address]
            self.emit(f"lost worker {name} ({address}, job {job_id}{self._where(job_id)}); its tasks run again "
                      f"on the other workers")
        self.workers = workers

    def _replace_lost_jobs(self, jobs: dict[str, str], now: float) -> None:
        """Judges each job by what squeue says of it (nothing, when squeue does not answer): a
        lost one is said, cancelled and replaced."""
        states = self.squeue([*jobs.values()])
        if states is None:
            return
        for name, job_id in jobs.items():
            state, node = states.get(job_id, ("", ""))
            if node and node not in ("(null)", "-"):
                self.node[job_id] = node
            reason = self._why_lost(job_id, state, now)
            if reason is None:
                continue
            self.lost += 1
            self.emit(f"lost worker job {job_id}{self._where(job_id)}: {reason}; cancelling it and submitting "
                      f"a new one to keep {self.jobs} ({self.lost} lost so far)")
            self.waiting.append(job_id)
            self.cluster.sync(self._replace, name)

    def _why_lost(self, job_id: str, state: str, now: float) -> str | None:
        """Why job `job_id`, in squeue state `state` ('' once SLURM no longer lists it), is lost;
        None while it is not."""
        if not state or state == ENDING:
            reason = f"ended ({state or self.ended_state(job_id) or 'gone from squeue'})"
            if job_id not in self.connected_at:
                reason += f" before a worker of it reached the scheduler{self._log_end(job_id)}"
            return reason
        if state == "RUNNING" and job_id in self.connected_at and now - self.connected_at[job_id] >= self.lost_after:
            return (f"running, but none of its workers has reached the scheduler for "
                    f"{now - self.connected_at[job_id]:.0f} s (its node down or cut off?)")
        return None

    def _where(self, job_id: str) -> str:
        return f" on {self.node[job_id]}" if job_id in self.node else ""

    def _log_end(self, job_id: str) -> str:
        """'; its log ends: <last line>' for a job that never connected, so a run whose new jobs
        all fail says why."""
        if self.job_log is None:
            return ""
        path = Path(self.job_log(job_id))
        return f"; {log_ending(path) or f'it wrote no log {path}'}"

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
