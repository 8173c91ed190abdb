"""The Gymnasium environment: Gymnasium's checker, a masked random policy for some hundred
steps, and masks that are exactly the engine's legal moves."""
import numpy as np
import pytest

from workers.engine.actions import END_TURN
from workers.engine.rng import derive
from workers.learning.gym_env import (ACTION_SIZE, HearthstoneEnv, action_index, action_mask, describe_action,
                             legal_action_map)
from workers.players.play import RandomPlayer

from .conftest import game

gym = pytest.importorskip("gymnasium")


def test_gymnasium_env_checker():
    from gymnasium.utils.env_checker import check_env
    env = HearthstoneEnv(opponent="random")
    check_env(env, skip_render_check=True)
    assert env.action_space.n == ACTION_SIZE == 1442 + 2 * 1360  # the last slots: Choose One options
    assert env.observation_space.shape == (env.encoder.size,)


def test_masked_random_policy_for_some_hundred_steps():
    env = HearthstoneEnv(opponent="random", encoder="teo60", seat=1)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=3)
    steps = episodes = 0
    rewards = []
    while steps < 400:
        mask = info["action_mask"]
        legal = env.game.legal_moves()
        assert mask.sum() == len(legal) and mask[0] == 1  # one index per move; END always legal
        assert sorted(np.flatnonzero(mask)) == sorted(legal_action_map(env.game))
        assert env.observation_space.contains(obs)
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, reward, terminated, truncated, info = env.step(action)
        assert not info["illegal"] and not truncated
        steps += 1
        if terminated:
            rewards.append(reward)
            episodes += 1
            obs, info = env.reset()
        else:
            assert reward == 0.0 and env.game.current == env.seat
    assert episodes >= 2 and set(rewards) <= {-1.0, 0.0, 1.0}


def test_action_indices_are_one_to_one_and_round_trip():
    g = game(4)
    players = [RandomPlayer(1), RandomPlayer(2)]
    seen_kinds = set()
    for _ in range(14):  # a few turns in: boards, targets, attacks, hero powers
        if g.done:
            break
        m = legal_action_map(g)
        assert len(m) == len(g.legal_moves())
        for i, move in m.items():
            assert 0 <= i < ACTION_SIZE and action_index(g, move) == i
            assert describe_action(i).split()[0] in ("END_TURN", "PLAY", "ATTACK", "HERO_POWER")
            seen_kinds.add(move[0])
            s = g.copy()
            s.apply(move)  # checked: each mapped move is legal
        assert action_mask(g).sum() == len(m)
        players[g.current].take_turn(g)
    assert len(seen_kinds) >= 3


def test_illegal_actions_end_the_turn_or_raise():
    env = HearthstoneEnv(opponent="random")
    _, info = env.reset(seed=1)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    turn = env.game.turn
    _, _, _, _, info = env.step(bad)
    assert info["illegal"] and env.game.turn > turn  # played as END_TURN
    strict = HearthstoneEnv(opponent="random", illegal_action="raise")
    _, info = strict.reset(seed=1)
    with pytest.raises(ValueError, match="not legal now"):
        strict.step(bad)


def test_reset_is_reproducible_and_opponent_is_the_protocol_beam():
    a, b = HearthstoneEnv(), HearthstoneEnv()
    oa, ia = a.reset(seed=5)
    ob, ib = b.reset(seed=5)
    assert np.array_equal(oa, ob) and ia["opponent"] == ib["opponent"]
    assert type(a._opponent).__name__ == "BeamSearchPlayer"
    for _ in range(6):  # end turns only: the beam opponent plays its own
        oa, ra, ta, _, _ = a.step(0)
        ob, rb, tb, _, _ = b.step(0)
        assert np.array_equal(oa, ob) and ra == rb and ta == tb
        if ta:
            break
    with pytest.raises(ValueError, match="unknown player"):
        HearthstoneEnv(opponent="chess")


def test_choose_one_options_have_their_own_indices():
    from workers.engine.actions import PLAY_OPTION_1, PLAY_OPTION_2
    from tests.engine.scenario import make_game
    g = make_game(hand=["EX1_154", "EX1_166"], enemy_board=["CS2_120"], classes=("DRUID", "ROGUE"))
    m = legal_action_map(g)  # Wrath and Keeper of the Grove: two options each
    options = {i: move for i, move in m.items() if move[0] in (PLAY_OPTION_1, PLAY_OPTION_2)}
    assert {move[0] for move in options.values()} == {PLAY_OPTION_1, PLAY_OPTION_2}
    assert len(m) == len(g.legal_moves()) and all(i >= 1442 for i in options)
    assert all(describe_action(i).startswith(f"PLAY hand {move[1]} option {move[0] - PLAY_OPTION_1 + 1}")
               for i, move in options.items())
