"""Tests of the Basic and Classic Priest cards, Lesser Heal and the Shadowform powers."""
from workers.engine.actions import ATTACK, PLAY
from ..scenario import (attack, board_ids, can_play, covers, end_turn, hand_ids, hero_power,
                        make_game, minion, play)

CROC, RAPTOR, FOOTMAN, YETI = "CS2_120", "CS2_172", "CS1_042", "CS2_182"  # 2/3, 3/2, 1/2 T, 4/5
OGRE = "CS2_200"  # Boulderfist Ogre 6/7
KOBOLD = "CS2_142"  # Kobold Geomancer 2/2, Spell Damage +1
WISP = "CS2_231"  # 1/1
VOODOO = "EX1_011"  # Voodoo Doctor: Battlecry restore 2 Health
PRIEST = ("PRIEST", "HUNTER")


def targets(g, card_id):
    return {a.target for a in g.legal_actions()
            if a.kind == PLAY and g.player.hand[a.index].cdef.id == card_id}


def can_attack(g, m):
    return any(a.kind == ATTACK and a.index == m.uid for a in g.legal_actions())


@covers("HERO_09", "CS1h_001")
def test_anduin_and_lesser_heal_restore_two():
    g = make_game(board=[YETI], classes=PRIEST)
    assert g.players[0].hero.cdef.id == "HERO_09" and g.players[0].hero.health == 30
    yeti = minion(g, 0, YETI)
    yeti.damage = 3
    hero_power(g, yeti)
    assert yeti.health == 4 and g.player.mana == 8


@covers("EX1_332")
def test_silence_removes_text_and_buffs():
    g = make_game(hand=["EX1_332"], enemy_board=[KOBOLD])
    kobold = minion(g, 1, KOBOLD)
    g.buff(kobold, 2, 2)
    play(g, "EX1_332", kobold)
    assert kobold.silenced and (kobold.atk, kobold.health) == (2, 2) and g.spell_power(1) == 0


@covers("EX1_621")
def test_circle_of_healing_heals_all_minions_by_four():
    g = make_game(hand=["EX1_621"], board=[OGRE], enemy_board=[YETI])
    minion(g, 0, OGRE).damage = 6
    minion(g, 1, YETI).damage = 2
    g.players[0].hero.health = 20
    play(g, "EX1_621")
    assert minion(g, 0, OGRE).health == 5 and minion(g, 1, YETI).health == 5
    assert g.players[0].hero.health == 20


@covers("CS1_129")
def test_inner_fire_sets_attack_to_health():
    g = make_game(hand=["CS1_129", "CS1_129"], board=[OGRE, FOOTMAN])
    ogre = minion(g, 0, OGRE)
    ogre.damage = 2
    play(g, "CS1_129", ogre)
    assert (ogre.atk, ogre.health) == (5, 5)
    footman = minion(g, 0, FOOTMAN)
    g.buff(footman, 0, 4)
    play(g, "CS1_129", footman)
    assert footman.atk == 6


@covers("CS1_130")
def test_holy_smite_deals_two_plus_spell_damage():
    g = make_game(hand=["CS1_130"], board=[KOBOLD])
    play(g, "CS1_130", g.players[1].hero)
    assert g.players[1].hero.health == 27


@covers("CS2_003")
def test_mind_vision_copies_a_random_card_of_the_enemy_hand():
    seen = set()
    for seed in range(10):
        g = make_game(hand=["CS2_003"], enemy_hand=[OGRE, WISP, YETI], seed=seed)
        play(g, "CS2_003")
        (copy,) = hand_ids(g)
        assert copy in (OGRE, WISP, YETI) and len(g.players[1].hand) == 3
        seen.add(copy)
    assert len(seen) > 1
    g = make_game(hand=["CS2_003"])
    play(g, "CS2_003")  # an empty hand: nothing
    assert hand_ids(g) == []


@covers("CS2_004")
def test_power_word_shield_gives_two_health_and_draws():
    g = make_game(hand=["CS2_004"], board=[WISP])
    play(g, "CS2_004", minion(g, 0, WISP))
    assert minion(g, 0, WISP).health == 3 and len(g.players[0].hand) == 1


@covers("CS2_235")
def test_northshire_cleric_draws_whenever_a_minion_is_healed():
    g = make_game(hand=["EX1_621"], board=["CS2_235", YETI], enemy_board=[CROC], classes=PRIEST)
    minion(g, 0, YETI).damage = 1
    minion(g, 1, CROC).damage = 1
    g.players[0].hero.health = 25
    play(g, "EX1_621")  # two damaged minions healed, one undamaged cleric not
    assert len(g.players[0].hand) == 2
    hero_power(g, g.players[0].hero)  # a hero healed: no card
    assert len(g.players[0].hand) == 2


@covers("EX1_192")
def test_radiance_heals_my_hero_by_five():
    g = make_game(hand=["EX1_192"])
    g.players[0].hero.health = 20
    play(g, "EX1_192")
    assert g.players[0].hero.health == 25


@covers("CS2_234")
def test_shadow_word_pain_destroys_a_minion_with_three_or_less_attack():
    g = make_game(hand=["CS2_234"], board=[RAPTOR], enemy_board=[YETI, CROC])
    assert targets(g, "CS2_234") == {minion(g, 1, CROC).uid, minion(g, 0, RAPTOR).uid}
    play(g, "CS2_234", minion(g, 1, CROC))
    assert board_ids(g, 1) == [YETI]


@covers("CS2_236")
def test_divine_spirit_doubles_current_health():
    g = make_game(hand=["CS2_236"], board=[OGRE])
    ogre = minion(g, 0, OGRE)
    ogre.damage = 2
    play(g, "CS2_236", ogre)
    assert (ogre.health, ogre.max_health) == (10, 12)


@covers("DS1_233")
def test_mind_blast_hits_the_enemy_hero_for_five():
    g = make_game(hand=["DS1_233"], board=[KOBOLD])
    play(g, "DS1_233")
    assert g.players[1].hero.health == 24


@covers("EX1_341")
def test_lightwell_heals_a_damaged_friendly_character_at_my_turn_start():
    g = make_game(board=["EX1_341", YETI], enemy_board=[CROC])
    minion(g, 1, CROC).damage = 1
    end_turn(g)
    end_turn(g)  # nothing of mine is damaged
    assert minion(g, 1, CROC).health == 2
    healed = set()
    for seed in range(10):
        g = make_game(board=["EX1_341", YETI], seed=seed)
        minion(g, 0, YETI).damage = 4
        g.players[0].hero.health = 20
        end_turn(g)
        end_turn(g)
        yeti = minion(g, 0, YETI)
        assert (yeti.health == 4) != (g.players[0].hero.health == 23)
        healed.add(yeti.health == 4)
    assert healed == {True, False}


@covers("EX1_339")
def test_thoughtsteal_copies_two_cards_of_the_enemy_deck():
    g = make_game(hand=["EX1_339"], enemy_deck=[OGRE, WISP])
    play(g, "EX1_339")
    assert sorted(hand_ids(g)) == sorted([OGRE, WISP]) and len(g.players[1].deck) == 2
    seen = set()
    for seed in range(10):
        g = make_game(hand=["EX1_339"], enemy_deck=[OGRE, WISP, YETI, CROC], seed=seed)
        play(g, "EX1_339")
        picked = hand_ids(g)
        assert len(set(picked)) == 2
        seen.add(tuple(sorted(picked)))
    assert len(seen) > 1


@covers("EX1_622")
def test_shadow_word_death_destroys_a_minion_with_five_or_more_attack():
    g = make_game(hand=["EX1_622"], enemy_board=[YETI, OGRE])
    assert targets(g, "EX1_622") == {minion(g, 1, OGRE).uid}
    play(g, "EX1_622", minion(g, 1, OGRE))
    assert board_ids(g, 1) == [YETI]


@covers("EX1_625", "EX1_625t", "EX1_625t2")
def test_shadowform_replaces_the_hero_power():
    g = make_game(hand=["EX1_625", "EX1_625", "EX1_625"], enemy_board=[OGRE], classes=PRIEST,
                  mana=10)
    hero_power(g, g.players[0].hero)
    play(g, "EX1_625")
    hero = g.players[0].hero
    assert hero.power.id == "EX1_625t"
    hero_power(g, minion(g, 1, OGRE))  # a new power: usable again this turn
    assert minion(g, 1, OGRE).health == 5
    play(g, "EX1_625")
    assert hero.power.id == "EX1_625t2"
    end_turn(g)
    end_turn(g)
    hero_power(g, g.players[1].hero)
    assert g.players[1].hero.health == 27
    play(g, "EX1_625")  # SabberStone: back to Mind Spike
    assert hero.power.id == "EX1_625t"


@covers("EX1_334")
def test_shadow_madness_borrows_an_enemy_minion_until_end_of_turn():
    g = make_game(hand=["EX1_334"], enemy_board=[RAPTOR, YETI])
    assert targets(g, "EX1_334") == {minion(g, 1, RAPTOR).uid}
    raptor = minion(g, 1, RAPTOR)
    play(g, "EX1_334", raptor)
    assert raptor.owner == 0 and board_ids(g, 0) == [RAPTOR] and can_attack(g, raptor)
    attack(g, raptor, g.players[1].hero)
    end_turn(g)
    assert raptor.owner == 1 and board_ids(g, 1) == [YETI, RAPTOR]
    assert g.players[1].hero.health == 27


@covers("EX1_334")
def test_shadow_madness_keeps_a_silenced_minion_and_needs_room():
    g = make_game(hand=["EX1_334", "EX1_332"], enemy_board=[RAPTOR])
    raptor = minion(g, 1, RAPTOR)
    play(g, "EX1_334", raptor)
    play(g, "EX1_332", raptor)
    end_turn(g)
    assert raptor.owner == 0 and board_ids(g, 1) == []
    g = make_game(hand=["EX1_334"], board=[WISP] * 7, enemy_board=[RAPTOR])
    assert not can_play(g, "EX1_334")


@covers("EX1_335")
def test_lightspawn_attack_equals_its_health():
    g = make_game(hand=["EX1_335", "CS2_004"], enemy_board=[RAPTOR])
    play(g, "EX1_335")
    spawn = minion(g, 0, "EX1_335")
    assert spawn.atk == 5
    play(g, "CS2_004", spawn)
    assert spawn.atk == 7
    end_turn(g)
    attack(g, minion(g, 1, RAPTOR), spawn)
    assert spawn.atk == 4
    g.silence(spawn)
    g.resolve()
    assert spawn.atk == 0


@covers("EX1_345", "EX1_345t")
def test_mindgames_summons_a_copy_of_an_enemy_deck_minion():
    g = make_game(hand=["EX1_345"], enemy_deck=["CS2_029", OGRE, "CS2_029"])
    play(g, "EX1_345")
    assert board_ids(g) == [OGRE] and len(g.players[1].deck) == 3
    g = make_game(hand=["EX1_345"], enemy_deck=["CS2_029"])
    play(g, "EX1_345")
    shadow = minion(g, 0, "EX1_345t")
    assert (shadow.atk, shadow.health) == (0, 1)
    g = make_game(hand=["EX1_345"], board=[WISP] * 7)
    assert not can_play(g, "EX1_345")


@covers("EX1_591")
def test_auchenai_soulpriest_turns_my_healing_into_damage():
    g = make_game(hand=["EX1_591", "EX1_621", VOODOO], board=[OGRE], enemy_board=[YETI],
                  classes=PRIEST)
    play(g, "EX1_591")
    play(g, "EX1_621")  # Circle of Healing: 4 damage to every minion
    assert minion(g, 0, OGRE).health == 3 and minion(g, 1, YETI).health == 1
    assert minion(g, 0, "EX1_591").health == 1
    hero_power(g, g.players[1].hero)  # Lesser Heal
    assert g.players[1].hero.health == 28
    play(g, VOODOO, minion(g, 1, YETI))  # a minion's healing too
    assert board_ids(g, 1) == []
    end_turn(g)
    g.silence(minion(g, 0, "EX1_591"))
    g.resolve()
    end_turn(g)
    g.players[0].hero.health = 20
    hero_power(g, g.players[0].hero)
    assert g.players[0].hero.health == 22


@covers("EX1_591")
def test_auchenai_does_not_change_the_enemys_healing():
    g = make_game(board=["EX1_591"], enemy_board=[YETI], enemy_hand=[VOODOO], classes=PRIEST)
    end_turn(g)
    minion(g, 1, YETI).damage = 3
    play(g, VOODOO, minion(g, 1, YETI))
    assert minion(g, 1, YETI).health == 4


@covers("EX1_626")
def test_mass_dispel_silences_enemy_minions_and_draws():
    g = make_game(hand=["EX1_626"], board=[KOBOLD], enemy_board=[KOBOLD, FOOTMAN])
    play(g, "EX1_626")
    assert all(m.silenced for m in g.players[1].board) and not minion(g, 0, KOBOLD).silenced
    assert not minion(g, 1, FOOTMAN).taunt and len(g.players[0].hand) == 1


@covers("CS1_112")
def test_holy_nova_hurts_enemies_and_heals_friends():
    g = make_game(hand=["CS1_112"], board=[YETI], enemy_board=[RAPTOR, OGRE])
    minion(g, 0, YETI).damage = 3
    g.players[0].hero.health = 29
    play(g, "CS1_112")
    assert board_ids(g, 1) == [OGRE] and minion(g, 1, OGRE).health == 5
    assert g.players[1].hero.health == 28
    assert minion(g, 0, YETI).health == 4 and g.players[0].hero.health == 30


@covers("GIL_837")
def test_glitter_moth_doubles_my_other_minions_health_with_an_odd_deck():
    g = make_game(hand=["GIL_837"], board=[YETI, CROC], enemy_board=[CROC],
                  deck=["CS2_032", "CS2_171"])  # costs 7 and 1
    minion(g, 0, CROC).damage = 2
    play(g, "GIL_837")
    assert minion(g, 0, YETI).health == 10 and minion(g, 0, "GIL_837").health == 4
    assert (minion(g, 0, CROC).health, minion(g, 0, CROC).max_health) == (4, 6)
    assert minion(g, 1, CROC).health == 3
    g = make_game(hand=["GIL_837"], board=[YETI], deck=[YETI])  # a 4-cost card
    play(g, "GIL_837")
    assert minion(g, 0, YETI).health == 5


@covers("EX1_091")
def test_cabal_shadow_priest_takes_a_minion_with_two_or_less_attack():
    g = make_game(hand=["EX1_091"], enemy_board=[CROC, RAPTOR])
    croc = minion(g, 1, CROC)
    assert targets(g, "EX1_091") == {croc.uid}
    play(g, "EX1_091", croc)
    assert board_ids(g, 0) == ["EX1_091", CROC] and croc.owner == 0
    end_turn(g)
    assert croc.owner == 0  # for good
    g = make_game(hand=["EX1_091"], enemy_board=[RAPTOR])
    play(g, "EX1_091")  # no target
    assert board_ids(g, 1) == [RAPTOR]


@covers("EX1_623")
def test_temple_enforcer_gives_a_friendly_minion_three_health():
    g = make_game(hand=["EX1_623"], board=[WISP], enemy_board=[CROC])
    assert targets(g, "EX1_623") == {minion(g, 0, WISP).uid}
    play(g, "EX1_623", minion(g, 0, WISP))
    assert minion(g, 0, WISP).health == 4


@covers("EX1_624")
def test_holy_fire_deals_five_and_heals_my_hero_five():
    g = make_game(hand=["EX1_624"], board=[KOBOLD])
    g.players[0].hero.health = 20
    play(g, "EX1_624", g.players[1].hero)
    assert g.players[1].hero.health == 25  # no Spell Damage (SabberStone)
    assert g.players[0].hero.health == 25


@covers("EX1_350")
def test_prophet_velen_doubles_spell_damage_and_spell_healing():
    g = make_game(hand=["CS1_130", "CS1_130", "EX1_192"], board=["EX1_350", KOBOLD],
                  classes=PRIEST, mana=10)
    play(g, "CS1_130", g.players[1].hero)
    assert g.players[1].hero.health == 24  # (2 + 1) * 2
    g.players[0].hero.health = 10
    play(g, "EX1_192")
    assert g.players[0].hero.health == 20
    hero_power(g, g.players[0].hero)
    assert g.players[0].hero.health == 24
    g.summon(0, "EX1_350")  # two Velens: four times
    play(g, "CS1_130", g.players[1].hero)
    assert g.players[1].hero.health == 12


@covers("EX1_350")
def test_prophet_velen_leaves_minions_and_the_enemy_alone():
    g = make_game(hand=[VOODOO], board=["EX1_350"], enemy_hand=["CS1_130"], classes=PRIEST)
    g.players[0].hero.health = 20
    play(g, VOODOO, g.players[0].hero)
    assert g.players[0].hero.health == 22
    end_turn(g)
    play(g, "CS1_130", g.players[0].hero)
    assert g.players[0].hero.health == 20


@covers("CS1_113")
def test_mind_control_takes_an_enemy_minion_for_good():
    g = make_game(hand=["CS1_113"], enemy_board=[OGRE])
    ogre = minion(g, 1, OGRE)
    play(g, "CS1_113", ogre)
    assert ogre.owner == 0 and board_ids(g, 0) == [OGRE] and not can_attack(g, ogre)
    end_turn(g)
    end_turn(g)
    assert ogre.owner == 0 and can_attack(g, ogre)
    g = make_game(hand=["CS1_113"], board=[WISP] * 7, enemy_board=[OGRE])
    assert not can_play(g, "CS1_113")


@covers("EX1_350", "EX1_591")
def test_velen_stops_doubling_when_silenced_and_doubles_auchenai_damage():
    g = make_game(hand=["CS1_130", "CS1_130"], board=["EX1_350", "EX1_591"], classes=PRIEST)
    hero_power(g, g.players[1].hero)  # Lesser Heal: 2, doubled, as damage
    assert g.players[1].hero.health == 26
    g.silence(minion(g, 0, "EX1_350"))
    g.resolve()
    play(g, "CS1_130", g.players[1].hero)
    assert g.players[1].hero.health == 24
    g.destroy(minion(g, 0, "EX1_591"))
    g.resolve()
    assert g.marks == ()


@covers("EX1_345")
def test_mindgames_picks_among_the_enemy_deck_minions():
    seen = set()
    for seed in range(10):
        g = make_game(hand=["EX1_345"], enemy_deck=[OGRE, "CS2_029", WISP, YETI], seed=seed)
        play(g, "EX1_345")
        (summoned,) = board_ids(g)
        assert summoned in (OGRE, WISP, YETI)
        seen.add(summoned)
    assert len(seen) > 1
