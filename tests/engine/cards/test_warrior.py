"""Tests of the Basic and Classic Warrior cards, their weapons and the Armor Up! hero power."""
from workers.engine.actions import PLAY
from ..scenario import (attack, attack_targets, board_ids, can_play, covers, end_turn, hero_power,
                        make_game, minion, play)

CROC, RAPTOR, FOOTMAN, YETI = "CS2_120", "CS2_172", "CS1_042", "CS2_182"  # 2/3, 3/2, 1/2 T, 4/5
OGRE = "CS2_200"  # Boulderfist Ogre 6/7
KOBOLD = "CS2_142"  # Kobold Geomancer 2/2, Spell Damage +1
BOAR = "CS2_171"  # Stonetusk Boar 1/1 Charge
SQUIRE = "EX1_008"  # Argent Squire 1/1 Divine Shield
WARRIOR = ("WARRIOR", "HUNTER")


def targets(g, card_id):
    return {a.target for a in g.legal_actions()
            if a.kind == PLAY and g.player.hand[a.index].cdef.id == card_id}


@covers("HERO_01", "CS2_102")
def test_garrosh_and_armor_up():
    g = make_game(classes=WARRIOR)
    hero = g.players[0].hero
    assert hero.cdef.id == "HERO_01" and hero.health == 30
    hero_power(g)
    assert hero.armor == 2 and g.player.mana == 8


@covers("EX1_607")
def test_inner_rage_hurts_and_gives_two_attack():
    g = make_game(hand=["EX1_607"], board=[KOBOLD], enemy_board=[YETI])
    yeti = minion(g, 1, YETI)
    play(g, "EX1_607", yeti)
    assert (yeti.atk, yeti.health) == (6, 4)  # no Spell Damage on it (SabberStone)


@covers("CS2_103")
def test_charge_lets_a_new_minion_attack_minions_but_not_heroes_this_turn():
    g = make_game(hand=["CS2_103"], board=[RAPTOR], enemy_board=[CROC], sick=True)
    raptor = minion(g, 0, RAPTOR)
    assert not attack_targets(g, raptor)
    play(g, "CS2_103", raptor)
    assert attack_targets(g, raptor) == {minion(g, 1, CROC).uid}
    end_turn(g)
    end_turn(g)
    assert g.players[1].hero.uid in attack_targets(g, raptor)  # next turn it may
    assert raptor.charge


@covers("EX1_400")
def test_whirlwind_hits_every_minion():
    g = make_game(hand=["EX1_400"], board=[CROC], enemy_board=[SQUIRE, RAPTOR])
    play(g, "EX1_400")
    assert minion(g, 0, CROC).health == 2 and minion(g, 1, RAPTOR).health == 1
    assert not minion(g, 1, SQUIRE).divine_shield and g.players[1].hero.health == 30


@covers("EX1_409", "EX1_409t")
def test_upgrade_equips_a_heavy_axe_or_improves_my_weapon():
    g = make_game(hand=["EX1_409", "EX1_409"], classes=WARRIOR)
    play(g, "EX1_409")
    w = g.players[0].weapon
    assert (w.cdef.id, w.atk, w.durability) == ("EX1_409t", 1, 3)
    play(g, "EX1_409")
    assert g.players[0].weapon is w and (w.atk, w.durability) == (2, 4)


@covers("EX1_410")
def test_shield_slam_deals_my_armor_as_damage():
    g = make_game(hand=["EX1_410"], enemy_board=[OGRE], classes=WARRIOR)
    g.players[0].hero.armor = 5
    play(g, "EX1_410", minion(g, 1, OGRE))
    assert minion(g, 1, OGRE).health == 2 and g.players[0].hero.armor == 5
    g = make_game(hand=["EX1_410"], board=[KOBOLD], enemy_board=[OGRE], classes=WARRIOR)
    play(g, "EX1_410", minion(g, 1, OGRE))  # no Armor: no damage, Spell Damage or not
    assert minion(g, 1, OGRE).health == 7


@covers("CS2_104")
def test_rampage_needs_a_damaged_minion():
    g = make_game(hand=["CS2_104"], board=[CROC], enemy_board=[YETI])
    assert not can_play(g, "CS2_104")
    yeti = minion(g, 1, YETI)
    yeti.damage = 1
    assert targets(g, "CS2_104") == {yeti.uid}
    play(g, "CS2_104", yeti)
    assert (yeti.atk, yeti.health) == (7, 7)


@covers("CS2_105")
def test_heroic_strike_gives_four_attack_this_turn():
    g = make_game(hand=["CS2_105"])
    play(g, "CS2_105")
    attack(g, g.players[0].hero, g.players[1].hero)
    assert g.players[1].hero.health == 26
    end_turn(g)
    assert g.players[0].hero.turn_atk == 0


@covers("CS2_108")
def test_execute_destroys_a_damaged_enemy_minion():
    g = make_game(hand=["CS2_108"], board=[CROC], enemy_board=[OGRE, YETI])
    minion(g, 0, CROC).damage = 1
    assert not can_play(g, "CS2_108")
    ogre = minion(g, 1, OGRE)
    ogre.damage = 1
    assert targets(g, "CS2_108") == {ogre.uid}
    play(g, "CS2_108", ogre)
    assert board_ids(g, 1) == [YETI]


@covers("CS2_114")
def test_cleave_hits_two_random_enemy_minions():
    g = make_game(hand=["CS2_114"], board=[CROC])
    assert not can_play(g, "CS2_114")
    g = make_game(hand=["CS2_114"], enemy_board=[YETI])
    play(g, "CS2_114")
    assert minion(g, 1, YETI).health == 3
    hit = set()
    for seed in range(10):
        g = make_game(hand=["CS2_114"], board=[KOBOLD], enemy_board=[OGRE, YETI, CROC], seed=seed)
        play(g, "CS2_114")
        damaged = [m.cdef.id for m in g.players[1].board if m.damaged] + [
            c for c in (YETI, OGRE, CROC) if c not in board_ids(g, 1)]
        assert len(damaged) == 2 and minion(g, 0, KOBOLD).health == 2
        hit.add(tuple(sorted(damaged)))
    assert len(hit) > 1


@covers("EX1_391")
def test_slam_draws_if_the_minion_survives():
    g = make_game(hand=["EX1_391", "EX1_391"], enemy_board=[RAPTOR, YETI])
    play(g, "EX1_391", minion(g, 1, RAPTOR))
    assert board_ids(g, 1) == [YETI] and len(g.players[0].hand) == 1
    play(g, "EX1_391", minion(g, 1, YETI))
    assert minion(g, 1, YETI).health == 3 and len(g.players[0].hand) == 1  # drew one


@covers("EX1_392")
def test_battle_rage_draws_per_damaged_friendly_character():
    g = make_game(hand=["EX1_392"], board=[CROC, YETI, RAPTOR], enemy_board=[OGRE])
    minion(g, 0, CROC).damage = 1
    minion(g, 0, YETI).damage = 2
    minion(g, 1, OGRE).damage = 1
    g.players[0].hero.health = 20
    play(g, "EX1_392")
    assert len(g.players[0].hand) == 3


@covers("EX1_402")
def test_armorsmith_gains_armor_when_friendly_minions_take_damage():
    g = make_game(hand=["EX1_400"], board=["EX1_402", CROC], enemy_board=[RAPTOR], classes=WARRIOR)
    play(g, "EX1_400")  # three minions hit, two of them mine
    assert g.players[0].hero.armor == 2
    attack(g, minion(g, 0, CROC), g.players[1].hero)  # no damage taken
    assert g.players[0].hero.armor == 2


@covers("EX1_603")
def test_cruel_taskmaster_hurts_a_minion_and_gives_it_two_attack():
    g = make_game(hand=["EX1_603"], enemy_board=[YETI])
    yeti = minion(g, 1, YETI)
    play(g, "EX1_603", yeti)
    assert (yeti.atk, yeti.health) == (6, 4)
    assert minion(g, 0, "EX1_603").health == 2
    g = make_game(hand=["EX1_603"])
    play(g, "EX1_603")  # with no minion, no target
    assert board_ids(g) == ["EX1_603"]


@covers("NEW1_036")
def test_commanding_shout_keeps_my_minions_at_one_health_this_turn():
    g = make_game(hand=["NEW1_036", "CS2_182", "EX1_400"], board=[RAPTOR], enemy_board=[OGRE, CROC])
    play(g, "NEW1_036")
    assert len(g.players[0].hand) == 3  # drew
    raptor = minion(g, 0, RAPTOR)
    attack(g, raptor, minion(g, 1, OGRE))
    assert raptor.health == 1 and g.alive(raptor)
    play(g, "CS2_182")  # a minion played later this turn is covered too
    yeti = minion(g, 0, YETI)
    yeti.damage = 4
    play(g, "EX1_400")
    assert raptor.health == 1 and yeti.health == 1 and minion(g, 1, CROC).health == 2
    end_turn(g)
    attack(g, minion(g, 1, CROC), raptor)
    assert not g.alive(raptor)


@covers("CS2_106")
def test_fiery_war_axe_is_a_three_two():
    g = make_game(hand=["CS2_106"])
    play(g, "CS2_106")
    attack(g, g.players[0].hero, g.players[1].hero)
    assert g.players[1].hero.health == 27 and g.players[0].weapon.durability == 1


@covers("EX1_084")
def test_warsong_commander_gives_charge_minions_one_attack():
    g = make_game(hand=["EX1_084", BOAR, "NEW1_011"], board=[CROC])
    play(g, "EX1_084")
    play(g, BOAR)
    play(g, "NEW1_011")
    assert minion(g, 0, BOAR).atk == 2 and minion(g, 0, "NEW1_011").atk == 5
    assert minion(g, 0, CROC).atk == 2 and minion(g, 0, "EX1_084").atk == 2
    g.silence(minion(g, 0, "EX1_084"))
    g.resolve()
    assert minion(g, 0, BOAR).atk == 1


@covers("EX1_604")
def test_frothing_berserker_grows_whenever_any_minion_takes_damage():
    g = make_game(hand=["EX1_400"], board=["EX1_604", CROC], enemy_board=[YETI, SQUIRE])
    play(g, "EX1_400")  # Berserker, croc, yeti hurt; the squire's shield takes it
    assert minion(g, 0, "EX1_604").atk == 5
    attack(g, minion(g, 0, CROC), g.players[1].hero)
    assert minion(g, 0, "EX1_604").atk == 5


@covers("EX1_606")
def test_shield_block_gives_five_armor_and_draws():
    g = make_game(hand=["EX1_606"])
    play(g, "EX1_606")
    assert g.players[0].hero.armor == 5 and len(g.players[0].hand) == 1


@covers("EX1_398", "EX1_398t")
def test_arathi_weaponsmith_equips_a_battle_axe():
    g = make_game(hand=["EX1_398"])
    play(g, "EX1_398")
    w = g.players[0].weapon
    assert (w.cdef.id, w.atk, w.durability) == ("EX1_398t", 2, 2)
    attack(g, g.players[0].hero, g.players[1].hero)
    assert g.players[1].hero.health == 28


@covers("EX1_408")
def test_mortal_strike_deals_six_when_i_am_low():
    g = make_game(hand=["EX1_408", "EX1_408"], mana=10)
    play(g, "EX1_408", g.players[1].hero)
    assert g.players[1].hero.health == 26
    g.players[0].hero.health = 12
    play(g, "EX1_408", g.players[1].hero)
    assert g.players[1].hero.health == 20


@covers("NEW1_011")
def test_korkron_elite_charges():
    g = make_game(hand=["NEW1_011"])
    play(g, "NEW1_011")
    attack(g, minion(g, 0, "NEW1_011"), g.players[1].hero)
    assert g.players[1].hero.health == 26


@covers("CS2_112")
def test_arcanite_reaper_is_a_five_two():
    g = make_game(hand=["CS2_112"])
    play(g, "CS2_112")
    attack(g, g.players[0].hero, g.players[1].hero)
    assert g.players[1].hero.health == 25 and g.players[0].weapon.durability == 1


@covers("EX1_407")
def test_brawl_leaves_one_random_minion():
    g = make_game(hand=["EX1_407"], board=[CROC])
    assert not can_play(g, "EX1_407")
    survivors = set()
    for seed in range(12):
        g = make_game(hand=["EX1_407"], board=[CROC, RAPTOR], enemy_board=[YETI, OGRE], seed=seed)
        play(g, "EX1_407")
        left = board_ids(g, 0) + board_ids(g, 1)
        assert len(left) == 1
        survivors.add(left[0])
    assert len(survivors) > 2


@covers("EX1_411")
def test_gorehowl_loses_attack_on_minions_and_durability_on_heroes():
    g = make_game(hand=["EX1_411"], enemy_board=[OGRE])
    play(g, "EX1_411")
    w = g.players[0].weapon
    attack(g, g.players[0].hero, minion(g, 1, OGRE))
    assert board_ids(g, 1) == [] and (w.atk, w.durability) == (6, 1) and g.players[0].weapon is w
    end_turn(g)
    end_turn(g)
    attack(g, g.players[0].hero, g.players[1].hero)
    assert g.players[1].hero.health == 24 and g.players[0].weapon is None


@covers("EX1_414")
def test_grommash_charges_and_has_six_more_attack_while_damaged():
    g = make_game(hand=["EX1_414"], enemy_board=[RAPTOR])
    play(g, "EX1_414")
    grom = minion(g, 0, "EX1_414")
    assert grom.atk == 4
    attack(g, grom, minion(g, 1, RAPTOR))
    assert grom.atk == 10 and grom.health == 6
    g.heal(grom, 5)
    g.resolve()
    assert grom.atk == 4
    grom.damage = 1
    g.silence(grom)
    g.resolve()
    assert grom.atk == 4
