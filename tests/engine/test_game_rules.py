"""Rules of the game itself: turns, mana, draw, fatigue, hand and board limits, combat."""
import pytest

from workers.engine.actions import ATTACK, Action
from workers.engine.entities import Card
from workers.errors import IllegalActionError
from .scenario import FILLER, attack, covers, end_turn, hero_power, library, make_game, minion, play
from workers.engine.game import HEROES, new_game


def test_new_game_deals_opening_hands_and_the_coin():
    lib = library()
    g = new_game(lib, [[FILLER] * 30, [FILLER] * 30], ["ROGUE", "HUNTER"], seed=3)
    first, second = g.players
    assert len(first.hand) == 4  # 3 + the turn-1 draw
    assert len(second.hand) == 5 and second.hand[-1].cdef.id == "GAME_005"
    assert first.mana == first.max_mana == 1 and second.max_mana == 0
    assert len(first.deck) == 26 and len(second.deck) == 26


def test_mulligan_replaces_cards_costing_more_than_three():
    lib = library()
    deck = ["CS2_186"] * 15 + ["CS2_231"] * 15  # War Golem (7) and Wisp (0)
    for seed in range(5):
        g = new_game(lib, [deck, deck], ["ROGUE", "HUNTER"], seed)
        opening = g.players[1].hand[:4]
        # A replacement may itself cost more; but no card kept from the first draw does.
        assert len(opening) == 4 and len(g.players[1].deck) == 26


def test_mana_grows_to_ten_and_refills():
    g = make_game(mana=9)
    g.players[0].max_mana = 9
    end_turn(g)
    end_turn(g)
    assert g.players[0].max_mana == 10 and g.players[0].mana == 10
    end_turn(g)
    end_turn(g)
    assert g.players[0].max_mana == 10


def test_fatigue_grows_each_empty_draw():
    g = make_game(deck=[], enemy_deck=[])
    hp = g.players[1].hero.health
    end_turn(g)  # player 1 draws from an empty deck: 1 damage
    assert g.players[1].hero.health == hp - 1
    end_turn(g)
    end_turn(g)  # second empty draw: 2 more
    assert g.players[1].hero.health == hp - 3


def test_overdraw_burns_the_card():
    g = make_game(enemy_hand=[FILLER] * 10)
    deck_before = len(g.players[1].deck)
    end_turn(g)
    assert len(g.players[1].hand) == 10 and len(g.players[1].deck) == deck_before - 1


def test_board_limit_of_seven():
    g = make_game(hand=[FILLER], board=[FILLER] * 7)
    assert not [a for a in g.legal_actions() if a.kind == 1 and a.index == 0]


def test_summoning_sickness_and_charge():
    g = make_game(hand=[FILLER, "CS2_171"], mana=10)
    play(g, FILLER)
    play(g, "CS2_171")  # Stonetusk Boar has Charge
    attackers = {a.index for a in g.legal_actions() if a.kind == ATTACK}
    assert minion(g, 0, "CS2_171").uid in attackers
    assert minion(g, 0, FILLER).uid not in attackers


def test_combat_damages_both_and_removes_the_dead():
    g = make_game(board=["CS2_172"], enemy_board=[FILLER])  # 3/2 into 2/3
    raptor, croc = minion(g, 0, "CS2_172"), minion(g, 1, FILLER)
    attack(g, raptor, croc)
    assert not g.players[0].board and not g.players[1].board


def test_taunt_must_be_attacked_first_and_illegal_attacks_are_refused():
    g = make_game(board=["CS2_172"], enemy_board=["CS1_042", FILLER])
    raptor = minion(g, 0, "CS2_172")
    with pytest.raises(IllegalActionError):
        attack(g, raptor, g.players[1].hero)
    with pytest.raises(IllegalActionError):
        attack(g, raptor, minion(g, 1, FILLER))
    attack(g, raptor, minion(g, 1, "CS1_042"))


def test_minion_attacks_once_per_turn():
    g = make_game(board=[FILLER])
    croc = minion(g, 0, FILLER)
    attack(g, croc, g.players[1].hero)
    assert g.players[1].hero.health == 28
    assert not [a for a in g.legal_actions() if a.kind == ATTACK]


def test_weapon_attack_loses_durability_and_armour_absorbs():
    g = make_game()
    hero_power(g)  # Dagger Mastery: 1/2 dagger
    g.players[1].hero.armor = 1
    attack(g, g.players[0].hero, g.players[1].hero)
    assert g.players[1].hero.armor == 0 and g.players[1].hero.health == 30
    assert g.players[0].weapon.durability == 1


def test_killing_the_hero_ends_the_game():
    g = make_game(board=["CS2_186"])
    g.players[1].hero.health = 5
    attack(g, minion(g, 0, "CS2_186"), g.players[1].hero)
    assert g.done and g.winner == 0 and g.result(0) == 1 and g.result(1) == -1
    assert g.legal_actions() == []


def test_frozen_minion_cannot_attack_and_thaws():
    g = make_game(board=[FILLER])
    croc = minion(g, 0, FILLER)
    croc.frozen = True
    assert not [a for a in g.legal_actions() if a.kind == ATTACK]
    end_turn(g)
    assert not croc.frozen  # it could not attack this turn, so it thaws at its end


def test_unknown_action_is_rejected():
    g = make_game()
    with pytest.raises(IllegalActionError):
        g.apply(Action(ATTACK, 12345, 67890))


def test_copy_is_independent_and_hash_tracks_changes():
    g = make_game(board=[FILLER], enemy_board=[FILLER])
    c = g.copy()
    assert c.state_hash() == g.state_hash()
    attack(c, minion(c, 0, FILLER), minion(c, 1, FILLER))
    assert minion(g, 0, FILLER).damage == 0
    assert c.state_hash() != g.state_hash()


@pytest.mark.parametrize("field", ["sick", "frozen", "taunt", "divine_shield", "stealth", "silenced",
                                   "windfury", "poisonous", "damage", "attacks", "spell_damage",
                                   "counter", "destroy_at_start_of", "order", "aura_atk"])
def test_hash_tells_each_minion_field_apart(field):
    g = make_game(board=[FILLER, FILLER], enemy_board=[FILLER])
    c = g.copy()
    m = c.players[0].board[1]
    value = getattr(m, field)
    setattr(m, field, (not value) if isinstance(value, bool) else value + 1)
    assert c.state_hash() != g.state_hash()


def test_hash_takes_the_hand_in_creation_order():
    g = make_game(hand=["CS2_120", "CS2_172", "CS1_042"])
    c = g.copy()
    c.players[0].hand = list(reversed(c.players[0].hand))  # (copies share their cards)
    assert c.state_hash() == g.state_hash()  # the same cards made in the same order
    hand = c.hand_to_change(0)  # a hand changes in place only through it (its hash value is kept)
    a, b = hand[0], hand[1]
    hand[0], hand[1] = Card(b.uid, a.cdef), Card(a.uid, b.cdef)  # made in the other order
    assert c.state_hash() != g.state_hash()
    cheaper = g.copy()
    first = cheaper.players[0].hand[0]
    cheaper.hand_to_change(0)[0] = Card(first.uid, first.cdef, cost_mod=-2)  # a cheaper copy (copies share a hand)
    assert cheaper.state_hash() not in (g.state_hash(), c.state_hash())


def test_deathrattles_resolve_in_play_order():
    # Two Leper Gnomes die together; both deathrattles hit the enemy hero.
    g = make_game(board=["EX1_029", "EX1_029"])
    for m in list(g.players[0].board):
        g.destroy(m)
    g.resolve()
    assert g.players[1].hero.health == 26



@covers("HERO_03", "HERO_04", "HERO_05", "HERO_07")
@pytest.mark.parametrize("hero_card", ["HERO_03", "HERO_04", "HERO_05", "HERO_07"])
def test_each_class_plays_its_hero_with_30_health_and_its_basic_hero_power(hero_card):
    hero_class = next(cls for cls, (hero, _) in HEROES.items() if hero == hero_card)
    g = make_game(classes=(hero_class, "ROGUE"))
    hero = g.players[0].hero
    assert hero.cdef.id == hero_card and hero.cdef.card_class == hero_class and hero.health == 30
    assert hero.power.id == HEROES[hero_class][1] and hero.power.cost == 2
