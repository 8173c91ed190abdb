"""Tests of the classic Rogue, Warlock, Paladin and Hunter cards and the Basic hero powers."""
import pytest

from workers.engine.actions import ATTACK, HERO_POWER, PLAY
from workers.engine.entities import Card
from workers.errors import IllegalActionError
from ..scenario import (attack, board_ids, can_play, covers, end_turn, hand_ids, hero_power,
                        make_game, minion, play)

CROC, RAPTOR, FOOTMAN, YETI = "CS2_120", "CS2_172", "CS1_042", "CS2_182"  # croc/raptor: Beasts
KOBOLD = "CS2_142"  # Kobold Geomancer, Spell Damage +1
AXE = "CS2_106"  # Fiery War Axe, 3/2


# ---------------------------------------------------------------- Rogue
@covers("EX1_613")
def test_edwin_gains_two_two_per_other_card_played_this_turn():
    g = make_game(hand=["EX1_613"])
    play(g, "EX1_613")
    edwin = minion(g, 0, "EX1_613")
    assert (edwin.atk, edwin.health) == (2, 2)  # no combo

    g = make_game(hand=["GAME_005", "EX1_145", "EX1_613"], mana=3)
    play(g, "GAME_005")
    play(g, "EX1_145")
    play(g, "EX1_613")
    edwin = minion(g, 0, "EX1_613")
    assert (edwin.atk, edwin.health) == (6, 6)


@covers("EX1_145")
def test_preparation_makes_only_the_next_spell_this_turn_cheaper():
    g = make_game(hand=["EX1_145", "EX1_581", "EX1_581", CROC], enemy_board=[CROC, RAPTOR], mana=4)
    play(g, "EX1_145")
    sap = g.player.hand[0]
    assert g.cost_of(0, sap) == 0
    assert g.cost_of(0, g.player.hand[2]) == 2  # minions are not discounted
    play(g, "EX1_581", minion(g, 1, CROC))
    assert g.player.mana == 4
    assert g.cost_of(0, g.player.hand[0]) == 2  # used up by the first spell

    g = make_game(hand=["EX1_145", "EX1_581"], mana=4)
    play(g, "EX1_145")
    end_turn(g)
    end_turn(g)
    assert g.cost_of(0, g.player.hand[0]) == 2  # lost at the end of the turn


@covers("EX1_144")
def test_shadowstep_returns_a_friendly_minion_that_costs_two_less():
    g = make_game(hand=["EX1_144", CROC], board=[YETI], enemy_board=[RAPTOR], mana=0)
    yeti = minion(g, 0, YETI)
    g.buff(yeti, 2, 2)
    with pytest.raises(IllegalActionError):
        play(g, "EX1_144", minion(g, 1, RAPTOR))  # friendly minions only
    play(g, "EX1_144", yeti)
    assert not g.players[0].board
    assert hand_ids(g) == [CROC, YETI]
    returned = g.player.hand[1]
    assert g.cost_of(0, returned) == 2
    g.player.mana = 2
    play(g, YETI)
    fresh = minion(g, 0, YETI)
    assert (fresh.atk, fresh.health) == (4, 5)  # enchantments are gone


@covers("EX1_144")
def test_shadowstep_discount_is_the_card_s_own_and_floors_at_zero():
    g = make_game(hand=[CROC, "EX1_144"], board=[CROC], mana=0)
    play(g, "EX1_144", minion(g, 0, CROC))
    assert [g.cost_of(0, c) for c in g.player.hand] == [2, 0]
    # The discounted copy is playable even though an identical full-price copy comes first.
    play_actions = [a for a in g.legal_actions() if a.kind == PLAY]
    assert [g.player.hand[a.index].cost_mod for a in play_actions] == [-2]
    g.apply(play_actions[0])
    assert board_ids(g) == [CROC] and hand_ids(g) == [CROC]


@covers("CS2_074")
def test_deadly_poison_needs_a_weapon_and_gives_it_two_attack():
    g = make_game(hand=["CS2_074"])
    assert not can_play(g, "CS2_074")
    hero_power(g)  # Dagger Mastery: 1/2
    play(g, "CS2_074")
    assert g.players[0].weapon.atk == 3
    attack(g, g.players[0].hero, g.players[1].hero)
    assert g.players[1].hero.health == 27
    end_turn(g)
    end_turn(g)
    assert g.players[0].weapon.atk == 3  # permanent


@covers("EX1_128")
def test_conceal_gives_stealth_until_the_next_turn():
    g = make_game(hand=["EX1_128"], board=[CROC, "EX1_010"], enemy_board=[RAPTOR])
    croc, worgen = minion(g, 0, CROC), minion(g, 0, "EX1_010")
    play(g, "EX1_128")
    assert croc.stealth and worgen.stealth
    end_turn(g)
    raptor = minion(g, 1, RAPTOR)
    targets = {a.target for a in g.legal_actions() if a.kind == ATTACK and a.index == raptor.uid}
    assert targets == {g.players[0].hero.uid}
    end_turn(g)
    assert not croc.stealth  # worn off at the start of my next turn
    assert not worgen.stealth  # SabberStone: its own Stealth goes too


@covers("EX1_124")
def test_eviscerate_deals_two_or_four_with_combo_and_no_spell_damage():
    g = make_game(hand=["EX1_124", "EX1_124"])
    enemy = g.players[1].hero
    play(g, "EX1_124", enemy)
    assert enemy.health == 28
    play(g, "EX1_124", enemy)
    assert enemy.health == 24

    g = make_game(hand=["EX1_124"], board=[KOBOLD])
    play(g, "EX1_124", g.players[1].hero)
    assert g.players[1].hero.health == 28  # SabberStone adds no Spell Damage


@covers("EX1_581")
def test_sap_returns_an_enemy_minion_to_its_owner_s_hand():
    g = make_game(hand=["EX1_581"], board=[CROC], enemy_board=[YETI])
    with pytest.raises(IllegalActionError):
        play(g, "EX1_581", minion(g, 0, CROC))
    n = len(g.players[1].hand)
    play(g, "EX1_581", minion(g, 1, YETI))
    assert not g.players[1].board
    assert len(g.players[1].hand) == n + 1 and g.players[1].hand[-1].cdef.id == YETI
    assert board_ids(g) == [CROC]


@covers("EX1_278")
def test_shiv_deals_one_and_draws():
    g = make_game(hand=["EX1_278"], enemy_board=[RAPTOR])
    raptor = minion(g, 1, RAPTOR)
    play(g, "EX1_278", raptor)
    assert raptor.health == 1
    assert len(g.player.hand) == 1 and len(g.player.deck) == 19


@covers("CS2_073")
def test_cold_blood_gives_two_attack_or_four_with_combo():
    g = make_game(hand=["CS2_073", "CS2_073"], board=[CROC])
    croc = minion(g, 0, CROC)
    play(g, "CS2_073", croc)
    assert (croc.atk, croc.health) == (4, 3)
    play(g, "CS2_073", croc)
    assert (croc.atk, croc.health) == (8, 3)


@covers("EX1_129")
def test_fan_of_knives_hits_every_enemy_minion_and_draws():
    g = make_game(hand=["EX1_129"], board=[CROC, KOBOLD], enemy_board=[RAPTOR, YETI])
    play(g, "EX1_129")
    assert board_ids(g, 1) == [YETI]  # 1 + 1 spell damage kills the 3/2
    assert minion(g, 1, YETI).health == 3
    assert minion(g, 0, CROC).health == 3 and g.players[1].hero.health == 30
    assert len(g.player.hand) == 1


@covers("CS2_233")
def test_blade_flurry_destroys_the_weapon_and_deals_its_damage_to_enemy_minions():
    g = make_game(hand=["CS2_233"], board=[CROC], enemy_board=[RAPTOR, YETI])
    assert not can_play(g, "CS2_233")
    hero_power(g)
    g.players[0].weapon.atk = 3
    play(g, "CS2_233")
    assert g.players[0].weapon is None
    assert board_ids(g, 1) == [YETI] and minion(g, 1, YETI).health == 2
    assert g.players[1].hero.health == 30 and minion(g, 0, CROC).health == 3

    g = make_game(hand=[AXE, "CS2_233"], board=[KOBOLD], enemy_board=[YETI])
    play(g, AXE)
    play(g, "CS2_233")
    assert minion(g, 1, YETI).health == 1  # 3 + 1 spell damage


# ---------------------------------------------------------------- Warlock
@covers("EX1_306")
def test_felstalker_discards_one_random_card():
    kept = set()
    for seed in (1, 2, 3, 4):
        g = make_game(hand=["EX1_306", CROC, YETI, RAPTOR], seed=seed, classes=("WARLOCK", "HUNTER"))
        play(g, "EX1_306")
        assert len(g.player.hand) == 2
        assert set(hand_ids(g)) < {CROC, YETI, RAPTOR}
        kept.add(tuple(hand_ids(g)))
        assert (minion(g, 0, "EX1_306").atk, minion(g, 0, "EX1_306").health) == (4, 3)
    assert len(kept) > 1  # the discard is random


@covers("EX1_304")
def test_void_terror_eats_both_neighbours_and_only_two():
    g = make_game(hand=["EX1_304"], board=[CROC, YETI, FOOTMAN])
    yeti = minion(g, 0, YETI)
    yeti.damage = 2
    play(g, "EX1_304", position=2)  # between the Yeti and the Footman
    assert board_ids(g) == [CROC, "EX1_304"]
    terror = minion(g, 0, "EX1_304")
    assert (terror.atk, terror.health) == (3 + 4 + 1, 3 + 5 + 2)  # maximum Health, as SabberStone
    assert minion(g, 0, CROC).health == 3

    g = make_game(hand=["EX1_304"], board=[CROC])
    play(g, "EX1_304", position=0)
    terror = minion(g, 0, "EX1_304")  # SabberStone: with one neighbour nothing happens
    assert board_ids(g) == ["EX1_304", CROC] and (terror.atk, terror.health) == (3, 3)


@covers("EX1_310")
def test_doomguard_charges_and_discards_two():
    g = make_game(hand=["EX1_310", CROC, YETI, RAPTOR], classes=("WARLOCK", "HUNTER"))
    play(g, "EX1_310")
    assert len(g.player.hand) == 1
    guard = minion(g, 0, "EX1_310")
    attack(g, guard, g.players[1].hero)
    assert g.players[1].hero.health == 25


@covers("EX1_302")
def test_mortal_coil_draws_only_if_it_kills():
    g = make_game(hand=["EX1_302", "EX1_302"], enemy_board=[CROC, "EX1_010"])
    play(g, "EX1_302", minion(g, 1, CROC))
    assert minion(g, 1, CROC).health == 2 and len(g.player.hand) == 1
    g.players[1].board[1].stealth = False
    play(g, "EX1_302", minion(g, 1, "EX1_010"))
    assert board_ids(g, 1) == [CROC] and len(g.player.hand) == 1  # drew a card
    assert len(g.player.deck) == 19


@covers("EX1_309")
def test_siphon_soul_destroys_a_minion_and_heals_three():
    g = make_game(hand=["EX1_309"], enemy_board=[YETI])
    g.players[0].hero.health = 20
    play(g, "EX1_309", minion(g, 1, YETI))
    assert not g.players[1].board
    assert g.players[0].hero.health == 23


# ---------------------------------------------------------------- Paladin
@covers("EX1_383", "EX1_383t")
def test_tirion_has_shield_and_taunt_and_leaves_an_ashbringer():
    g = make_game(board=[YETI], enemy_board=["EX1_383"], classes=("ROGUE", "PALADIN"))
    tirion = minion(g, 1, "EX1_383")
    assert tirion.divine_shield and tirion.taunt
    assert {a.target for a in g.legal_actions() if a.kind == ATTACK} == {tirion.uid}
    attack(g, minion(g, 0, YETI), tirion)
    assert tirion.health == 6 and not tirion.divine_shield
    g.damage(None, tirion, 6)
    g.resolve()
    w = g.players[1].weapon
    assert w.cdef.id == "EX1_383t" and (w.atk, w.durability) == (5, 3)
    assert g.players[0].weapon is None


@covers("EX1_132")
def test_eye_for_an_eye_reflects_damage_to_my_hero():
    g = make_game(hand=["EX1_132"], enemy_board=[YETI, CROC], classes=("PALADIN", "HUNTER"))
    play(g, "EX1_132")
    end_turn(g)
    attack(g, minion(g, 1, CROC), g.players[0].hero)
    assert g.players[0].hero.health == 28
    assert g.players[1].hero.health == 28
    assert not g.players[0].secrets
    attack(g, minion(g, 1, YETI), g.players[0].hero)  # the secret is spent
    assert g.players[1].hero.health == 28


@covers("EX1_132")
def test_eye_for_an_eye_ignores_damage_to_minions():
    g = make_game(hand=["EX1_132"], board=[FOOTMAN], enemy_board=[CROC], classes=("PALADIN", "HUNTER"))
    play(g, "EX1_132")
    end_turn(g)
    attack(g, minion(g, 1, CROC), minion(g, 0, FOOTMAN))
    assert g.players[1].hero.health == 30 and len(g.players[0].secrets) == 1


@covers("CS2_093")
def test_consecration_hits_all_enemies_only():
    g = make_game(hand=["CS2_093"], board=[RAPTOR, KOBOLD], enemy_board=[YETI, CROC])
    play(g, "CS2_093")
    assert board_ids(g, 1) == [YETI] and minion(g, 1, YETI).health == 2
    assert g.players[1].hero.health == 27
    assert minion(g, 0, RAPTOR).health == 2 and g.players[0].hero.health == 30


@covers("CS2_092")
def test_blessing_of_kings_gives_four_four():
    g = make_game(hand=["CS2_092"], enemy_board=[CROC])
    croc = minion(g, 1, CROC)
    play(g, "CS2_092", croc)
    assert (croc.atk, croc.health, croc.max_health) == (6, 7, 7)


@covers("EX1_384")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_avenging_wrath_splits_eight_among_enemies(seed):
    g = make_game(hand=["EX1_384"], board=[CROC], enemy_board=[FOOTMAN, YETI], seed=seed)
    play(g, "EX1_384")
    survivors = {m.cdef.id for m in g.players[1].board}
    dealt = (30 - g.players[1].hero.health) + sum(m.damage for m in g.players[1].board)
    # A dead minion took exactly its health: missiles never hit a dead character.
    dealt += (2 if FOOTMAN not in survivors else 0) + (5 if YETI not in survivors else 0)
    assert dealt == 8
    assert minion(g, 0, CROC).health == 3 and g.players[0].hero.health == 30


@covers("EX1_384")
def test_avenging_wrath_gets_spell_damage_missiles():
    g = make_game(hand=["EX1_384"], board=[KOBOLD])
    play(g, "EX1_384")
    assert g.players[1].hero.health == 21


@covers("EX1_354")
def test_lay_on_hands_heals_eight_and_draws_three():
    g = make_game(hand=["EX1_354"])
    me = g.players[0].hero
    me.health = 15
    play(g, "EX1_354", me)
    assert me.health == 23
    assert len(g.player.hand) == 3 and len(g.player.deck) == 17


@covers("CS2_091")
def test_lights_justice_is_a_one_four_weapon():
    g = make_game(hand=["CS2_091"], classes=("PALADIN", "HUNTER"))
    play(g, "CS2_091")
    w = g.players[0].weapon
    assert (w.atk, w.durability) == (1, 4)
    attack(g, g.players[0].hero, g.players[1].hero)
    assert g.players[1].hero.health == 29 and w.durability == 3


@covers("CS2_097")
def test_truesilver_heals_the_hero_when_it_attacks():
    g = make_game(hand=["CS2_097"], board=[CROC], enemy_board=[RAPTOR], classes=("PALADIN", "HUNTER"))
    hero = g.players[0].hero
    hero.health = 20
    play(g, "CS2_097")
    attack(g, minion(g, 0, CROC), minion(g, 1, RAPTOR))
    assert hero.health == 20  # minion attacks do not count
    attack(g, hero, g.players[1].hero)
    assert hero.health == 22 and g.players[1].hero.health == 26


@covers("CS2_097")
def test_truesilver_heals_before_the_counter_attack():
    g = make_game(hand=["CS2_097"], enemy_board=[YETI], classes=("PALADIN", "HUNTER"))
    hero = g.players[0].hero
    hero.health = 29
    play(g, "CS2_097")
    attack(g, hero, minion(g, 1, YETI))
    assert hero.health == 26  # capped at 30 by the heal, then 4 damage


# ---------------------------------------------------------------- Hunter
@covers("DS1_175")
def test_timber_wolf_buffs_other_beasts_while_alive():
    g = make_game(hand=["DS1_175"], board=[CROC, FOOTMAN], enemy_board=[RAPTOR])
    play(g, "DS1_175")
    wolf = minion(g, 0, "DS1_175")
    assert minion(g, 0, CROC).atk == 3 and minion(g, 0, FOOTMAN).atk == 1
    assert wolf.atk == 1 and minion(g, 1, RAPTOR).atk == 3
    g.silence(wolf)
    g.resolve()
    assert minion(g, 0, CROC).atk == 2


@covers("EX1_531")
def test_scavenging_hyena_grows_when_a_friendly_beast_dies():
    g = make_game(board=["EX1_531", RAPTOR, FOOTMAN], enemy_board=[YETI, CROC])
    hyena = minion(g, 0, "EX1_531")
    attack(g, minion(g, 0, RAPTOR), minion(g, 1, YETI))
    assert (hyena.atk, hyena.health) == (4, 3)
    attack(g, minion(g, 0, FOOTMAN), minion(g, 1, YETI))  # not a Beast
    assert (hyena.atk, hyena.health) == (4, 3)
    g.destroy(minion(g, 1, CROC))  # an enemy Beast
    g.resolve()
    assert (hyena.atk, hyena.health) == (4, 3)


@covers("DS1_178")
def test_tundra_rhino_gives_beasts_charge():
    g = make_game(hand=["DS1_178", RAPTOR, FOOTMAN], sick=True)
    play(g, "DS1_178")
    play(g, RAPTOR)
    play(g, FOOTMAN)
    rhino, raptor, footman = (minion(g, 0, c) for c in ("DS1_178", RAPTOR, FOOTMAN))
    assert rhino.can_attack() and raptor.can_attack() and not footman.can_attack()
    attack(g, raptor, g.players[1].hero)
    assert g.players[1].hero.health == 27
    g.silence(rhino)
    g.resolve()
    assert rhino.can_attack()  # SabberStone: losing the Charge does not exhaust it again
    g = make_game(hand=[RAPTOR], sick=True)
    play(g, RAPTOR)
    assert not minion(g, 0, RAPTOR).can_attack()  # no Rhino, no Charge


@covers("EX1_543")
def test_king_krush_charges():
    g = make_game(hand=["EX1_543"])
    play(g, "EX1_543")
    attack(g, minion(g, 0, "EX1_543"), g.players[1].hero)
    assert g.players[1].hero.health == 22


@covers("NEW1_031", "NEW1_032", "NEW1_033", "NEW1_034")
def test_animal_companion_summons_one_of_the_three():
    seen = set()
    for seed in range(1, 9):
        g = make_game(hand=["NEW1_031"], board=[FOOTMAN], seed=seed)
        play(g, "NEW1_031")
        assert len(g.players[0].board) == 2
        pet = g.players[0].board[1]
        assert pet.cdef.id in ("NEW1_032", "NEW1_033", "NEW1_034")
        seen.add(pet.cdef.id)
        footman = minion(g, 0, FOOTMAN)
        if pet.cdef.id == "NEW1_032":
            assert pet.taunt and (pet.atk, pet.health) == (4, 4)
        elif pet.cdef.id == "NEW1_033":  # Leokk: other friendly minions +1 Attack
            assert footman.atk == 2 and pet.atk == 2
        else:
            assert pet.can_attack() and (pet.atk, pet.health) == (4, 2)
        if pet.cdef.id != "NEW1_033":
            assert footman.atk == 1
    assert len(seen) >= 2
    g = make_game(hand=["NEW1_031"], board=[FOOTMAN] * 7)
    assert not can_play(g, "NEW1_031")


@covers("NEW1_033")
def test_leokk_aura_ends_with_leokk():
    g = make_game(board=["NEW1_033", FOOTMAN], enemy_board=[CROC])
    assert minion(g, 0, FOOTMAN).atk == 2 and minion(g, 1, CROC).atk == 2
    g.destroy(minion(g, 0, "NEW1_033"))
    g.resolve()
    assert minion(g, 0, FOOTMAN).atk == 1


@covers("EX1_538", "EX1_538t")
def test_unleash_the_hounds_summons_a_charging_hound_per_enemy_minion():
    g = make_game(hand=["EX1_538", "EX1_538"], board=[FOOTMAN] * 4, enemy_board=[CROC, YETI, RAPTOR, "CS2_168"])
    play(g, "EX1_538")
    hounds = [m for m in g.players[0].board if m.cdef.id == "EX1_538t"]
    assert len(hounds) == 3  # the board is full after three
    assert all((h.atk, h.health) == (1, 1) and h.can_attack() for h in hounds)
    attack(g, hounds[0], g.players[1].hero)
    assert g.players[1].hero.health == 29
    assert not can_play(g, "EX1_538")  # no room left

    g = make_game(hand=["EX1_538"])
    assert not can_play(g, "EX1_538")  # needs an enemy minion


@covers("EX1_536")
def test_eaglehorn_bow_gains_durability_when_my_secret_is_revealed():
    g = make_game(hand=["EX1_536", "EX1_554"], enemy_board=[CROC],
                  enemy_hand=["EX1_554"])
    play(g, "EX1_536")
    play(g, "EX1_554")  # Snake Trap
    end_turn(g)
    attack(g, minion(g, 1, CROC), g.players[0].hero)
    assert g.players[0].weapon.durability == 2  # no reveal yet
    g.players[1].mana = 10
    play(g, "EX1_554")
    end_turn(g)
    snakes = [m for m in g.players[0].board if m.cdef.id == "EX1_554t"]
    assert not snakes
    # My turn: the enemy's Snake Trap is revealed by my attack; my Bow does not grow.
    g.players[0].board.clear()
    hero = g.players[0].hero
    g.players[1].board[0].damage = 0
    attack(g, hero, minion(g, 1, CROC))
    w = g.players[0].weapon
    assert w.durability == 1 and not g.players[1].secrets
    end_turn(g)
    # Enemy turn: my Snake Trap is revealed when a minion attacks one of mine.
    g.summon(0, FOOTMAN, announce=False)
    attack(g, g.players[1].board[0], minion(g, 0, FOOTMAN))
    assert not g.players[0].secrets
    assert w.durability == 2


# ---------------------------------------------------------------- hero powers and The Coin
@covers("CS2_083b", "CS2_082")
def test_dagger_mastery_equips_a_one_two_dagger():
    g = make_game(mana=2)
    hero_power(g)
    w = g.players[0].weapon
    assert w.cdef.id == "CS2_082" and (w.atk, w.durability) == (1, 2)
    assert g.player.mana == 0
    attack(g, g.players[0].hero, g.players[1].hero)
    assert g.players[1].hero.health == 29 and w.durability == 1
    with pytest.raises(IllegalActionError):
        hero_power(g)  # once a turn


@covers("DS1h_292")
def test_steady_shot_hits_the_enemy_hero_for_two():
    g = make_game(classes=("HUNTER", "ROGUE"), board=[CROC])
    hero_power(g)
    assert g.players[1].hero.health == 28 and g.players[0].hero.health == 30
    assert g.player.mana == 8


@covers("CS2_101", "CS2_101t")
def test_reinforce_summons_a_recruit_unless_the_board_is_full():
    g = make_game(classes=("PALADIN", "HUNTER"))
    hero_power(g)
    r = minion(g, 0, "CS2_101t")
    assert (r.atk, r.health) == (1, 1)
    g = make_game(classes=("PALADIN", "HUNTER"), board=[FOOTMAN] * 7)
    with pytest.raises(IllegalActionError):
        hero_power(g)


@covers("CS2_056")
def test_life_tap_draws_and_costs_two_health():
    g = make_game(classes=("WARLOCK", "HUNTER"))
    hero_power(g)
    assert g.players[0].hero.health == 28
    assert len(g.player.hand) == 1 and len(g.player.deck) == 19


@covers("GAME_005")
def test_the_coin_gives_one_mana_this_turn_only():
    g = make_game(hand=["GAME_005", "GAME_005"], mana=3)
    play(g, "GAME_005")
    assert g.player.mana == 4 and g.player.max_mana == 3
    g = make_game(hand=["GAME_005"], mana=10)
    play(g, "GAME_005")
    assert g.player.mana == 10


# ---------------------------------------------------------------- helper C: Rogue, Warlock
VOIDWALKER, FLAME_IMP, BLOOD_IMP = "CS2_065", "EX1_319", "CS2_059"  # Demons: 1/3 Taunt, 3/2, 0/1
WISP = "CS2_231"  # 1/1


def warlock_game(**kw):
    return make_game(classes=("WARLOCK", "HUNTER"), **kw)


@covers("NEW1_004")
def test_vanish_returns_every_minion_to_its_owner_s_hand():
    g = make_game(hand=["NEW1_004"], board=[CROC], enemy_board=[YETI, RAPTOR])
    play(g, "NEW1_004")
    assert not g.players[0].board and not g.players[1].board
    assert hand_ids(g, 0) == [CROC] and hand_ids(g, 1) == [YETI, RAPTOR]


@covers("CS2_065")
def test_voidwalker_is_a_one_three_taunt():
    g = warlock_game(hand=[VOIDWALKER], enemy_board=[CROC])
    play(g, VOIDWALKER)
    m = minion(g, 0, VOIDWALKER)
    assert (m.atk, m.health, m.taunt) == (1, 3, True)
    end_turn(g)
    assert {a.target for a in g.legal_actions() if a.kind == ATTACK} == {m.uid}


@covers("NEW1_003")
def test_sacrificial_pact_destroys_a_demon_and_heals_five():
    g = warlock_game(hand=["NEW1_003"], board=[VOIDWALKER, CROC], enemy_board=[FLAME_IMP])
    g.players[0].hero.health = 20
    i = [c.cdef.id for c in g.player.hand].index("NEW1_003")
    targets = {a.target for a in g.legal_actions() if a.kind == PLAY and a.index == i}
    assert targets == {minion(g, 0, VOIDWALKER).uid, minion(g, 1, FLAME_IMP).uid}  # Demons only
    play(g, "NEW1_003", minion(g, 1, FLAME_IMP))
    assert board_ids(g, 1) == [] and g.players[0].hero.health == 25


@covers("CS2_059")
def test_blood_imp_gives_another_friendly_minion_one_health_at_end_of_turn():
    g = warlock_game(board=[BLOOD_IMP, CROC])
    imp, croc = minion(g, 0, BLOOD_IMP), minion(g, 0, CROC)
    assert imp.stealth
    end_turn(g)
    assert (croc.max_health, imp.max_health) == (4, 1)
    end_turn(g)  # not at the end of the enemy's turn
    assert croc.max_health == 4


@covers("CS2_063")
def test_corruption_destroys_the_enemy_minion_at_the_start_of_my_turn():
    g = warlock_game(hand=["CS2_063"], enemy_board=[YETI])
    play(g, "CS2_063", minion(g, 1, YETI))
    end_turn(g)
    assert board_ids(g, 1) == [YETI]  # survives the enemy's turn
    end_turn(g)
    assert board_ids(g, 1) == []


@covers("EX1_181")
def test_call_of_the_void_adds_a_random_demon():
    seen = set()
    for seed in range(12):
        g = warlock_game(hand=["EX1_181"], seed=seed)
        play(g, "EX1_181")
        (card,) = g.player.hand
        assert card.cdef.race == "DEMON" and card.cdef.collectible and card.cdef.type == "MINION"
        seen.add(card.cdef.id)
    assert len(seen) > 3


@covers("EX1_308")
def test_soulfire_deals_four_and_discards_a_random_card():
    g = warlock_game(hand=["EX1_308", CROC, RAPTOR], board=[KOBOLD])
    play(g, "EX1_308", g.players[1].hero)
    assert g.players[1].hero.health == 25 and len(g.player.hand) == 1


@covers("EX1_316")
def test_power_overwhelming_gives_four_four_then_kills_at_end_of_turn():
    g = warlock_game(hand=["EX1_316", "EX1_316"], board=[CROC, RAPTOR])
    croc = minion(g, 0, CROC)
    play(g, "EX1_316", croc)
    assert (croc.atk, croc.health) == (6, 7)
    end_turn(g)
    assert board_ids(g, 0) == [RAPTOR]
    # silenced in the meantime: it lives
    g = warlock_game(hand=["EX1_316", "CS2_203"], board=[CROC])  # Ironbeak Owl silences
    play(g, "EX1_316", minion(g, 0, CROC))
    play(g, "CS2_203", minion(g, 0, CROC))
    end_turn(g)
    assert CROC in board_ids(g, 0)


@covers("EX1_319")
def test_flame_imp_hurts_its_own_hero_for_three():
    g = warlock_game(hand=[FLAME_IMP])
    play(g, FLAME_IMP)
    assert g.players[0].hero.health == 27 and (minion(g, 0, FLAME_IMP).atk, minion(g, 0, FLAME_IMP).health) == (3, 2)


@covers("EX1_596")
def test_demonfire_damages_or_buffs_a_friendly_demon():
    g = warlock_game(hand=["EX1_596", "EX1_596"], board=[VOIDWALKER, CROC], enemy_board=[FLAME_IMP])
    void = minion(g, 0, VOIDWALKER)
    play(g, "EX1_596", void)
    assert (void.atk, void.health) == (3, 5)
    play(g, "EX1_596", minion(g, 1, FLAME_IMP))  # an enemy Demon is damaged
    assert board_ids(g, 1) == []


@covers("CS2_057")
def test_shadow_bolt_deals_four_to_a_minion_only():
    g = warlock_game(hand=["CS2_057"], enemy_board=[YETI])
    i = find_hand(g, "CS2_057")
    assert g.players[1].hero.uid not in {a.target for a in g.legal_actions() if a.index == i and a.kind == PLAY}
    play(g, "CS2_057", minion(g, 1, YETI))
    assert minion(g, 1, YETI).health == 1


@covers("CS2_061")
def test_drain_life_deals_two_and_heals_my_hero_two():
    g = warlock_game(hand=["CS2_061"], enemy_board=[CROC])
    g.players[0].hero.health = 25
    play(g, "CS2_061", minion(g, 1, CROC))
    assert minion(g, 1, CROC).health == 1 and g.players[0].hero.health == 27


@covers("EX1_301")
def test_felguard_destroys_one_mana_crystal():
    g = warlock_game(hand=["EX1_301"], mana=5)
    play(g, "EX1_301")
    p = g.players[0]
    assert (p.max_mana, p.mana) == (4, 2) and minion(g, 0, "EX1_301").taunt
    g = warlock_game(hand=["EX1_301"], mana=3)
    play(g, "EX1_301")
    assert (g.players[0].max_mana, g.players[0].mana) == (2, 0)


def find_hand(g, card_id):
    return [c.cdef.id for c in g.player.hand].index(card_id)


@covers("EX1_317", "EX1_317t")
def test_sense_demons_draws_demons_or_worthless_imps():
    g = warlock_game(hand=["EX1_317"], deck=[FLAME_IMP, CROC, CROC, VOIDWALKER, CROC])
    play(g, "EX1_317")
    assert sorted(hand_ids(g)) == sorted([FLAME_IMP, VOIDWALKER]) and len(g.player.deck) == 3
    g = warlock_game(hand=["EX1_317"], deck=[CROC, FLAME_IMP])
    play(g, "EX1_317")
    assert sorted(hand_ids(g)) == sorted([FLAME_IMP, "EX1_317t"]) and hand_ids(g).count(FLAME_IMP) == 1
    g.players[0].hand.clear()
    g.players[0].mana = 10
    g.summon(0, "EX1_317t")
    assert (minion(g, 0, "EX1_317t").atk, minion(g, 0, "EX1_317t").health) == (1, 1)


@covers("CS2_062")
def test_hellfire_hits_every_character():
    g = warlock_game(hand=["CS2_062"], board=[YETI], enemy_board=[CROC])
    play(g, "CS2_062")
    assert g.players[0].hero.health == 27 and g.players[1].hero.health == 27
    assert minion(g, 0, YETI).health == 2 and board_ids(g, 1) == []


@covers("EX1_303")
def test_shadowflame_destroys_a_friend_and_deals_its_attack_to_enemy_minions():
    g = warlock_game(hand=["EX1_303"], board=[YETI, CROC], enemy_board=[CROC, "CS2_200"])
    play(g, "EX1_303", minion(g, 0, YETI))
    assert board_ids(g, 0) == [CROC] and board_ids(g, 1) == ["CS2_200"]
    assert minion(g, 1, "CS2_200").health == 3 and g.players[1].hero.health == 30


@covers("EX1_313")
def test_pit_lord_hurts_its_own_hero_for_five():
    g = warlock_game(hand=["EX1_313"])
    play(g, "EX1_313")
    assert g.players[0].hero.health == 25 and minion(g, 0, "EX1_313").atk == 5


@covers("EX1_315")
def test_summoning_portal_makes_my_minions_cost_two_less_but_not_below_one():
    g = warlock_game(hand=[YETI, VOIDWALKER, RAPTOR, "CS2_057"], board=["EX1_315"],
                     enemy_hand=[YETI])
    hand = g.players[0].hand
    assert [g.cost_of(0, c) for c in hand] == [2, 1, 1, 3]
    assert g.cost_of(1, g.players[1].hand[0]) == 4  # not the enemy's
    g.summon(0, "EX1_315")  # two Portals: 4 less, still not below (1)
    assert [g.cost_of(0, c) for c in hand] == [1, 1, 1, 3]
    assert g.cost_of(0, Card(0, g.library["CS2_200"])) == 2
    for m in list(g.players[0].board):
        g.silence(m)
    assert g.cost_of(0, hand[0]) == 4


@covers("EX1_320")
def test_bane_of_doom_summons_a_demon_only_if_it_kills():
    g = warlock_game(hand=["EX1_320"], enemy_board=[YETI])
    play(g, "EX1_320", minion(g, 1, YETI))
    assert minion(g, 1, YETI).health == 3 and g.players[0].board == []
    g = warlock_game(hand=["EX1_320"], enemy_board=[RAPTOR])
    play(g, "EX1_320", minion(g, 1, RAPTOR))
    assert g.players[1].board == []
    (demon,) = g.players[0].board
    assert demon.cdef.race == "DEMON" and demon.cdef.collectible


@covers("CS2_064")
def test_dread_infernal_hits_all_other_characters_for_one():
    g = warlock_game(hand=["CS2_064"], board=[CROC], enemy_board=[WISP])
    play(g, "CS2_064")
    assert g.players[0].hero.health == 29 and g.players[1].hero.health == 29
    assert minion(g, 0, CROC).health == 2 and board_ids(g, 1) == []
    assert minion(g, 0, "CS2_064").health == 6


@covers("EX1_185")
def test_siegebreaker_gives_other_demons_one_attack_while_alive():
    g = warlock_game(hand=["EX1_185"], board=[VOIDWALKER, CROC])
    play(g, "EX1_185")
    sb = minion(g, 0, "EX1_185")
    assert sb.taunt and sb.atk == 5
    assert minion(g, 0, VOIDWALKER).atk == 2 and minion(g, 0, CROC).atk == 2
    g.silence(sb)
    g.resolve()
    assert minion(g, 0, VOIDWALKER).atk == 1


@covers("EX1_312")
def test_twisting_nether_destroys_all_minions():
    g = warlock_game(hand=["EX1_312"], board=[YETI, CROC], enemy_board=["CS2_200"])
    play(g, "EX1_312")
    assert g.players[0].board == [] and g.players[1].board == []


@covers("EX1_323", "EX1_323h", "EX1_323w", "EX1_tk33", "EX1_tk34")
def test_lord_jaraxxus_replaces_the_hero():
    g = warlock_game(hand=["EX1_323"], mana=10)
    g.players[0].hero.health = 12
    g.players[0].hero.armor = 3
    play(g, "EX1_323")
    p = g.players[0]
    assert p.board == []  # he left the board; no minion died
    assert p.hero.cdef.id == "EX1_323h" and (p.hero.health, p.hero.max_health, p.hero.armor) == (15, 15, 0)
    assert p.weapon.cdef.id == "EX1_323w" and (p.weapon.atk, p.weapon.durability) == (3, 8)
    assert p.hero.power.id == "EX1_tk33"
    p.mana = 10
    hero_power(g)  # a fresh INFERNO!, usable this turn
    infernal = minion(g, 0, "EX1_tk34")
    assert (infernal.atk, infernal.health) == (6, 6) and p.mana == 8
    for _ in range(6):
        g.summon(0, CROC)
    end_turn(g)
    end_turn(g)
    assert not any(a.kind == HERO_POWER for a in g.legal_actions())  # a full board
    g2 = warlock_game(hand=["EX1_323", "NEW1_003"], mana=10)
    play(g2, "EX1_323")
    g2.players[0].mana = 10
    play(g2, "NEW1_003", g2.players[0].hero)  # Jaraxxus is a Demon: the Pact can kill him
    assert g2.done and g2.winner == 1


# ---------------------------------------------------------------- helper C: Paladin
def paladin_game(**kw):
    return make_game(classes=("PALADIN", "HUNTER"), **kw)


def secret_ids(g, side):
    return [c.cdef.id for c in g.players[side].secrets]


@covers("EX1_130", "EX1_130a")
def test_noble_sacrifice_summons_a_defender_that_takes_the_attack():
    g = paladin_game(hand=["EX1_130"], board=[CROC], enemy_board=[YETI, RAPTOR])
    play(g, "EX1_130")
    end_turn(g)
    attack(g, minion(g, 1, YETI), g.players[0].hero)
    assert g.players[0].hero.health == 30 and secret_ids(g, 0) == []
    assert "EX1_130a" not in board_ids(g, 0)  # the 2/1 Defender died in its place
    assert minion(g, 1, YETI).health == 3  # it hit back for 2
    attack(g, minion(g, 1, RAPTOR), g.players[0].hero)
    assert g.players[0].hero.health == 27  # spent


@covers("EX1_130")
def test_noble_sacrifice_waits_with_a_full_board():
    g = paladin_game(hand=["EX1_130"], board=[CROC] * 7, enemy_board=[YETI])
    play(g, "EX1_130")
    end_turn(g)
    attack(g, minion(g, 1, YETI), g.players[0].hero)
    assert g.players[0].hero.health == 26 and secret_ids(g, 0) == ["EX1_130"]


@covers("EX1_136")
def test_redemption_returns_a_dead_friendly_minion_with_one_health():
    g = paladin_game(hand=["EX1_136"], board=[RAPTOR], enemy_board=[YETI])
    play(g, "EX1_136")
    end_turn(g)
    attack(g, minion(g, 1, YETI), minion(g, 0, RAPTOR))
    back = minion(g, 0, RAPTOR)
    assert (back.atk, back.health, back.max_health) == (3, 1, 2) and secret_ids(g, 0) == []


@covers("EX1_136")
def test_redemption_ignores_enemy_deaths_and_my_own_turn():
    g = paladin_game(hand=["EX1_136"], board=[YETI, RAPTOR], enemy_board=[WISP])
    play(g, "EX1_136")
    attack(g, minion(g, 0, RAPTOR), minion(g, 1, WISP))  # my turn: a secret sleeps
    assert board_ids(g, 1) == [] and secret_ids(g, 0) == ["EX1_136"]
    end_turn(g)
    g.summon(1, WISP)
    g.players[1].board[0].sick = False
    attack(g, g.players[1].board[0], minion(g, 0, YETI))  # the enemy Wisp dies
    assert secret_ids(g, 0) == ["EX1_136"] and board_ids(g, 1) == []


@covers("EX1_379")
def test_repentance_sets_a_played_enemy_minion_to_one_health():
    g = paladin_game(hand=["EX1_379"], enemy_hand=[YETI])
    play(g, "EX1_379")
    end_turn(g)
    g.summon(1, CROC)  # a summon that is not a play does not trigger it
    assert secret_ids(g, 0) == ["EX1_379"]
    play(g, YETI)
    yeti = minion(g, 1, YETI)
    assert (yeti.atk, yeti.health, yeti.max_health) == (4, 1, 1) and secret_ids(g, 0) == []


@covers("EX1_619")
def test_equality_sets_every_minion_to_one_health():
    g = paladin_game(hand=["EX1_619"], board=[YETI], enemy_board=["CS2_200", CROC])
    minion(g, 1, CROC).damage = 2
    play(g, "EX1_619")
    assert all(m.health == 1 and m.max_health == 1 for m in g.minions())
    g.silence(minion(g, 0, YETI))
    assert minion(g, 0, YETI).health == 5  # silence restores the printed Health


@covers("EX1_360")
def test_humility_sets_attack_to_one():
    g = paladin_game(hand=["EX1_360"], enemy_board=["CS2_200"])
    ogre = minion(g, 1, "CS2_200")
    g.buff(ogre, 2)
    play(g, "EX1_360", ogre)
    assert ogre.atk == 1 and ogre.health == 7


@covers("EX1_363")
def test_blessing_of_wisdom_draws_for_its_caster_when_the_minion_attacks():
    g = paladin_game(hand=["EX1_363", "EX1_363"], board=[CROC], enemy_board=[RAPTOR])
    play(g, "EX1_363", minion(g, 0, CROC))
    play(g, "EX1_363", minion(g, 1, RAPTOR))  # on an enemy: I draw when it attacks
    deck0 = len(g.players[0].deck)
    attack(g, minion(g, 0, CROC), g.players[1].hero)
    assert len(g.players[0].deck) == deck0 - 1
    end_turn(g)
    deck0, deck1 = len(g.players[0].deck), len(g.players[1].deck)
    attack(g, minion(g, 1, RAPTOR), g.players[0].hero)
    assert (len(g.players[0].deck), len(g.players[1].deck)) == (deck0 - 1, deck1)


@covers("EX1_371")
def test_hand_of_protection_gives_divine_shield():
    g = paladin_game(hand=["EX1_371"], board=[CROC])
    play(g, "EX1_371", minion(g, 0, CROC))
    assert minion(g, 0, CROC).divine_shield


@covers("CS2_089")
def test_holy_light_restores_six():
    g = paladin_game(hand=["CS2_089"])
    g.players[0].hero.health = 20
    play(g, "CS2_089", g.players[0].hero)
    assert g.players[0].hero.health == 26


@covers("EX1_362")
def test_argent_protector_shields_a_friendly_minion():
    g = paladin_game(hand=["EX1_362"], board=[CROC], enemy_board=[RAPTOR])
    i = find_hand(g, "EX1_362")
    assert minion(g, 1, RAPTOR).uid not in {a.target for a in g.legal_actions() if a.index == i and a.kind == PLAY}
    play(g, "EX1_362", minion(g, 0, CROC))
    assert minion(g, 0, CROC).divine_shield and not minion(g, 0, "EX1_362").divine_shield


@covers("EX1_349")
def test_divine_favor_draws_up_to_the_opponent_s_hand_size():
    g = paladin_game(hand=["EX1_349", CROC], enemy_hand=[CROC] * 5)
    play(g, "EX1_349")
    assert len(g.players[0].hand) == 5
    g = paladin_game(hand=["EX1_349", CROC, CROC], enemy_hand=[CROC])
    play(g, "EX1_349")
    assert len(g.players[0].hand) == 2


@covers("EX1_366")
def test_sword_of_justice_buffs_each_summoned_minion_and_loses_durability():
    g = paladin_game(hand=["EX1_366", CROC, RAPTOR], enemy_board=[WISP])
    play(g, "EX1_366")
    w = g.players[0].weapon
    assert (w.atk, w.durability) == (1, 5)
    play(g, CROC)
    assert (minion(g, 0, CROC).atk, minion(g, 0, CROC).health) == (3, 4) and w.durability == 4
    g.summon(1, WISP)  # not an enemy's
    assert w.durability == 4
    hero_power(g)  # a Silver Hand Recruit is summoned too
    assert minion(g, 0, "CS2_101t").atk == 2 and w.durability == 3
    w.durability = 1
    play(g, RAPTOR)
    assert g.players[0].weapon is None and minion(g, 0, RAPTOR).atk == 4


@covers("CS2_088")
def test_guardian_of_kings_restores_six_to_my_hero():
    g = paladin_game(hand=["CS2_088"])
    g.players[0].hero.health = 10
    play(g, "CS2_088")
    assert g.players[0].hero.health == 16 and minion(g, 0, "CS2_088").health == 6


@covers("EX1_382")
def test_aldor_peacekeeper_sets_an_enemy_minion_s_attack_to_one():
    g = paladin_game(hand=["EX1_382"], board=[YETI], enemy_board=["CS2_200"])
    i = find_hand(g, "EX1_382")
    assert minion(g, 0, YETI).uid not in {a.target for a in g.legal_actions() if a.index == i}
    play(g, "EX1_382", minion(g, 1, "CS2_200"))
    assert minion(g, 1, "CS2_200").atk == 1


@covers("EX1_355")
def test_blessed_champion_doubles_attack():
    g = paladin_game(hand=["EX1_355"], board=[YETI])
    play(g, "EX1_355", minion(g, 0, YETI))
    assert minion(g, 0, YETI).atk == 8


@covers("EX1_365")
def test_holy_wrath_deals_the_drawn_card_s_cost():
    g = paladin_game(hand=["EX1_365"], enemy_board=["CS2_200"], deck=[YETI])
    play(g, "EX1_365", g.players[1].hero)
    assert g.players[1].hero.health == 26 and hand_ids(g) == [YETI]
    g = paladin_game(hand=["EX1_365"], deck=[])
    play(g, "EX1_365", g.players[1].hero)  # fatigue: nothing drawn, no damage
    assert g.players[1].hero.health == 30 and g.players[0].hero.health == 29


@covers("EX1_184")
def test_righteousness_shields_all_my_minions():
    g = paladin_game(hand=["EX1_184"], board=[CROC, YETI], enemy_board=[RAPTOR])
    play(g, "EX1_184")
    assert all(m.divine_shield for m in g.players[0].board)
    assert not minion(g, 1, RAPTOR).divine_shield


@covers("CS2_094")
def test_hammer_of_wrath_deals_three_and_draws():
    g = paladin_game(hand=["CS2_094"], enemy_board=[YETI])
    play(g, "CS2_094", minion(g, 1, YETI))
    assert minion(g, 1, YETI).health == 2 and len(g.players[0].hand) == 1


@covers("CS2_087")
def test_blessing_of_might_gives_three_attack():
    g = paladin_game(hand=["CS2_087"], board=[CROC])
    play(g, "CS2_087", minion(g, 0, CROC))
    assert (minion(g, 0, CROC).atk, minion(g, 0, CROC).health) == (5, 3)


# ---------------------------------------------------------------- helper C: Hunter
def hunter_game(**kw):
    return make_game(classes=("HUNTER", "PALADIN"), **kw)


@covers("DS1_184")
def test_tracking_draws_one_of_the_top_three_and_discards_the_others():
    kept = set()
    for seed in range(10):
        g = hunter_game(hand=["DS1_184"], deck=[FOOTMAN, FOOTMAN, YETI, RAPTOR, CROC], seed=seed)
        play(g, "DS1_184")
        (card,) = g.player.hand
        assert card.cdef.id in (YETI, RAPTOR, CROC)
        assert [c.cdef.id for c in g.player.deck] == [FOOTMAN, FOOTMAN]
        kept.add(card.cdef.id)
    assert len(kept) > 1


@covers("DS1_185")
def test_arcane_shot_deals_two_plus_spell_damage():
    g = hunter_game(hand=["DS1_185"], board=[KOBOLD])
    play(g, "DS1_185", g.players[1].hero)
    assert g.players[1].hero.health == 27


@covers("EX1_549")
def test_bestial_wrath_gives_a_beast_two_attack_and_immune_this_turn():
    g = hunter_game(hand=["EX1_549"], board=[CROC, WISP], enemy_board=[YETI])
    i = find_hand(g, "EX1_549")
    assert {a.target for a in g.legal_actions() if a.index == i and a.kind == PLAY} == {minion(g, 0, CROC).uid}
    croc = minion(g, 0, CROC)
    play(g, "EX1_549", croc)
    attack(g, croc, minion(g, 1, YETI))
    assert croc.health == 3 and minion(g, 1, YETI).health == 1  # 4 dealt, none taken
    end_turn(g)
    assert croc.atk == 2 and not croc.immune
    attack(g, minion(g, 1, YETI), croc)
    assert board_ids(g, 0) == [WISP]


@covers("CS2_084")
def test_hunters_mark_sets_health_to_one():
    g = hunter_game(hand=["CS2_084"], enemy_board=["CS2_200"])
    play(g, "CS2_084", minion(g, 1, "CS2_200"))
    ogre = minion(g, 1, "CS2_200")
    assert (ogre.atk, ogre.health, ogre.max_health) == (6, 1, 1)


@covers("EX1_533")
def test_misdirection_sends_an_attack_on_my_hero_elsewhere():
    outcomes = set()
    for seed in range(12):
        g = hunter_game(hand=["EX1_533"], board=[WISP], enemy_board=[RAPTOR, CROC], seed=seed)
        play(g, "EX1_533")
        end_turn(g)
        attack(g, minion(g, 1, RAPTOR), g.players[0].hero)
        assert g.players[0].hero.health == 30 and secret_ids(g, 0) == []
        if WISP not in board_ids(g, 0):
            outcomes.add("wisp")
        elif g.players[1].hero.health == 27:
            outcomes.add("enemy hero")
        elif CROC not in board_ids(g, 1):
            outcomes.add("croc")
    assert outcomes == {"wisp", "enemy hero", "croc"}


@covers("EX1_533")
def test_misdirection_ignores_attacks_on_minions():
    g = hunter_game(hand=["EX1_533"], board=[FOOTMAN], enemy_board=[RAPTOR])
    play(g, "EX1_533")
    end_turn(g)
    attack(g, minion(g, 1, RAPTOR), minion(g, 0, FOOTMAN))
    assert secret_ids(g, 0) == ["EX1_533"]


@covers("EX1_544")
def test_flare_removes_stealth_and_enemy_secrets_and_draws():
    g = hunter_game(hand=["EX1_544"], board=["EX1_010"], enemy_board=["EX1_010"])
    g.players[1].secrets.append(Card(g.new_uid(), g.library["EX1_130"]))
    play(g, "EX1_544")
    assert not any(m.stealth for m in g.minions())
    assert g.players[1].secrets == [] and len(g.players[0].hand) == 1


@covers("EX1_609")
def test_snipe_deals_four_to_a_played_enemy_minion():
    g = hunter_game(hand=["EX1_609"], enemy_hand=[YETI, YETI])
    play(g, "EX1_609")
    end_turn(g)
    play(g, YETI)
    assert minion(g, 1, YETI).health == 1 and secret_ids(g, 0) == []
    play(g, YETI)
    assert [m.health for m in g.players[1].board] == [1, 5]


@covers("EX1_610")
def test_explosive_trap_hits_all_enemies_when_my_hero_is_attacked():
    g = hunter_game(hand=["EX1_610"], board=[FOOTMAN], enemy_board=[RAPTOR, YETI])
    play(g, "EX1_610")
    end_turn(g)
    attack(g, minion(g, 1, YETI), minion(g, 0, FOOTMAN))
    assert secret_ids(g, 0) == ["EX1_610"]  # a minion was attacked
    attack(g, minion(g, 1, RAPTOR), g.players[0].hero)
    assert g.players[1].hero.health == 28 and RAPTOR not in board_ids(g, 1)
    assert g.players[0].hero.health == 30  # the Raptor died before its blow


@covers("EX1_611")
def test_freezing_trap_returns_the_attacker_costing_two_more():
    g = hunter_game(hand=["EX1_611"], board=[FOOTMAN], enemy_board=[YETI])
    play(g, "EX1_611")
    end_turn(g)
    attack(g, minion(g, 1, YETI), minion(g, 0, FOOTMAN))
    assert g.players[1].board == [] and minion(g, 0, FOOTMAN).health == 2
    card = g.players[1].hand[-1]
    assert card.cdef.id == YETI and g.cost_of(1, card) == 6 and secret_ids(g, 0) == []


@covers("EX1_539")
def test_kill_command_deals_five_with_a_beast():
    g = hunter_game(hand=["EX1_539", "EX1_539"])
    play(g, "EX1_539", g.players[1].hero)
    assert g.players[1].hero.health == 27
    g.summon(0, CROC)
    play(g, "EX1_539", g.players[1].hero)
    assert g.players[1].hero.health == 22


@covers("EX1_617")
def test_deadly_shot_destroys_a_random_enemy_minion():
    g = hunter_game(hand=["EX1_617"])
    assert not can_play(g, "EX1_617")
    victims = set()
    for seed in range(8):
        g = hunter_game(hand=["EX1_617"], board=[FOOTMAN], enemy_board=[YETI, CROC], seed=seed)
        play(g, "EX1_617")
        (left,) = board_ids(g, 1)
        victims.add({YETI, CROC}.difference([left]).pop())
        assert board_ids(g, 0) == [FOOTMAN]
    assert victims == {YETI, CROC}


@covers("DS1_070")
def test_houndmaster_gives_a_beast_two_two_and_taunt():
    g = hunter_game(hand=["DS1_070"], board=[CROC, FOOTMAN])
    play(g, "DS1_070", minion(g, 0, CROC))
    croc = minion(g, 0, CROC)
    assert (croc.atk, croc.health, croc.taunt) == (4, 5, True)
    i = None  # a non-Beast is no target
    g = hunter_game(hand=["DS1_070"], board=[FOOTMAN])
    i = find_hand(g, "DS1_070")
    assert all(a.target == -1 for a in g.legal_actions() if a.index == i and a.kind == PLAY)


@covers("DS1_183")
def test_multi_shot_hits_two_random_enemy_minions():
    g = hunter_game(hand=["DS1_183"], enemy_board=[YETI, YETI, YETI])
    play(g, "DS1_183")
    assert sorted(m.health for m in g.players[1].board) == [2, 2, 5]
    g = hunter_game(hand=["DS1_183"], enemy_board=[YETI])  # one is enough (SabberStone)
    play(g, "DS1_183")
    assert minion(g, 1, YETI).health == 2
    g = hunter_game(hand=["DS1_183"])
    assert not can_play(g, "DS1_183")


@covers("CS2_237")
def test_starving_buzzard_draws_when_i_summon_a_beast():
    g = hunter_game(hand=["CS2_237", CROC, FOOTMAN], board=[])
    play(g, "CS2_237")
    assert len(g.player.hand) == 2  # not for itself
    play(g, CROC)
    assert len(g.player.hand) == 2
    play(g, FOOTMAN)
    assert len(g.player.hand) == 1
    g.summon(1, CROC)  # not the enemy's
    assert len(g.player.hand) == 1


@covers("EX1_537")
def test_explosive_shot_deals_five_and_two_to_neighbours():
    g = hunter_game(hand=["EX1_537"], enemy_board=[YETI, "CS2_200", YETI, CROC])
    play(g, "EX1_537", minion(g, 1, "CS2_200"))
    assert [m.health for m in g.players[1].board] == [3, 2, 3, 3]


@covers("EX1_534", "EX1_534t")
def test_savannah_highmane_leaves_two_hyenas():
    g = hunter_game(hand=["EX1_312"], board=[CROC, "EX1_534", FOOTMAN])
    g.destroy(minion(g, 0, "EX1_534"))
    g.resolve()
    assert board_ids(g, 0) == [CROC, "EX1_534t", "EX1_534t", FOOTMAN]
    hyena = minion(g, 0, "EX1_534t")
    assert (hyena.atk, hyena.health, hyena.race) == (2, 2, "BEAST")


@covers("DS1_188")
def test_gladiators_longbow_makes_the_hero_immune_while_attacking():
    g = hunter_game(hand=["DS1_188"], enemy_board=["CS2_200"])
    play(g, "DS1_188")
    hero = g.players[0].hero
    attack(g, hero, minion(g, 1, "CS2_200"))
    assert hero.health == 30 and minion(g, 1, "CS2_200").health == 2 and not hero.immune
    end_turn(g)
    attack(g, minion(g, 1, "CS2_200"), hero)
    assert hero.health == 24  # not Immune when attacked


@covers("EX1_363")
def test_blessing_of_wisdom_on_another_minion_makes_another_state():
    """The planner tells states apart by their hash: which minion is blessed must count."""
    hashes = set()
    for i in range(2):
        g = make_game(hand=["EX1_363"], board=[CROC, CROC], classes=("PALADIN", "HUNTER"))
        play(g, "EX1_363", g.players[0].board[i])
        hashes.add(g.state_hash())
    assert len(hashes) == 2
