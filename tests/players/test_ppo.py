"""MaskablePPO: a few hundred steps of training on the real environment, then the saved policy
as a player spec: it loads, plays only legal moves, and bad policies are one clear error."""
import csv
import zipfile

import numpy as np
import pytest

from workers.engine.rng import derive
from workers.learning.ppo import main
from workers.players.play import RandomPlayer
from workers.players.specs import PlayerSpecError, build_player, check_player

from .conftest import game

pytest.importorskip("sb3_contrib")


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("ppo")
    assert main(["train-ppo", "--steps", "320", "--envs", "2", "--rollout", "160", "--batch", "80",
                 "--epochs", "2", "--hidden", "32", "--opponents", "random", "--eval-against", "random",
                 "--eval-every", "160", "--eval-games", "4", "--out", str(out)]) == 0
    return out


def test_training_writes_the_curve_and_a_policy(trained):
    rows = list(csv.DictReader(open(trained / "curve.csv")))
    assert [int(r["steps"]) for r in rows] == [160, 320]
    for r in rows:
        assert 0 <= float(r["random_lo"]) <= float(r["random_rate"]) <= float(r["random_hi"]) <= 1
        assert float(r["steps_per_s"]) > 0 and int(r["episodes"]) >= 0
    assert (trained / "curve.png").stat().st_size > 1000
    assert "hearthstone.json" in zipfile.ZipFile(trained / "policy.zip").namelist()


@pytest.mark.parametrize("deterministic", ["true", "false"])
def test_the_saved_policy_plays_only_legal_moves(trained, deterministic):
    spec = f"ppo:{trained / 'policy.zip'},deterministic={deterministic}"
    assert check_player(spec)[0] == "ppo"
    moves_played = []
    for index in range(2):
        g = game(index, seed=index + 1)
        players = [build_player(spec, derive(9, index)), RandomPlayer(derive(8, index))]
        while not g.done:
            if g.current == 0:
                move = players[0].choose(g)
                assert move in g.legal_moves()
                g.apply(move)
                moves_played.append(move)
            else:
                players[1].take_turn(g)
    assert len(moves_played) > 10
    # the same seed, the same choices (a sampled policy draws on its own seeded stream)
    g1, g2 = game(0, seed=1), game(0, seed=1)
    assert build_player(spec, 5).choose(g1) == build_player(spec, 5).choose(g2)


def test_the_numpy_forward_pass_is_sb3s_masked_distribution(trained):
    from workers.players.action_space import ACTION_SIZE, legal_action_map
    from workers.players.ppo_player import load_policy
    policy = load_policy(trained / "policy.zip")
    assert policy.layers is not None  # the MLP was copied, so the fast path is what is compared
    g, compared = game(3, seed=4), 0
    moves = np.random.default_rng(3)
    while not g.done and compared < 40:
        legal = legal_action_map(g)
        mask = np.zeros(ACTION_SIZE, dtype=bool)
        mask[list(legal)] = True
        fast, exact = policy.probabilities(g, g.current, mask), policy.torch_probabilities(g, g.current, mask)
        assert np.allclose(fast, exact, atol=1e-5) and np.all(fast[~mask] == 0)
        compared += 1
        g.apply(list(legal.values())[moves.integers(len(legal))])
    assert compared == 40


def test_the_policy_is_a_tournament_player(trained):
    from tools.tournament import run_tournament
    result = run_tournament(["random", f"ppo:{trained / 'policy.zip'}"], games=2, workers=1, seed=1)
    assert not result["errors"] and len(result["games"]) == 2


def test_bad_policies_are_one_clear_error(tmp_path, capsys):
    with pytest.raises(PlayerSpecError, match="does not exist"):
        check_player(f"ppo:{tmp_path / 'none.zip'}")
    foreign = tmp_path / "foreign.zip"
    with zipfile.ZipFile(foreign, "w") as z:
        z.writestr("data", "{}")
    with pytest.raises(PlayerSpecError, match="not a policy saved by workers.learning.ppo"):
        check_player(f"ppo:{foreign}")
    with pytest.raises(PlayerSpecError, match="needs a policy"):
        check_player("ppo")
    assert main(["train-ppo", "--steps", "10", "--opponents", "ppo:" + str(tmp_path / "none.zip"),
                 "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "does not exist" in err[0]
