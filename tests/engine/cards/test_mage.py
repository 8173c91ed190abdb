"""Tests of the Basic and Classic Mage cards, their secrets and the Fireblast hero power."""
from workers.engine.actions import ATTACK
from ..scenario import (attack, board_ids, can_play, covers, end_turn, hand_ids, hero_power,
                        make_game, minion, play)

CROC, RAPTOR, FOOTMAN, YETI = "CS2_120", "CS2_172", "CS1_042", "CS2_182"  # 2/3, 3/2, 1/2 T, 4/5
KOBOLD = "CS2_142"  # Kobold Geomancer 2/2, Spell Damage +1
BOAR = "CS2_171"  # Stonetusk Boar 1/1 Charge
SQUIRE = "EX1_008"  # Argent Squire 1/1 Divine Shield
SERGEANT = "CS2_188"  # Abusive Sergeant: Battlecry +2 Attack this turn
MAGE = ("MAGE", "HUNTER")


def mage_secret_game(secret_id, classes=MAGE, **kwargs):
    """The Mage plays `secret_id`, then it is the enemy's turn."""
    g = make_game(hand=[secret_id], classes=classes, **kwargs)
    play(g, secret_id)
    assert [s.cdef.id for s in g.players[0].secrets] == [secret_id]
    end_turn(g)
    return g


@covers("HERO_08", "CS2_034")
def test_jaina_and_fireblast_deal_one_damage_to_any_character():
    g = make_game(board=[KOBOLD], enemy_board=[CROC], classes=MAGE)
    assert g.players[0].hero.cdef.id == "HERO_08" and g.players[0].hero.health == 30
    hero_power(g, minion(g, 1, CROC))
    assert minion(g, 1, CROC).health == 2  # no Spell Damage on the hero power
    assert g.player.mana == 8
    end_turn(g)
    end_turn(g)
    hero_power(g, g.players[1].hero)
    assert g.players[1].hero.health == 29


@covers("CS2_027", "CS2_mirror")
def test_mirror_image_summons_two_taunting_zero_two():
    g = make_game(hand=["CS2_027"])
    play(g, "CS2_027")
    assert board_ids(g) == ["CS2_mirror", "CS2_mirror"]
    assert all((m.atk, m.health, m.taunt) == (0, 2, True) for m in g.players[0].board)
    g = make_game(hand=["CS2_027"], board=[CROC] * 7)
    assert not can_play(g, "CS2_027")


@covers("CS2_031")
def test_ice_lance_freezes_then_deals_four_to_a_frozen_target():
    g = make_game(hand=["CS2_031", "CS2_031"], enemy_board=[YETI])
    yeti = minion(g, 1, YETI)
    play(g, "CS2_031", yeti)
    assert yeti.frozen and yeti.health == 5
    play(g, "CS2_031", yeti)
    assert yeti.health == 1


@covers("EX1_180")
def test_tome_of_intellect_adds_a_mage_spell():
    seen = set()
    for seed in range(12):
        g = make_game(hand=["EX1_180"], seed=seed)
        play(g, "EX1_180")
        (card,) = g.players[0].hand
        cdef = card.cdef
        assert cdef.card_class == "MAGE" and cdef.type == "SPELL" and cdef.collectible
        seen.add(card.cdef.id)
    assert len(seen) > 3


@covers("EX1_277")
def test_arcane_missiles_fire_three_plus_spell_damage_at_enemies():
    totals = set()
    for seed in range(10):
        g = make_game(hand=["EX1_277"], board=[KOBOLD], enemy_board=[YETI], seed=seed)
        play(g, "EX1_277")
        yeti, hero = minion(g, 1, YETI), g.players[1].hero
        lost = (5 - yeti.health) + (30 - hero.health)
        assert lost == 4 and minion(g, 0, KOBOLD).health == 2 and g.players[0].hero.health == 30
        totals.add(30 - hero.health)
    assert len(totals) > 1  # random split


@covers("CS2_024")
def test_frostbolt_damages_and_freezes():
    g = make_game(hand=["CS2_024"], enemy_board=[YETI])
    yeti = minion(g, 1, YETI)
    play(g, "CS2_024", yeti)
    assert yeti.health == 2 and yeti.frozen
    end_turn(g)
    assert not any(a.kind == ATTACK and a.index == yeti.uid for a in g.legal_actions())


@covers("CS2_025")
def test_arcane_explosion_hits_enemy_minions_only():
    g = make_game(hand=["CS2_025"], board=[RAPTOR], enemy_board=[CROC, SQUIRE])
    play(g, "CS2_025")
    assert minion(g, 1, CROC).health == 2 and not minion(g, 1, SQUIRE).divine_shield
    assert minion(g, 0, RAPTOR).health == 2 and g.players[1].hero.health == 30


@covers("EX1_179")
def test_icicle_draws_only_when_the_minion_was_frozen():
    g = make_game(hand=["EX1_179", "CS2_024", "EX1_179"], enemy_board=[YETI, "CS2_200"])
    ogre = minion(g, 1, "CS2_200")
    play(g, "EX1_179", ogre)
    assert ogre.health == 5 and len(g.players[0].hand) == 2
    play(g, "CS2_024", ogre)
    play(g, "EX1_179", ogre)
    assert ogre.health == 0 or not g.alive(ogre)
    assert len(g.players[0].hand) == 1  # drew one


@covers("EX1_608")
def test_sorcerers_apprentice_makes_my_spells_cheaper_until_it_leaves():
    g = make_game(hand=["EX1_608", "CS2_029", CROC, "CS2_025"], enemy_hand=["CS2_029"], mana=10)
    play(g, "EX1_608")
    hand = g.players[0].hand
    assert [g.cost_of(0, c) for c in hand] == [3, 2, 1]
    assert g.cost_of(1, g.players[1].hand[0]) == 4
    g.silence(minion(g, 0, "EX1_608"))
    assert [g.cost_of(0, c) for c in hand] == [4, 2, 2]


@covers("NEW1_012")
def test_mana_wyrm_grows_with_my_spells():
    g = make_game(hand=["CS2_025", "CS2_023"], board=["NEW1_012"], enemy_hand=["CS2_025"])
    wyrm = minion(g, 0, "NEW1_012")
    play(g, "CS2_025")
    play(g, "CS2_023")
    assert (wyrm.atk, wyrm.health) == (3, 3)  # my Arcane Explosion does not hit it
    end_turn(g)
    play(g, "CS2_025")  # the enemy's spell hits it and does not feed it
    assert (wyrm.atk, wyrm.health) == (3, 2)


@covers("CS2_023")
def test_arcane_intellect_draws_two():
    g = make_game(hand=["CS2_023"])
    play(g, "CS2_023")
    assert len(g.players[0].hand) == 2 and len(g.players[0].deck) == 18


@covers("CS2_026")
def test_frost_nova_freezes_all_enemy_minions():
    g = make_game(hand=["CS2_026"], board=[RAPTOR], enemy_board=[CROC, YETI])
    play(g, "CS2_026")
    assert all(m.frozen for m in g.players[1].board) and not minion(g, 0, RAPTOR).frozen
    assert not g.players[1].hero.frozen


@covers("EX1_287")
def test_counterspell_counters_the_next_enemy_spell():
    g = mage_secret_game("EX1_287", enemy_hand=["CS2_029", "CS2_029"], enemy_board=["NEW1_012"])
    wyrm = minion(g, 1, "NEW1_012")
    mana = g.player.mana
    play(g, "CS2_029", g.players[0].hero)
    assert g.players[0].hero.health == 30 and not g.players[0].secrets
    assert g.player.mana == mana - 4 and len(g.player.hand) == 2  # 1 left + the turn's draw
    assert wyrm.atk == 1  # nothing reacted to the countered spell
    play(g, "CS2_029", g.players[0].hero)
    assert g.players[0].hero.health == 24 and wyrm.atk == 2


@covers("EX1_287")
def test_counterspell_ignores_minions_and_my_own_spells():
    g = make_game(hand=["EX1_287", "CS2_025"], enemy_hand=[CROC], classes=MAGE)
    play(g, "EX1_287")
    play(g, "CS2_025")  # my own spell on my turn
    assert len(g.players[0].secrets) == 1
    end_turn(g)
    play(g, CROC)
    assert len(g.players[0].secrets) == 1 and board_ids(g, 1) == [CROC]


@covers("EX1_289")
def test_ice_barrier_gives_eight_armor_when_my_hero_is_attacked():
    g = mage_secret_game("EX1_289", board=[FOOTMAN], enemy_board=[RAPTOR, CROC])
    attack(g, minion(g, 1, RAPTOR), minion(g, 0, FOOTMAN))  # a minion attacked: nothing
    assert g.players[0].hero.armor == 0 and g.players[0].secrets
    attack(g, minion(g, 1, CROC), g.players[0].hero)
    assert (g.players[0].hero.armor, g.players[0].hero.health) == (6, 30)
    assert not g.players[0].secrets


@covers("EX1_294")
def test_mirror_entity_copies_the_enemys_next_minion_after_its_battlecry():
    g = mage_secret_game("EX1_294", enemy_hand=[SERGEANT, "EX1_390"], enemy_board=[CROC])
    play(g, SERGEANT, minion(g, 1, CROC))  # Abusive Sergeant, buffing the croc
    copy = minion(g, 0, SERGEANT)
    assert (copy.atk, copy.health) == (1, 1) and copy.uid != minion(g, 1, SERGEANT).uid
    assert minion(g, 1, CROC).atk == 4 and minion(g, 0, SERGEANT) is not minion(g, 1, SERGEANT)
    assert not g.players[0].secrets
    play(g, "EX1_390")
    assert board_ids(g, 0) == [SERGEANT]  # spent


@covers("EX1_294")
def test_mirror_entity_waits_for_a_played_minion():
    g = mage_secret_game("EX1_294", enemy_hand=["CS2_027"], classes=("MAGE", "MAGE"))
    play(g, "CS2_027")  # summoned, not played
    assert board_ids(g, 0) == [] and g.players[0].secrets


@covers("EX1_295")
def test_ice_block_prevents_fatal_damage_and_makes_the_hero_immune():
    g = mage_secret_game("EX1_295", enemy_board=[YETI, CROC, RAPTOR])
    me = g.players[0].hero
    me.health = 5
    attack(g, minion(g, 1, CROC), me)
    assert me.health == 3 and g.players[0].secrets  # not fatal
    attack(g, minion(g, 1, YETI), me)
    assert me.health == 3 and not g.players[0].secrets and not g.done
    attack(g, minion(g, 1, RAPTOR), me)  # immune for the rest of the turn
    assert me.health == 3
    end_turn(g)
    end_turn(g)
    attack(g, minion(g, 1, RAPTOR), me)
    assert me.health == 0 and g.done and g.winner == 1


@covers("EX1_594")
def test_vaporize_destroys_a_minion_that_attacks_my_hero():
    g = mage_secret_game("EX1_594", board=[FOOTMAN], enemy_board=[YETI, CROC])
    attack(g, minion(g, 1, CROC), minion(g, 0, FOOTMAN))
    assert g.players[0].secrets
    end_turn(g)
    end_turn(g)
    attack(g, minion(g, 1, YETI), g.players[0].hero)
    assert board_ids(g, 1) == [CROC] and g.players[0].hero.health == 30
    assert not g.players[0].secrets


@covers("EX1_594")
def test_vaporize_ignores_a_hero_attacking():
    g = mage_secret_game("EX1_594", classes=("MAGE", "ROGUE"))
    hero_power(g)  # dagger
    attack(g, g.players[1].hero, g.players[0].hero)
    assert g.players[0].hero.health == 29 and g.players[0].secrets


@covers("tt_010", "tt_010a")
def test_spellbender_takes_a_spell_aimed_at_a_minion():
    g = mage_secret_game("tt_010", board=[CROC], enemy_hand=["CS2_029", "CS2_092"],
                         classes=("MAGE", "PALADIN"))
    play(g, "CS2_029", g.players[0].hero)  # at a hero: nothing
    assert g.players[0].secrets and g.players[0].hero.health == 24
    play(g, "CS2_092", minion(g, 0, CROC))  # Blessing of Kings on my croc
    bender = minion(g, 0, "tt_010a")
    assert (bender.atk, bender.health) == (5, 7) and minion(g, 0, CROC).atk == 2
    assert not g.players[0].secrets


@covers("EX1_612")
def test_kirin_tor_mage_makes_the_next_secret_this_turn_free():
    g = make_game(hand=["EX1_612", "EX1_289", "EX1_594", "CS2_025"], mana=10)
    play(g, "EX1_612")
    hand = g.players[0].hand
    assert [g.cost_of(0, c) for c in hand] == [0, 0, 2]
    play(g, "CS2_025")  # not a secret: the discount stays
    play(g, "EX1_289")
    assert g.player.mana == 5
    assert g.cost_of(0, g.players[0].hand[0]) == 3  # only the next secret
    g = make_game(hand=["EX1_612", "EX1_289"], mana=10)
    play(g, "EX1_612")
    end_turn(g)
    end_turn(g)
    assert g.cost_of(0, g.players[0].hand[0]) == 3  # this turn only


@covers("GIL_838")
def test_black_cat_draws_only_with_an_all_odd_deck():
    g = make_game(hand=["GIL_838"], deck=["CS2_029", "CS2_032"])  # costs 4 and 7
    play(g, "GIL_838")
    assert len(g.players[0].hand) == 0 and minion(g, 0, "GIL_838").spell_damage == 1
    g = make_game(hand=["GIL_838"], deck=["CS2_032", BOAR])  # 7 and 1
    play(g, "GIL_838")
    assert hand_ids(g) == [BOAR]


@covers("CS2_022", "CS2_tk1")
def test_polymorph_turns_a_minion_into_a_sheep():
    # Harvest Golem: its Deathrattle must not run
    g = make_game(hand=["CS2_022"], enemy_board=["EX1_556"])
    play(g, "CS2_022", minion(g, 1, "EX1_556"))
    sheep = minion(g, 1, "CS2_tk1")
    assert (sheep.atk, sheep.health) == (1, 1) and board_ids(g, 1) == ["CS2_tk1"]


@covers("CS2_029")
def test_fireball_deals_six_plus_spell_damage():
    g = make_game(hand=["CS2_029"], board=[KOBOLD])
    play(g, "CS2_029", g.players[1].hero)
    assert g.players[1].hero.health == 23


@covers("CS2_033")
def test_water_elemental_freezes_what_it_damages():
    g = make_game(board=["CS2_033"], enemy_board=[YETI])
    attack(g, minion(g, 0, "CS2_033"), minion(g, 1, YETI))
    assert minion(g, 1, YETI).frozen and not minion(g, 0, "CS2_033").frozen
    g = make_game(board=["CS2_033"])
    attack(g, minion(g, 0, "CS2_033"), g.players[1].hero)
    assert g.players[1].hero.frozen and g.players[1].hero.health == 27


@covers("EX1_274")
def test_ethereal_arcanist_grows_at_my_turn_end_with_a_secret():
    g = make_game(hand=["EX1_289"], board=["EX1_274"])
    arcanist = minion(g, 0, "EX1_274")
    end_turn(g)
    assert (arcanist.atk, arcanist.health) == (3, 3)
    end_turn(g)
    play(g, "EX1_289")
    end_turn(g)
    assert (arcanist.atk, arcanist.health) == (5, 5)
    end_turn(g)  # the enemy's turn end: no
    assert (arcanist.atk, arcanist.health) == (5, 5)


@covers("EX1_275")
def test_cone_of_cold_freezes_and_hits_a_minion_and_its_neighbours():
    g = make_game(hand=["EX1_275"], enemy_board=[CROC, YETI, RAPTOR, FOOTMAN])
    play(g, "EX1_275", minion(g, 1, YETI))
    croc, yeti, raptor, footman = g.players[1].board
    assert [m.health for m in (croc, yeti, raptor, footman)] == [2, 4, 1, 2]
    assert [m.frozen for m in (croc, yeti, raptor, footman)] == [True, True, True, False]


@covers("CS2_028")
def test_blizzard_damages_and_freezes_enemy_minions():
    g = make_game(hand=["CS2_028"], board=[CROC], enemy_board=[YETI, RAPTOR])
    play(g, "CS2_028")
    yeti = minion(g, 1, YETI)
    assert board_ids(g, 1) == [YETI] and yeti.health == 3 and yeti.frozen
    assert minion(g, 0, CROC).health == 3 and g.players[1].hero.health == 30


@covers("CS2_032")
def test_flamestrike_deals_four_to_enemy_minions():
    g = make_game(hand=["CS2_032"], board=[YETI], enemy_board=[CROC, "CS2_200"])
    play(g, "CS2_032")
    assert board_ids(g, 1) == ["CS2_200"] and minion(g, 1, "CS2_200").health == 3
    assert minion(g, 0, YETI).health == 5


@covers("EX1_559")
def test_antonidas_adds_a_fireball_for_each_spell_i_cast():
    g = make_game(hand=["CS2_025", "CS2_023"], board=["EX1_559"], enemy_hand=["CS2_025"])
    play(g, "CS2_025")
    assert hand_ids(g) == ["CS2_023", "CS2_029"]
    end_turn(g)
    play(g, "CS2_025")
    assert hand_ids(g).count("CS2_029") == 1


@covers("EX1_279")
def test_pyroblast_deals_ten():
    g = make_game(hand=["EX1_279"], enemy_board=["CS2_200"])
    play(g, "EX1_279", g.players[1].hero)
    assert g.players[1].hero.health == 20


@covers("EX1_608")
def test_sorcerers_apprentice_discount_ends_with_its_death():
    g = make_game(hand=["CS2_029"], board=["EX1_608"], enemy_board=[YETI])
    fireball = g.players[0].hand[0]
    assert g.cost_of(0, fireball) == 3
    attack(g, minion(g, 0, "EX1_608"), minion(g, 1, YETI))
    assert board_ids(g) == [] and g.cost_of(0, fireball) == 4
