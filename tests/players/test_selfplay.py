"""Self-play MaskablePPO (workers.learning.selfplay): a few hundred steps of the real trainer
write the curve, checkpoints and summary; the frozen opponent is replaced on schedule and
plays legal moves; seed 004's settings are the defaults."""
import csv
import json

import numpy as np
import pytest

from workers.learning.ppo import main
from workers.learning.selfplay import SEED004, SelfPlayEnv, summarize
from workers.players.play import RandomPlayer
from workers.players.ppo_player import PPOPlayer

pytest.importorskip("sb3_contrib")


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("selfplay")
    assert main(["self-play", "--episodes", "8", "--envs", "2", "--rollout", "128", "--batch", "64",
                 "--hidden", "32", "--switch-every", "2", "--eval-every", "4", "--eval-games", "2",
                 "--eval-against", "osl", "random", "--out", str(out)]) == 0
    return out


def test_the_curve_checkpoints_and_summary(trained):
    rows = list(csv.DictReader(open(trained / "curve.csv")))
    assert [int(r["episodes"]) for r in rows] == [4, 8]
    assert sum(int(r["steps"]) for r in rows) > 200  # a few hundred environment steps in all
    for r in rows:
        assert int(r["switches"]) >= int(r["episodes"]) // 2 - 1  # the opponent replaced every 2 episodes
        for name in ("osl", "random"):
            assert 0 <= float(r[f"{name}_lo"]) <= float(r[f"{name}_rate"]) <= float(r[f"{name}_hi"]) <= 1
        assert (trained / "checkpoints" / f"episodes_{r['episodes']}.zip").is_file()
    assert (trained / "curve.png").stat().st_size > 1000
    summary = json.loads((trained / "summary.json").read_text())
    assert summary["checkpoints"] == 2 and set(summary["osl"]) >= {"best_rate", "mean", "mean_last10"}


def test_the_frozen_opponent_plays_legal_moves_from_its_copy(trained):
    env = SelfPlayEnv(seat=1, encoder="rich")
    env.set_opponent(str(trained / "opponent.zip"), 1)
    obs, info = env.reset(seed=3)
    assert isinstance(env._opponent, PPOPlayer) and not env._opponent.deterministic
    rng = np.random.default_rng(0)
    done, steps = False, 0
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, done, _, info = env.step(int(rng.choice(legal)))
        assert not info.get("illegal")
        steps += 1
    assert steps > 5 and reward in (-1.0, 0.0, 1.0)
    assert isinstance(SelfPlayEnv(seat=0, encoder="rich").make_opponent(1, "nn"), RandomPlayer)  # until set


def test_seed004_settings_are_the_defaults_and_bad_values_are_one_error(tmp_path, capsys):
    import argparse
    from workers.learning import selfplay
    parser = argparse.ArgumentParser()
    selfplay.add_parsers(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["self-play"])
    assert (args.hidden, args.rollout, args.batch, args.epochs, args.lr, args.ent_coef, args.gamma, args.clip,
            args.vf_coef) == tuple(SEED004[k] for k in ("hidden", "rollout", "batch", "epochs", "lr", "ent_coef",
                                                         "gamma", "clip", "vf_coef"))
    assert (args.switch_every, args.eval_every, args.eval_games, args.episodes) == (100, 1000, 250, 100000)
    assert args.eval_against == ["osl", "random", "beam_nn"]
    with pytest.raises(SystemExit):
        main(["self-play", "--eval-games", "3", "--out", str(tmp_path)])
    assert "must be even" in capsys.readouterr().err
    assert main(["self-play", "--eval-against", "osl:stop=maybe", "--out", str(tmp_path)]) == 2
    assert "stop must be one of" in capsys.readouterr().err


def test_summary_picks_the_best_checkpoint_and_the_means():
    rows = [{"episodes": 1000 * (i + 1), "checkpoint": f"c{i}", "osl_rate": r, "osl_lo": r - 0.1,
             "osl_hi": r + 0.1} for i, r in enumerate([0.2, 0.5, 0.4] + [0.3] * 10)]
    s = summarize(rows, ["osl"])["osl"]
    assert s["best_episodes"] == 2000 and s["best_checkpoint"] == "c1"
    assert s["mean"] == pytest.approx(np.mean([r["osl_rate"] for r in rows]), abs=1e-4)
    assert s["mean_last10"] == pytest.approx(0.3)


def test_evaluate_confirms_a_policy_on_fresh_deals(trained, capsys):
    assert main(["evaluate", "--policy", str(trained / "policy.zip"), "--against", "random", "--games", "2",
                 "--seed", "99"]) == 0
    line = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert line["against"] == "random" and line["games"] == 2 and 0 <= line["lo"] <= line["rate"] <= line["hi"] <= 1
    assert main(["evaluate", "--policy", str(trained / "none.zip")]) == 2
