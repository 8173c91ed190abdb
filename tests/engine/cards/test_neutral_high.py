"""Tests of the high-cost neutral minions and the Rogue pool: each checks what the text says."""
import pytest

from workers.engine.actions import ATTACK
from workers.errors import IllegalActionError
from workers.engine.game import new_game
from ..scenario import (attack, attack_targets, covers, end_turn, find_card, hand_ids, hero_power,
                        library, make_game, minion, play)

CROC, RAPTOR, WISP = "CS2_120", "CS2_172", "CS2_231"  # 2/3, 3/2, 1/1
YETI, OGRE = "CS2_182", "CS2_200"  # 4/5, 6/7
COIN = "GAME_005"


def play_targets(g, card_id):
    i = find_card(g, card_id)
    return {a.target for a in g.legal_actions() if a.index == i and a.kind != ATTACK}


# ------------------------------------------------------------------ neutral minions
@covers("EX1_593")
def test_nightblade_hits_enemy_hero_for_three():
    g = make_game(hand=["EX1_593"], enemy_board=[CROC])
    play(g, "EX1_593")
    assert g.players[1].hero.health == 27
    assert g.players[0].hero.health == 30
    assert minion(g, 1, CROC).health == 3


@covers("EX1_116", "EX1_116t")
def test_leeroy_charges_and_gives_the_opponent_two_whelps():
    g = make_game(hand=["EX1_116"])
    play(g, "EX1_116")
    whelps = [m for m in g.players[1].board if m.cdef.id == "EX1_116t"]
    assert len(whelps) == 2 and all((w.atk, w.health) == (1, 1) for w in whelps)
    assert len(g.players[0].board) == 1
    attack(g, minion(g, 0, "EX1_116"), g.players[1].hero)  # Charge: attacks at once
    assert g.players[1].hero.health == 24


@covers("CS2_150")
def test_stormpike_commando_deals_two_to_a_chosen_character():
    g = make_game(hand=["CS2_150", "CS2_150"], enemy_board=[YETI])
    yeti = minion(g, 1, YETI)
    play(g, "CS2_150", yeti)
    assert yeti.health == 3
    play(g, "CS2_150", g.players[1].hero)
    assert g.players[1].hero.health == 28


@covers("EX1_097")
def test_abomination_deathrattle_hits_every_character():
    g = make_game(board=["EX1_097", CROC], enemy_board=[RAPTOR, YETI])
    abom = minion(g, 0, "EX1_097")
    assert abom.taunt
    g.destroy(abom)
    g.resolve()
    assert g.players[0].hero.health == 28 and g.players[1].hero.health == 28
    assert minion(g, 0, CROC).health == 1
    assert minion(g, 1, YETI).health == 3
    assert [m.cdef.id for m in g.players[1].board] == [YETI]  # the 3/2 died


@covers("CS1_069", "CS2_187", "CS2_162")
@pytest.mark.parametrize("card_id,stats", [("CS1_069", (3, 6)), ("CS2_187", (5, 4)),
                                           ("CS2_162", (6, 5))])
def test_taunt_minions_must_be_attacked_first(card_id, stats):
    g = make_game(hand=[card_id], enemy_board=[RAPTOR])
    play(g, card_id)
    taunter = minion(g, 0, card_id)
    assert (taunter.atk, taunter.health) == stats
    end_turn(g)
    assert attack_targets(g, minion(g, 1, RAPTOR)) == {taunter.uid}


@covers("CS2_227")
def test_venture_co_mercenary_raises_only_its_owners_minion_costs():
    g = make_game(hand=[CROC, "CS2_075"], board=["CS2_227"], enemy_hand=[CROC])
    croc, strike = g.players[0].hand
    assert g.cost_of(0, croc) == 2 + 3
    assert g.cost_of(0, strike) == 1
    assert g.cost_of(1, g.players[1].hand[0]) == 2
    g.destroy(minion(g, 0, "CS2_227"))
    g.resolve()
    assert g.cost_of(0, croc) == 2


@covers("NEW1_041")
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_stampeding_kodo_destroys_a_random_weak_enemy(seed):
    g = make_game(hand=["NEW1_041"], board=[WISP], enemy_board=[WISP, RAPTOR, CROC, YETI],
                  seed=seed)
    play(g, "NEW1_041")
    left = sorted(m.cdef.id for m in g.players[1].board)
    assert left in (sorted([RAPTOR, CROC, YETI]), sorted([WISP, RAPTOR, YETI]))
    assert [m.cdef.id for m in g.players[0].board] == [WISP, "NEW1_041"]


@covers("NEW1_041")
def test_stampeding_kodo_does_nothing_without_a_weak_enemy():
    g = make_game(hand=["NEW1_041"], enemy_board=[RAPTOR, YETI])
    play(g, "NEW1_041")
    assert len(g.players[1].board) == 2


@covers("EX1_284")
def test_azure_drake_draws_and_adds_spell_damage():
    g = make_game(hand=["EX1_284", "CS2_075"])
    play(g, "EX1_284")
    assert len(g.players[0].hand) == 2 and len(g.players[0].deck) == 19
    play(g, "CS2_075")
    assert g.players[1].hero.health == 30 - 4


@covers("EX1_577", "EX1_finkle")
def test_the_beast_gives_the_opponent_finkle_einhorn():
    g = make_game(board=["EX1_577"], enemy_board=[CROC])
    g.destroy(minion(g, 0, "EX1_577"))
    g.resolve()
    finkle = minion(g, 1, "EX1_finkle")
    assert (finkle.atk, finkle.health) == (3, 3)
    assert not g.players[0].board


@covers("EX1_095")
def test_gadgetzan_auctioneer_draws_on_its_owners_spells_only():
    g = make_game(hand=["CS2_075", CROC], board=["EX1_095"], enemy_hand=["CS2_075"])
    play(g, "CS2_075")
    assert len(g.players[0].hand) == 2  # the spell left, a card came in
    play(g, CROC)
    assert len(g.players[0].hand) == 1  # minions do not draw
    end_turn(g)
    before = len(g.players[0].hand)
    play(g, "CS2_075")
    assert len(g.players[0].hand) == before


@covers("CS2_213", "EX1_067")
def test_charge_minions_attack_at_once_and_commander_keeps_its_shield():
    g = make_game(hand=["CS2_213", "EX1_067"], enemy_board=[CROC])
    play(g, "CS2_213")
    attack(g, minion(g, 0, "CS2_213"), g.players[1].hero)
    assert g.players[1].hero.health == 25
    g.players[0].mana = 10
    play(g, "EX1_067")
    commander = minion(g, 0, "EX1_067")
    attack(g, commander, minion(g, 1, CROC))
    assert commander.health == 2 and not commander.divine_shield
    assert not g.players[1].board


@covers("EX1_032")
def test_sunwalker_has_taunt_and_divine_shield():
    g = make_game(hand=["EX1_032"], enemy_board=[OGRE, CROC])
    play(g, "EX1_032")
    sun = minion(g, 0, "EX1_032")
    end_turn(g)
    assert attack_targets(g, minion(g, 1, CROC)) == {sun.uid}
    attack(g, minion(g, 1, OGRE), sun)
    assert sun.health == 5 and not sun.divine_shield


@covers("EX1_002")
def test_the_black_knight_destroys_only_an_enemy_taunt():
    g = make_game(hand=["EX1_002", "EX1_002"], board=["CS2_187"],
                  enemy_board=[YETI, "CS1_069"])
    creeper = minion(g, 1, "CS1_069")
    assert play_targets(g, "EX1_002") == {creeper.uid}
    play(g, "EX1_002", creeper)
    assert [m.cdef.id for m in g.players[1].board] == [YETI]
    g.players[0].mana = 10
    play(g, "EX1_002")  # no enemy Taunt left: played without a target
    assert len(g.players[1].board) == 1 and len(g.players[0].board) == 3


@covers("EX1_614", "EX1_614t")
def test_illidan_summons_a_flame_whenever_its_owner_plays_a_card():
    g = make_game(hand=["EX1_614", CROC, "CS2_075"], board=[WISP], enemy_hand=["CS2_075"])
    play(g, "EX1_614")
    assert [m.cdef.id for m in g.players[0].board] == [WISP, "EX1_614"]  # not for itself
    play(g, CROC)
    assert sorted(m.cdef.id for m in g.players[0].board) == sorted(
        [WISP, "EX1_614", "EX1_614t", CROC])
    play(g, "CS2_075")
    flames = [m for m in g.players[0].board if m.cdef.id == "EX1_614t"]
    assert len(flames) == 2 and (flames[0].atk, flames[0].health) == (2, 1)
    end_turn(g)
    play(g, "CS2_075")
    assert len(g.players[0].board) == 5  # the opponent's cards do not count


@covers("EX1_614")
def test_illidan_leaves_room_for_the_minion_being_played():
    g = make_game(hand=[CROC], board=["EX1_614"] + [WISP] * 5)
    play(g, CROC)
    assert len(g.players[0].board) == 7
    assert minion(g, 0, CROC)
    assert not [m for m in g.players[0].board if m.cdef.id == "EX1_614t"]


@covers("EX1_583")
def test_priestess_of_elune_restores_four_to_her_hero():
    g = make_game(hand=["EX1_583", "EX1_583"])
    g.players[0].hero.health = 20
    g.players[1].hero.health = 20
    play(g, "EX1_583")
    assert g.players[0].hero.health == 24 and g.players[1].hero.health == 20
    g.players[0].mana = 10
    g.players[0].hero.health = 28
    play(g, "EX1_583")
    assert g.players[0].hero.health == 30


@covers("CS2_222")
def test_stormwind_champion_buffs_other_friendly_minions_while_alive():
    g = make_game(hand=["CS2_222"], board=[CROC], enemy_board=[RAPTOR])
    play(g, "CS2_222")
    croc, champ, raptor = minion(g, 0, CROC), minion(g, 0, "CS2_222"), minion(g, 1, RAPTOR)
    assert (croc.atk, croc.health) == (3, 4)
    assert (champ.atk, champ.health) == (6, 6)
    assert (raptor.atk, raptor.health) == (3, 2)
    croc.damage = 3  # 1 health left of 4
    g.silence(champ)
    g.resolve()
    assert (croc.atk, croc.health) == (2, 1)  # the lost aura takes away health, not life


@covers("EX1_249")
def test_baron_geddon_burns_all_other_characters_at_its_owners_turn_end():
    g = make_game(board=["EX1_249", YETI], enemy_board=[RAPTOR, OGRE])
    end_turn(g)
    geddon = minion(g, 0, "EX1_249")
    assert geddon.health == 5
    assert minion(g, 0, YETI).health == 3
    assert minion(g, 1, OGRE).health == 5
    assert [m.cdef.id for m in g.players[1].board] == [OGRE]
    assert g.players[0].hero.health == 28 and g.players[1].hero.health == 28
    end_turn(g)  # the opponent's turn end: nothing
    assert minion(g, 1, OGRE).health == 5 and g.players[0].hero.health == 28


@covers("CS2_161")
def test_ravenholdt_assassin_is_stealthed_until_it_attacks():
    g = make_game(hand=["CS2_161"], enemy_board=[CROC], enemy_hand=["CS2_150"])
    play(g, "CS2_161")
    assassin = minion(g, 0, "CS2_161")
    end_turn(g)
    assert assassin.uid not in attack_targets(g, minion(g, 1, CROC))
    assert assassin.uid not in play_targets(g, "CS2_150")
    end_turn(g)
    attack(g, assassin, g.players[1].hero)
    assert not assassin.stealth and g.players[1].hero.health == 23


@covers("EX1_561")
def test_alexstrasza_sets_a_heros_health_to_fifteen():
    g = make_game(hand=["EX1_561", "EX1_561"])
    g.players[1].hero.armor = 3
    play(g, "EX1_561", g.players[1].hero)
    assert g.players[1].hero.health == 15 and g.players[1].hero.armor == 3
    g.players[0].mana = 10
    g.players[0].hero.health = 6
    play(g, "EX1_561", g.players[0].hero)
    assert g.players[0].hero.health == 15


@covers("EX1_562", "ds1_whelptoken")
def test_onyxia_fills_the_board_with_whelps_around_her():
    g = make_game(hand=["EX1_562"], board=[CROC, RAPTOR])
    play(g, "EX1_562")
    ids = [m.cdef.id for m in g.players[0].board]
    assert len(ids) == 7 and ids.count("ds1_whelptoken") == 4
    assert ids[:2] == [CROC, RAPTOR]
    assert ids[4] == "EX1_562"  # two whelps on each side
    assert all(m.atk == 1 and m.health == 1 for m in g.players[0].board if m.cdef.id == "ds1_whelptoken")


# ------------------------------------------------------------------ Rogue
@covers("EX1_131", "EX1_131t")
def test_defias_ringleader_summons_a_bandit_only_with_combo():
    g = make_game(hand=["EX1_131", "EX1_131", COIN])
    play(g, "EX1_131")
    assert [m.cdef.id for m in g.players[0].board] == ["EX1_131"]
    play(g, "EX1_131")
    ids = [m.cdef.id for m in g.players[0].board]
    assert ids == ["EX1_131", "EX1_131", "EX1_131t"]  # the bandit on its right
    bandit = minion(g, 0, "EX1_131t")
    assert (bandit.atk, bandit.health) == (2, 1)


@covers("EX1_522")
def test_patient_assassin_is_stealthed_and_poisonous():
    g = make_game(hand=["EX1_522"], enemy_board=[OGRE])
    play(g, "EX1_522")
    assassin = minion(g, 0, "EX1_522")
    assert assassin.stealth
    end_turn(g)
    assert assassin.uid not in attack_targets(g, minion(g, 1, OGRE))
    end_turn(g)
    attack(g, assassin, minion(g, 1, OGRE))
    assert not g.players[1].board and not g.players[0].board


@covers("NEW1_014")
def test_master_of_disguise_stealth_lasts_until_its_owners_next_turn():
    g = make_game(hand=["NEW1_014"], board=[YETI], enemy_board=[CROC])
    yeti = minion(g, 0, YETI)
    assert play_targets(g, "NEW1_014") == {yeti.uid}
    play(g, "NEW1_014", yeti)
    assert yeti.stealth
    end_turn(g)
    assert yeti.uid not in attack_targets(g, minion(g, 1, CROC))
    end_turn(g)
    assert not yeti.stealth


@covers("EX1_191")
def test_plaguebringer_makes_a_friendly_minion_poisonous():
    g = make_game(hand=["EX1_191"], board=[WISP], enemy_board=[OGRE])
    wisp = minion(g, 0, WISP)
    assert play_targets(g, "EX1_191") == {wisp.uid}
    play(g, "EX1_191", wisp)
    assert wisp.poisonous
    attack(g, wisp, minion(g, 1, OGRE))
    assert not g.players[1].board


@covers("NEW1_005")
def test_kidnapper_returns_a_minion_to_its_owners_hand_with_combo():
    g = make_game(hand=["NEW1_005", "NEW1_005", COIN], board=[CROC], enemy_board=[OGRE])
    play(g, "NEW1_005")  # no combo: no target, nothing returned
    assert len(g.players[1].board) == 1
    ogre = minion(g, 1, OGRE)
    g.players[0].mana = 10
    play(g, "NEW1_005", ogre)
    assert not g.players[1].board
    assert [c.cdef.id for c in g.players[1].hand] == [OGRE]
    g2 = make_game(hand=[COIN, "NEW1_005"], board=[CROC])
    play(g2, COIN)
    play(g2, "NEW1_005", minion(g2, 0, CROC))
    assert [c.cdef.id for c in g2.players[0].hand] == [CROC]


@covers("CS2_075")
def test_sinister_strike_hits_the_enemy_hero_with_spell_damage():
    g = make_game(hand=["CS2_075", "CS2_075"], board=["CS2_142"])  # Kobold Geomancer
    play(g, "CS2_075")
    assert g.players[1].hero.health == 26
    g.silence(minion(g, 0, "CS2_142"))
    play(g, "CS2_075")
    assert g.players[1].hero.health == 23


@covers("EX1_182")
@pytest.mark.parametrize("opponent", ["HUNTER", "PALADIN", "WARLOCK"])
def test_pilfer_adds_a_card_of_the_opponents_class(opponent):
    g = make_game(hand=["EX1_182"] * 6, classes=("ROGUE", opponent))
    for _ in range(6):
        play(g, "EX1_182")
    got = [c.cdef for c in g.players[0].hand]
    assert len(got) == 6
    for cdef in got:
        assert cdef.collectible and cdef.implemented and cdef.card_class == opponent
        assert cdef.type in ("MINION", "SPELL", "WEAPON")
    assert len({c.id for c in got}) > 1


@covers("EX1_182")
def test_pilfer_played_by_another_class_gives_a_card_of_its_opponents_class():
    g = make_game(hand=["EX1_182"] * 4, classes=("HUNTER", "ROGUE"))
    for _ in range(4):
        play(g, "EX1_182")
    assert {c.cdef.card_class for c in g.players[0].hand} == {"ROGUE"}


@covers("EX1_126")
def test_betrayal_makes_an_enemy_minion_hit_its_neighbours():
    g = make_game(hand=["EX1_126", "EX1_126"], board=[CROC], enemy_board=[RAPTOR, YETI, OGRE])
    yeti = minion(g, 1, YETI)
    assert yeti.uid in play_targets(g, "EX1_126")
    assert minion(g, 0, CROC).uid not in play_targets(g, "EX1_126")
    play(g, "EX1_126", yeti)
    assert yeti.health == 5
    assert minion(g, 1, OGRE).health == 3
    assert [m.cdef.id for m in g.players[1].board] == [YETI, OGRE]
    assert g.players[1].hero.health == 30


@covers("EX1_137")
def test_headcrack_returns_at_the_end_of_the_turn_only_with_combo():
    g = make_game(hand=["EX1_137"])
    play(g, "EX1_137")
    assert g.players[1].hero.health == 28
    end_turn(g)
    end_turn(g)
    assert "EX1_137" not in [c.cdef.id for c in g.players[0].hand]

    g = make_game(hand=[COIN, "EX1_137"], board=["CS2_142"])
    play(g, COIN)
    play(g, "EX1_137")
    assert g.players[1].hero.health == 28  # no Spell Damage in SabberStone
    assert not g.players[0].hand
    end_turn(g)  # back at the end of this turn, as SabberStone does it
    assert [c.cdef.id for c in g.players[0].hand] == ["EX1_137"]
    end_turn(g)
    assert [c.cdef.id for c in g.players[0].hand].count("EX1_137") == 1
    end_turn(g)
    end_turn(g)
    assert [c.cdef.id for c in g.players[0].hand].count("EX1_137") == 1  # only once


@covers("CS2_076")
def test_assassinate_destroys_an_enemy_minion():
    g = make_game(hand=["CS2_076"], board=[CROC], enemy_board=[OGRE])
    assert minion(g, 0, CROC).uid not in play_targets(g, "CS2_076")
    play(g, "CS2_076", minion(g, 1, OGRE))
    assert not g.players[1].board and len(g.players[0].board) == 1


@covers("CS2_077")
def test_sprint_draws_four():
    g = make_game(hand=["CS2_077"])
    play(g, "CS2_077")
    assert len(g.players[0].hand) == 4 and len(g.players[0].deck) == 16


@covers("EX1_133")
def test_perditions_blade_deals_one_even_with_combo():
    g = make_game(hand=["EX1_133"], enemy_board=[YETI])
    yeti = minion(g, 1, YETI)
    play(g, "EX1_133", yeti)
    assert yeti.health == 4
    w = g.players[0].weapon
    assert w.cdef.id == "EX1_133" and (w.atk, w.durability) == (2, 2)

    g = make_game(hand=[COIN, "EX1_133"], enemy_board=[YETI])
    yeti = minion(g, 1, YETI)
    play(g, COIN)
    play(g, "EX1_133", yeti)
    assert yeti.health == 4  # SabberStone never runs a weapon's Combo


@covers("CS2_080")
def test_assassins_blade_is_a_three_four_weapon():
    g = make_game(hand=["CS2_080"])
    play(g, "CS2_080")
    attack(g, g.players[0].hero, g.players[1].hero)
    assert g.players[1].hero.health == 27
    assert g.players[0].weapon.durability == 3


@covers("EX1_586")
def test_sea_giant_costs_one_less_per_other_minion():
    g = make_game(hand=["EX1_586"])
    card = g.player.hand[0]
    assert g.cost_of(0, card) == 10
    g = make_game(hand=["EX1_586"], board=[WISP] * 2, enemy_board=[WISP] * 3)
    assert g.cost_of(0, g.player.hand[0]) == 5
    play(g, "EX1_586")
    assert g.player.mana == 5  # paid the reduced cost
    g = make_game(hand=["EX1_586"], board=[WISP] * 7, enemy_board=[WISP] * 5, mana=0)
    assert g.cost_of(0, g.player.hand[0]) == 0  # never below (0)
    with pytest.raises(IllegalActionError):
        play(g, "EX1_586")  # the board is full


# ------------------------------------------------------------------ helper C: neutral legendaries
@covers("PRO_001")
def test_elite_tauren_chieftain_gives_both_players_a_power_chord():
    chords = {"PRO_001a", "PRO_001b", "PRO_001c"}
    seen = set()
    for seed in range(10):
        g = make_game(hand=["PRO_001"], seed=seed)
        play(g, "PRO_001")
        (mine,) = hand_ids(g, 0)
        theirs = hand_ids(g, 1)[-1]
        assert {mine, theirs} <= chords
        seen |= {mine, theirs}
    assert seen == chords


@covers("PRO_001a", "PRO_001b", "PRO_001c", "PRO_001at")
def test_power_chords_do_what_they_say():
    counts = set()
    for seed in range(12):
        g = make_game(hand=["PRO_001a"], seed=seed)
        play(g, "PRO_001a")
        assert {m.cdef.id for m in g.players[0].board} == {"PRO_001at"}
        assert all((m.atk, m.health) == (1, 1) for m in g.players[0].board)
        counts.add(len(g.players[0].board))
    assert counts == {3, 4, 5}
    g = make_game(hand=["PRO_001b"], enemy_board=[YETI])
    play(g, "PRO_001b", minion(g, 1, YETI))
    assert minion(g, 1, YETI).health == 1 and len(g.players[0].hand) == 1
    warriors = set()
    for seed in range(20):
        g = make_game(hand=["PRO_001c"], seed=seed)
        play(g, "PRO_001c")
        warriors.add(g.players[0].board[0].cdef.id)
    assert warriors == {"CS2_121", "EX1_021", "EX1_023", "EX1_110", "EX1_390", "CS2_179"}


@covers("EX1_016")
def test_sylvanas_takes_a_random_enemy_minion_when_she_dies():
    g = make_game(board=["EX1_016"], enemy_board=[CROC, YETI])
    g.destroy(minion(g, 0, "EX1_016"))
    g.resolve()
    assert len(g.players[0].board) == 1 and len(g.players[1].board) == 1
    taken = set()
    for seed in range(8):
        g = make_game(board=["EX1_016"], enemy_board=[CROC, YETI], seed=seed)
        g.destroy(minion(g, 0, "EX1_016"))
        g.resolve()
        taken.add(g.players[0].board[0].cdef.id)
    assert taken == {CROC, YETI}
    g = make_game(board=["EX1_016"])  # nothing to take
    g.silence(minion(g, 0, "EX1_016"))
    g.summon(1, CROC)
    g.destroy(minion(g, 0, "EX1_016"))
    g.resolve()
    assert g.players[0].board == [] and len(g.players[1].board) == 1  # silenced: no deathrattle


@covers("EX1_298")
def test_ragnaros_cannot_attack_and_hits_a_random_enemy_for_eight():
    g = make_game(board=["EX1_298"], enemy_board=[OGRE])
    rag = minion(g, 0, "EX1_298")
    assert not attack_targets(g, rag)
    hits = set()
    for seed in range(10):
        g = make_game(board=["EX1_298"], enemy_board=[OGRE], seed=seed)
        end_turn(g)
        hits.add("hero" if g.players[1].hero.health == 22 else "ogre")
        assert g.players[1].hero.health == 22 or not g.players[1].board
        health = g.players[1].hero.health
        end_turn(g)  # nothing at the end of the enemy's turn
        assert g.players[1].hero.health == health
    assert hits == {"hero", "ogre"}


@covers("EX1_112", "Mekka1", "Mekka2", "Mekka3", "Mekka4")
def test_gelbin_summons_a_random_invention():
    seen = set()
    for seed in range(16):
        g = make_game(hand=["EX1_112"], seed=seed)
        play(g, "EX1_112")
        assert [m.cdef.id for m in g.players[0].board][0] == "EX1_112"
        seen.add(g.players[0].board[1].cdef.id)
    assert seen == {"Mekka1", "Mekka2", "Mekka3", "Mekka4"}


def test_homing_chicken_dies_and_draws_three_at_my_turn_start():
    g = make_game(board=["Mekka1"])
    end_turn(g)
    assert g.players[0].board[0].cdef.id == "Mekka1"
    hand = len(g.players[0].hand)
    end_turn(g)
    assert g.players[0].board == [] and len(g.players[0].hand) == hand + 4  # 3 + the turn's draw


def test_repair_bot_heals_a_damaged_character_by_six():
    g = make_game(board=["Mekka2"], enemy_board=[OGRE])
    g.players[0].hero.health = 20
    end_turn(g)
    assert g.players[0].hero.health == 26
    g.players[0].hero.health = 30
    minion(g, 1, OGRE).damage = 3
    end_turn(g)
    end_turn(g)
    assert minion(g, 1, OGRE).health == 7  # the only damaged character


def test_emboldener_gives_a_random_minion_one_one():
    g = make_game(board=["Mekka3"], enemy_board=[CROC])
    end_turn(g)
    stats = sorted((m.atk, m.health) for m in g.minions())
    assert stats in ([(0, 4), (3, 4)], [(1, 5), (2, 3)])


@covers("Mekka4t")
def test_poultryizer_turns_a_random_minion_into_a_chicken_at_my_turn_start():
    g = make_game(board=["Mekka4"], enemy_board=[OGRE])
    end_turn(g)
    end_turn(g)
    ids = sorted(m.cdef.id for m in g.minions())
    assert "Mekka4t" in ids and len(ids) == 2
    chicken = next(m for m in g.minions() if m.cdef.id == "Mekka4t")
    assert (chicken.atk, chicken.health, chicken.race) == (1, 1, "BEAST")


@covers("EX1_620")
def test_molten_giant_costs_one_less_per_damage_my_hero_took():
    g = make_game(hand=["EX1_620"])
    card = g.players[0].hand[0]
    assert g.cost_of(0, card) == 20
    g.players[0].hero.health = 12
    assert g.cost_of(0, card) == 2
    g.players[0].hero.health = 5
    assert g.cost_of(0, card) == 0
    play(g, "EX1_620")
    assert minion(g, 0, "EX1_620").health == 8


def start(deck, hero_class, seed=3):
    """A real game start with `deck` for player 0 (Start of Game effects run in new_game)."""
    lib = library()
    return new_game(lib, [deck, [CROC] * 30], [hero_class, "HUNTER"], seed)


@covers("GIL_692")
def test_genn_greymane_makes_the_starting_hero_power_cost_one_with_an_even_deck():
    g = start(["GIL_692"] + [CROC] * 29, "PALADIN")  # costs 6 and 2
    power = g.players[0].hero.power
    assert power.id == "CS2_101" and power.cost == 1
    assert g.players[1].hero.power.cost == 2
    g = start(["GIL_692"] + [CROC] * 28 + [WISP], "PALADIN")  # 0 is even too
    assert g.players[0].hero.power.cost == 1
    g = start(["GIL_692"] + [CROC] * 28 + ["CS2_168"], "PALADIN")  # one odd card
    assert g.players[0].hero.power.cost == 2
    g = start([CROC] * 30, "PALADIN")  # no Genn
    assert g.players[0].hero.power.cost == 2


@covers("GIL_826")
@pytest.mark.parametrize("hero_class,upgraded", [
    ("ROGUE", "AT_132_ROGUE"), ("HUNTER", "AT_132_HUNTER"), ("PALADIN", "AT_132_PALADIN"),
    ("WARLOCK", "AT_132_WARLOCK"), ("WARRIOR", "AT_132_WARRIOR"), ("MAGE", "AT_132_MAGE"),
    ("PRIEST", "AT_132_PRIEST"), ("DRUID", "AT_132_DRUID"), ("SHAMAN", "AT_132_SHAMAN")])
def test_baku_upgrades_the_hero_power_with_an_odd_deck(hero_class, upgraded):
    odd = ["GIL_826"] + ["CS2_168"] * 29  # costs 9 and 1
    assert start(odd, hero_class).players[0].hero.power.id == upgraded
    assert start(odd[:-1] + [CROC], hero_class).players[0].hero.power.id != upgraded


def powered(power_id, **kw):
    g = make_game(**kw)
    g.players[0].hero.power = g.library[power_id]
    return g


@covers("AT_132_WARRIOR", "AT_132_SHAMAN", "AT_132_ROGUE", "AT_132_ROGUEt", "AT_132_PALADIN",
        "AT_132_HUNTER", "AT_132_DRUID", "AT_132_WARLOCK", "AT_132_MAGE", "AT_132_PRIEST",
        "CS2_050", "CS2_051", "CS2_052", "NEW1_009")
def test_upgraded_hero_powers_do_what_they_say():
    g = powered("AT_132_WARRIOR")
    hero_power(g)
    assert g.players[0].hero.armor == 4 and g.players[0].mana == 8
    totems = set()
    for seed in range(12):
        g = powered("AT_132_SHAMAN", seed=seed)
        hero_power(g)
        (totem,) = g.players[0].board
        totems.add(totem.cdef.id)
    assert totems == {"CS2_050", "CS2_051", "CS2_052", "NEW1_009"}
    g = powered("AT_132_ROGUE")
    hero_power(g)
    w = g.players[0].weapon
    assert w.cdef.id == "AT_132_ROGUEt" and (w.atk, w.durability) == (2, 2)
    g = powered("AT_132_PALADIN")
    hero_power(g)
    assert [m.cdef.id for m in g.players[0].board] == ["CS2_101t", "CS2_101t"]
    g = powered("AT_132_HUNTER")
    hero_power(g)
    assert g.players[1].hero.health == 27
    g = powered("AT_132_DRUID", enemy_board=[OGRE])
    hero_power(g)
    hero = g.players[0].hero
    assert hero.armor == 2
    attack(g, hero, g.players[1].hero)
    assert g.players[1].hero.health == 28
    g = powered("AT_132_WARLOCK")
    hero_power(g)
    assert len(g.players[0].hand) == 1 and g.players[0].hero.health == 30
    g = powered("AT_132_MAGE", enemy_board=[CROC])
    hero_power(g, minion(g, 1, CROC))
    assert minion(g, 1, CROC).health == 1
    g = powered("AT_132_PRIEST")
    g.players[0].hero.health = 20
    hero_power(g, g.players[0].hero)
    assert g.players[0].hero.health == 24


@covers("NEW1_009")
def test_healing_totem_restores_one_to_each_friendly_minion_at_my_end_of_turn():
    g = make_game(board=["NEW1_009", YETI], enemy_board=[OGRE])
    minion(g, 0, YETI).damage = 3
    minion(g, 1, OGRE).damage = 3
    end_turn(g)
    assert minion(g, 0, YETI).health == 3 and minion(g, 1, OGRE).health == 4
    end_turn(g)  # not at the end of the enemy's turn
    assert minion(g, 0, YETI).health == 3
