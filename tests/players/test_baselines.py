"""The seeds' baselines: one-step lookahead (osl, seed 004) and the trading agent (trade, seed
001). Legal moves only, the same game from the same seed, and hand-built positions where each
picks the move its own rule says (the same position sets the two apart)."""
import pytest

from tests.engine.scenario import make_game, minion
from workers.engine.actions import ATTACK, END_TURN, HERO_POWER, PLAY
from workers.engine.rng import derive
from workers.players import osl as osl_module
from workers.players import trade as trade_module
from workers.players.osl import OSLPlayer, osl_score
from workers.players.play import RandomPlayer, play_game, play_turn
from workers.players.specs import PlayerSpecError, build_player, parse_player
from workers.players.trade import TradePlayer, minion_value, trade_value

from .conftest import game

SPECS = ["osl", "osl:never", "trade"]


def _checked_turn(g, choose, counters=None, observer=None, check=False):
    play_turn(g, choose, counters, observer, check=True)  # an illegal move raises


@pytest.mark.parametrize("spec", SPECS)
def test_full_games_with_legal_moves_only(spec, monkeypatch):
    monkeypatch.setattr(osl_module, "play_turn", _checked_turn)
    monkeypatch.setattr(trade_module, "play_turn", _checked_turn)
    for i in range(6):  # every opponent deck, both seats
        g = game(i, seed=3)
        players = [build_player(spec, derive(1, i)), RandomPlayer(derive(2, i))]
        if i % 2:
            players.reverse()
        play_game(g, players)
        assert g.done


@pytest.mark.parametrize("spec", SPECS)
def test_same_seed_same_game(spec):
    logs = []
    for _ in range(2):
        g = game(4, seed=8)
        p = build_player(spec, 11)
        log = []
        p.observer = lambda s: log.append(s.state_hash())
        play_game(g, [p, build_player("random", 12)])
        logs.append((log, g.winner))
    assert logs[0] == logs[1] and len(logs[0][0]) > 10


def test_they_beat_random_play():
    # 6 mirror games each (both seats, three decks): p = 0.5 would give 6 of 6 with probability 1.6%.
    for spec in ("osl", "trade"):
        wins = 0
        for k in range(6):
            g = game(k // 2, seed=20 + k)
            seat = k % 2
            players = [None, None]
            players[seat], players[1 - seat] = build_player(spec, k), RandomPlayer(100 + k)
            play_game(g, players)
            wins += g.winner == seat
        assert wins == 6, spec


def test_osl_score_is_gym_locms_eval_state():
    g = make_game(board=["CS2_182"], enemy_board=["CS2_168"])  # Yeti 4/5 against Murloc Raider 2/1
    assert osl_score(g, 0) == 2 * (30 - 30) + (4 + 5) - (2 + 1)
    assert osl_score(g, 1) == -6
    g.players[0].hero.armor = 3  # armour counts as health
    assert osl_score(g, 0) == 12
    g.players[1].hero.health = 0
    g._heroes_dead()
    assert osl_score(g, 0) == 1000 + 2 * 33 + 6


def test_osl_goes_face_where_trade_trades():
    # Yeti 4/5 against Murloc Raider 2/1, hero at 30. OSL: the face is 2 x 4 = +8, killing the
    # Raider +3 - 2 = +1. Trade: the Raider is worth v(4,3) - v(4,5) + v(2,1) + 1 = 1.18 > 0.2 x 4.
    g = make_game(board=["CS2_182"], enemy_board=["CS2_168"])
    yeti, raider, hero = minion(g, 0, "CS2_182"), minion(g, 1, "CS2_168"), g.players[1].hero
    assert OSLPlayer(1).choose(g) == (ATTACK, yeti.uid, hero.uid, -1)
    assert TradePlayer(1).choose(g, "attack") == (ATTACK, yeti.uid, raider.uid, -1)
    assert trade_value(yeti, raider) == pytest.approx(minion_value(4, 3, False) - minion_value(4, 5, False)
                                                       + minion_value(2, 1, False) + 1)


def test_osl_ends_its_turn_when_every_action_scores_worse_unless_told_never():
    # Murloc Raider 2/1 into a taunting Ironfur Grizzly 3/3: -3 + 2 = -1 against ending the turn.
    g = make_game(board=["CS2_168"], enemy_board=["CS2_125"], mana=0)
    assert OSLPlayer(1).choose(g)[0] == END_TURN
    raider, bear = minion(g, 0, "CS2_168"), minion(g, 1, "CS2_125")
    assert OSLPlayer(1, stop="never").choose(g) == (ATTACK, raider.uid, bear.uid, -1)


def test_osl_takes_a_lethal_attack():
    g = make_game(board=["CS2_118"], enemy_board=["CS2_168"])  # Magma Rager 5/1
    g.players[1].hero.health = 5
    OSLPlayer(1).take_turn(g)
    assert g.done and g.winner == 0


def test_trade_goes_face_with_lethal_on_board():
    # Yeti 4/5 and Magma Rager 5/1 against a Murloc Raider and 9 health: no trades, both face.
    g = make_game(board=["CS2_182", "CS2_118"], enemy_board=["CS2_168"])
    g.players[1].hero.health = 9
    TradePlayer(1).take_turn(g)
    assert g.done and g.winner == 0 and minion(g, 1, "CS2_168")


def test_trade_plays_its_mana_curve():
    # 4 mana, Raider (1), Rager (3), Yeti (4), Crocolisk (2): unspent 0 by {Yeti} or {Raider,
    # Rager}; the most expensive card first decides: the Yeti alone.
    g = make_game(hand=["CS2_168", "CS2_118", "CS2_182", "CS2_120"], mana=4)
    t = TradePlayer(1)
    assert t.chosen_play(g) == [2]
    assert t.choose(g, "play") == (PLAY, 2, -1, 0)  # the leftmost position
    t.take_turn(g)
    assert [m.cdef.id for m in g.players[0].board] == ["CS2_182"]
    # 5 mana: {Yeti, Raider} (4, 1) beats {Rager, Crocolisk} (3, 2); hand order plays the Raider first.
    g = make_game(hand=["CS2_168", "CS2_118", "CS2_182", "CS2_120"], mana=5)
    assert TradePlayer(1).chosen_play(g) == [0, 2]


def test_trade_uses_the_hero_power_only_when_nothing_else_fits_below_six_mana():
    g = make_game(hand=["CS2_120"], mana=2)  # Crocolisk (2) or Dagger Mastery (2): the card
    assert TradePlayer(1).choose(g, "play") == (PLAY, 0, -1, 0)
    g = make_game(hand=[], mana=2)
    assert TradePlayer(1).choose(g, "play")[0] == HERO_POWER
    g = make_game(hand=["CS2_120"], mana=6)  # from 6 mana the power joins the set and goes first
    assert TradePlayer(1).chosen_play(g) == [-1, 0]


def test_trade_aims_a_damage_spell_at_the_enemy():
    # Backstab may hit either undamaged minion; Hearthbreaker's rule would pick the friendly
    # Yeti (a spell without a battlecry goes to a friendly target when there is one).
    g = make_game(hand=["CS2_072"], board=["CS2_182"], enemy_board=["CS2_168"], mana=0)
    move = TradePlayer(1).choose(g, "play")
    assert move == (PLAY, 0, minion(g, 1, "CS2_168").uid, -1)


def test_specs_and_their_errors():
    assert parse_player("osl") == ("osl", {})
    assert parse_player("osl:never") == ("osl", {"stop": "never"})
    assert parse_player("trade") == ("trade", {})
    assert isinstance(build_player("osl:stop=never", 1), OSLPlayer)
    assert isinstance(build_player("trade", 1), TradePlayer)
    with pytest.raises(PlayerSpecError, match="stop must be one of score, never"):
        parse_player("osl:stop=sometimes")
    with pytest.raises(PlayerSpecError, match="trade takes no settings"):
        parse_player("trade:3")
    with pytest.raises(PlayerSpecError, match="osl has no setting 'depth'"):
        parse_player("osl:depth=2")
    with pytest.raises(ValueError, match="stop must be one of"):
        OSLPlayer(1, stop="x")
