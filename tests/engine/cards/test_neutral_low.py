"""Tests of the cheap neutral minions: each checks what the card's text says happens."""
import pytest

from workers.engine.actions import PLAY
from workers.engine.cardspec import CHARACTER
from workers.errors import IllegalActionError
from ..scenario import attack, board_ids, covers, end_turn, hero_power, make_game, minion, play

CROC, RAPTOR, BACKSTAB, COIN, SNAKE_TRAP, KNIFE = (
    "CS2_120", "CS2_172", "CS2_072", "GAME_005", "EX1_554", "CS2_082")


# ---------------------------------------------------------------- keyword-only minions
@covers("CS2_231")
def test_wisp_is_a_one_one_for_zero():
    g = make_game(hand=["CS2_231"], mana=0)
    play(g, "CS2_231")
    wisp = minion(g, 0, "CS2_231")
    assert (wisp.atk, wisp.health, g.player.mana) == (1, 1, 0)


@covers("CS2_171")
def test_stonetusk_boar_charges():
    g = make_game(hand=["CS2_171"])
    play(g, "CS2_171")
    attack(g, minion(g, 0, "CS2_171"), g.players[1].hero)
    assert g.players[1].hero.health == 29


@covers("EX1_010")
def test_worgen_infiltrator_stealth_blocks_attacks_until_it_attacks():
    g = make_game(board=["EX1_010"], enemy_board=[CROC])
    worgen = minion(g, 0, "EX1_010")
    end_turn(g)
    croc = minion(g, 1, CROC)
    with pytest.raises(IllegalActionError):
        attack(g, croc, worgen)
    end_turn(g)
    attack(g, worgen, g.players[1].hero)
    assert not worgen.stealth
    end_turn(g)
    attack(g, croc, worgen)
    assert not g.players[0].board


@covers("CS2_168")
def test_murloc_raider_is_a_two_one_murloc():
    g = make_game(hand=["CS2_168"])
    play(g, "CS2_168")
    m = minion(g, 0, "CS2_168")
    assert (m.atk, m.health, m.race) == (2, 1, "MURLOC")


@covers("CS2_142")
def test_kobold_geomancer_adds_spell_damage():
    g = make_game(hand=["CS2_142", BACKSTAB], enemy_board=["CS2_200"])  # Boulderfist Ogre 6/7
    play(g, "CS2_142")
    play(g, BACKSTAB, minion(g, 1, "CS2_200"))
    assert minion(g, 1, "CS2_200").health == 4


@covers("NEW1_023")
def test_faerie_dragon_cannot_be_targeted_by_spells_or_hero_powers():
    g = make_game(hand=[BACKSTAB, "EX1_011"], enemy_board=["NEW1_023"], classes=("HUNTER", "HUNTER"))
    dragon = minion(g, 1, "NEW1_023")
    with pytest.raises(IllegalActionError):
        play(g, BACKSTAB, dragon)
    play(g, "EX1_011", dragon)  # a battlecry may target it
    # Hero powers can't either: the targets a targeted power would get.
    assert dragon not in g.targets_for(0, CHARACTER, False, by_power=True)
    assert dragon in g.targets_for(0, CHARACTER, False)


# ---------------------------------------------------------------- 1 mana
@covers("EX1_009")
def test_angry_chicken_has_plus_five_attack_while_damaged():
    g = make_game(board=["EX1_009"])
    chicken = minion(g, 0, "EX1_009")
    g.buff(chicken, health=1)
    assert chicken.atk == 1
    g.damage(None, chicken, 1)
    g.resolve()
    assert chicken.atk == 6
    g.heal(chicken, 1)
    g.resolve()
    assert chicken.atk == 1
    g.damage(None, chicken, 1)
    g.silence(chicken)
    g.resolve()
    assert chicken.atk == 1


@covers("EX1_001")
def test_lightwarden_gains_two_attack_when_any_character_is_healed():
    g = make_game(hand=["EX1_011", "EX1_011", "EX1_011"], board=["EX1_001"], enemy_board=[CROC])
    warden = minion(g, 0, "EX1_001")
    play(g, "EX1_011", g.players[0].hero)  # undamaged: nothing is healed
    assert warden.atk == 1
    croc = minion(g, 1, CROC)
    g.damage(None, croc, 1)
    play(g, "EX1_011", croc)  # an enemy minion healed counts too
    assert warden.atk == 3
    g.damage(None, g.players[1].hero, 5)
    play(g, "EX1_011", g.players[1].hero)
    assert warden.atk == 5


@covers("EX1_509")
def test_murloc_tidecaller_grows_on_friendly_murloc_summons_only():
    g = make_game(hand=["EX1_509", "CS2_168", CROC, "EX1_506"], enemy_hand=["CS2_168"])
    play(g, "EX1_509")
    caller = minion(g, 0, "EX1_509")
    assert caller.atk == 1  # not itself
    play(g, CROC)
    assert caller.atk == 1
    play(g, "CS2_168")
    assert caller.atk == 2
    play(g, "EX1_506")  # Tidehunter and its Scout
    assert caller.atk == 4
    end_turn(g)
    play(g, "CS2_168")  # the enemy's murloc
    assert caller.atk == 4


@covers("EX1_080")
def test_secretkeeper_grows_when_either_player_plays_a_secret():
    g = make_game(hand=[SNAKE_TRAP], board=["EX1_080"], enemy_hand=[SNAKE_TRAP])
    keeper = minion(g, 0, "EX1_080")
    play(g, SNAKE_TRAP)
    assert (keeper.atk, keeper.health) == (2, 3)
    end_turn(g)
    g.players[1].mana = 10
    play(g, SNAKE_TRAP)
    assert (keeper.atk, keeper.health) == (3, 4)


@covers("EX1_011")
def test_voodoo_doctor_restores_two_health():
    g = make_game(hand=["EX1_011", "EX1_011"], board=["CS2_200"])
    hero = g.players[0].hero
    g.damage(None, hero, 5)
    play(g, "EX1_011", hero)
    assert hero.health == 27
    ogre = minion(g, 0, "CS2_200")
    g.damage(None, ogre, 1)
    play(g, "EX1_011", ogre)
    assert ogre.health == 7  # not above its maximum


@covers("NEW1_025")
def test_bloodsail_corsair_removes_one_enemy_weapon_durability():
    g = make_game(hand=["NEW1_025", "NEW1_025", "NEW1_025"])
    play(g, "NEW1_025")  # no weapon: nothing happens
    g.equip(1, KNIFE)  # 1/2
    play(g, "NEW1_025")
    assert g.players[1].weapon.durability == 1
    g.equip(0, KNIFE)
    play(g, "NEW1_025")
    assert g.players[1].weapon is None
    assert g.players[0].weapon.durability == 2  # own weapon untouched


@covers("NEW1_017")
def test_hungry_crab_destroys_a_murloc_and_grows():
    g = make_game(hand=["NEW1_017", "NEW1_017"], enemy_board=[CROC, "CS2_168"])
    legal_targets = {a.target for a in g.legal_actions() if a.index == 0 and a.kind == PLAY}
    murloc = minion(g, 1, "CS2_168")
    play(g, "NEW1_017", murloc)
    assert board_ids(g, 1) == [CROC]
    crab = minion(g, 0, "NEW1_017")
    assert (crab.atk, crab.health) == (3, 4)
    # With no murloc left it is played without a target and without a bonus.
    with pytest.raises(IllegalActionError):
        play(g, "NEW1_017", minion(g, 1, CROC))
    play(g, "NEW1_017")
    assert [(m.atk, m.health) for m in g.players[0].board] == [(3, 4), (1, 2)]
    assert murloc.uid in legal_targets and minion(g, 1, CROC).uid not in legal_targets


@covers("EX1_004")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_young_priestess_gives_another_friend_health_at_own_turn_end(seed):
    g = make_game(board=["EX1_004", CROC, RAPTOR], enemy_board=[CROC], seed=seed)
    priestess = minion(g, 0, "EX1_004")
    end_turn(g)
    mine = [(m.cdef.id, m.max_health) for m in g.players[0].board]
    assert priestess.max_health == 1
    assert sorted(h for i, h in mine if i != "EX1_004") in ([2, 4], [3, 3])
    assert minion(g, 1, CROC).max_health == 3
    before = [m.max_health for m in g.players[0].board]
    end_turn(g)  # the enemy's turn end: nothing
    assert [m.max_health for m in g.players[0].board] == before


@covers("EX1_004")
def test_young_priestess_alone_does_nothing():
    g = make_game(board=["EX1_004"])
    end_turn(g)
    assert minion(g, 0, "EX1_004").max_health == 1


@covers("CS2_146")
def test_southsea_deckhand_has_charge_only_with_a_weapon():
    g = make_game(hand=["CS2_146", "CS2_146"], classes=("ROGUE", "HUNTER"))
    play(g, "CS2_146")
    first = g.players[0].board[0]
    assert not first.can_attack()
    hero_power(g)  # Dagger Mastery
    assert first.can_attack()
    play(g, "CS2_146")
    attack(g, g.players[0].board[1], g.players[1].hero)
    assert g.players[1].hero.health == 28
    g.destroy_weapon(0)
    g.resolve()
    assert first.can_attack()  # SabberStone: losing the Charge does not exhaust it again
    g = make_game(hand=["CS2_146"], classes=("ROGUE", "HUNTER"))
    play(g, "CS2_146")  # never had a weapon: sick as any minion
    assert not g.players[0].board[0].can_attack()


@covers("EX1_076")
def test_pint_sized_summoner_discounts_the_first_minion_each_turn():
    g = make_game(hand=["EX1_076", CROC, CROC, "CS2_029"], board=["EX1_076"],
                  enemy_hand=[CROC])
    costs = lambda side: [g.cost_of(side, c) for c in g.players[side].hand]
    assert costs(0) == [1, 1, 1, 4]  # minions only: Fireball keeps its cost
    assert costs(1) == [2]  # the enemy's minions never get it
    play(g, CROC)
    assert g.player.mana == 9
    assert costs(0) == [2, 2, 4]  # the second minion: full price
    end_turn(g)
    end_turn(g)
    assert costs(0)[:3] == [1, 1, 4]  # a new turn


@covers("EX1_076")
def test_pint_sized_summoner_two_stack():
    g = make_game(hand=[CROC], board=["EX1_076", "EX1_076"])
    assert g.cost_of(0, g.player.hand[0]) == 0


# ---------------------------------------------------------------- 2 mana
@covers("EX1_096")
def test_loot_hoarder_draws_on_death():
    g = make_game(board=["EX1_096"], enemy_board=[CROC])
    hand = len(g.players[0].hand)
    attack(g, minion(g, 0, "EX1_096"), minion(g, 1, CROC))
    assert not g.players[0].board
    assert len(g.players[0].hand) == hand + 1


@covers("EX1_096")
def test_silenced_loot_hoarder_draws_nothing():
    g = make_game(board=["EX1_096"], enemy_board=[CROC])
    hand = len(g.players[0].hand)
    g.silence(minion(g, 0, "EX1_096"))
    attack(g, minion(g, 0, "EX1_096"), minion(g, 1, CROC))
    assert len(g.players[0].hand) == hand


@covers("EX1_506", "EX1_506a")
def test_murloc_tidehunter_summons_a_scout_to_its_right():
    g = make_game(hand=["EX1_506"], board=["EX1_162", CROC, RAPTOR])  # the Wolf: positions matter
    play(g, "EX1_506", position=2)
    assert board_ids(g, 0) == ["EX1_162", CROC, "EX1_506", "EX1_506a", RAPTOR]
    scout = minion(g, 0, "EX1_506a")
    assert (scout.atk, scout.health, scout.race) == (1, 1, "MURLOC")


@covers("EX1_506")
def test_murloc_tidehunter_with_a_full_board_after_it():
    g = make_game(hand=["EX1_506"], board=[CROC] * 6)
    play(g, "EX1_506")
    assert len(g.players[0].board) == 7
    assert "EX1_506a" not in board_ids(g, 0)


@covers("EX1_100")
def test_lorewalker_cho_copies_spells_to_the_other_player():
    g = make_game(hand=[COIN, BACKSTAB], board=["EX1_100"], enemy_board=[CROC], enemy_hand=[])
    play(g, COIN)
    assert [c.cdef.id for c in g.players[1].hand] == [COIN]
    play(g, BACKSTAB, minion(g, 1, CROC))
    assert [c.cdef.id for c in g.players[1].hand] == [COIN, BACKSTAB]
    assert [c.cdef.id for c in g.players[0].hand] == []
    end_turn(g)
    n = len(g.players[0].hand)
    play(g, COIN)  # the enemy casts: the copy comes to us
    assert len(g.players[0].hand) == n + 1 and g.players[0].hand[-1].cdef.id == COIN


@covers("NEW1_037")
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_master_swordsmith_gives_another_friend_attack(seed):
    g = make_game(board=["NEW1_037", CROC, RAPTOR], enemy_board=[CROC], seed=seed)
    end_turn(g)
    sword, croc, raptor = g.players[0].board
    assert sword.atk == 1
    assert sorted([croc.atk - 2, raptor.atk - 3]) == [0, 1]
    assert minion(g, 1, CROC).atk == 2
    end_turn(g)  # after the enemy's turn end
    assert croc.atk + raptor.atk == 6


@covers("EX1_012")
def test_bloodmage_thalnos_spell_damage_and_draw():
    g = make_game(hand=[BACKSTAB], board=["EX1_012"], enemy_board=["CS2_200", CROC])
    play(g, BACKSTAB, minion(g, 1, "CS2_200"))
    assert minion(g, 1, "CS2_200").health == 4
    hand = len(g.players[0].hand)
    attack(g, minion(g, 0, "EX1_012"), minion(g, 1, CROC))
    assert len(g.players[0].hand) == hand + 1


@covers("NEW1_018")
def test_bloodsail_raider_gains_weapon_attack():
    g = make_game(hand=["NEW1_018", "NEW1_018"])
    play(g, "NEW1_018")
    assert minion(g, 0, "NEW1_018").atk == 2
    g.equip(0, "CS2_082")
    g.players[0].weapon.atk = 3  # e.g. after a weapon buff
    play(g, "NEW1_018")
    assert [m.atk for m in g.players[0].board] == [2, 5]
    end_turn(g)
    assert g.players[0].board[1].atk == 5  # permanent


@covers("EX1_058")
def test_sunfury_protector_gives_adjacent_minions_taunt():
    g = make_game(hand=["EX1_058"], board=[CROC, RAPTOR, "CS2_200"])
    acts = [a for a in g.legal_actions() if a.kind == PLAY]
    assert {a.position for a in acts} == {0, 1, 2, 3}  # positional
    play(g, "EX1_058", position=1)
    taunts = [(m.cdef.id, m.taunt) for m in g.players[0].board]
    assert taunts == [(CROC, True), ("EX1_058", False), (RAPTOR, True), ("CS2_200", False)]


@covers("EX1_015")
def test_novice_engineer_draws_a_card():
    g = make_game(hand=["EX1_015"])
    play(g, "EX1_015")
    assert len(g.players[0].hand) == 1 and len(g.players[0].deck) == 19


@covers("NEW1_020")
def test_wild_pyromancer_hits_all_minions_after_own_spells():
    g = make_game(hand=[COIN], board=["NEW1_020", CROC], enemy_board=[RAPTOR, "CS2_231"],
                  enemy_hand=[COIN])
    play(g, COIN)
    assert [m.health for m in g.players[0].board] == [1, 2]
    assert board_ids(g, 1) == [RAPTOR]
    assert minion(g, 1, RAPTOR).health == 1
    assert g.players[0].hero.health == 30 and g.players[1].hero.health == 30
    end_turn(g)
    play(g, COIN)  # the enemy's spell: no trigger
    assert minion(g, 0, "NEW1_020").health == 1


@covers("NEW1_020")
def test_wild_pyromancer_killed_by_the_spell_does_not_trigger():
    g = make_game(hand=[BACKSTAB], board=["NEW1_020", CROC])
    play(g, BACKSTAB, minion(g, 0, "NEW1_020"))
    assert board_ids(g, 0) == [CROC]
    assert minion(g, 0, CROC).health == 3


@covers("EX1_049")
def test_youthful_brewmaster_returns_a_friendly_minion():
    g = make_game(hand=["EX1_049"], board=[CROC], enemy_board=[RAPTOR])
    croc = minion(g, 0, CROC)
    g.buff(croc, atk=3)
    with pytest.raises(IllegalActionError):
        play(g, "EX1_049", minion(g, 1, RAPTOR))
    play(g, "EX1_049", croc)
    assert board_ids(g, 0) == ["EX1_049"]
    assert [c.cdef.id for c in g.players[0].hand] == [CROC]


@covers("EX1_049")
def test_youthful_brewmaster_on_an_empty_board():
    g = make_game(hand=["EX1_049"])
    play(g, "EX1_049")
    assert board_ids(g, 0) == ["EX1_049"] and not g.players[0].hand


@covers("EX1_162")
def test_dire_wolf_alpha_buffs_adjacent_minions():
    g = make_game(hand=["EX1_162"], board=[CROC, RAPTOR, "CS2_200"], enemy_board=[CROC])
    assert {a.position for a in g.legal_actions() if a.kind == PLAY} == {0, 1, 2, 3}
    play(g, "EX1_162", position=1)
    assert [m.atk for m in g.players[0].board] == [3, 2, 4, 6]
    assert minion(g, 1, CROC).atk == 2
    # The raptor dies: the ogre becomes adjacent.
    g.destroy(minion(g, 0, RAPTOR))
    g.resolve()
    assert [m.atk for m in g.players[0].board] == [3, 2, 7]
    g.silence(minion(g, 0, "EX1_162"))
    g.resolve()
    assert [m.atk for m in g.players[0].board] == [2, 2, 6]


@covers("EX1_066")
def test_acidic_swamp_ooze_destroys_the_enemy_weapon():
    g = make_game(hand=["EX1_066", "EX1_066"])
    g.equip(0, KNIFE)
    play(g, "EX1_066")  # no enemy weapon: nothing
    assert g.players[0].weapon is not None
    g.equip(1, KNIFE)
    play(g, "EX1_066")
    assert g.players[1].weapon is None and g.players[0].weapon is not None


@covers("EX1_055")
def test_mana_addict_gains_two_attack_this_turn_per_own_spell():
    g = make_game(hand=[COIN, COIN], board=["EX1_055"], enemy_hand=[COIN])
    addict = minion(g, 0, "EX1_055")
    play(g, COIN)
    play(g, COIN)
    assert addict.atk == 5
    end_turn(g)
    assert addict.atk == 1
    play(g, COIN)  # the enemy's spell
    assert addict.atk == 1


@covers("NEW1_029")
def test_millhouse_makes_enemy_spells_free_next_turn_only():
    g = make_game(hand=["NEW1_029", "CS2_029"], enemy_hand=["CS2_029"])  # Fireball
    play(g, "NEW1_029")
    assert g.cost_of(0, g.players[0].hand[0]) == 4  # own spells unchanged
    end_turn(g)
    fireball = next(c for c in g.players[1].hand if c.cdef.id == "CS2_029")
    assert g.cost_of(1, fireball) == 0
    assert g.cost_of(1, next(c for c in g.players[1].hand if c.cdef.id == CROC)) == 2
    end_turn(g)
    end_turn(g)
    assert g.cost_of(1, fireball) == 4


@covers("NEW1_016")
def test_captains_parrot_draws_a_pirate_from_the_deck():
    corsair = "NEW1_025"  # Bloodsail Corsair, a Pirate
    g = make_game(hand=["NEW1_016"], deck=[corsair, CROC, CROC])
    play(g, "NEW1_016")
    assert [c.cdef.id for c in g.player.hand] == [corsair]
    assert [c.cdef.id for c in g.player.deck] == [CROC, CROC]
    g = make_game(hand=["NEW1_016"], deck=[CROC, CROC])  # no Pirate: nothing
    play(g, "NEW1_016")
    assert g.player.hand == [] and len(g.player.deck) == 2
