"""Tests of the example cards: each checks what the card's text says happens."""
import pytest

from workers.errors import IllegalActionError
from ..scenario import covers, attack, end_turn, make_game, minion, play


@covers("CS2_072")
def test_backstab_damages_only_undamaged_minions():
    g = make_game(hand=["CS2_072", "CS2_072"], enemy_board=["CS2_120", "CS2_172"])
    croc = minion(g, 1, "CS2_120")
    play(g, "CS2_072", croc)
    assert croc.health == 1
    with pytest.raises(IllegalActionError):
        play(g, "CS2_072", croc)


@covers("EX1_134")
def test_si7_agent_deals_two_only_with_combo():
    g = make_game(hand=["EX1_134", "EX1_134", "GAME_005"], enemy_board=["CS2_120"])
    croc = minion(g, 1, "CS2_120")
    play(g, "EX1_134")  # first card of the turn: no combo, no target
    assert croc.health == 3
    play(g, "EX1_134", croc)
    assert croc.health == 1


@covers("EX1_029")
def test_leper_gnome_deathrattle_hits_enemy_hero():
    g = make_game(board=["EX1_029"], enemy_board=["CS2_120"])
    attack(g, minion(g, 0, "EX1_029"), minion(g, 1, "CS2_120"))
    assert g.players[1].hero.health == 28
    assert not g.players[0].board


@covers("NEW1_019")
def test_knife_juggler_hits_a_random_enemy_after_a_friendly_summon():
    g = make_game(hand=["CS2_120"], board=["NEW1_019"])
    play(g, "CS2_120")
    assert g.players[1].hero.health == 29


@covers("CS2_122")
def test_raid_leader_aura_and_its_loss():
    g = make_game(hand=["CS2_122"], board=["CS2_120"])
    croc = minion(g, 0, "CS2_120")
    play(g, "CS2_122")
    assert croc.atk == 3
    leader = minion(g, 0, "CS2_122")
    assert leader.atk == 2
    g.silence(leader)
    g.resolve()
    assert croc.atk == 2


@covers("EX1_393")
def test_amani_berserker_enrage():
    g = make_game(board=["EX1_393"], enemy_board=["CS2_168"])  # Murloc Raider, 2/1
    berserker = minion(g, 0, "EX1_393")
    assert berserker.atk == 2
    attack(g, berserker, minion(g, 1, "CS2_168"))
    assert berserker.health == 1 and berserker.atk == 5
    g.heal(berserker, 2)
    g.resolve()
    assert berserker.atk == 2


@covers("EX1_586")
def test_sea_giant_costs_less_per_minion():
    g = make_game(hand=["EX1_586"], board=["CS2_120"] * 2, enemy_board=["CS2_120"] * 3, mana=5)
    assert g.cost_of(0, g.player.hand[0]) == 5
    play(g, "EX1_586")
    assert g.player.mana == 0 and minion(g, 0, "EX1_586").atk == 8


@covers("EX1_554", "EX1_554t")
def test_snake_trap_summons_three_snakes_when_a_minion_is_attacked():
    g = make_game(enemy_hand=["EX1_554"], enemy_board=["CS2_120"], board=["CS2_172"])
    end_turn(g)
    g.players[1].mana = 10
    play(g, "EX1_554")
    end_turn(g)
    attack(g, minion(g, 0, "CS2_172"), minion(g, 1, "CS2_120"))
    snakes = [m for m in g.players[1].board if m.cdef.id == "EX1_554t"]
    assert len(snakes) == 3
    assert not g.players[1].secrets


@covers("CS2_120", "CS2_172", "CS1_042")
def test_vanilla_and_keyword_minions_have_their_printed_stats():
    g = make_game(hand=["CS2_120", "CS2_172", "CS1_042"], enemy_board=["CS2_172"])
    for card_id in ("CS2_120", "CS2_172", "CS1_042"):
        play(g, card_id)
    stats = {m.cdef.id: (m.atk, m.health, m.taunt) for m in g.players[0].board}
    assert stats == {"CS2_120": (2, 3, False), "CS2_172": (3, 2, False), "CS1_042": (1, 2, True)}
    assert g.players[0].mana == 10 - 2 - 2 - 1
