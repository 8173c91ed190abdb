"""value_beam's prune and replies: the network judges only turn-ending states, and the reply
look-ahead plays the opponent's turn on copies with the hidden cards dealt again, never on the
real game."""
import pytest

from workers.engine.actions import END_TURN
from workers.players.play import BeamSearchPlayer, RandomPlayer, play_game
from workers.players.reply_beam import ReplyBeamPlayer
from workers.players.specs import PlayerSpecError, build_player, check_player, load_value_model
from workers.players.value_beam import PrunedValueScore

from .conftest import game


def test_pruned_score_asks_the_network_only_at_a_turn_end():
    asked = []
    score = PrunedValueScore(lambda g, p: asked.append("net") or 0.25, lambda g, p: asked.append("prune") or 7.0)
    g = game(1)
    me = g.current
    assert score(g, me) == 7.0 and asked == ["prune"]  # within the turn
    g.apply((END_TURN, -1, -1, -1))
    assert score(g, me) == 0.25 and asked == ["prune", "net"]  # the turn ended


def test_replies_play_full_games(tiny_model):
    for i, spec in enumerate((f"value_beam:{tiny_model},replies=3", f"value_beam:{tiny_model},prune=nn,replies=2,samples=2")):
        g = game(i)
        player = build_player(spec, 3, depth=5, width=2)
        assert isinstance(player, ReplyBeamPlayer) and isinstance(player, BeamSearchPlayer)
        play_game(g, [player, RandomPlayer(4)])  # the real game checks every action of a plan
        assert g.done and player.replies_played > 0 and player.states_expanded > 0


def test_reply_value_uses_a_copy_with_the_opponents_hand_dealt_again(tiny_model):
    player = ReplyBeamPlayer(load_value_model(tiny_model), 11)
    g = game(2)
    for _ in range(3):  # a few turns in: cards in hand on both sides
        RandomPlayer(1).take_turn(g)
    me = g.current
    g.apply((END_TURN, -1, -1, -1))  # the opponent's turn begins: the end state of a line
    before = (g.turn, [list(p.hand) for p in g.players], [list(p.deck) for p in g.players])
    dealt = [player.determinize(g, me) for _ in range(8)]
    opp = 1 - me
    assert any([c.cdef.id for c in d.players[opp].hand] != [c.cdef.id for c in g.players[opp].hand] for d in dealt)
    for d in dealt:  # the same cards, in the same counts, only dealt again
        assert sorted(c.cdef.id for c in d.players[opp].hand + d.players[opp].deck) == \
            sorted(c.cdef.id for c in g.players[opp].hand + g.players[opp].deck)
        assert len(d.players[opp].hand) == len(g.players[opp].hand)
    value = player.reply_value(g, me)
    assert 0.0 <= value <= 1.0
    # one deal, one outcome: the same seed gives the same hidden cards and the same reply
    assert player.reply_value(g, me, 77) == player.reply_value(g, me, 77)
    assert [c.cdef.id for c in player.determinize(g, me, 5).players[opp].hand] == \
        [c.cdef.id for c in player.determinize(g, me, 5).players[opp].hand]
    assert (g.turn, [list(p.hand) for p in g.players], [list(p.deck) for p in g.players]) == before


def test_bad_reply_settings_are_one_clear_error(tiny_model):
    with pytest.raises(PlayerSpecError, match="replies must be from 1"):
        check_player(f"value_beam:{tiny_model},replies=0")
    with pytest.raises(PlayerSpecError, match="does not combine"):
        check_player(f"value_beam:{tiny_model},replies=2,max_states=10")
    with pytest.raises(PlayerSpecError, match="prune must be nn, aggro or control"):
        check_player(f"value_beam:{tiny_model},prune=greedy")
