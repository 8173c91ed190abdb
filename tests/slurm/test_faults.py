"""Faults a shared HPC cluster has (issue 39), on real SLURM daemons: a compute node that goes
down and comes back, a network that splits and heals, the driver job preempted and requeued, and
worker jobs killed by their walltime. Each run must say what it lost (stderr and the run's
cluster.log), replace lost worker jobs, and end with the archive, evaluations and RNG of an
undisturbed run.

The games are the timed stand-in's (engine=scale_standin, workers/protocol/timed_standin.py):
each task sleeps as long as its games would take and returns a fixed table's records, so tasks
are in flight when a fault strikes while the two-core machine stays idle; the results depend on
the table's records, not on its times, so one fast undisturbed run is the reference of all."""
import os
import re
import shutil
import subprocess
import time
import uuid
from pathlib import Path

import numpy as np
import pytest

from tests.pipeline.helpers import (ROOT, TINY, assert_same_run, command, final_state, run_pipeline,
                                    saved_evaluations, wait_for)

from .conftest import NODES, NODES_DIR, on_ctl
from .jobs import ENDED, jobs_named, job_state, sbatch, wait_job
from .test_nodes import address, ctl
from .test_nodes import job_state as node_job_state
from .test_nodes import jobs as node_jobs  # the three-host cluster's squeue, on its controller
from .test_nodes import node_workers as nodes_workers

pytestmark = pytest.mark.timeout(600)

BUDGET = 100
# Dask's timeouts, short for the tests (conf/cluster/slurm.yaml: 30, 60, 60, 5): a dead
# connection is noticed after 12 s, a job without a connected worker is replaced 10 s later.
FAST_FAULTS = ["cluster.slurm.tcp_timeout_s=12", "cluster.slurm.worker_ttl_s=30",
               "cluster.slurm.lost_job_after_s=10", "cluster.slurm.watch_every_s=2"]
NOTICE_S = 12 + 2 * 2 + 15  # the TCP timeout, two watch rounds, and room for a busy machine
LOST = re.compile(r"^cluster [\d-]+ [\d:]+: lost worker ", re.M)


# --------------------------------------------------------------------------- the stand-in
def write_table(path: Path, seconds_per_game: float) -> Path:
    """A stand-in table: 40 random decks of the rogue pool with 12 games of made-up but plausible
    records each (seeded: every table has the same records), each game taking `seconds_per_game`."""
    from pipeline.deck_space import DeckSpace
    from workers.protocol.timed_standin import RECORD_FIELDS
    space = DeckSpace.from_pool_file()
    rng = np.random.default_rng(39)
    decks, games = space.random_decks(rng, 40), 12
    turns = rng.integers(5, 15, (len(decks), games))
    hand = turns * rng.integers(1, 7, (len(decks), games))
    fields = {"won": rng.integers(0, 2, turns.shape), "own_health": rng.integers(0, 31, turns.shape),
              "enemy_health": rng.integers(0, 31, turns.shape), "turns": turns, "hand_size_sum": hand,
              "minion_damage": rng.integers(0, 40, turns.shape), "cards_drawn": turns + rng.integers(0, 4, turns.shape),
              "mana_spent": turns * 3, "mana_available": turns * 4, "hand_size_start_sum": hand + turns}
    records = np.stack([fields[f] for f in RECORD_FIELDS], axis=-1).astype(np.int64)
    np.savez(path, card_ids=np.array([c.id for c in space.cards]), decks=decks.astype(np.int16),
             records=records, seconds_per_game=np.array([seconds_per_game]))
    return path


@pytest.fixture(scope="session")
def tables():
    """Stand-in tables by seconds per game, in a folder every host of the three-host cluster
    sees (not /tmp)."""
    folder = NODES_DIR.parent / f"dsame-faults-{uuid.uuid4().hex[:8]}"
    folder.mkdir(parents=True)
    yield {s: write_table(folder / f"table-{s:g}.npz", s) for s in (0.001, 0.1, 0.2, 0.25)}
    shutil.rmtree(folder, ignore_errors=True)


def standin(table: Path) -> list[str]:
    """A run of BUDGET decks on the stand-in, the synchronous loop (whose batches do not depend on
    the number of workers)."""
    return ["engine=scale_standin", f"engine.table={table}", f"algorithm.budget={BUDGET}",
            "algorithm.steady_state=false"]


@pytest.fixture(scope="session")
def standin_reference(tables, tmp_path_factory):
    """The undisturbed run, on a LocalCluster (what the stand-in returns depends on its table's
    records only, not on its times or the cluster)."""
    run_dir = tmp_path_factory.mktemp("faults-reference") / "run"
    run_pipeline(*standin(tables[0.001]), run_dir=run_dir)
    return final_state(run_dir)


def events(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("cluster ")]


# --------------------------------------------------------------------- the three-host cluster
def node_workers(logs: Path, name: str, jobs: int = 2) -> list[str]:
    """test_nodes' one-core worker jobs, one per node, with the fault settings of these tests."""
    return [*nodes_workers(logs, name, jobs), *FAST_FAULTS]


def registered(logs: Path, name: str, job: str) -> bool:
    path = logs / f"{name}-{job}.err"
    return path.exists() and "Registered to:" in path.read_text(errors="replace")


def link(node: str, state: str) -> None:
    subprocess.run(["ip", "-n", node, "link", "set", "eth0", state], check=True, timeout=30)


class NodesRun:
    """A DSA-ME run on the stand-in started on the controller, with a one-core worker job on each
    compute node."""

    def __init__(self, folder: Path, tmp_path: Path, table: Path):
        self.name = f"dsame-fault-{uuid.uuid4().hex[:6]}"
        self.logs, self.run_dir, self.log_path = folder / "logs", tmp_path / "run", tmp_path / "driver.log"
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(on_ctl(*command(*standin(table), *node_workers(self.logs, self.name),
                                                     run_dir=self.run_dir)),
                                     cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def running(self) -> bool:
        return self.proc.poll() is None

    def wait_for_both_nodes(self) -> dict[str, tuple[str, str]]:
        """Once the first checkpoint is written and a worker job runs on each node, its worker
        connected: those jobs."""
        assert wait_for(lambda: saved_evaluations(self.run_dir) >= 20 or not self.running(), timeout=240), \
            self.output()[-3000:]
        assert self.running(), self.output()[-3000:]
        assert wait_for(lambda: sorted(n for s, n in node_jobs(self.name).values() if s == "RUNNING") == list(NODES),
                        timeout=120), node_jobs(self.name)
        jobs = node_jobs(self.name)
        assert wait_for(lambda: all(registered(self.logs, self.name, j) for j in jobs), timeout=60)
        assert saved_evaluations(self.run_dir) < BUDGET and self.running(), "the run ended before the fault"
        return jobs

    def noticed(self, since: float, pattern: str, timeout: float) -> float:
        """Seconds from `since` until the run printed a line matching `pattern`."""
        assert wait_for(lambda: re.search(pattern, self.output(), re.M) or not self.running(), timeout=timeout,
                        poll=0.2), f"not said within {timeout:.0f} s:\n{self.output()[-3000:]}"
        assert re.search(pattern, self.output(), re.M), self.output()[-3000:]
        return time.monotonic() - since

    def finish(self, timeout: float = 400) -> None:
        try:
            assert self.proc.wait(timeout=timeout) == 0, self.output()[-3000:]
        finally:
            self.close()

    def close(self) -> None:
        if self.running():
            subprocess.run(["kill", "-KILL", f"-{self.proc.pid}"], capture_output=True)
        self.log.close()

    def check_result(self, reference: dict) -> None:
        assert saved_evaluations(self.run_dir) == BUDGET
        assert_same_run(final_state(self.run_dir), reference)
        assert wait_for(lambda: not node_jobs(self.name), timeout=60), "worker jobs outlived the driver"
        # what the run printed about the cluster is in its cluster.log too
        assert events(self.output()) and events(self.output()) == \
            (self.run_dir / "cluster.log").read_text().splitlines()


def kill_everything_on(node: str) -> None:
    """A node that crashes: every process in its network namespace (its slurmd, the worker job)
    killed, its link down, so nothing it had answers any more (no reset, no FIN)."""
    link(node, "down")
    pids = subprocess.run(["ip", "netns", "pids", node], capture_output=True, text=True, timeout=30).stdout.split()
    subprocess.run(["kill", "-KILL", *pids], capture_output=True, timeout=30)


def restart_slurmd(node: str) -> None:
    """The node boots again: its link up and its slurmd started, as nodes_slurm.sh starts it."""
    link(node, "up")
    conf = NODES_DIR / "slurm.conf"
    subprocess.run(["bash", str(ROOT / "slurm" / "nodes_slurm.sh"), "on", node, "/usr/sbin/slurmd", "-N", node,
                    "-f", str(conf)], check=True, timeout=60, env={**os.environ, "SLURM_NODES_DIR": str(NODES_DIR)})


def test_a_compute_node_that_goes_down_and_comes_back(shared, tmp_path, tables, standin_reference):
    """dsame-n2 crashes mid-run (every process on it killed, its link down). The run says within
    NOTICE_S which worker and job it lost on which node, its tasks run again on dsame-n1, and a
    new worker job is submitted in place of the lost one (it waits: dsame-n1's one CPU is taken
    and SLURM still holds dsame-n2's for the lost job). When the node boots again, the new job
    lands on it and its worker joins the run, which ends with the undisturbed archive."""
    run = NodesRun(shared, tmp_path, tables[0.25])
    try:
        first = run.wait_for_both_nodes()
        lost_job = next(j for j, (_, n) in first.items() if n == NODES[1])
        start = time.monotonic()
        kill_everything_on(NODES[1])
        took = run.noticed(start, rf"^cluster .*: lost worker .*job {lost_job} on {NODES[1]}\)", NOTICE_S)
        print(f"\nnode down: the lost worker said after {took:.1f} s")
        took_job = run.noticed(start, rf"^cluster .*: lost worker job {lost_job} on {NODES[1]}: running, but",
                               NOTICE_S + 10 + 10)
        print(f"node down: the lost job said and replaced after {took_job:.1f} s")
        assert wait_for(lambda: set(node_jobs(run.name)) - set(first) or not run.running(), timeout=60), \
            run.output()[-3000:]
        new = (set(node_jobs(run.name)) - set(first)).pop()
        assert run.running(), "the run ended before the node came back"
        restart_slurmd(NODES[1])
        # the new job runs on the node that came back, and its worker reaches the scheduler
        assert wait_for(lambda: node_jobs(run.name).get(new, ("", ""))[1] == NODES[1] or not run.running(),
                        timeout=120), (node_jobs(run.name), run.output()[-2000:])
        assert wait_for(lambda: registered(run.logs, run.name, new) or not run.running(), timeout=90)
        assert registered(run.logs, run.name, new), "the new job's worker did not join before the run ended"
        run.finish()
    finally:
        link(NODES[1], "up")
        if not any(n == f"slurmd-{NODES[1]}" for n in _daemons_on(NODES[1])):
            restart_slurmd(NODES[1])
        run.close()
    run.check_result(standin_reference)
    assert f"submitted in place of lost job {lost_job}" in run.output()
    assert re.search(r"1 worker job\(s\) lost and 1 replaced in this run", run.output()), run.output()[-2000:]


def _daemons_on(node: str) -> list[str]:
    """slurmd's pid file says whether the node's slurmd runs (a crashed node's does not)."""
    pid_file = NODES_DIR / f"slurmd-{node}.pid"
    try:
        return [f"slurmd-{node}"] if Path(f"/proc/{int(pid_file.read_text())}").exists() else []
    except (OSError, ValueError):
        return []


def test_a_network_split_shorter_and_longer_than_the_timeouts(shared, tmp_path, tables, standin_reference):
    """dsame-n2's link goes down for 4 s (shorter than the 12 s TCP timeout): nothing is lost,
    the same worker jobs go on. Then for 30 s: both sides call the connection dead after 12 s,
    the worker on dsame-n2 closes (its job ends, which SLURM learns when the link is back), its
    tasks run again on dsame-n1, the job is replaced; once the link is up the run goes on with two
    workers and ends with the undisturbed archive, each result applied once."""
    run = NodesRun(shared, tmp_path, tables[0.25])
    try:
        first = run.wait_for_both_nodes()
        lost_job = next(j for j, (_, n) in first.items() if n == NODES[1])
        link(NODES[1], "down")
        time.sleep(4)
        link(NODES[1], "up")
        time.sleep(12 + 2)  # the timeouts pass: a short split must have cost nothing
        assert not LOST.search(run.output()), run.output()[-3000:]
        assert set(first) <= set(node_jobs(run.name)), node_jobs(run.name)
        assert run.running() and saved_evaluations(run.run_dir) < BUDGET, "the run ended before the long split"
        start = time.monotonic()
        link(NODES[1], "down")
        took = run.noticed(start, rf"^cluster .*: lost worker .*job {lost_job} on {NODES[1]}\)", NOTICE_S)
        print(f"\nnetwork split: the lost worker said after {took:.1f} s")
        took_job = run.noticed(start, rf"^cluster .*: lost worker job {lost_job} on {NODES[1]}:", NOTICE_S + 10 + 10)
        print(f"network split: the lost job said and replaced after {took_job:.1f} s")
        time.sleep(max(0.0, 30 - (time.monotonic() - start)))
        link(NODES[1], "up")
        # the run gets its second worker again (the new job, wherever SLURM puts it)
        assert wait_for(lambda: any(registered(run.logs, run.name, j) for j in set(node_jobs(run.name)) - set(first))
                        or not run.running(), timeout=120), (node_jobs(run.name), run.output()[-2000:])
        run.finish()
    finally:
        link(NODES[1], "up")
        run.close()
    run.check_result(standin_reference)
    assert f"submitted in place of lost job {lost_job}" in run.output()


def test_a_node_of_the_single_allocation_that_goes_down(shared, tables, standin_reference):
    """slurm/dsa_me_srun.sbatch over both nodes (driver, scheduler and a worker on dsame-n1, a
    worker on dsame-n2); dsame-n2 crashes mid-run. The driver says which node lost how many
    workers, their tasks run again on dsame-n1's worker, the job goes on (--no-kill), and the run
    ends with the undisturbed archive and the summary line."""
    run_dir = shared / "run"
    job = ctl("sbatch", "--parsable", "--nodes=2", "--ntasks=3", "--overcommit", "--mem-per-cpu=1G",
              f"--output={shared}/driver-%j.out", f"--job-name=dsame-alloc-{uuid.uuid4().hex[:6]}",
              "--export=ALL,DASK_DISTRIBUTED__COMM__TIMEOUTS__TCP=12s",  # the scheduler's, as FAST_FAULTS
              "slurm/dsa_me_srun.sbatch", *TINY, *standin(tables[0.1]), "+cluster.slurm.watch_every_s=2",
              f"run_dir={run_dir}").strip().split(";")[0]
    out = shared / f"driver-{job}.out"

    def log() -> str:
        return out.read_text(errors="replace") if out.exists() else ""

    try:
        assert wait_for(lambda: saved_evaluations(run_dir) >= 20 or node_job_state(job) in ENDED, timeout=240), \
            log()[-3000:]
        assert wait_for(lambda: log().count("Registered to:") == 2, timeout=60), log()[-3000:]
        assert saved_evaluations(run_dir) < BUDGET and node_job_state(job) == "RUNNING", "the run ended before the fault"
        start = time.monotonic()
        kill_everything_on(NODES[1])
        said = (rf"cluster [\d-]+ [\d:]+: lost 1 worker\(s\) on {NODES[1]} \(tls://{re.escape(address(NODES[1]))}:\d+\), none "
                r"left there; their tasks run again on the 1 worker\(s\) left")
        assert wait_for(lambda: re.search(said, log()) or node_job_state(job) in ENDED, timeout=NOTICE_S,
                        poll=0.2), log()[-3000:]
        assert re.search(said, log()), log()[-3000:]
        print(f"\nsrun, node down: said after {time.monotonic() - start:.1f} s")
        assert wait_for(lambda: "run finished" in log() or node_job_state(job) in ENDED, timeout=300), log()[-3000:]
        restart_slurmd(NODES[1])  # SLURM ends the job once the node answers again
        assert wait_for(lambda: node_job_state(job) in ENDED, timeout=120, poll=1), node_job_state(job)
    finally:
        link(NODES[1], "up")
        if not _daemons_on(NODES[1]):
            restart_slurmd(NODES[1])
        if node_job_state(job) not in ENDED:
            ctl("scancel", job)
    assert node_job_state(job) == "COMPLETED" and "run finished" in log(), log()[-3000:]
    # (searched in the whole text: the job's processes write to one file, a line may start mid-line)
    lost = re.findall(r"cluster [\d-]+ [\d:]+: lost (\d+) worker\(s\) on (\S+) ", log())
    summary = re.findall(r"cluster [\d-]+ [\d:]+: (\d+) worker\(s\) lost in this run", log())
    # dsame-n1's worker stays up to the end: no other loss is said (a look that crossed the client's
    # scheduler-info refresh once said it lost: pipeline/cluster/worker_watch.py scheduler_workers)
    assert lost == [("1", NODES[1])] and summary == ["1"], (lost, summary)
    assert saved_evaluations(run_dir) == BUDGET
    assert_same_run(final_state(run_dir), standin_reference)


# ------------------------------------------------------------------ the one-node cluster
def local_workers(tmp_path: Path, name: str, jobs: int = 1) -> list[str]:
    return ["cluster=slurm", f"cluster.jobs={jobs}", "cluster.slurm.cores=1", "cluster.slurm.processes=1",
            "cluster.slurm.memory=1GB", "cluster.slurm.walltime=00:20:00", "cluster.slurm.death_timeout=30",
            f"cluster.slurm.log_directory={tmp_path / 'logs'}", f"cluster.slurm.job_name={name}", *FAST_FAULTS]


def test_a_worker_job_whose_walltime_is_shorter_than_the_run(slurm, tmp_path, tables, standin_reference):
    """The worker jobs' SLURM time limit is one minute (the last --time in the job script wins
    over cluster.slurm.walltime's), the run takes longer: SLURM kills each worker job mid-task
    (TIMEOUT), the run says so, submits a new one each time and says how many were lost and
    replaced; the archive is the undisturbed run's."""
    name = f"dsame-wall-{uuid.uuid4().hex[:6]}"
    run_dir = tmp_path / "run"
    overrides = [*standin(tables[0.2]), *local_workers(tmp_path, name),
                 'cluster.slurm.job_extra_directives=["--time=00:01:00"]']
    done = subprocess.run(command(*overrides, run_dir=run_dir), cwd=ROOT, capture_output=True, text=True,
                          timeout=500)
    assert done.returncode == 0, done.stderr[-3000:]
    said = events(done.stderr)
    assert any(re.search(r"lost worker job \d+.*: ended \(TIMEOUT", line) for line in said), done.stderr[-3000:]
    lost = int(re.search(r"(\d+) worker job\(s\) lost and (\d+) replaced in this run", done.stderr).group(1))
    assert lost >= 1 and f"{lost} worker job(s) lost and {lost} replaced in this run" in done.stderr
    assert said == (run_dir / "cluster.log").read_text().splitlines()
    print("\nwalltime:\n" + "\n".join(said))
    assert saved_evaluations(run_dir) == BUDGET
    assert_same_run(final_state(run_dir), standin_reference)
    assert wait_for(lambda: not jobs_named(name), timeout=60)


def test_worker_jobs_that_always_fail_stop_the_run_and_a_fixed_worker_resumes_it(slurm, tmp_path, tables,
                                                                                standin_reference):
    """Mid-run the nodes' environment breaks (the worker jobs' prologue then sets a Python home
    that does not exist, as a wrong module would): the running worker job is cancelled, and every
    new one fails before its worker starts. Each is submitted again after a wait that doubles;
    after cluster.slurm.max_failed_jobs=2 failures in a row the run stops with one line naming
    the failure and the log's error, its last checkpoint kept, no job left in the queue. Once the
    environment is fixed, the same command resumes and ends with the undisturbed archive."""
    name = f"dsame-fail-{uuid.uuid4().hex[:6]}"
    run_dir, broken = tmp_path / "run", tmp_path / "environment-broken"
    def overrides(jobs):
        return [*standin(tables[0.1]), *local_workers(tmp_path, name, jobs), "cluster.slurm.max_failed_jobs=2",
                f'cluster.slurm.job_script_prologue=["test ! -e {broken} || export PYTHONHOME=/nonexistent"]']
    out = tmp_path / "driver.err"
    with open(out, "w") as log:
        proc = subprocess.Popen(command(*overrides(1), run_dir=run_dir), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log,
                                start_new_session=True)
        try:
            assert wait_for(lambda: saved_evaluations(run_dir) >= 20 or proc.poll() is not None, timeout=240)
            assert proc.poll() is None and jobs_named(name), out.read_text()[-3000:]
            broken.touch()
            subprocess.run(["scancel", "--name", name], check=True, timeout=60)
            start = time.monotonic()
            proc.wait(timeout=240)
            took = time.monotonic() - start
        finally:
            if proc.poll() is None:
                subprocess.run(["kill", "-KILL", f"-{proc.pid}"], capture_output=True)
    err = out.read_text(errors="replace")
    assert proc.returncode == 2, err[-3000:]
    last = err.strip().splitlines()[-1]
    print(f"\nfailing worker jobs: stopped {took:.0f} s after the environment broke:\n" + "\n".join(events(err))
          + f"\n{last}")
    stop = re.fullmatch(r"error: 2 worker jobs in a row ended before a worker of them reached the scheduler "
                        r"\(cluster.slurm.max_failed_jobs=2\); the last, job \d+( on \S+)?, ended \(FAILED[^)]*\) "
                        r"before a worker of it reached the scheduler; its log \S+\.err ends: .*\(its last error: "
                        r"ModuleNotFoundError: No module named 'encodings'\); the checkpoint in (?P<run>\S+) holds (?P<kept>\d+) "
                        r"evaluations; once that is fixed, run the same command again", last)
    assert stop and stop["run"] == str(run_dir), last
    assert re.search(r"submitting a new one in 2 s", err), err[-3000:]  # one watch round of backoff
    assert int(stop["kept"]) == saved_evaluations(run_dir) < BUDGET  # the checkpoint is intact and says so
    assert wait_for(lambda: not jobs_named(name), timeout=60), jobs_named(name)
    broken.unlink()
    # resumed with three worker jobs (the number of workers changes nothing but the time)
    done = subprocess.run(command(*overrides(3), run_dir=run_dir), cwd=ROOT, capture_output=True, text=True,
                          timeout=400)
    assert done.returncode == 0 and f"resuming {run_dir} at {stop['kept']} evaluations" in done.stderr, \
        done.stderr[-3000:]
    assert saved_evaluations(run_dir) == BUDGET
    assert_same_run(final_state(run_dir), standin_reference)


def test_the_driver_job_preempted_and_requeued(slurm, tmp_path, tables, standin_reference):
    """SLURM requeues the running driver job (scontrol requeue, as a preemption in REQUEUE mode
    does): SIGTERM to the job's processes, KillWait (5 s here) of grace, SIGKILL, and the job back
    in the queue. Within the grace period the driver writes a last checkpoint (with the batch in
    flight) and cancels its worker jobs; the requeued job resumes from that checkpoint and ends
    with the undisturbed archive."""
    name = f"dsame-pre-{uuid.uuid4().hex[:6]}"
    run_dir = tmp_path / "run"
    job = sbatch("--cpus-per-task=1", "--mem=2G", f"--output={tmp_path}/driver-%j.out", f"--job-name={name}-head",
                 "slurm/dsa_me_paper.sbatch", *TINY, *standin(tables[0.1]), *local_workers(tmp_path, name, jobs=2),
                 f"run_dir={run_dir}", cwd=ROOT)
    out = tmp_path / f"driver-{job}.out"
    assert wait_for(lambda: saved_evaluations(run_dir) >= 20 or job_state(job) in ENDED, timeout=240)
    workers = set(jobs_named(name))
    assert workers and saved_evaluations(run_dir) < BUDGET, "the run ended before it could be preempted"
    # the checkpoint's reports written, then the next outer iteration (about a second) sends its
    # batch: preempted while that batch is played, most likely
    checkpoint, reports = run_dir / "checkpoint.h5", run_dir / "ccdf.csv"
    assert wait_for(lambda: reports.exists() and reports.stat().st_mtime >= checkpoint.stat().st_mtime, timeout=60)
    time.sleep(2)
    requeued = time.time()
    subprocess.run(["scontrol", "requeue", job], check=True, timeout=60)
    # the first run's worker jobs are cancelled with it; the requeued job starts new ones
    assert wait_for(lambda: not workers & set(jobs_named(name)), timeout=60), jobs_named(name)
    # SLURM holds a requeued job back for two minutes (its BeginTime); start it now
    assert wait_for(lambda: job_state(job) == "PENDING", timeout=60), job_state(job)
    # The checkpoint on disk was written at the stop, within the grace period (with the batch
    # in flight, unless the stop came between two batches).
    from pipeline.state import checkpoint as ckpt
    assert (run_dir / ckpt.FILENAME).stat().st_mtime >= requeued, "no last checkpoint at the stop"
    pending = ckpt.load(run_dir / ckpt.FILENAME).arrays.get("pending")
    print(f"\npreemption: the last checkpoint holds {len(pending['decks']) if pending else 0} decks in flight")
    subprocess.run(["scontrol", "update", f"JobId={job}", "StartTime=now"], check=True, timeout=60)
    assert wait_job(job, timeout=400) == "COMPLETED", out.read_text()[-3000:]
    log = out.read_text(errors="replace")
    stop = re.search(r"stopped by SIGTERM: the checkpoint in \S+ holds (\d+) evaluations", log)
    assert stop, log[-3000:]
    assert f"resuming {run_dir} at {stop.group(1)} evaluations" in log, log[-3000:]
    print(f"\npreemption: {stop.group(0)}")
    assert "run finished" in log
    assert saved_evaluations(run_dir) == BUDGET
    assert_same_run(final_state(run_dir), standin_reference)
    assert wait_for(lambda: not jobs_named(name), timeout=60)


# ------------------------------------------------------------------ the job watch by itself
class FakeJob:
    def __init__(self, job_id):
        self.job_id, self.closed = job_id, False

    async def close(self):
        self.closed = True


class FakeCluster:
    """What JobWatch reads of a dask-jobqueue cluster: its jobs by name, the scheduler's workers,
    scale and sync."""

    def __init__(self, jobs: int, processes: int, queue: dict):
        from distributed.core import Status
        self.status, self.processes, self.next_id, self.queue = Status.running, processes, 100, queue
        self.workers, self.worker_spec, self.scheduler_info = {}, {}, {"workers": {}}
        self.scale(jobs)

    def scale(self, jobs):
        """sbatch: the new job is pending."""
        while len(self.worker_spec) < jobs:
            name = f"SLURMCluster-{self.next_id}"
            self.worker_spec[name], self.workers[name] = {}, FakeJob(str(self.next_id))
            self.queue[str(self.next_id)] = ("PENDING", "")
            self.next_id += 1

    def connect(self, name):
        """The job's workers register (names as dask-jobqueue gives them)."""
        names = [name] if self.processes == 1 else [f"{name}-{i}" for i in range(self.processes)]
        for i, worker in enumerate(names):
            self.scheduler_info["workers"][f"tls://10.0.0.{self.workers[name].job_id}:{4000 + i}"] = {"name": worker}

    def disconnect(self, name):
        for address, info in list(self.scheduler_info["workers"].items()):
            if info["name"] == name or info["name"].rsplit("-", 1)[0] == name:
                del self.scheduler_info["workers"][address]

    def sync(self, func, *args):
        import asyncio
        return asyncio.run(func(*args))


@pytest.mark.parametrize("processes", [1, 3])
def test_the_job_watch_replaces_ended_and_silent_jobs_and_says_so(processes):
    """Jobs of several worker processes too (their workers are named <job>-<i>: dask-jobqueue's
    own replacement missed those, so such a cluster shrank silently)."""
    from pipeline.cluster.job_watch import JobWatch
    said, queue = [], {}
    cluster = FakeCluster(2, processes, queue)
    first, second = list(cluster.workers)
    for name in (first, second):
        cluster.connect(name)
        queue[cluster.workers[name].job_id] = ("RUNNING", f"node-{name[-1]}")
    clock = [0.0]
    watch = JobWatch(cluster, 2, lost_after=10, every=1, squeue=lambda ids: {i: queue[i] for i in ids if i in queue},
                     ended_state=lambda job_id: "TIMEOUT, TimeLimit", clock=lambda: clock[0], emit=said.append)
    watch.check()  # what start() does first; checked by hand below, no thread
    watch.check()
    assert not said  # all well: nothing to say
    # the first job ends (its walltime): said, cancelled, replaced by a new job
    old = cluster.workers[first]
    del queue[old.job_id]
    cluster.disconnect(first)
    watch.check()
    assert said[0].startswith(f"lost worker {first}") and len(said) == processes + 1
    assert f"lost worker job {old.job_id} on node-{first[-1]}: ended (TIMEOUT, TimeLimit)" in said[-1]
    assert old.closed and first not in cluster.workers and len(cluster.workers) == 2
    third = (set(cluster.workers) - {second}).pop()
    cluster.connect(third)
    queue[cluster.workers[third].job_id] = ("RUNNING", "node-3")
    watch.check()
    assert said[-1] == f"worker job {cluster.workers[third].job_id} submitted in place of lost job {old.job_id} " \
        "(1 lost, 1 replaced so far)"
    # the second job's node goes silent: SLURM still says RUNNING; lost after 10 s, not before
    n = len(said)
    cluster.disconnect(second)
    clock[0] = 5.0
    watch.check()
    assert len(said) == n + processes and all(line.startswith(f"lost worker {second}") for line in said[n:])
    clock[0] = 9.0
    watch.check()
    assert len(said) == n + processes  # 9 s without a worker: not yet
    clock[0] = 12.0
    watch.check()
    assert "none of its workers has reached the scheduler for 12 s" in said[-1] and len(cluster.workers) == 2
    watch.check()
    assert said[-1].endswith("(2 lost, 2 replaced so far)")
    watch.stop()
    assert said[-1] == "2 worker job(s) lost and 2 replaced in this run"


def test_a_job_slurm_is_still_ending_is_said_by_how_it_ended():
    """A worker job killed at its walltime is COMPLETING for a few seconds (KillWait, more under
    load) before SLURM 22.05's squeue and scontrol say TIMEOUT; the reason is set from the start,
    so the watch says TIMEOUT either way (these lines are scontrol -o's of one such job)."""
    from pipeline.cluster.job_watch import JobWatch, job_ending
    assert job_ending("JobId=7 JobName=w JobState=COMPLETING Reason=TimeLimit Dependency=(null)") == \
        "TIMEOUT, TimeLimit"
    assert job_ending("JobId=7 JobName=w JobState=TIMEOUT Reason=TimeLimit Dependency=(null)") == "TIMEOUT, TimeLimit"
    assert job_ending("JobId=7 JobState=COMPLETING Reason=None") == "COMPLETING"  # no reason: as SLURM says
    assert job_ending("JobId=7 JobState=FAILED Reason=NonZeroExitCode") == "FAILED, NonZeroExitCode"
    assert job_ending("") == ""
    said, queue = [], {}
    cluster = FakeCluster(1, 1, queue)
    name, = cluster.workers
    cluster.connect(name)
    job_id = cluster.workers[name].job_id
    queue[job_id] = ("RUNNING", "node-1")
    watch = JobWatch(cluster, 1, lost_after=10, every=1, squeue=lambda ids: {i: queue[i] for i in ids if i in queue},
                     ended_state=lambda _: job_ending("JobState=COMPLETING Reason=TimeLimit"), clock=lambda: 0.0,
                     emit=said.append)
    watch.check()
    queue[job_id] = ("COMPLETING", "node-1")  # squeue's word while SLURM ends it
    cluster.disconnect(name)
    watch.check()
    assert f"lost worker job {job_id} on node-1: ended (TIMEOUT, TimeLimit); cancelling it" in said[-1], said


@pytest.mark.parametrize("survivors", [0, 1])
def test_the_job_watch_backs_off_from_failing_jobs_and_stops_after_max_failed(tmp_path, survivors):
    """Worker jobs that end before their worker connects (a broken environment on the nodes) are
    submitted again after 1, 2, 4 ... s (one watch round, doubling), not at once; a new job whose
    worker connects ends the row. After max_failed in a row none is submitted again: with no
    worker left the run is stopped with the last line of the failing job's log; with one still up
    the run goes on with it, said once, and is stopped when it leaves."""
    from pipeline.cluster.job_watch import JobWatch
    said, stops, queue, clock = [], [], {}, [0.0]
    cluster = FakeCluster(1 + survivors, 1, queue)
    for name in cluster.workers:
        cluster.connect(name)
        queue[cluster.workers[name].job_id] = ("RUNNING", "node-1")
    (tmp_path / "logs").mkdir()
    watch = JobWatch(cluster, 1 + survivors, lost_after=10, every=1, max_failed=3,
                     squeue=lambda ids: {i: queue[i] for i in ids if i in queue},
                     ended_state=lambda job_id: "FAILED, NonZeroExitCode", clock=lambda: clock[0], emit=said.append,
                     job_log=lambda job_id: tmp_path / "logs" / f"w-{job_id}.err", give_up=stops.append)
    watch.check()
    failing = next(iter(cluster.workers))

    def fail_next():
        """The job in `failing`'s place starts and fails: its log ends with Python's complaint."""
        name = next(n for n in cluster.workers if n not in survivor_names)
        job_id = cluster.workers[name].job_id
        (tmp_path / "logs" / f"w-{job_id}.err").write_text("Fatal Python error: init_fs_encoding\n"
                                                           "ModuleNotFoundError: No module named 'encodings'\n")
        del queue[job_id]
        cluster.disconnect(name)
        return job_id

    survivor_names = set(list(cluster.workers)[1:])
    # the first job ends after its worker connected (a walltime): replaced at once, no failure
    del queue[cluster.workers[failing].job_id]
    cluster.disconnect(failing)
    watch.check()
    assert said[-1].endswith(f"submitting a new one to keep {1 + survivors} (1 lost so far)"), said
    assert len(cluster.workers) == 1 + survivors
    # two failures: each replacement waits, 1 s then 2 s
    for failures, wait in ((1, 1), (2, 2)):
        job_id = fail_next()
        watch.check()
        assert re.search(rf"lost worker job {job_id}: ended \(FAILED, NonZeroExitCode\) before a worker of it reached "
                         rf"the scheduler; its log .*w-{job_id}.err ends: ModuleNotFoundError: No module named "
                         rf"'encodings'; cancelling it and submitting a new one in {wait} s", said[-1]), said[-1]
        assert len(cluster.workers) == survivors  # cancelled
        clock[0] += wait - 0.5
        watch.check()
        assert len(cluster.workers) == survivors, "submitted before its wait"
        clock[0] += 0.5
        watch.check()
        assert len(cluster.workers) == 1 + survivors
    # a new job whose worker connects ends the row: the next failure waits 1 s again
    new = next(n for n in cluster.workers if n not in survivor_names)
    cluster.connect(new)
    queue[cluster.workers[new].job_id] = ("RUNNING", "node-2")
    watch.check()
    assert watch.failed_in_a_row == 0
    cluster.disconnect(new)
    del queue[cluster.workers[new].job_id]
    watch.check()  # lost after connecting: replaced at once
    for failures in (1, 2, 3):
        job_id = fail_next()
        watch.check()
        clock[0] += 2 ** (failures - 1)
        watch.check()
    gave_up = ("3 worker jobs in a row ended before a worker of them reached the scheduler "
               f"(cluster.slurm.max_failed_jobs=3); the last, job {job_id}, ended (FAILED, NonZeroExitCode) before "
               f"a worker of it reached the scheduler; its log {tmp_path / 'logs' / f'w-{job_id}.err'} ends: "
               "ModuleNotFoundError: No module named 'encodings'")
    assert len(cluster.workers) == survivors  # none submitted after the third failure
    if not survivors:
        assert stops == [gave_up]
    else:
        assert not stops and said[-1] == f"{gave_up}; no new worker job is submitted: the run goes on with the " \
            "1 worker(s) still up"
        n = len(said)
        clock[0] += 100
        watch.check()
        assert len(said) == n and len(cluster.workers) == 1  # said once, nothing submitted
        last, = cluster.workers
        cluster.disconnect(last)
        del queue[cluster.workers[last].job_id]
        watch.check()
        assert stops == [f"{gave_up}; the workers that were still up have left too"]
    watch.stop()
    assert said[-1] == f"{watch.lost} worker job(s) lost and {watch.replaced} replaced in this run"


def test_the_worker_watch_says_which_node_lost_how_many_workers_and_stops_an_empty_run():
    """cluster.kind=address (the srun script): workers that leave are said per node, with how
    many are left there and in all; at the end how many were lost; a scheduler left with no
    worker for lost_after seconds stops the run instead of holding the allocation."""
    from pipeline.cluster.worker_watch import WorkerWatch
    workers = {f"tls://10.0.0.{host}:{port}": {"host": f"10.0.0.{host}"} for host, port in ((1, 41), (1, 42), (2, 43))}
    said, stops, clock = [], [], [0.0]
    watch = WorkerWatch(lambda: workers, every=1, lost_after=60, node_of=lambda host: f"n{host[-1]}",
                        clock=lambda: clock[0], emit=said.append, give_up=stops.append)
    watch.check()
    watch.check()
    assert not said
    del workers["tls://10.0.0.2:43"]
    watch.check()
    assert said == ["lost 1 worker(s) on n2 (tls://10.0.0.2:43), none left there; their tasks run again on the 2 "
                    "worker(s) left, and nothing starts them again in this allocation"]
    del workers["tls://10.0.0.1:41"], workers["tls://10.0.0.1:42"]
    watch.check()
    assert said[-1].startswith("lost 2 worker(s) on n1 (tls://10.0.0.1:41, tls://10.0.0.1:42), none left there; "
                               "their tasks run again on the 0 worker(s) left")
    clock[0] = 59
    watch.check()
    assert not stops
    clock[0] = 60
    watch.check()
    assert stops == ["every worker of the scheduler has left (3 lost) and none has come back for 60 s"]
    watch.stop()
    assert said[-1] == "3 worker(s) lost in this run" and len(said) == 3
