"""The command line as a user runs it: SIGKILL and resume, worker counts, and bad input."""
import hashlib
import json
import shutil
import time

import h5py
import pytest

from .helpers import (ROOT, assert_same_run, final_state, kill_group, run_pipeline, saved_evaluations,
                      start_pipeline, wait_for)

LONGER = {  # a few outer iterations (or checkpoints) so there is something to interrupt
    # the steady-state loop, with several batches in flight at most checkpoints, and top-ups
    "dsa_me": ["algorithm=dsa_me", "algorithm.budget=120", "algorithm.inner.iterations=100", "algorithm.lag=12",
               "algorithm.min_batch=30"],
    "dsa_me_sync": ["algorithm=dsa_me", "algorithm.budget=120", "algorithm.inner.iterations=100",
                    "algorithm.steady_state=false"],
    "map_elites": ["algorithm=map_elites", "algorithm.budget=100"],
    # the other archive types: a sliding map's boundaries and a CVT archive's centroids resume too
    "dsa_me_sliding": ["algorithm=dsa_me", "algorithm.budget=120", "algorithm.inner.iterations=100",
                       "algorithm.lag=12", "archive.type=sliding", "archive.remap_every=25",
                       "archive.start_dims=[5,5]"],
    # the batched inner loop: the killed runs use one thread, the reference all (the same archive)
    "dsa_me_batched": ["algorithm=dsa_me", "algorithm.budget=120", "algorithm.inner.iterations=100",
                       "algorithm.lag=12", "algorithm.inner.mode=batched", "algorithm.inner.step_decks=100"],
    "dsa_me_cvt": ["algorithm=dsa_me", "algorithm.budget=120", "algorithm.inner.iterations=100",
                   "algorithm.lag=12", "archive.type=cvt", "archive.cells=60",
                   "archive.measures=[turns,hand_size,num_minions]", "archive.ranges=[[5,15],[1,7],[0,30]]"],
}


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """Uninterrupted runs to compare against."""
    root = tmp_path_factory.mktemp("reference")
    for name, overrides in LONGER.items():
        run_pipeline(*overrides, run_dir=root / name)
    return root


@pytest.mark.parametrize("algorithm", list(LONGER))
def test_sigkill_at_several_points_then_resume_gives_the_same_run(tmp_path, reference, algorithm):
    run_dir = tmp_path / "killed"
    overrides = LONGER[algorithm] + (["algorithm.inner.threads=1"] if algorithm == "dsa_me_batched" else [])
    seen = []
    # 1: during start-up, before any checkpoint.
    proc = start_pipeline(*overrides, run_dir=run_dir)
    time.sleep(2.0)
    kill_group(proc)
    seen.append(saved_evaluations(run_dir))
    # 2: some time after the first checkpoint (in the middle of an iteration, usually).
    proc = start_pipeline(*overrides, run_dir=run_dir)
    assert wait_for(lambda: saved_evaluations(run_dir) >= 20)
    time.sleep(0.4)
    kill_group(proc)
    seen.append(saved_evaluations(run_dir))
    # 3: right after the next checkpoint lands.
    proc = start_pipeline(*overrides, run_dir=run_dir)
    wait_for(lambda: saved_evaluations(run_dir) > seen[-1] or proc.poll() is not None)
    kill_group(proc)
    seen.append(saved_evaluations(run_dir))
    budget = int(overrides[1].split("=")[1])
    assert seen[0] < 20 <= seen[1] < budget and seen[1] <= seen[2]  # three different points
    done = run_pipeline(*overrides, run_dir=run_dir)
    assert "resuming" in done.stderr
    assert_same_run(final_state(run_dir), final_state(reference / algorithm))
    rows = [json.loads(r) for r in (run_dir / "metrics.jsonl").read_text().splitlines()]
    ref_rows = [json.loads(r) for r in (reference / algorithm / "metrics.jsonl").read_text().splitlines()]
    assert [r["evaluations"] for r in rows] == [r["evaluations"] for r in ref_rows]
    assert [r["qd_score"] for r in rows] == [r["qd_score"] for r in ref_rows]


def test_one_or_two_workers_give_the_same_run(tmp_path, reference):
    run_pipeline(*LONGER["dsa_me"], "cluster.n_workers=2", "cluster.games_per_task=2", run_dir=tmp_path / "two")
    assert_same_run(final_state(tmp_path / "two"), final_state(reference / "dsa_me"))


def test_each_steady_state_surrogate_sees_all_but_the_last_lag_decks(reference):
    rows = [json.loads(r) for r in (reference / "dsa_me" / "metrics.jsonl").read_text().splitlines()]
    fill = [r for r in rows if "steady_state_fill" in r]
    assert [(r["evaluations"], r["batch"]) for r in fill] == [(32, 12)]  # 20 initial decks, then lag mutants
    trained = [r for r in rows if "trained_on" in r]
    assert len(trained) >= 3
    for r in trained:  # the batch's first deck was the (evaluations - batch)-th submitted
        assert r["trained_on"] == r["evaluations"] - r["batch"] - 12
    assert rows[-1]["evaluations"] == 120
    # each iteration queues at least min_batch (30) decks: a shorter surrogate batch is followed
    # at once by a batch of mutants making up the rest (within the budget)
    for r, after in zip(rows, rows[1:] + [{}]):
        if "trained_on" in r:
            top_up = after.get("steady_state_top_up", 0)
            assert not top_up or r["batch"] < 30
            assert r["batch"] + top_up >= 30 or after.get("evaluations", r["evaluations"]) == 120, rows
    assert all("trained_on" in r for r, after in zip(rows, rows[1:]) if "steady_state_top_up" in after)
    assert any("steady_state_top_up" in r for r in rows)


def test_a_deck_file_is_evaluated():
    done = run_pipeline(f"deck_file={ROOT / 'workers' / 'data' / 'miracle_rogue.json'}")
    out = json.loads(done.stdout)
    assert out["games"] == 6 and out["deck_code"].startswith("AAE")
    assert set(out["targets"]) >= {"health_difference", "win_rate"}


def _digest(path):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(path.iterdir())}


def _fails(*overrides, run_dir=None, message):
    done = run_pipeline(*overrides, run_dir=run_dir, check=False, timeout=120)
    assert done.returncode == 2, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr[-2000:]
    assert message in lines[0]
    return lines[0]


def test_unknown_keys_and_bad_values(tmp_path):
    _fails("algorithm.colour=red", message="algorithm.colour")
    _fails("+algorithm.colour=red", message="algorithm.colour")
    _fails("algorithm=genetic", message="genetic")
    _fails("algorithm.targets=4", message="algorithm.targets=4")
    assert not any(tmp_path.iterdir())


def test_an_illegal_deck_file(tmp_path):
    bad = tmp_path / "deck.txt"
    bad.write_text("\n".join(["Leeroy Jenkins"] * 2 + ["Backstab"] * 28))
    _fails(f"deck_file={bad}", message="deck.txt")


def test_a_run_dir_of_another_config_is_left_alone(reference):
    before = _digest(reference / "dsa_me")
    _fails(*LONGER["dsa_me"], "seed=5", run_dir=reference / "dsa_me", message="another config")
    assert _digest(reference / "dsa_me") == before


@pytest.mark.parametrize("damage, message", [
    (lambda p: p.write_bytes(p.read_bytes()[:500]), "is damaged: the file fails its checksum"),
    # Any file that starts as HDF5 but carries no verified header is refused before HDF5 reads it.
    (lambda p: h5py.File(p, "w").close(), "has no verified header: it is an older checkpoint"),
])
def test_corrupt_or_foreign_checkpoints_are_refused(tmp_path, reference, damage, message):
    run_dir = tmp_path / "copy"
    shutil.copytree(reference / "dsa_me", run_dir)
    damage(run_dir / "checkpoint.h5")
    before = _digest(run_dir)
    _fails(*LONGER["dsa_me"], run_dir=run_dir, message=message)
    assert _digest(run_dir) == before


def test_an_offline_source_that_is_not_a_checkpoint(tmp_path):
    foreign = tmp_path / "foreign.h5"
    h5py.File(foreign, "w").close()
    _fails("algorithm=offline_dsa_me", f"algorithm.offline.path={foreign}", run_dir=tmp_path / "run",
           message="foreign.h5 has no verified header")
    assert not (tmp_path / "run").exists()


def test_a_non_empty_directory_that_holds_no_run(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    _fails(run_dir=tmp_path, message="is not empty and holds no run")
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_a_run_dir_in_use_by_another_process(tmp_path):
    run_dir = tmp_path / "busy"
    long_run = ["algorithm=dsa_me", "algorithm.budget=100000", "algorithm.inner.iterations=100"]
    proc = start_pipeline(*long_run, run_dir=run_dir)
    try:
        assert wait_for(lambda: (run_dir / "config.yaml").exists())
        _fails(*long_run, run_dir=run_dir, message="in use by another running process")
        assert proc.poll() is None
    finally:
        kill_group(proc)
