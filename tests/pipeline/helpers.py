"""Running the real driver (`python -m pipeline`) in a subprocess, as a user would."""
import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import h5py
import numpy as np

from pipeline.state import checkpoint as ckpt

ROOT = Path(__file__).resolve().parents[2]

# A DSA-ME run in seconds: random players, 6 games per deck, tiny inner loop.
TINY = ["experiment=smoke_random", "progress=false", "cluster.n_workers=1", "opponents.games=6",
        "cluster.games_per_task=3", "algorithm.budget=60", "algorithm.initial=20",
        "algorithm.batch_size=20", "algorithm.checkpoint_every=20", "algorithm.inner.iterations=150",
        "surrogate.epochs=3"]


def compose(*overrides, run_dir=None):
    """The config the driver would build from these command-line overrides."""
    from hydra import compose as hydra_compose, initialize_config_dir
    from pipeline.driver import CONF_DIR
    extra = [f"run_dir={run_dir}"] if run_dir is not None else []
    with initialize_config_dir(config_dir=CONF_DIR, version_base="1.3"):
        return hydra_compose("config", overrides=[*TINY, *overrides, *extra])


def command(*overrides, run_dir=None):
    args = [sys.executable, "-m", "pipeline", *TINY, *overrides]
    if run_dir is not None:
        args.append(f"run_dir={run_dir}")
    return args


def run_pipeline(*overrides, run_dir=None, check=True, timeout=300):
    done = subprocess.run(command(*overrides, run_dir=run_dir), cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise AssertionError(f"pipeline failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return done


def start_pipeline(*overrides, run_dir):
    """A run in its own process group, so SIGKILL takes the driver and its Dask workers."""
    return subprocess.Popen(command(*overrides, run_dir=run_dir), cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def kill_group(proc):
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def saved_evaluations(run_dir) -> int:
    path = Path(run_dir) / ckpt.FILENAME
    try:
        with h5py.File(path, "r") as f:
            return len(f["evaluations/decks"])
    except (OSError, KeyError):
        return -1


def wait_for(predicate, timeout=120.0, poll=0.05):
    end = time.time() + timeout
    while time.time() < end:
        if predicate():
            return True
        time.sleep(poll)
    return False


def final_state(run_dir) -> dict:
    saved = ckpt.load(Path(run_dir) / ckpt.FILENAME)
    return {"archive": saved.arrays["real_archive"], "evaluations": saved.arrays["evaluations"],
            "state": saved.state}


def assert_same_run(a: dict, b: dict):
    for group in ("archive", "evaluations"):
        assert a[group].keys() == b[group].keys()
        for key in a[group]:
            assert np.array_equal(a[group][key], b[group][key]), f"{group}/{key} differs"
    assert a["state"]["rng"] == b["state"]["rng"]


@contextmanager
def tmpfs(folder: Path, size: str):
    """A size-limited tmpfs mounted at `folder` (created) for the block; needs root, which CI has."""
    import pytest
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    folder.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)
