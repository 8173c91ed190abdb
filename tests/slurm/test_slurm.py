"""The pipeline on a real (one-node, local) SLURM: worker jobs from dask-jobqueue with TLS, the
sbatch script, a submitit multirun, and faults: a worker job or the driver job cancelled
mid-run must end with the archive of an undisturbed run."""
import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.pipeline.helpers import (ROOT, TINY, assert_same_run, compose, final_state, run_pipeline,
                                    saved_evaluations, wait_for)

from .jobs import jobs_named, sbatch, scancel, wait_job

pytestmark = pytest.mark.timeout(600)

BUDGET = 60  # TINY: three checkpoints of 20 evaluations


def slurm_workers(tmp_path, name, jobs=1):
    """cluster=slurm with tiny worker jobs: 1 core, 1 single-threaded worker each."""
    return ["cluster=slurm", f"cluster.jobs={jobs}", "cluster.slurm.cores=1", "cluster.slurm.processes=1",
            "cluster.slurm.memory=1GB", "cluster.slurm.walltime=00:20:00", "cluster.slurm.death_timeout=30",
            f"cluster.slurm.log_directory={tmp_path / 'logs'}", f"cluster.slurm.job_name={name}"]


def unique(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def test_tls_scheduler_and_workers_refuse_a_plain_tcp_client(slurm, tmp_path):
    from distributed import Client

    from pipeline.cluster.clusters import open_cluster
    from pipeline.state.config import validate
    name = unique("dsame-tls")
    cfg = validate(compose(*slurm_workers(tmp_path, name)))
    with open_cluster(cfg.cluster) as client:
        assert client.submit(sum, [40, 2]).result(timeout=60) == 42
        assert len(jobs_named(name)) == 1  # the worker is a SLURM job
        scheduler = client.scheduler.address
        # Asked of the scheduler itself: the client's cached scheduler_info can lag under load.
        workers = client.run_on_scheduler(lambda dask_scheduler: list(dask_scheduler.workers))
        assert scheduler.startswith("tls://") and workers and all(w.startswith("tls://") for w in workers)
        # No dashboard unless cluster.dashboard=true: the scheduler's HTTP server is closed.
        assert "dashboard" not in client.run_on_scheduler(lambda dask_scheduler: list(dask_scheduler.services))
        for address in [scheduler, *workers]:
            with pytest.raises((OSError, TimeoutError)):
                Client(address.replace("tls://", "tcp://"), timeout=5)
        key_files = list((tmp_path / "logs").glob(".dask-jobqueue.worker.key.*"))
        assert key_files and all(f.stat().st_mode & 0o077 == 0 for f in key_files)
    assert wait_for(lambda: not jobs_named(name), timeout=60), "the worker job outlived the cluster"


def test_a_run_whose_workers_are_slurm_jobs(slurm, tmp_path, reference):
    name = unique("dsame-run")
    run_pipeline(*slurm_workers(tmp_path, name), run_dir=tmp_path / "run")
    assert_same_run(final_state(tmp_path / "run"), reference)
    assert list((tmp_path / "logs").glob(f"{name}-*.err")), "no worker job wrote its log"
    assert wait_for(lambda: not jobs_named(name), timeout=60)


def test_scancel_a_worker_job_mid_run_loses_nothing(slurm, tmp_path, reference):
    name = unique("dsame-kw")
    run_dir = tmp_path / "run"
    log = open(tmp_path / "driver.log", "w")
    from tests.pipeline.helpers import command
    proc = subprocess.Popen(command(*slurm_workers(tmp_path, name), run_dir=run_dir), cwd=ROOT,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        assert wait_for(lambda: saved_evaluations(run_dir) >= 20 or proc.poll() is not None, timeout=240)
        first = set(jobs_named(name))
        assert proc.poll() is None and len(first) == 1, (tmp_path / "driver.log").read_text()[-2000:]
        scancel(first.pop())
        # the cluster keeps its one job up: a new worker job replaces the cancelled one
        assert wait_for(lambda: set(jobs_named(name)) - first, timeout=120), "no replacement job"
        assert proc.wait(timeout=300) == 0, (tmp_path / "driver.log").read_text()[-3000:]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 9)
        log.close()
    assert saved_evaluations(run_dir) == BUDGET
    assert_same_run(final_state(run_dir), reference)


RESULTS = ("checkpoint.h5", "metrics.jsonl", "archive_heatmap.png", "best_decks.md", "best_decks.json",
           "ccdf.csv", "config.yaml")


def submit_driver(tmp_path, name, run_dir):
    """sbatch slurm/dsa_me_paper.sbatch with the tiny run, as small as the local node needs."""
    return sbatch("--cpus-per-task=1", "--mem=2G", f"--output={tmp_path}/driver-%j.out",
                  f"--job-name={name}-head", "slurm/dsa_me_paper.sbatch", *TINY,
                  *slurm_workers(tmp_path, name), f"run_dir={run_dir}", cwd=ROOT)


def driver_log(tmp_path, job):
    return (tmp_path / f"driver-{job}.out").read_text()


def test_sbatch_the_driver_with_the_smoke_preset(slurm, tmp_path, reference):
    name = unique("dsame-sb")
    run_dir = tmp_path / "run"
    job = submit_driver(tmp_path, name, run_dir)
    assert wait_job(job, timeout=300) == "COMPLETED", driver_log(tmp_path, job)[-3000:]
    assert "run finished" in driver_log(tmp_path, job)
    assert all((run_dir / f).is_file() for f in RESULTS), sorted(p.name for p in run_dir.iterdir())
    assert_same_run(final_state(run_dir), reference)
    assert wait_for(lambda: not jobs_named(name), timeout=60), "worker jobs outlived the driver"


def test_scancel_the_driver_job_then_resubmit_resumes(slurm, tmp_path, reference):
    name = unique("dsame-kd")
    run_dir = tmp_path / "run"
    job = submit_driver(tmp_path, name, run_dir)
    assert wait_for(lambda: saved_evaluations(run_dir) >= 20 or job_ended(job), timeout=240)
    assert saved_evaluations(run_dir) < BUDGET, "the run ended before it could be cancelled"
    scancel(job)
    assert wait_job(job, timeout=60) == "CANCELLED"
    # the driver's SIGTERM handler cancels its worker jobs instead of leaving them to time out
    assert wait_for(lambda: not jobs_named(name), timeout=60), "worker jobs outlived the driver"
    interrupted_at = saved_evaluations(run_dir)
    again = submit_driver(tmp_path, name, run_dir)
    assert wait_job(again, timeout=300) == "COMPLETED", driver_log(tmp_path, again)[-3000:]
    assert f"at {interrupted_at} evaluations" in driver_log(tmp_path, again)
    assert_same_run(final_state(run_dir), reference)


def job_ended(job):
    from .jobs import ENDED, job_state
    return job_state(job) in ENDED


def test_a_multirun_sweep_through_the_submitit_launcher_and_its_rerun(slurm, tmp_path):
    """Two runs as two SLURM jobs; the sweep's folders are named by the swept overrides, and the
    same command again resumes each run in place."""
    name = unique("dsame-mr")
    tiny = [o for o in TINY if not o.startswith(("algorithm.budget", "algorithm.initial"))]
    tiny += ["algorithm.budget=20", "algorithm.initial=20"]
    keys = ",".join(sorted({o.split("=")[0] for o in tiny} | {"name", "hydra.sweep.dir"}))
    args = [sys.executable, "-m", "pipeline", "-m", "hydra/launcher=submitit_slurm", *tiny, f"name={name}",
            "seed=1,2", f"hydra.sweep.dir={tmp_path / 'sweep'}", "hydra.launcher.timeout_min=10",
            "hydra.launcher.cpus_per_task=1", "hydra.launcher.mem_gb=1",
            f"hydra.job.config.override_dirname.exclude_keys=[{keys}]"]
    first = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=400)
    assert first.returncode == 0, first.stderr[-3000:]
    assert {p.name for p in (tmp_path / "sweep").iterdir() if not p.name.startswith(".")} \
        >= {"seed=1", "seed=2"}
    runs = sorted((tmp_path / "results").glob(f"{name}-dsa_me-seed*"))
    assert [r.name.split("-")[-2] for r in runs] == ["seed1", "seed2"]
    assert all(saved_evaluations(r) == 20 for r in runs)
    states = [final_state(r) for r in runs]
    assert not (states[0]["evaluations"]["decks"] == states[1]["evaluations"]["decks"]).all()
    again = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=400)
    assert again.returncode == 0, again.stderr[-3000:]
    logs = sorted((tmp_path / "sweep" / ".submitit").glob("*/*_log.err"))
    assert sum("resuming" in p.read_text() for p in logs) == 2, [p.read_text()[-500:] for p in logs]
    assert all(saved_evaluations(r) == 20 for r in runs)


def test_the_single_allocation_script_runs_workers_with_srun(slurm, tmp_path, reference):
    """slurm/dsa_me_srun.sbatch: scheduler, driver and srun-started workers in one job, TLS."""
    run_dir = tmp_path / "run"
    job = sbatch("--ntasks=3", "--mem-per-cpu=1G", f"--output={tmp_path}/driver-%j.out",
                 f"--job-name={unique('dsame-alloc')}", "slurm/dsa_me_srun.sbatch", *TINY,
                 f"run_dir={run_dir}", cwd=ROOT)
    assert wait_job(job, timeout=300) == "COMPLETED", driver_log(tmp_path, job)[-3000:]
    log = driver_log(tmp_path, job)
    assert re.search(r"Scheduler at: +tls://(?!127\.)", log) and "run finished" in log, log[-3000:]
    assert_same_run(final_state(run_dir), reference)
