"""Every algorithm end to end on the built-in engine and a real LocalCluster (driven in
process with one shared cluster, to keep the suite fast; test_resume_and_errors.py runs the
command line itself)."""
import csv
import json

import numpy as np
import pytest
from distributed import Client, LocalCluster

from pipeline.driver import run
from pipeline.search.deck_search import SOURCE_SURROGATE
from workers.protocol.results import TARGET_NAMES

from .helpers import compose, final_state


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with Client(cluster) as c:
            yield c


def run_pipeline(*overrides, run_dir, client):
    run(compose(*overrides, run_dir=run_dir), client=client)

SURROGATE_ALGORITHMS = ["dsa_me", "lsa_me", "dsa_me_ad", "dsa_me_no_reset"]
OFFLINE_FROM_RANDOM = ["offline_dsa_me", "offline_dsa_me_ad"]
OFFLINE_FROM_DSA_ME = ["offline_dsa_me_surrogate_model", "offline_dsa_me_elite_data"]


@pytest.fixture(scope="module")
def finished(tmp_path_factory, client):
    """A finished random-search run (the offline training file) and a finished DSA-ME run."""
    root = tmp_path_factory.mktemp("finished")
    runs = {"random_search": root / "random", "dsa_me": root / "dsa"}
    for algorithm, run_dir in runs.items():
        run_pipeline(f"algorithm={algorithm}", run_dir=run_dir, client=client)
    return runs


def _check_outputs(run_dir, budget=60):
    state = final_state(run_dir)
    assert len(state["evaluations"]["decks"]) == budget
    assert len(state["archive"]["index"]) > 0
    assert (state["evaluations"]["decks"].sum(axis=1) == 30).all()
    rows = [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines()]
    assert rows[-1]["evaluations"] == budget
    assert {"qd_score", "coverage", "max_fitness", "max_win_rate"} <= rows[-1].keys()
    assert rows[-1]["coverage"] == pytest.approx(len(state["archive"]["index"]) / 1600)
    assert (run_dir / "archive_heatmap.png").read_bytes()[:4] == b"\x89PNG"
    best = json.loads((run_dir / "best_decks.json").read_text())
    assert best[0]["objective"] == pytest.approx(state["archive"]["objective"].max())
    assert best[0]["deck_code"].startswith("AAE")
    ccdf = (run_dir / "ccdf.csv").read_text().splitlines()
    assert len(ccdf) == 62 and ccdf[1].startswith("-30,")
    with open(run_dir / "archive.csv", newline="") as f:  # the archive without the checkpoint
        elites = list(csv.DictReader(f))
    archive = state["archive"]
    assert [int(e["cell"]) for e in elites] == archive["index"].tolist()
    assert [int(e["eval_id"]) for e in elites] == archive["eval_id"].tolist()
    assert [float(e["health_difference"]) for e in elites] == pytest.approx(archive["objective"], rel=1e-5)
    assert [[float(e["turns"]), float(e["hand_size"])] for e in elites] == pytest.approx(archive["measures"], rel=1e-5)
    assert [float(e["win_rate"]) for e in elites] == pytest.approx(archive["targets"][:, TARGET_NAMES.index("win_rate")],
                                                                      rel=1e-5)
    assert all(sum(int(card.split("x ", 1)[0]) for card in e["deck"].split("; ")) == 30 for e in elites)
    with open(run_dir / "evaluations.csv", newline="") as f:  # every evaluation, in order
        evaluations = list(csv.DictReader(f))
    ev = state["evaluations"]
    assert [int(e["eval_id"]) for e in evaluations] == list(range(budget))
    assert [int(e["outer_iteration"]) for e in evaluations] == ev["iteration"].tolist()
    start = 0  # a batch's log row names the outer iteration that made its decks, as evaluations.csv does
    for row in (r for r in rows if "batch" in r):
        made = {int(e["outer_iteration"]) for e in evaluations[start:row["evaluations"]]}
        assert made == {row["outer_iteration"]}, (row, made)
        start = row["evaluations"]
    assert start == budget
    assert [float(e["win_rate"]) for e in evaluations] == pytest.approx(ev["targets"][:, TARGET_NAMES.index("win_rate")],
                                                                         rel=1e-5)
    for elite in elites:  # an elite is its evaluation
        row = evaluations[int(elite["eval_id"])]
        assert [float(row[k]) for k in ("health_difference", "turns", "hand_size")] == pytest.approx(
            [float(elite[k]) for k in ("health_difference", "turns", "hand_size")], rel=1e-5)
    return state


@pytest.mark.parametrize("algorithm", ["map_elites", "random_search"])
def test_real_only_algorithms(tmp_path, client, algorithm):
    state = _check_outputs(_run(tmp_path, client, algorithm))
    if algorithm == "random_search":
        assert (state["evaluations"]["source"] == 0).all()
    else:
        assert (state["evaluations"]["source"][20:] == 1).all()


@pytest.mark.parametrize("algorithm", SURROGATE_ALGORITHMS)
def test_surrogate_algorithms(tmp_path, client, algorithm, capfd):
    state = _check_outputs(_run(tmp_path, client, algorithm, "progress=true"))
    err = capfd.readouterr().err
    # stderr is no terminal here: the kept bar's last plain line, no bar redraws
    assert "evaluations: 60/60 (100%)" in err and "\x1b[" not in err and "\r" not in err
    assert (state["evaluations"]["source"][20:] == SOURCE_SURROGATE).any()
    assert state["state"]["outer_iteration"] >= 1


@pytest.mark.parametrize("algorithm", OFFLINE_FROM_RANDOM + OFFLINE_FROM_DSA_ME)
def test_offline_algorithms(tmp_path, client, finished, algorithm):
    source = finished["random_search" if algorithm in OFFLINE_FROM_RANDOM else "dsa_me"]
    state = _check_outputs(_run(tmp_path, client, algorithm, f"algorithm.offline.path={source / 'checkpoint.h5'}"))
    assert (state["evaluations"]["source"][20:] == SOURCE_SURROGATE).any()


def test_offline_surrogate_model_is_the_finished_runs_model(tmp_path, client, finished):
    from pipeline.state import checkpoint as ckpt
    from pipeline.search.surrogate import Surrogate
    run_dir = _run(tmp_path, client, "offline_dsa_me_surrogate_model",
                   f"algorithm.offline.path={finished['dsa_me'] / 'checkpoint.h5'}")
    models = []
    for path in (finished["dsa_me"] / "checkpoint.h5", run_dir / "checkpoint.h5"):
        model = Surrogate("mlp", 180, 3, device="cpu")
        model.load_state_bytes(ckpt.load(path).blobs["surrogate"])
        models.append(model)
    x = np.random.default_rng(0).integers(0, 2, (20, 180))
    assert np.array_equal(models[0].predict(x), models[1].predict(x))


def _run(tmp_path, client, algorithm, *extra):
    run_dir = tmp_path / algorithm
    run_pipeline(f"algorithm={algorithm}", *extra, run_dir=run_dir, client=client)
    return run_dir


def test_surrogate_test_mse_on_another_runs_data(finished):
    from pipeline.report.analysis import surrogate_test_mse
    mse = surrogate_test_mse(finished["dsa_me"] / "checkpoint.h5", finished["random_search"] / "checkpoint.h5")
    assert list(mse) == ["health_difference", "turns", "hand_size"]
    assert all(np.isfinite(v) and v >= 0 for v in mse.values())


def test_the_transfer_of_the_last_surrogate_archive_as_the_report_runs_it(finished):
    """run_transfer, the entry the report and `python -m pipeline.report.analysis transfer` use:
    the run's own settings on a cluster of its own; every surrogate elite played once."""
    from pipeline.report import analysis
    from pipeline.state import checkpoint as ckpt
    path = finished["dsa_me"] / "checkpoint.h5"
    elites = len(ckpt.load(path).arrays["surrogate_archive"]["index"])
    slots, pieces = [], []
    out = analysis.run_transfer(path, workers=1, on_piece=lambda targets: pieces.append(len(targets)),
                                announce=slots.append)
    assert slots == [1] and pieces[-1] == elites == out["surrogate_elites"] > 0
    assert pieces == sorted(set(pieces))  # handed back in order, each deck once
    assert 0 < out["retained_share"] <= 1 and 0 <= out["same_cell_share"] <= 1
    assert out["mean_manhattan_distance"] >= 0
