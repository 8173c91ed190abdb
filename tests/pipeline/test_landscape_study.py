"""tools.landscape_study: the pipeline's own search run on a learned landscape instead of games,
the same figures from the same seed, the evostone2_cells rule searching on exactly the cells
the paper's Table 1 counts, EvoStone2's own loop, and a run's final surrogate as the landscape."""
import json

import numpy as np
import pytest

from pipeline.deck_space import DeckSpace
from tools import landscape_study

from .helpers import run_pipeline


@pytest.fixture(scope="module")
def landscape(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("landscape") / "run"
    run_pipeline(run_dir=run_dir)  # DSA-ME: its evaluations train the landscape, its surrogate.pt is a run's
    return landscape_study.Landscape.trained([run_dir / "checkpoint.h5"], DeckSpace.from_pool_file()), run_dir


def test_a_decks_results_are_the_landscapes_with_noise_drawn_from_its_evaluation(landscape):
    land, _ = landscape
    decks = DeckSpace.from_pool_file().random_decks(np.random.default_rng(0), 3)
    ids = np.array([5, 6, 7])
    first = land.targets(decks, ids, seed=1)
    assert np.array_equal(first, land.targets(decks, ids, seed=1))
    again = land.targets(decks, ids + 100, seed=1)  # the same decks evaluated again: other noise
    assert not np.array_equal(first, again)
    assert np.all(np.abs(first - again) < 12 * land.noise_sd + 1e-9)


def test_the_same_seed_gives_the_same_run_and_evostone2s_rule_searches_on_the_papers_cells(landscape):
    land, _ = landscape
    ours = landscape_study.run_one(land, "map_elites", "ours", seed=3, budget=200)
    assert ours == landscape_study.run_one(land, "map_elites", "ours", seed=3, budget=200)
    assert ours["evaluations"] == 200 and ours["paper_cells"]["elites"] > 0
    theirs = landscape_study.run_one(land, "map_elites", "evostone2_cells", seed=3, budget=200)
    assert theirs["own_cells"]["coverage"] == theirs["paper_cells"]["coverage"]


def test_the_study_keeps_its_runs_and_refuses_another_landscapes_folder(landscape, tmp_path, capsys):
    _, run_dir = landscape
    args = ["--data", str(run_dir / "checkpoint.h5"), "--seeds", "0", "--budget", "200", "--out", str(tmp_path)]
    assert landscape_study.main(args) == 0
    kept = tmp_path / "map_elites-ours-seed0-200.json"
    assert json.loads(kept.read_text())["evaluations"] == 200
    assert "| ours | 1 |" in (tmp_path / "study-map_elites-200.md").read_text()
    (tmp_path / "landscape.json").write_text(json.dumps({"data": ["elsewhere"], "noise_sd": []}))
    assert landscape_study.main(args) == 2
    assert "of another landscape" in capsys.readouterr().err


def test_evostone2s_mutation_keeps_decks_valid_and_never_removes_a_single_last_card():
    space = DeckSpace.from_pool_file()
    rng = np.random.default_rng(4)
    parents = space.random_decks(rng, 200)
    last = space.size - 1
    for deck in parents:  # one copy of the pool's last card, the others as drawn but for the total
        deck[last] = 1
        while deck.sum() > space.deck_size:
            deck[np.flatnonzero(deck[:last])[0]] -= 1
        while deck.sum() < space.deck_size:
            deck[np.flatnonzero(deck[:last] < space.limits[:last])[0]] += 1
    children = landscape_study.evostone2_mutation(space, rng, parents)
    assert np.all(children.sum(axis=1) == space.deck_size) and np.all(children <= space.limits)
    assert np.all(children[:, last] >= 1)  # the walk never reaches it: its one chance is taken by the first card
    assert (children != parents).any(axis=1).mean() > 0.5


def test_the_spread_scales_the_measures_about_their_mean_and_nothing_else_one_factor_or_one_each(landscape):
    land, _ = landscape
    decks = DeckSpace.from_pool_file().random_decks(np.random.default_rng(1), 4)
    ids = np.arange(4)
    learned = land.targets(decks, ids, seed=2)
    narrow = landscape_study.Landscape(land.model, land.noise_sd, land.center, spread=0.5).targets(decks, ids, seed=2)
    measures = [1, 2]  # turns, hand size (TARGET_NAMES)
    predicted = land.model.predict(decks.astype(np.float32)).astype(np.float64)
    assert np.allclose((learned - narrow)[:, measures], (predicted - land.center)[:, measures] * 0.5)
    others = [i for i in range(learned.shape[1]) if i not in measures]
    assert np.array_equal(learned[:, others], narrow[:, others])
    turns_only = landscape_study.Landscape(land.model, land.noise_sd, land.center, spread=(0.5, 1.0))
    narrow_turns = turns_only.targets(decks, ids, seed=2)
    assert np.array_equal(narrow_turns[:, [1]], narrow[:, [1]])
    assert np.array_equal(np.delete(narrow_turns, 1, axis=1), np.delete(learned, 1, axis=1))


def test_evostone2s_loop_hands_out_random_decks_then_mutants_of_the_decks_back_so_far(landscape):
    """EvoStone2's distributed MAP-Elites with 20 evaluators and 10 random decks: once the random
    decks are out it waits for the first one back, then fills the idle evaluators with mutants
    of that one deck (the only elite yet)."""
    from pipeline.search.archives import ArchiveSpec
    from tools.run_config import checked_config
    land, _ = landscape
    space = DeckSpace.from_pool_file()
    spec = ArchiveSpec.from_config(checked_config("experiment=paper").archive)
    decks, targets, ids = landscape_study.evostone2_loop(land, space, spec, seed=1, budget=60, initial=10, workers=20)
    assert sorted(ids.tolist()) == list(range(60)) and np.all(decks.sum(axis=1) == space.deck_size)
    assert np.array_equal(targets, np.concatenate([land.targets(d[None, :], np.array([i]), 1) for d, i in zip(decks, ids)]))

    def shared(a, b):
        return int(np.minimum(a, b).sum())
    first_back, others = decks[0], decks[(ids < 10)][1:]
    assert ids[0] < 10
    mutants_of_it = decks[(ids >= 10) & (ids < 21)]  # the 9 evaluators still playing, 11 idle
    for mutant in mutants_of_it:
        assert shared(mutant, first_back) > max(shared(mutant, other) for other in others)


def test_evostone2s_dsa_me_searches_synchronously_on_the_papers_cells(landscape):
    land, _ = landscape
    theirs = landscape_study.run_one(land, "dsa_me", "evostone2_dsa_me", seed=3, budget=200)
    assert theirs["evaluations"] == 200
    assert theirs["own_cells"]["coverage"] == theirs["paper_cells"]["coverage"] > 0


def test_a_runs_final_surrogate_gives_the_landscapes_three_statistics_by_name(landscape, tmp_path, capsys):
    from pipeline.report.section6 import kept_surrogate
    land, run_dir = landscape
    model, names = kept_surrogate(run_dir)
    decks = DeckSpace.from_pool_file().random_decks(np.random.default_rng(5), 6)
    quiet = landscape_study.Landscape(land.model, np.zeros_like(land.noise_sd), land.center)
    quiet.paper_model = landscape_study.RunSurrogate(run_dir)
    targets = quiet.targets(decks, np.arange(6), seed=0)
    predicted = model.predict(decks.astype(np.float32))
    for i, name in enumerate(("health_difference", "turns", "hand_size")):
        assert np.allclose(targets[:, i], predicted[:, names.index(name)], atol=1e-5)
    assert np.allclose(targets[:, 3:], land.model.predict(decks.astype(np.float32))[:, 3:], atol=1e-5)

    args = ["--data", str(run_dir / "checkpoint.h5"), "--seeds", "0", "--budget", "100", "--out", str(tmp_path / "s")]
    assert landscape_study.main([*args, "--run-surrogate", str(run_dir)]) == 0
    assert json.loads((tmp_path / "s" / "landscape.json").read_text())["run_surrogate"] == str(run_dir.resolve())
    assert landscape_study.main([*args, "--run-surrogate", str(tmp_path)]) == 2
    assert "no surrogate.pt" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        landscape_study.main([*args, "--run-surrogate", str(run_dir), "--paper-surrogate", str(run_dir)])
    assert exit_.value.code == 2 and "not allowed with argument --run-surrogate" in capsys.readouterr().err
