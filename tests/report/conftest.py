"""A small sweep made once per test session and shared by the pytest-xdist workers (built by
the first worker under a file lock, read by the others): the paper's 2 x 2 surrogate design
(DSA-ME, DSA-ME (ad), Offline DSA-ME, Offline DSA-ME (ad)) and MAP-Elites, two seeds each, the
random-search run the offline variants train on, and one run killed part-way (unfinished)."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from filelock import FileLock

ROOT = Path(__file__).resolve().parents[2]

from tests import machine
from tests.pipeline.helpers import compose, kill_group, saved_evaluations, start_pipeline, wait_for

SWEPT = ["map_elites", "dsa_me", "dsa_me_ad", "offline_dsa_me", "offline_dsa_me_ad"]
SEEDS = [0, 1]
UNFINISHED = ("map_elites", 2)  # budget 2,000, killed after its first checkpoint


# Smaller than the pipeline tests' TINY runs: 40 evaluations, one Dask task per deck.
SMALL = ["algorithm.budget=40", "cluster.games_per_task=6"]


def _make_sweep(root: Path) -> None:
    from distributed import Client, LocalCluster

    from pipeline.driver import run
    algorithm, seed = UNFINISHED
    unfinished = root / f"{algorithm}-seed{seed}"
    # The run to kill goes first, in its own process, alongside the others.
    proc = start_pipeline(f"algorithm={algorithm}", f"seed={seed}", "algorithm.budget=2000",
                          "cluster.n_workers=1", run_dir=unfinished)
    try:
        random_dir = root / "random_search-seed0"
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
                Client(cluster) as client:
            run(compose("algorithm=random_search", "seed=0", *SMALL, run_dir=random_dir), client=client)
            assert wait_for(lambda: saved_evaluations(unfinished) > 0, timeout=180), "the unfinished run never checkpointed"
            kill_group(proc)
            for algorithm in SWEPT:
                for seed in SEEDS:
                    extra = [f"algorithm.offline.path={random_dir / 'checkpoint.h5'}"] if "offline" in algorithm else []
                    run(compose(f"algorithm={algorithm}", f"seed={seed}", *SMALL, *extra,
                                run_dir=root / f"{algorithm}-seed{seed}"), client=client)
    finally:
        if proc.poll() is None:
            kill_group(proc)
    for stale in unfinished.glob(".*.tmp-*"):
        stale.unlink()


@pytest.fixture(scope="session")
def sweep(tmp_path_factory) -> Path:
    shared = tmp_path_factory.getbasetemp().parent  # common to all xdist workers of this session
    root = shared / "report-sweep"
    with FileLock(str(shared / "report-sweep.lock")):
        if not (root / "done").exists():
            if root.exists():
                shutil.rmtree(root)
            root.mkdir()
            _make_sweep(root)
            (root / "done").write_text("ok")
    return root


@pytest.fixture(scope="session")
def report(sweep) -> Path:
    """`make report` on the sweep, once per session (shared like the sweep)."""
    out = sweep.parent / "report-out" / "report"
    with FileLock(str(sweep.parent / "report-out.lock")):
        if not (out / "index.html").exists():
            # -o: never rebuild the venv from here; PY: the interpreter running the tests.
            done = subprocess.run(["make", "-o", ".venv/.installed", "report", f"RUNS={sweep}", f"REPORT={out}",
                                   f"PY={sys.executable}", "REPORT_FLAGS=--workers 2"], cwd=ROOT,
                                  capture_output=True, text=True, timeout=600)
            assert done.returncode == 0, done.stderr[-3000:]
            assert f"report written to {out}/index.html" in done.stdout
    return out


CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(scope="session")
def chromium(request, tmp_path_factory) -> Path:
    """Debian's chromium, installed with apt-get when missing (skips without root or sudo,
    except in CI, where it must run)."""
    shared = tmp_path_factory.getbasetemp().parent
    with FileLock(str(shared / "chromium-install.lock")):
        if not CHROMIUM.exists():
            machine.apt_install(request, ["chromium"], "the report page test")
    assert CHROMIUM.exists(), "apt-get did not install /usr/bin/chromium"
    return CHROMIUM


def metrics_rows(run_dir: Path) -> list[dict]:
    return [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines()]


# A DSA-ME run of the random-player preset whose surrogate elites are at most 10 + 2 x 5 = 20
# decks a batch, so its 60 evaluations make at least 2 outer iterations (a loss curve to draw).
SHORT = ["algorithm.inner.initial=10", "algorithm.inner.iterations=2", "algorithm.inner.batch_size=5"]


@pytest.fixture(scope="session")
def short_run(tmp_path_factory) -> Path:
    """One real run (python -m pipeline, as a user types it), shared by the xdist workers."""
    shared = tmp_path_factory.getbasetemp().parent
    run_dir = shared / "report-short-run"
    with FileLock(str(shared / "report-short-run.lock")):
        if not (shared / "report-short-run.done").exists():
            if run_dir.exists():
                shutil.rmtree(run_dir)
            from tests.pipeline.helpers import run_pipeline
            run_pipeline(*SHORT, run_dir=run_dir, timeout=600)
            (shared / "report-short-run.done").write_text("ok")
    return run_dir
