"""The pipeline on a SLURM of three hosts (slurm/nodes_slurm.sh): a controller, dsame-ctl, where
the driver runs as on a login node, and two compute nodes, dsame-n1 and dsame-n2, each in its own
network namespace with its own address, hostname and /tmp. A worker reaches the scheduler only
over the hosts' network (eth0, a veth on a bridge), never over a loopback they share; the nodes
see this machine's file system except /tmp, as nodes see a cluster's shared file system.

Fault: one node's worker jobs cancelled mid-run; the run must end with the archive of an
undisturbed run. The sbatch script's driver job on one node with its worker job on the other,
and the srun script across both. And what a single host hid: a head node whose name resolves to
loopback, and a worker log folder (which holds the workers' TLS files) on a path only the head
node sees."""
import os
import re
import subprocess
import sys
import time
import uuid

import pytest

from tests.pipeline.helpers import (ROOT, TINY, assert_same_run, command, final_state, saved_evaluations,
                                    wait_for)

from .conftest import CTL, NODES, NODES_DIR, on_ctl
from .jobs import ENDED

pytestmark = pytest.mark.timeout(600)

BUDGET = 60  # TINY: three checkpoints of 20 evaluations
ADDRESS = {}  # host -> its address on the cluster network, from the cluster's hosts file


def address(host: str) -> str:
    if not ADDRESS:
        ADDRESS.update({name: ip for ip, name in (line.split() for line in (NODES_DIR / "hosts").read_text()
                                                   .splitlines()) if name != "localhost"})
    return ADDRESS[host]


def ctl(*args, timeout=60) -> str:
    done = subprocess.run(on_ctl(*args), cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(map(str, args))} on {CTL}: {done.stderr}"
    return done.stdout


def jobs(name: str) -> dict[str, tuple[str, str]]:
    """Job id -> (state, node) of this user's pending or running jobs with this name."""
    out = ctl("squeue", "-h", "--name", name, "-o", "%i %T %N")
    return {job: (state, node) for job, state, node in (f"{line} -".split()[:3] for line in out.splitlines())}


def node_workers(logs, name, jobs=2):
    """cluster=slurm with one-core worker jobs, one per node (each node has one CPU)."""
    return ["cluster=slurm", f"cluster.jobs={jobs}", "cluster.slurm.cores=1", "cluster.slurm.processes=1",
            "cluster.slurm.memory=1GB", "cluster.slurm.walltime=00:20:00", "cluster.slurm.death_timeout=30",
            f"cluster.slurm.log_directory={logs}", f"cluster.slurm.job_name={name}"]


def worker_log(logs, name, job) -> str:
    path = logs / f"{name}-{job}.err"
    return path.read_text(errors="replace") if path.exists() else ""


def listening(node: str) -> set[int]:
    """The TCP ports something listens on at `node`, on any of its addresses."""
    out = subprocess.run(["nsenter", f"--net=/run/netns/{node}", "ss", "-Hltn"], capture_output=True,
                         text=True, timeout=60, check=True).stdout
    return {int(line.split()[3].rsplit(":", 1)[1]) for line in out.splitlines() if line.strip()}


def test_a_run_on_two_nodes_survives_losing_one_nodes_worker_jobs(shared, tmp_path, reference):
    name = f"dsame-nodes-{uuid.uuid4().hex[:6]}"
    logs, run_dir = shared / "logs", tmp_path / "run"  # the run folder: the head node's alone
    log = open(tmp_path / "driver.log", "w")
    proc = subprocess.Popen(on_ctl(*command(*node_workers(logs, name), run_dir=run_dir)), cwd=ROOT,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def driver():
        return (tmp_path / "driver.log").read_text()[-3000:]

    try:
        assert wait_for(lambda: saved_evaluations(run_dir) >= 20 or proc.poll() is not None, timeout=240)
        assert proc.poll() is None, driver()
        # A worker job runs on each node, and each worker reached the scheduler at the head's
        # address on the hosts' network, from its own node's address.
        assert wait_for(lambda: sorted(n for s, n in jobs(name).values() if s == "RUNNING") == list(NODES),
                        timeout=120), jobs(name)
        first = jobs(name)
        scheduler = f"tls://{address(CTL)}:"
        for job, (_, node) in first.items():
            assert wait_for(lambda: "Registered to:" in worker_log(logs, name, job), timeout=60), \
                worker_log(logs, name, job)[-2000:]
            text = worker_log(logs, name, job)
            assert re.search(rf"Registered to: +{re.escape(scheduler)}\d+", text), text[-2000:]
            worker, = re.findall(r"Start worker at: +tls://([\d.]+):(\d+)", text)
            assert worker[0] == address(node), text[-2000:]
            # On the node, nothing of the job listens but the worker and its nanny (TLS both):
            # no plain-HTTP health or metrics page for the cluster network.
            nanny, = re.findall(r"Start Nanny at: +'tls://[\d.]+:(\d+)'", text)
            assert listening(node) <= {6818, int(worker[1]), int(nanny)}, (listening(node), text[-2000:])
        # Every worker job of dsame-n2 cancelled, mid-run: their tasks run again elsewhere, and a
        # replacement job keeps two up.
        lost = {job for job, (_, node) in first.items() if node == NODES[1]}
        assert lost and saved_evaluations(run_dir) < BUDGET and proc.poll() is None
        ctl("scancel", "--name", name, "--nodelist", NODES[1])
        assert wait_for(lambda: not lost & set(jobs(name)), timeout=60), jobs(name)
        assert wait_for(lambda: set(jobs(name)) - set(first) or proc.poll() is not None, timeout=120), \
            "no replacement job"
        assert proc.wait(timeout=300) == 0, driver()
    finally:
        if proc.poll() is None:
            subprocess.run(["kill", "-KILL", f"-{proc.pid}"], capture_output=True)
        log.close()
    assert saved_evaluations(run_dir) == BUDGET
    assert_same_run(final_state(run_dir), reference)
    assert wait_for(lambda: not jobs(name), timeout=60), "worker jobs outlived the driver"


SNIPPET = """
import socket, sys
from pipeline.cluster.clusters import open_cluster
from pipeline.state.config import validate
from tests.pipeline.helpers import compose
cfg = validate(compose(*sys.argv[1:]))
with open_cluster(cfg.cluster) as client:
    print(client.scheduler.address, client.submit(socket.gethostname, pure=False).result(timeout=120), flush=True)
"""


def test_a_head_node_whose_name_resolves_to_loopback_gives_workers_its_network_address(shared, tmp_path):
    """Debian writes `127.0.1.1 <hostname>` to /etc/hosts; with no default route either (a
    cluster network often has none), Dask advertised the scheduler at 127.0.1.1, where each
    worker job reached its own node and the driver waited forever. It now takes the address of
    the head node's one other interface."""
    hosts = tmp_path / "hosts"
    hosts.write_text("".join(f"{address(h)} {h}\n" for h in NODES) + f"127.0.0.1 localhost\n127.0.1.1 {CTL}\n")
    name = f"dsame-loop-{uuid.uuid4().hex[:6]}"
    args = ["sh", "-c", 'mount --bind "$1" /etc/hosts && shift && exec "$@"', "sh", hosts,
            sys.executable, "-c", SNIPPET, *node_workers(shared / "logs", name, jobs=1)]
    done = subprocess.run(on_ctl(*args), cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-3000:]
    scheduler, host = done.stdout.split()
    assert scheduler.startswith(f"tls://{address(CTL)}:") and host in NODES, done.stdout
    assert "Couldn't detect a suitable IP address" not in done.stderr  # the address is ours, not a guess
    assert wait_for(lambda: not jobs(name), timeout=60)


def test_a_worker_log_folder_only_the_head_node_sees_stops_the_run_with_the_reason(shared, tmp_path):
    """cluster.slurm.log_directory under /tmp: the head node's own, not the nodes'. SLURM cannot
    open the job's log there and the worker could not read its TLS files: the job ends at once,
    and the driver used to wait for its worker forever."""
    name = f"dsame-path-{uuid.uuid4().hex[:6]}"
    logs = tmp_path / "logs"
    start = time.monotonic()
    done = subprocess.run(on_ctl(*command(*node_workers(logs, name, jobs=1), run_dir=tmp_path / "run")),
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    took = time.monotonic() - start
    assert done.returncode == 2, done.stderr[-3000:]
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("error: the 1 worker job(s)") and "ended before a worker reached the scheduler at " \
        f"tls://{address(CTL)}:" in line and f"it wrote no log {logs}/{name}-" in line \
        and "every node mounts" in line, done.stderr[-3000:]
    assert took < 240, f"{took:.0f} s to notice"  # a wait for the job that never comes would be endless
    assert not jobs(name)


def job_state(job: str) -> str:
    out = subprocess.run(on_ctl("scontrol", "-o", "show", "job", job), capture_output=True, text=True,
                         timeout=60).stdout
    return next((f.split("=", 1)[1] for f in out.split() if f.startswith("JobState=")), "")


def test_the_single_allocation_script_across_two_nodes(shared, reference):
    """slurm/dsa_me_srun.sbatch over both nodes: the batch step (scheduler and driver) on the
    first, one srun worker on each; the second node's worker reaches the scheduler over the
    network, and the scheduler file and TLS files are read from the shared folder. The run folder
    and the job's output are on the shared folder too: the first node's /tmp is its own."""
    run_dir = shared / "run"
    out = ctl("sbatch", "--parsable", "--nodes=2", "--ntasks=3", "--overcommit", "--mem-per-cpu=1G",
              f"--output={shared}/driver-%j.out", f"--job-name=dsame-alloc-{uuid.uuid4().hex[:6]}",
              "slurm/dsa_me_srun.sbatch", *TINY, f"run_dir={run_dir}")
    job = out.strip().split(";")[0]
    assert wait_for(lambda: job_state(job) in ENDED, timeout=300, poll=1), job_state(job)
    log = (shared / f"driver-{job}.out").read_text(errors="replace")
    assert job_state(job) == "COMPLETED" and "run finished" in log, log[-3000:]
    scheduler = f"tls://{address(NODES[0])}:"
    assert re.search(rf"Scheduler at: +{re.escape(scheduler)}\d+", log), log[-3000:]
    workers = re.findall(r"Start worker at: +tls://([\d.]+):", log)
    assert sorted(workers) == [address(NODES[0]), address(NODES[1])], log[-3000:]
    assert len(re.findall(rf"Registered to: +{re.escape(scheduler)}", log)) == 2, log[-3000:]
    assert_same_run(final_state(run_dir), reference)


def test_the_driver_job_on_one_node_and_its_worker_job_on_the_other(shared, reference):
    """slurm/dsa_me_paper.sbatch as users submit it: the head job runs on dsame-n1 (its one CPU)
    and submits its worker job from there, which runs on dsame-n2 and reaches the scheduler in
    the head job over the network. The run folder is on the shared folder: n1's /tmp is its own."""
    name = f"dsame-head-{uuid.uuid4().hex[:6]}"
    logs, run_dir = shared / "logs", shared / "run"
    out = ctl("sbatch", "--parsable", "--cpus-per-task=1", "--mem=2G", f"--nodelist={NODES[0]}",
              f"--output={shared}/driver-%j.out", f"--job-name={name}-head", "slurm/dsa_me_paper.sbatch",
              *TINY, *node_workers(logs, name, jobs=1), f"run_dir={run_dir}")
    job = out.strip().split(";")[0]
    assert wait_for(lambda: job_state(job) in ENDED, timeout=300, poll=1), job_state(job)
    log = (shared / f"driver-{job}.out").read_text(errors="replace")
    assert job_state(job) == "COMPLETED" and "run finished" in log, log[-3000:]
    worker_logs = [p.read_text(errors="replace") for p in logs.glob(f"{name}-*.err")]
    assert worker_logs, "no worker job wrote its log"
    for text in worker_logs:
        assert re.search(rf"Start worker at: +tls://{re.escape(address(NODES[1]))}:", text), text[-2000:]
        assert re.search(rf"Registered to: +tls://{re.escape(address(NODES[0]))}:", text), text[-2000:]
    assert_same_run(final_state(run_dir), reference)
    assert wait_for(lambda: not jobs(name), timeout=60), "the worker job outlived the driver"
