"""A SLURM cluster's worker jobs, watched: what squeue says of them, how SLURM says one ended,
the last line of a job's log, and JobWatch, which replaces a lost job for the whole run."""
from __future__ import annotations

import contextlib
import getpass
import os
import re
import subprocess
import time
from pathlib import Path

from .events import say
from .periodic import PeriodicCheck
from .stops import stop_run

# Worker jobs in a row that may end before a worker of them connects; then none is submitted
# again (cluster.slurm.max_failed_jobs, whose default this is).
MAX_FAILED_JOBS = 5

ENDING = "COMPLETING"  # a job SLURM is ending (squeue's %T prints long state names): as good as gone
MAX_BACKOFF_S = 300  # the longest wait before a failing job is submitted again


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


# While SLURM ends a job (its processes killed, the epilog run) squeue and scontrol (22.05) print
# COMPLETING, not the state it ends in; the reason it ended is already set: the state each reason
# ends a job in. A worker killed at its walltime was said "ended (COMPLETING)" when the watch
# looked in those seconds (KillWait and more under load), "ended (TIMEOUT, TimeLimit)" after them.
ENDED_BY_REASON = {"TimeLimit": "TIMEOUT", "NodeDown": "NODE_FAIL", "OutOfMemory": "OUT_OF_MEMORY",
                   "NonZeroExitCode": "FAILED", "RaisedSignal": "FAILED"}


def job_ending(scontrol_line: str) -> str:
    """'<state>, <reason>' from one line of `scontrol -o show job` ('' without a JobState); a job
    still COMPLETING is named by the state its reason ends it in (ENDED_BY_REASON), where known."""
    fields = dict(f.split("=", 1) for f in scontrol_line.split() if "=" in f)
    state, reason = fields.get("JobState", ""), fields.get("Reason", "None")
    if state == ENDING:
        state = ENDED_BY_REASON.get(reason, state)
    return f"{state}, {reason}" if state and reason not in ("None", "") else state


def ended_state(job_id: str) -> str:
    """How SLURM says job `job_id` ended or is ending (TIMEOUT, OUT_OF_MEMORY, NODE_FAIL,
    CANCELLED, FAILED, COMPLETED ..., with the reason), '' if it no longer knows."""
    with contextlib.suppress(OSError, subprocess.TimeoutExpired):
        return job_ending(subprocess.run(["scontrol", "-o", "show", "job", str(job_id)], capture_output=True,
                                         text=True, timeout=30).stdout)
    return ""


def job_log_paths(slurm):
    """Job id -> the path of that worker job's stderr file, as dask-jobqueue names it in
    cluster.slurm.log_directory (`slurm`), the folder resolved once, now."""
    log_dir = Path(os.path.expandvars(os.path.expanduser(str(slurm.get("log_directory") or ".")))).resolve()
    job_name = slurm.get("job_name") or "worker"
    return lambda job_id: log_dir / f"{job_name}-{job_id}.err"


# A line that names what went wrong: an exception, or a program's error message.
ERROR_LINE = re.compile(r"\b\w*(Error|Exception)\b|\berror\b|not found|No such file|Killed|denied", re.I)


def log_ending(path) -> str | None:
    """'its log <path> ends: <its last line>', to say why a job whose worker never connected
    ended (a Python or a folder its node lacks, a scheduler it cannot reach), with the last line
    that names an error when that is not the last (Python's fatal errors end with a stack dump);
    None when the log cannot be read."""
    try:
        lines = [line.strip() for line in Path(path).read_text(errors="replace").splitlines() if line.strip()]
    except OSError:
        return None
    if not lines:
        return f"its log {path} is empty"
    error = next((line for line in reversed(lines) if ERROR_LINE.search(line)), lines[-1])
    return f"its log {path} ends: {lines[-1]}" + (f" (its last error: {error})" if error != lines[-1] else "")


class JobWatch(PeriodicCheck):
    """Keeps `jobs` worker jobs up for the whole run. Every `every` seconds it compares the
    cluster's worker jobs with squeue and with the workers connected to the scheduler:

    - a worker that left the scheduler is said at once (its tasks already run again elsewhere:
      the scheduler reschedules them, the evaluation client resubmits a task that failed);
    - a job that SLURM no longer runs (walltime, killed, out of memory, node failure, a worker
      that closed after losing the scheduler), or that runs but none of whose workers has been
      connected for `lost_after` seconds (its node down or cut off: SLURM notices a node only
      after SlurmdTimeout), is lost: it is cancelled (a job on a node that is gone ends when the
      node answers again) and a new job is submitted in its place, to keep `jobs` up.

    A job that ends before any worker of it reached the scheduler failed (a broken environment on
    the nodes, a wrong partition, too little memory): its replacement waits one round, then twice
    as long after each further failure in a row (up to MAX_BACKOFF_S). After `max_failed` such
    failures in a row, no job is submitted again: with no worker left the run is stopped
    (`give_up`: a last checkpoint, the jobs cancelled, one error line naming the failure and the
    last line of the job's log); with workers still up it goes on with them, said once, and is
    stopped when the last of them leaves. A new job whose worker reaches the scheduler ends the row.

    dask-jobqueue's own adapt/lost-worker handling is not used: it replaced a lost job only for
    one-process jobs and said nothing. Runs in a thread of the driver; the cluster's state is
    changed on the cluster's event loop. `squeue`, `ended_state`, `clock`, `emit` and `give_up`
    are what it asks SLURM, reads the time from, says with and stops the run with (a test passes
    its own)."""

    def __init__(self, cluster, jobs: int, *, lost_after: float, every: float, max_failed: int = MAX_FAILED_JOBS,
                 squeue=squeue_states, ended_state=ended_state, clock=time.monotonic, emit=say, job_log=None,
                 give_up=stop_run):
        super().__init__("job watch", every)
        self.cluster, self.jobs, self.lost_after = cluster, jobs, lost_after
        self.job_log = job_log  # job id -> the path of its stderr file, to quote a job that never connected
        self.squeue, self.ended_state, self.clock, self.emit = squeue, ended_state, clock, emit
        self.max_failed, self.give_up = max_failed, give_up
        self.lost = self.replaced = 0
        self.failed_in_a_row = 0               # jobs ended before a worker of them reached the scheduler
        self.submit_at: float | None = None    # when the cancelled jobs' replacements are submitted
        self.failing: str | None = None        # why no job is submitted any more (max_failed reached)
        self.known: dict[str, str] = {}        # job name -> SLURM job id, jobs seen submitted
        self.node: dict[str, str] = {}         # job id -> node it ran on
        self.connected_at: dict[str, float] = {}  # job id -> when a worker of it was last connected
        self.workers: dict[str, tuple[str, str]] = {}  # worker address -> (worker name, job id)
        self.waiting: list[str] = []           # lost job ids whose replacement is not submitted yet

    def summary(self) -> None:
        if self.lost:
            self.emit(f"{self.lost} worker job(s) lost and {self.replaced} replaced in this run")

    def check(self) -> None:
        """One look at the cluster, unless it is closing: the jobs it has, the workers connected,
        and what squeue says of each job."""
        from distributed.core import Status
        if self.stopped or self.cluster.status in (Status.closing, Status.closed):
            return
        now = self.clock()
        jobs = self._record_jobs()
        self._notice_lost_workers(jobs, now)
        self._replace_lost_jobs(jobs, now)
        if self.failing is not None and not self.workers:
            self._stop_the_run(f"{self.failing}; the workers that were still up have left too")
        elif self.submit_at is not None and now >= self.submit_at and self.failing is None:
            self.submit_at = None
            self.cluster.sync(self._scale)

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
                if jobs[job_name] not in self.connected_at:
                    self.failed_in_a_row = 0  # a new job's worker reached the scheduler: the row ends
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
            failed = job_id not in self.connected_at
            self.failed_in_a_row += failed
            if self.failing is not None or (failed and self.failed_in_a_row >= self.max_failed):
                self.cluster.sync(self._cancel, name)
                self._too_many_failures(job_id, reason)
                continue
            delay = min(self.every * 2 ** (self.failed_in_a_row - 1), MAX_BACKOFF_S) if failed else 0
            self.emit(f"lost worker job {job_id}{self._where(job_id)}: {reason}; cancelling it and submitting "
                      f"a new one {f'in {delay:.0f} s ' if delay else ''}to keep {self.jobs} "
                      f"({self.lost} lost so far)")
            self.waiting.append(job_id)
            self.cluster.sync(self._cancel, name)
            self.submit_at = now + delay if self.submit_at is None else min(self.submit_at, now + delay)

    def _too_many_failures(self, job_id: str, reason: str) -> None:
        """`max_failed` jobs in a row failed: none is submitted again. With no worker up the run
        stops, saying why; else it goes on with the workers it has, said once."""
        if self.failing is not None:  # a job of the workers still up ended
            if not self.workers:
                self._stop_the_run(f"{self.failing}; the workers that were still up have left too")
            return
        self.failing = (f"{self.failed_in_a_row} worker jobs in a row ended before a worker of them reached "
                        f"the scheduler (cluster.slurm.max_failed_jobs={self.max_failed}); the last, job "
                        f"{job_id}{self._where(job_id)}, {reason}")
        if self.workers:
            self.emit(f"{self.failing}; no new worker job is submitted: the run goes on with the "
                      f"{len(self.workers)} worker(s) still up")
        else:
            self._stop_the_run(self.failing)

    def _stop_the_run(self, why: str) -> None:
        if self.end():  # nothing more to watch: the run is closing
            self.give_up(why)

    def _why_lost(self, job_id: str, state: str, now: float) -> str | None:
        """Why job `job_id`, in squeue state `state` ('' once SLURM no longer lists it), is lost;
        None while it is not."""
        if not state or state == ENDING:
            reason = f"ended ({self.ended_state(job_id) or state or 'gone from squeue'})"
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

    async def _cancel(self, name: str) -> None:
        """On the cluster's loop: forget job `name` and cancel it (its replacement comes with _scale)."""
        cluster = self.cluster
        if self.stopped:  # the cluster is closing: it cancels what it has
            return
        job = cluster.workers.pop(name, None)
        cluster.worker_spec.pop(name, None)
        if job is not None:
            with contextlib.suppress(Exception):
                await job.close()  # scancel; SLURM ends it on a node that is gone once it answers

    async def _scale(self) -> None:
        """On the cluster's loop: submit new jobs up to `jobs`."""
        if not self.stopped:  # the cluster is closing: it submits nothing
            self.cluster.scale(jobs=self.jobs)
