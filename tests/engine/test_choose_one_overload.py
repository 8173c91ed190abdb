"""Rules of Choose One (two legal actions per play, one per option) and Overload (mana locked
during the next turn only)."""
import pytest

from workers.engine.actions import ATTACK, END_TURN, PLAY, PLAY_OPTION_1, PLAY_OPTION_2, Action
from workers.errors import IllegalActionError
from workers.players.game_counters import GameCounters
from .scenario import end_turn, find_card, make_game, minion, play, play_option

CROC, RAPTOR, YETI = "CS2_120", "CS2_172", "CS2_182"  # 2/3, 3/2, 4/5
WRATH, KEEPER, STARFALL = "EX1_154", "EX1_166", "NEW1_007"
BOLT, DUST_DEVIL, AXE = "EX1_238", "EX1_243", "EX1_247"  # Overload 1, 2, 1


def card_moves(g, card_id):
    i = find_card(g, card_id)
    return [m for m in g.legal_moves() if m[0] not in (END_TURN, ATTACK) and m[1] == i]


# ---------------------------------------------------------------- Choose One
def test_a_choose_one_spell_offers_each_option_as_its_own_action():
    g = make_game(hand=[WRATH, CROC], enemy_board=[YETI])
    yeti = minion(g, 1, YETI)
    i = find_card(g, WRATH)
    assert card_moves(g, WRATH) == [(PLAY_OPTION_1, i, yeti.uid, -1), (PLAY_OPTION_2, i, yeti.uid, -1)]
    # the other cards keep their plain PLAY moves
    assert {m[0] for m in card_moves(g, CROC)} == {PLAY}
    # the card itself cannot be played without choosing
    with pytest.raises(IllegalActionError):
        g.apply(Action(PLAY, i, yeti.uid, -1))


def test_each_option_does_its_own_effect():
    g = make_game(hand=[WRATH], enemy_board=[YETI])
    hand_before = len(g.player.hand)
    play_option(g, WRATH, 1, minion(g, 1, YETI))  # Solar Wrath: 3 damage
    assert minion(g, 1, YETI).health == 2
    assert len(g.player.hand) == hand_before - 1  # no draw
    assert g.player.mana == 8

    g = make_game(hand=[WRATH], enemy_board=[YETI])
    play_option(g, WRATH, 2, minion(g, 1, YETI))  # Nature's Wrath: 1 damage and a card
    assert minion(g, 1, YETI).health == 4
    assert len(g.player.hand) == 1


def test_an_option_that_needs_a_target_is_offered_only_with_one():
    g = make_game(hand=[STARFALL, WRATH])
    # Starfall: option 1 (2 to all enemy minions) needs none, option 2 (5 to a minion) does
    assert card_moves(g, STARFALL) == [(PLAY_OPTION_1, find_card(g, STARFALL), -1, -1)]
    assert card_moves(g, WRATH) == []  # both of Wrath's options need a minion


def test_a_choose_one_minion_offers_options_times_targets_times_positions():
    g = make_game(hand=[KEEPER], board=[CROC], enemy_board=[RAPTOR])
    moves = card_moves(g, KEEPER)
    first = [m for m in moves if m[0] == PLAY_OPTION_1]
    second = [m for m in moves if m[0] == PLAY_OPTION_2]
    assert moves == first + second  # option 1's plays first, as SabberStone lists them
    # option 1 (2 damage): 2 heroes + 2 minions; option 2 (silence): 2 minions; 2 positions each
    assert len(first) == 4 * 2 and len(second) == 2 * 2
    assert {m[3] for m in moves} == {0, 1}


def test_a_choose_one_minion_option_that_needs_a_target_is_offered_only_with_one():
    g = make_game(hand=[KEEPER])
    # option 1 (2 damage) can always hit a hero; option 2 (silence) finds no minion
    assert {m[0] for m in card_moves(g, KEEPER)} == {PLAY_OPTION_1}
    g = make_game(hand=["EX1_178"])  # Ancient of War: neither option targets
    assert card_moves(g, "EX1_178") == [(PLAY_OPTION_1, 0, -1, 0), (PLAY_OPTION_2, 0, -1, 0)]


def test_a_choose_one_minion_needs_a_free_slot():
    g = make_game(hand=["EX1_178"], board=[CROC] * 7)
    assert card_moves(g, "EX1_178") == []


def test_choose_one_costs_the_card_and_counts_as_a_played_card():
    g = make_game(hand=["EX1_160"], board=[CROC], mana=2)
    play_option(g, "EX1_160", 2)
    assert g.player.mana == 0 and g.player.cards_played == 1
    assert (minion(g, 0, CROC).atk, minion(g, 0, CROC).health) == (3, 4)


# ---------------------------------------------------------------- Overload
def test_overload_locks_mana_during_the_next_turn_only():
    g = make_game(hand=[BOLT], mana=5)
    play(g, BOLT, g.players[1].hero)
    assert (g.player.mana, g.player.overload_owed, g.player.overload_locked) == (4, 1, 0)
    end_turn(g)
    assert g.players[1].mana == g.players[1].max_mana  # the opponent is not overloaded
    end_turn(g)
    p = g.players[0]
    assert (p.max_mana, p.mana, p.overload_owed, p.overload_locked) == (6, 5, 0, 1)
    end_turn(g)
    end_turn(g)
    assert (p.max_mana, p.mana, p.overload_owed, p.overload_locked) == (7, 7, 0, 0)


def test_overload_of_spells_minions_and_weapons_adds_up():
    g = make_game(hand=[BOLT, DUST_DEVIL, AXE], mana=4)
    play(g, BOLT, g.players[1].hero)
    play(g, DUST_DEVIL)
    play(g, AXE)
    assert g.player.overload_owed == 4
    end_turn(g)
    end_turn(g)
    assert (g.player.max_mana, g.player.mana, g.player.overload_locked) == (5, 1, 4)


def test_overload_played_while_overloaded_locks_the_turn_after():
    g = make_game(hand=[BOLT, BOLT], mana=3)
    play(g, BOLT, g.players[1].hero)
    end_turn(g)
    end_turn(g)
    play(g, BOLT, g.players[1].hero)  # 4 crystals, 1 locked
    assert (g.player.mana, g.player.overload_owed, g.player.overload_locked) == (2, 1, 1)
    end_turn(g)
    end_turn(g)
    assert (g.player.mana, g.player.overload_locked) == (4, 1)


def test_a_lock_larger_than_the_crystals_leaves_no_mana_even_for_free_cards():
    # SabberStone: remaining mana = crystals - used - locked, which may fall below zero
    g = make_game(hand=["GAME_005", "EX1_251", BOLT, "EX1_169"], enemy_board=[CROC], mana=1)
    play(g, "GAME_005")
    play(g, "EX1_251")  # Forked Lightning, Overload (2)
    play(g, BOLT, g.players[1].hero)  # Overload (1)
    end_turn(g)
    end_turn(g)
    assert (g.player.max_mana, g.player.mana) == (2, -1)
    assert card_moves(g, "EX1_169") == []  # Innervate costs (0) but mana is below 0


def test_overload_tells_states_apart():
    g = make_game(hand=[BOLT], mana=5)
    play(g, BOLT, g.players[1].hero)
    same = g.copy()
    assert g.state_hash() == same.state_hash()
    same.player.overload_owed = 0  # the same state but for what is owed
    assert g.state_hash() != same.state_hash()


def test_the_game_counters_count_a_choose_one_play_as_a_card_play():
    g = make_game(hand=[WRATH], enemy_board=[YETI])
    counters = GameCounters(0)
    action = Action(PLAY_OPTION_2, find_card(g, WRATH), minion(g, 1, YETI).uid, -1)
    counters.before_action(g, action)
    g.apply(action)
    counters.after_action(g, action, None)
    assert counters.card_plays == {WRATH: 1}
