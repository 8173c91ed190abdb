import numpy as np
import pytest

from pipeline.search.archives import (ArchiveSpec, SurrogateGrid, archive_arrays, ccdf, make_archive, qd_metrics,
                               restore_archive, uniform_elites)

SPEC = ArchiveSpec()


def _batch(rng, n, spread=1.0):
    decks = rng.integers(0, 3, size=(n, 180)).astype(np.int16)
    objective = np.round(rng.normal(size=n) * 10) / 2  # many exact ties
    measures = np.column_stack([rng.uniform(4, 16, n), rng.uniform(0.5, 7.5, n)])  # some out of range
    measures = np.round(measures * 4 * spread) / (4 * spread)  # values on cell borders too
    targets = np.column_stack([objective, measures, rng.uniform(0, 1, (n, 9))])
    return decks, objective, measures, targets


def test_real_archive_replaces_only_on_strict_improvement():
    archive = make_archive(SPEC, 180)
    t = np.zeros((1, 12))
    archive.add(np.ones((1, 180)), [1.0], [[6.0, 2.0]], eval_id=[0], targets=t)
    archive.add(np.full((1, 180), 2), [1.0], [[6.0, 2.0]], eval_id=[1], targets=t)
    assert archive_arrays(archive)["eval_id"].tolist() == [0]
    archive.add(np.full((1, 180), 2), [1.5], [[6.0, 2.0]], eval_id=[2], targets=t)
    assert archive_arrays(archive)["eval_id"].tolist() == [2]


def test_surrogate_grid_agrees_with_ribs_batch_by_batch():
    rng = np.random.default_rng(0)
    ribs_archive = make_archive(SPEC, 180)
    grid = SurrogateGrid(SPEC, 180, 12)
    for step in range(300):
        decks, f, m, t = _batch(rng, 10)
        ribs_archive.add(decks, f, m, eval_id=np.zeros(10, int), targets=t)
        grid.add(decks, t)
    ribs_data = archive_arrays(ribs_archive)
    mine = grid.elites()
    assert len(mine["index"]) == len(ribs_data["index"]) > 200
    assert np.array_equal(mine["index"], ribs_data["index"])
    assert np.array_equal(mine["objective"], ribs_data["objective"])
    assert np.array_equal(mine["solution"], ribs_data["solution"])
    assert np.array_equal(mine["measures"], ribs_data["measures"])


def test_surrogate_grid_state_round_trip_keeps_the_sampling_order():
    rng = np.random.default_rng(1)
    grid = SurrogateGrid(SPEC, 180, 3)
    for _ in range(50):
        decks, f, m, t = _batch(rng, 10)
        grid.add(decks, t[:, :3])
    copy = SurrogateGrid(SPEC, 180, 3)
    copy.load_state(grid.state())
    assert np.array_equal(grid.sample(np.random.default_rng(9), 50), copy.sample(np.random.default_rng(9), 50))


def test_metrics_follow_the_paper():
    archive = make_archive(SPEC, 180)
    targets = np.zeros((3, 12))
    targets[:, 3] = [0.2, 0.9, 0.5]
    archive.add(np.ones((3, 180)), [30.0, -30.0, 0.0], [[5.0, 1.0], [14.99, 6.99], [10.0, 4.0]],
                eval_id=[0, 1, 2], targets=targets)
    m = qd_metrics(archive, SPEC)
    assert m["qd_score"] == pytest.approx(1.0 + 0.0 + 0.5)
    assert m["coverage"] == pytest.approx(3 / 1600)
    assert m["max_fitness"] == 30.0 and m["max_win_rate"] == 0.9
    t, share = ccdf(archive, SPEC)
    assert share[t == -30][0] == pytest.approx(2 / 1600 * 100)
    assert share[t == 0][0] == pytest.approx(1 / 1600 * 100)
    assert share[t == 30][0] == 0


def test_restore_and_uniform_draws_do_not_depend_on_insertion_history():
    rng = np.random.default_rng(2)
    a = make_archive(SPEC, 180)
    for _ in range(20):
        decks, f, m, t = _batch(rng, 10)
        a.add(decks, f, m, eval_id=np.arange(10), targets=t)
    b = restore_archive(make_archive(SPEC, 180), archive_arrays(a))
    for key, value in archive_arrays(a).items():
        assert np.array_equal(value, archive_arrays(b)[key]), key
    assert np.array_equal(uniform_elites(a, np.random.default_rng(3), 20),
                          uniform_elites(b, np.random.default_rng(3), 20))
