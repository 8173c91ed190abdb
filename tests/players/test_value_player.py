"""value_beam: the protocol's beam search scored by a value network; a missing or mismatched
model is one clear error, before any game."""
import pytest
import torch

from workers.engine.rng import derive
from workers.protocol.evaluate import make_player, miracle_rogue, play_games
from workers.players.specs import PlayerSpecError, build_player, check_player, load_value_model
from workers.players.play import BeamSearchPlayer, RandomPlayer, play_game
from workers.players.game_counters import GameCounters
from workers.players.value_beam import ValueBeamPlayer, ValueScore

from .conftest import game


def test_plays_legal_full_games_against_random_and_beam(tiny_model):
    for i, other in enumerate(("random", "beam_nn")):
        g = game(i)
        vb = build_player(f"value_beam:{tiny_model}", 3, depth=5, width=2)
        assert isinstance(vb, ValueBeamPlayer) and isinstance(vb, BeamSearchPlayer)
        vb.counters = GameCounters(0)
        play_game(g, [vb, build_player(other, 4)])
        assert g.done and vb.score.scored > 0 and vb.states_expanded > 0


def test_budget_of_scored_states_per_planning_round(tiny_model):
    model = load_value_model(tiny_model)
    g = game(3)
    vb = ValueBeamPlayer(model, 5, max_states=7)
    calls = []
    inner = vb.score.model
    vb.score.model = lambda s, p: calls.append(1) or inner(s, p)
    rounds = 0
    original = vb.plan

    def plan(state):
        nonlocal rounds
        before = len(calls)
        line = original(state)
        assert len(calls) - before <= 7
        rounds += 1
        return line
    vb.plan = plan
    play_game(g, [vb, RandomPlayer(6)])
    assert g.done and rounds > 3


def test_value_score_prefers_won_states_without_the_network():
    class Boom:  # the network must not be asked once the budget is spent
        def __call__(self, g, p):
            raise AssertionError("scored past the budget")
    score = ValueScore(Boom(), max_states=1)
    score.used = 1
    g = game(0)
    assert score(g, 0) == float("-inf")
    g.players[1].hero.health = 0
    assert score(g, 0) == float("inf")


def test_through_the_protocol_evaluation(tiny_model):
    records = play_games(miracle_rogue(), [0, 1], seed=3, player=f"value_beam:{tiny_model},depth=4,width=2")
    assert len(records) == 2 and all(r.error is None for r in records)
    assert all(r.turns > 0 and r.mana_available > 0 for r in records)


def test_missing_model_is_one_error_before_any_game(tmp_path):
    missing = tmp_path / "nope.pt"
    with pytest.raises(PlayerSpecError, match="does not exist"):
        check_player(f"value_beam:{missing}")
    with pytest.raises(ValueError, match="does not exist"):
        play_games(miracle_rogue(), [0], seed=1, player=f"value_beam:{missing}")
    with pytest.raises(ValueError, match="does not exist"):
        make_player(f"mcts:5,model={missing}", "nn", 1, 13, 4)


def test_mismatched_models_are_refused(tiny_model, tmp_path):
    with pytest.raises(PlayerSpecError, match="reads encoder 'protocol15', not 'rich'"):
        check_player(f"value_beam:{tiny_model},encoder=rich")
    blob = torch.load(tiny_model, weights_only=True)
    blob["encoder_version"] = 99
    old = tmp_path / "old_encoder.pt"
    torch.save(blob, old)
    with pytest.raises(PlayerSpecError, match="protocol15 v99 .* train it again"):
        check_player(f"value_beam:{old}")
    junk = tmp_path / "junk.pt"
    junk.write_bytes(b"not a model")
    with pytest.raises(PlayerSpecError, match="unreadable"):
        build_player(f"value_beam:{junk}", 1)


def test_config_refuses_bad_players_in_one_line(tiny_model, tmp_path):
    from hydra import compose, initialize_config_dir
    from pipeline.state.config import check_inputs, validate
    from pipeline.run_errors import ConfigError
    import os
    conf = os.path.join(os.path.dirname(__file__), "..", "..", "conf")

    def cfg(*overrides):
        with initialize_config_dir(config_dir=os.path.abspath(conf), version_base=None):
            return compose("config", overrides=list(overrides))
    assert validate(cfg("strategy=mcts")).strategy.player.startswith("mcts:")
    ok = validate(cfg("strategy=value_beam", f"strategy.player=value_beam:{tiny_model}"))
    check_inputs(ok)
    with pytest.raises(ConfigError, match="does not exist"):
        check_inputs(validate(cfg("strategy=value_beam", f"strategy.player=value_beam:{tmp_path}/x.pt")))
    with pytest.raises(ConfigError, match="strategy.player='mcts:lots'"):
        validate(cfg("strategy.player=mcts:lots"))
    with pytest.raises(ConfigError, match="needs engine=builtin"):
        validate(cfg("strategy=mcts", "engine=sabberstone"))
    with pytest.raises(ConfigError, match="unknown player 'minimax'"):
        validate(cfg("strategy.player=minimax"))


def test_existing_players_are_built_as_before():
    assert isinstance(make_player("random", "nn", 1, 13, 4), RandomPlayer)
    b = make_player("beam", "aggro", derive(1, 2), 13, 4)
    assert type(b) is BeamSearchPlayer and (b.depth, b.width) == (13, 4)
    with pytest.raises(ValueError, match="unknown player"):
        make_player("greedy", "nn", 1, 13, 4)
