"""Value networks: targets, the split by game, a small training run, safe saving and loading."""
import json
import time

import numpy as np
import pytest
import torch

from workers.players.encoders import get_encoder
from workers.engine.game import new_game
from workers.protocol.evaluate import card_library, default_opponents, miracle_rogue
from workers.players.play import RandomPlayer
from workers.learning.state_log import collect, load, parse_decks
from workers.learning.value_training import (auc, evaluate_model, metrics, run_training, split_games,
                                     target_values, training_order)
from workers.players.value_model import ModelError, load_model, predict


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    path = tmp_path_factory.mktemp("states") / "small.h5"
    collect(parse_decks(["miracle"], 0), 40, path, seed=3, encoders=["protocol15", "teo60"], quiet=True)
    return path


def test_targets_and_auc():
    outcome, d = np.array([1, -1, 0, 1]), np.array([0, 2, 1, 3])
    assert target_values(outcome, d, "win").tolist() == [1, 0, 0, 1]
    assert np.allclose(target_values(outcome, d, "discounted"), [10, -8 * 0.64, 3 * 0.8, 10 * 0.512])
    assert auc(np.array([0.1, 0.4, 0.35, 0.8]), np.array([0, 0, 1, 1])) == 0.75
    assert auc(np.array([0.5, 0.5]), np.array([0, 1])) == 0.5
    m = metrics(np.array([0.9, 0.2]), np.array([1, -1]), np.array([0, 0]), "win")
    assert m["accuracy"] == 1 and m["log_loss"] == pytest.approx(-(np.log(0.9) + np.log(0.8)) / 2)


def test_split_is_by_game_and_training_sets_are_nested():
    deck = np.repeat(np.arange(4), 250)
    game = np.tile(np.repeat(np.arange(25), 10), 4)
    part = split_games(deck, game, seed=0)
    keys = deck * 1000 + game
    for k in np.unique(keys):
        assert len(set(part[keys == k])) == 1  # all states of a game in one part
    shares = np.bincount(part, minlength=3) / len(part)
    assert 0.5 < shares[0] < 0.85 and shares[2] > 0.05
    order = training_order(deck, game, np.flatnonzero(part == 0))
    assert sorted(order.tolist()) == np.flatnonzero(part == 0).tolist()
    first_games = keys[order[:35]]
    assert len(np.unique(first_games)) == 4  # whole games in a row: 10 + 10 + 10 + 5


def test_small_training_run_beats_chance_on_held_out_games(data, tmp_path):
    start = time.perf_counter()
    d = load(data, "protocol15")
    assert 300 < len(d["x"]) < 1500
    results = run_training(data, tmp_path, ["protocol15", "teo60"], ["win", "discounted"],
                           sizes=[100], max_epochs=10, quiet=True)
    assert time.perf_counter() - start < 60
    for name in ("protocol15", "teo60"):
        for target in ("win", "discounted"):
            final = results["encoders"][name][target]["final"]
            assert final["auc"] > 0.5, (name, target, final)
            assert [p["train_rows"] for p in results["encoders"][name][target]["curve"]][0] == 100
    for f in ("metrics.json", "learning_curve.png", "calibration.png", "summary.md",
              "protocol15_win.pt", "teo60_discounted.pt"):
        assert (tmp_path / f).stat().st_size > 0
    saved = json.loads((tmp_path / "metrics.json").read_text())
    again = evaluate_model(tmp_path / "protocol15_win.pt", data)
    assert again["auc"] == pytest.approx(saved["encoders"]["protocol15"]["win"]["final"]["auc"])


def test_saved_model_scores_states_and_refuses_another_encoder(data, tmp_path):
    run_training(data, tmp_path, ["teo60"], ["win"], sizes=[50], max_epochs=2, quiet=True)
    path = tmp_path / "teo60_win.pt"
    model = load_model(path, encoder="teo60")
    opp = default_opponents()[0]
    g = new_game(card_library(), [miracle_rogue(), list(opp.cards)], ["ROGUE", opp.hero_class], 4)
    for _ in range(3):
        RandomPlayer(7).take_turn(g)
    x = get_encoder("teo60")(g, 0)
    assert model(g, 0) == pytest.approx(float(predict(model.net, x[None], "win")[0]), abs=1e-5)
    assert 0 < model(g, 0) < 1
    with pytest.raises(ModelError, match="not 'rich'"):
        load_model(path, encoder="rich")
    blob = torch.load(path, weights_only=True)
    blob["encoder_version"] = 99
    torch.save(blob, tmp_path / "old.pt")
    with pytest.raises(ModelError, match="teo60 v99"):
        load_model(tmp_path / "old.pt")
    (tmp_path / "junk.pt").write_bytes(b"not a model")
    with pytest.raises(ModelError, match="unreadable"):
        load_model(tmp_path / "junk.pt")


def test_several_files_train_together_with_their_games_kept_apart(data):
    from workers.learning.value_training import load_files
    one = load(data, "teo60")
    two = load_files([data, data], "teo60")
    n = len(one["x"])
    assert len(two["x"]) == 2 * n and np.array_equal(two["x"][n:], one["x"])
    # the second file's games are other games: no (deck, game) key is shared, so the split by
    # game can put the copies on different sides
    keys = {(d, g) for d, g in zip(two["deck"][:n], two["game_index"][:n])}
    assert not keys & {(d, g) for d, g in zip(two["deck"][n:], two["game_index"][n:])}
    assert len(set(split_games(two["deck"], two["game_index"]).tolist())) == 3
