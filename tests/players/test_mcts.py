"""workers.players.mcts: legal full games, reproducible with an iteration budget, stronger than random."""
import pytest

from workers.engine.rng import derive
from workers.players.mcts import MCTSPlayer
from workers.players.specs import PlayerSpecError, build_player, parse_player
from workers.players.play import RandomPlayer, play_game
from workers.players.game_counters import GameCounters

from .conftest import game


def _actions(g, player):
    log = []
    player.observer = lambda s: log.append((s.turn, s.current, s.players[0].hero.health,
                                            s.players[1].hero.health, s.state_hash()))
    return log


def test_plays_legal_full_games_and_reports_to_its_counters():
    # Every real action goes through GameState.apply(check=True): an illegal one would raise.
    for i in range(2):
        g = game(i)
        m = MCTSPlayer(seed=3, iterations=8)
        m.counters = GameCounters(0)
        play_game(g, [m, RandomPlayer(4)])
        assert g.done and m.searches > 0 and m.iterations_run == 8 * m.searches
        assert m.counters.hand_size_start_sum > 0 and m.counters.mana_available > 0


def test_value_and_cutoff_leaves_play_full_games(tiny_model):
    for spec in (f"mcts:6,leaf=value,model={tiny_model}", f"mcts:6,leaf=cutoff,cutoff=3,model={tiny_model}",
                 f"mcts:6,leaf=value,horizon=game,positions=all,reuse=false,model={tiny_model}"):
        g = game(2)
        play_game(g, [build_player(spec, 5), RandomPlayer(6)])
        assert g.done


def test_same_seed_same_game_with_an_iteration_budget():
    logs = []
    for _ in range(2):
        g = game(1, seed=9)
        m, r = MCTSPlayer(seed=11, iterations=12), RandomPlayer(12)
        log = _actions(g, m)
        play_game(g, [r, m])
        logs.append((log, g.winner, g.turn, m.iterations_run))
    assert logs[0] == logs[1]
    g = game(1, seed=9)
    other = MCTSPlayer(seed=12, iterations=12)
    log = _actions(g, other)
    play_game(g, [RandomPlayer(12), other])
    assert log != logs[0][0]  # the seed matters


def test_determinization_keeps_what_the_player_knows():
    g = game(0)
    RandomPlayer(1).take_turn(g)  # some turns in, so hands and decks are mixed
    RandomPlayer(2).take_turn(g)
    m = MCTSPlayer(seed=1, iterations=1)
    me = g.current
    key = lambda cards: sorted(c.uid for c in cards)
    for _ in range(5):
        s = m.determinize(g, me)
        own, opp = s.players[me], s.players[1 - me]
        real_own, real_opp = g.players[me], g.players[1 - me]
        assert [c.uid for c in own.hand] == [c.uid for c in real_own.hand]
        assert key(own.deck) == key(real_own.deck)
        assert len(opp.hand) == len(real_opp.hand) and len(opp.deck) == len(real_opp.deck)
        assert key(opp.hand + opp.deck) == key(real_opp.hand + real_opp.deck)
        assert s.state_hash() != g.state_hash() or len(real_opp.deck) == 0
    assert [c.uid for c in g.players[1 - me].hand] == [c.uid for c in real_opp.hand]  # untouched


def test_beats_the_random_player(tiny_model):
    # 20 games, 10 from each seat, mirror matches of the protocol's decks; p = 0.5 would give
    # 15 or more wins with probability 2%. Value leaves (the tiny model trained on random
    # games) keep it cheap: random playouts need some 40 iterations per action to be as clear
    # (11 of 12 games with mcts:40, about ten times the time).
    wins = 0
    for i in range(20):
        g = game(i // 2, seed=21)
        m = build_player(f"mcts:16,leaf=value,model={tiny_model}", derive(5, i))
        r = RandomPlayer(derive(6, i))
        seat = i % 2
        play_game(g, [m, r] if seat == 0 else [r, m])
        wins += g.winner == seat
    assert wins >= 15, wins


@pytest.mark.parametrize("spec, message", [
    ("mcts:abc", "whole number"), ("mcts:0", "from 1"), ("mcts:1s,leaf=value", "needs model"),
    ("mcts:10,c=-1", "c must be"), ("mcts:10,leaf=foo", "leaf must be"), ("mcts:10,foo=1", "no setting"),
    ("mcts:10,horizon=week", "horizon must be"), ("mcts:10,iterations=5", "twice"),
])
def test_bad_specs_are_one_clear_error(spec, message):
    with pytest.raises(PlayerSpecError, match=message):
        parse_player(spec)


def test_spec_settings_reach_the_player(tiny_model):
    kind, opts = parse_player("mcts:0.25s")
    assert kind == "mcts" and opts == {"seconds": 0.25, "leaf": "playout"}
    m = build_player(f"mcts:40,c=0.3,positions=all,reuse=false,model={tiny_model}", 1)
    assert (m.iterations, m.c, m.positions, m.reuse, m.leaf, m.horizon) == (40, 0.3, "all", False, "cutoff", "game")
    assert build_player(f"mcts:5,leaf=value,model={tiny_model}", 1).horizon == "turn"
