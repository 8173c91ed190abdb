"""Behaviour spaces by name (docs/pipeline.md#choosing-the-behaviour-space): the statistics the
archive and the inner loop use, the checks of archive.*, and runs that record the names."""
import json

import numpy as np
import pytest

from pipeline.behavior_space import (FROM_COST_VARIANCE, FROM_DECK, FROM_PREDICTION, STATISTICS, BehaviorSpace,
                                     card_features)
from pipeline.deck_space import DeckSpace
from pipeline.run_errors import ConfigError
from pipeline.search.archives import ArchiveSpec, SurrogateGrid
from pipeline.search.inner_kernel import behavior_batch
from pipeline.search.kernel_data import ValueSources
from pipeline.state.config import validate
from workers.protocol.evaluate import deck_stats

from .helpers import compose, final_state, run_pipeline


@pytest.fixture(scope="module")
def space():
    return DeckSpace.from_pool_file()


def test_deck_level_statistics_in_the_inner_loop_are_the_decks_own(space):
    """The kernel's exact deck-level values agree with the engine's deck statistics and with the
    dust of the card rarities, for random decks."""
    decks = space.random_decks(np.random.default_rng(3), 50)
    names = ("deck_mana_variance", "num_minions", "dust", "deck_mana_sum")
    behavior = BehaviorSpace("num_spells", names[:3])
    kinds, indices = behavior.sources(3)
    assert list(kinds) == [FROM_DECK, FROM_COST_VARIANCE, FROM_DECK, FROM_DECK]  # none from the prediction
    got = behavior_batch(decks, np.zeros((50, 4), np.float32), ValueSources(kinds, indices, card_features(space)),
                         space.deck_size)
    for deck, row in zip(decks, got):
        engine = deck_stats(space.decode(deck))
        dust = sum(card_features(space)[i, 3] * n for i, n in enumerate(deck))
        assert row == pytest.approx([engine["num_spells"], engine["deck_mana_variance"],
                                     engine["num_minions"], dust], abs=1e-9)
    assert dust > 0 and len({tuple(r) for r in got}) > 1


def test_predicted_statistics_come_from_the_surrogates_outputs(space):
    three = BehaviorSpace("win_rate", ("mana_spent_per_turn", "num_minions"), (0.0, 1.0))
    assert [STATISTICS[c] for c in three.surrogate_columns(3)] == ["win_rate", "mana_spent_per_turn", "num_minions"]
    kinds, indices = three.sources(3)
    assert list(kinds) == [FROM_PREDICTION, FROM_PREDICTION, FROM_DECK] and list(indices[:2]) == [0, 1]
    kinds, indices = three.sources(12)  # the (ad) variants predict all 12 targets
    assert list(indices[:2]) == [STATISTICS.index("win_rate"), STATISTICS.index("mana_spent_per_turn")]


def test_a_surrogate_grid_of_one_and_three_measures_places_decks_as_ribs_does(space):
    from pipeline.search.archives import make_archive
    rng = np.random.default_rng(4)
    for dims, ranges in (((7,), ((0.0, 1.0),)), ((4, 5, 6), ((0.0, 1.0), (2.0, 3.0), (-1.0, 1.0)))):
        spec = ArchiveSpec(dims, ranges, behavior=BehaviorSpace(measures=("turns", "hand_size", "dust")[:len(dims)]))
        decks = space.random_decks(rng, 200)
        behavior = np.column_stack([rng.normal(size=200), *(rng.uniform(lo - 0.2, hi + 0.2, 200) for lo, hi in ranges)])
        grid = SurrogateGrid(spec, space.size, 1 + len(dims))
        grid.add(decks, behavior)
        archive = make_archive(spec, space.size, 1 + len(dims))
        archive.add(decks, behavior[:, 0], behavior[:, 1:], eval_id=np.arange(200), targets=behavior)
        ours = grid.elites()
        theirs = archive.data()
        order = np.argsort(theirs["index"])
        assert np.array_equal(ours["index"], np.asarray(theirs["index"])[order])
        assert np.array_equal(ours["objective"], np.asarray(theirs["objective"])[order])


@pytest.mark.parametrize("overrides, message", [
    (["archive.objective=speed"], "archive.objective: 'speed' is not a statistic an evaluation records; one of "
                                  "health_difference, turns"),
    (["archive.measures=[turns,cards]"], "archive.measures: 'cards' is not a statistic"),
    (["archive.measures=[turns,turns]"], "names a statistic twice"),
    (["archive.measures=[health_difference,turns]"], "names a statistic twice (or the objective"),
    (["archive.measures=[turns,hand_size,dust,win_rate]", "archive.dims=[2,2,2,2]",
      "archive.ranges=[[0,1],[0,1],[0,1],[0,1]]"], "must name 1 to 3 statistics"),
    (["archive.measures=[turns]"], "archive needs one dim and one [low, high] range per measure (1: turns)"),
    (["archive.ranges=[[5,15],[7,1]]"], "with low < high"),
    (["archive.objective=turns", "archive.measures=[hand_size,win_rate]", "archive.ranges=[[1,7],[0,1]]"],
     "archive.objective=turns needs archive.objective_range=[low,high]"),
])
def test_a_bad_behaviour_space_is_one_line_naming_it(overrides, message):
    with pytest.raises(ConfigError) as caught:
        validate(compose(*overrides))
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_run_names_its_measures_everywhere_and_another_space_cannot_resume_it(tmp_path):
    space = ["archive.measures=[mana_spent_per_turn,num_minions]", "archive.ranges=[[0,10],[0,30]]"]
    run_pipeline(*space, run_dir=tmp_path)
    state = final_state(tmp_path)
    measures = state["archive"]["measures"]
    assert measures.shape[1] == 2 and len(measures)
    decks = DeckSpace.from_pool_file()
    minions = [deck_stats(decks.decode(d))["num_minions"] for d in state["archive"]["solution"]]
    assert np.array_equal(measures[:, 1], minions)  # the exact deck statistic, not a prediction
    page = (tmp_path / "archive.html").read_text()
    axes = '"measures":["mana spent per turn","minion cards"]'  # the axes (the results list names every target)
    assert axes in page and '"fitness":"health difference"' in page
    best = json.loads((tmp_path / "best_decks.json").read_text())
    assert "num minions" in (tmp_path / "best_decks.md").read_text() and len(best[0]["measures"]) == 2
    done = run_pipeline("archive.measures=[mana_spent_per_turn,num_spells]", "archive.ranges=[[0,10],[0,30]]",
                        run_dir=tmp_path, check=False)
    assert done.returncode != 0 and "archive.measures" in done.stderr.strip().splitlines()[-1]


def test_the_default_space_gives_the_archive_it_gave_before_measures_had_names(tmp_path):
    """Regression pin (the issue's figures, measured on main 66486f0 before behaviour spaces):
    experiment=smoke_random seed=5 with every archive setting at its default, and the lag its
    default gave then (auto was 4% of the budget until 2026-11-28; now it follows the slots)."""
    from .helpers import ROOT
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "pipeline", "experiment=smoke_random", "seed=5", "progress=false",
                           "algorithm.lag=20", f"run_dir={tmp_path}"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    last = json.loads((tmp_path / "metrics.jsonl").read_text().splitlines()[-1])
    assert (last["evaluations"], last["elites"], last["qd_score"], last["coverage"]) == (500, 176, 74.25208333333333, 0.11)
    best = json.loads((tmp_path / "best_decks.json").read_text())[0]
    assert (best["eval_id"], best["objective"]) == (244, 9.958333333333334)


def test_the_sliding_map_follows_evostone2s_rule():
    """remap_every=3, a budget of 6, 1 growing to 3 groups: the 1st and 4th evaluations redraw the
    map (n % 3 == 1), at 1 + int(n / 6 * 2) groups, boundaries at the (x * n // groups)-th smallest
    value; a value falls in the group of the last boundary strictly below it."""
    from pipeline.search.sliding import SlidingArchive
    archive = SlidingArchive((1,), (3,), remap_every=3, budget=6, solution_dim=1, n_targets=1)
    values = [5.0, 1.0, 3.0, 4.0, 2.0]
    objective = [1.0, 2.0, 3.0, 0.5, 9.0]
    for v, f in zip(values[:3], objective[:3]):
        archive.add(np.zeros((1, 1)), [f], [[v]], [0], [[f]])
    assert archive.dims == (1,) and list(archive.boundaries[0]) == [5.0] and len(archive) == 1
    assert archive.data()["objective"].tolist() == [3.0]  # one cell: the best of the three
    archive.add(np.zeros((1, 1)), [objective[3]], [[values[3]]], [0], [[0.0]])  # n = 4: 1 + int(4/6*2) = 2 groups
    assert archive.dims == (2,) and list(archive.boundaries[0]) == [1.0, 4.0]  # sorted[0], sorted[4*1//2]
    # 5 -> group 1 (4 < 5); 1 -> group 0 (none below); 3 -> group 0 (1 < 3); 4 -> group 0 (only 1 < 4)
    assert dict(zip(archive.data()["index"].tolist(), archive.data()["objective"].tolist())) == {0: 3.0, 1: 1.0}
    archive.add(np.zeros((1, 1)), [objective[4]], [[values[4]]], [0], [[0.0]])  # n = 5: inserted alone, group 0
    assert dict(zip(archive.data()["index"].tolist(), archive.data()["objective"].tolist())) == {0: 9.0, 1: 1.0}
    grid = SurrogateGrid.for_archive(ArchiveSpec((3,), ((0.0, 10.0),), kind="sliding", remap_every=3),
                                     archive, 1, 1)
    grid.add(np.zeros((3, 1)), np.array([[1.0, 0.5], [2.0, 4.0], [3.0, 4.5]]))
    assert sorted(grid.elites()["index"].tolist()) == [0, 1]  # the kernel places values as the map does
    assert archive.index_of(np.array([[0.5], [4.0], [4.5]])).tolist() == [0, 0, 1]


def test_a_report_over_two_behaviour_spaces_compares_each_space_alone(tmp_path, monkeypatch):
    from pipeline.report import analysis
    from pipeline.report.build import build_report
    run_pipeline(run_dir=tmp_path / "runs" / "paper")
    run_pipeline("archive.measures=[turns,num_spells]", "archive.ranges=[[5,15],[0,30]]",
                 run_dir=tmp_path / "runs" / "spells")
    out = build_report([tmp_path / "runs"], tmp_path / "report", transfer="none")
    top = (out / "index.html").read_text()
    assert "2 runs in 2 behaviour spaces" in top and "measures turns, num_spells" in top
    for space in ("space1", "space2"):
        table = (out / space / "table1.md").read_text()
        assert table.count("| DSA-ME") + table.count("| dsa_me") == 1  # one run each: not compared across spaces
        assert (out / space / "index.html").is_file()
    # the transfer's games are kept once for the whole report: the next report plays none again
    played, real_play = [], analysis.play_elites
    monkeypatch.setattr(analysis, "play_elites", lambda decks, *a, **k: played.append(len(decks)) or
                        real_play(decks, *a, **k))
    for _ in range(2):
        build_report([tmp_path / "runs"], out, transfer="first", workers=1)
    assert len(played) == 2, "a run's transfer was played again by the second report"
    cache = json.loads((out / "transfer.json").read_text())
    assert len([key for key in cache if key != "unfinished"]) == 2
    for space in ("space1", "space2"):
        assert "Retained as elites" in (out / space / "surrogate_transfer.md").read_text()
