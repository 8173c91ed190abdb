"""Tests of the pool's mid-cost minions (workers/engine/cards/pool_mid.py): each checks its text."""
import pytest

from workers.engine.actions import ATTACK, PLAY, Action
from workers.engine.entities import Card
from workers.errors import IllegalActionError
from ..scenario import (attack, board_ids, covers, end_turn, hand_ids, library, make_game, minion,
                        play)


def play_at(g, card_id, position):
    """Play a minion at a chosen position even when the engine offers only the rightmost."""
    i = [c.cdef.id for c in g.player.hand].index(card_id)
    g.apply(Action(PLAY, i, -1, position), check=False)


@covers("NEW1_022")
def test_dread_corsair_costs_less_per_weapon_attack():
    g = make_game(hand=["NEW1_022"], mana=1)
    card = g.player.hand[0]
    assert g.cost_of(0, card) == 4
    w = g.equip(0, "CS2_082")  # 1-attack dagger
    assert g.cost_of(0, card) == 3
    w.atk = 3
    assert g.cost_of(0, card) == 1
    w.atk = 6
    assert g.cost_of(0, card) == 0
    play(g, "NEW1_022")
    corsair = minion(g, 0, "NEW1_022")
    assert corsair.taunt and g.players[0].mana == 1


@covers("CS2_147")
def test_gnomish_inventor_draws_a_card():
    g = make_game(hand=["CS2_147"], deck=["CS2_172"])
    play(g, "CS2_147")
    assert hand_ids(g) == ["CS2_172"]
    assert not g.players[0].deck
    assert minion(g, 0, "CS2_147").health == 4


@covers("EX1_057")
def test_ancient_brewmaster_returns_a_friendly_minion():
    g = make_game(hand=["EX1_057"], board=["CS2_120"], enemy_board=["CS2_172"])
    croc = minion(g, 0, "CS2_120")
    croc.damage = 1
    with pytest.raises(IllegalActionError):  # enemy minions are not valid targets
        play(g, "EX1_057", minion(g, 1, "CS2_172"))
    play(g, "EX1_057", croc)
    assert board_ids(g) == ["EX1_057"]
    assert hand_ids(g) == ["CS2_120"]
    assert board_ids(g, 1) == ["CS2_172"]
    # With no other friendly minion it can still be played, returning nothing.
    g2 = make_game(hand=["EX1_057"])
    play(g2, "EX1_057")
    assert board_ids(g2) == ["EX1_057"] and not g2.players[0].hand


@covers("EX1_186")
def test_si7_infiltrator_destroys_one_random_enemy_secret():
    lib = library()
    seen = set()
    for seed in (1, 2, 3, 4, 5, 6):
        g = make_game(hand=["EX1_186", "EX1_186"], seed=seed)
        g.players[1].secrets = [Card(g.new_uid(), lib["EX1_554"]), Card(g.new_uid(), lib["EX1_610"])]
        play(g, "EX1_186")
        left = [c.cdef.id for c in g.players[1].secrets]
        assert len(left) == 1
        seen.add(left[0])
        play(g, "EX1_186")
        assert not g.players[1].secrets
        assert not g.players[0].secrets
    assert seen == {"EX1_554", "EX1_610"}


@covers("EX1_186")
def test_si7_infiltrator_leaves_own_secrets():
    lib = library()
    g = make_game(hand=["EX1_186"])
    g.players[0].secrets = [Card(g.new_uid(), lib["EX1_554"])]
    play(g, "EX1_186")
    assert len(g.players[0].secrets) == 1


@covers("CS2_131")
def test_stormwind_knight_charges():
    g = make_game(hand=["CS2_131"], sick=True)
    play(g, "CS2_131")
    knight = minion(g, 0, "CS2_131")
    attack(g, knight, g.players[1].hero)
    assert g.players[1].hero.health == 28


@covers("CS2_182", "CS2_119")
def test_vanilla_yeti_and_snapjaw():
    g = make_game(hand=["CS2_182", "CS2_119"], mana=8)
    play(g, "CS2_182")
    play(g, "CS2_119")
    yeti, snap = minion(g, 0, "CS2_182"), minion(g, 0, "CS2_119")
    assert (yeti.atk, yeti.health, snap.atk, snap.health) == (4, 5, 2, 7)
    assert snap.race == "BEAST" and g.players[0].mana == 0
    assert not yeti.can_attack()  # no Charge


@covers("CS2_197")
def test_ogre_magi_adds_spell_damage():
    g = make_game(hand=["CS2_197", "CS2_072"], enemy_board=["CS2_182"])
    play(g, "CS2_197")
    yeti = minion(g, 1, "CS2_182")
    play(g, "CS2_072", yeti)  # Backstab: 2 + 1
    assert yeti.health == 2
    g.silence(minion(g, 0, "CS2_197"))
    assert g.spell_power(0) == 0


@covers("NEW1_026", "NEW1_026t")
def test_violet_teacher_summons_apprentice_on_own_spells_only():
    g = make_game(hand=["GAME_005", "CS2_072"], board=["NEW1_026", "CS2_120"],
                  enemy_hand=["GAME_005"], enemy_board=["CS2_182", "NEW1_026"])
    play(g, "GAME_005")
    assert board_ids(g) == ["NEW1_026", "NEW1_026t", "CS2_120"]
    app = g.players[0].board[1]
    assert (app.atk, app.health) == (1, 1)
    play(g, "CS2_072", minion(g, 1, "CS2_182"))
    assert board_ids(g).count("NEW1_026t") == 2
    assert board_ids(g, 1) == ["CS2_182", "NEW1_026"]  # the enemy Teacher did not trigger
    # Minions are not spells.
    g2 = make_game(hand=["CS2_120"], board=["NEW1_026"])
    play(g2, "CS2_120")
    assert "NEW1_026t" not in board_ids(g2)


@covers("NEW1_026")
def test_violet_teacher_triggers_on_secrets_and_not_when_silenced():
    g = make_game(hand=["EX1_554", "GAME_005"], board=["NEW1_026"])
    play(g, "EX1_554")
    assert board_ids(g) == ["NEW1_026", "NEW1_026t"]
    g.silence(minion(g, 0, "NEW1_026"))
    play(g, "GAME_005")
    assert board_ids(g) == ["NEW1_026", "NEW1_026t"]


@covers("EX1_048")
def test_spellbreaker_silences_a_minion():
    g = make_game(hand=["EX1_048", "EX1_048"], board=["CS2_122", "CS2_120"],
                  enemy_board=["NEW1_022"])
    corsair = minion(g, 1, "NEW1_022")
    assert corsair.taunt
    play(g, "EX1_048", corsair)
    assert corsair.silenced and not corsair.taunt
    leader, croc = minion(g, 0, "CS2_122"), minion(g, 0, "CS2_120")
    assert croc.atk == 3
    play(g, "EX1_048", leader)  # friendly minions can be targeted too
    assert leader.silenced and croc.atk == 2


@covers("EX1_584")
def test_ancient_mage_gives_adjacent_minions_spell_damage():
    g = make_game(hand=["EX1_584", "CS2_072"], board=["CS2_120", "CS2_172", "CS1_042"],
                  enemy_board=["CS2_182"])
    play(g, "EX1_584", position=1)  # between the Crocolisk and the Raptor
    croc, raptor, foot = g.players[0].board[0], g.players[0].board[2], g.players[0].board[3]
    assert board_ids(g)[1] == "EX1_584"
    assert (croc.spell_damage, raptor.spell_damage, foot.spell_damage) == (1, 1, 0)
    assert minion(g, 0, "EX1_584").spell_damage == 0
    yeti = minion(g, 1, "CS2_182")
    play(g, "CS2_072", yeti)  # 2 + 2
    assert yeti.health == 1
    g.silence(croc)
    assert g.spell_power(0) == 1 and croc.spell_damage == 0


@covers("EX1_584")
def test_ancient_mage_makes_position_a_choice():
    g = make_game(hand=["EX1_584"], board=["CS2_120"])
    plays = [a for a in g.legal_actions() if a.kind == PLAY and a.index == 0]
    assert {a.position for a in plays} >= {0, 1}
    play(g, "EX1_584", position=0)
    assert [m.cdef.id for m in g.player.board] == ["EX1_584", "CS2_120"]
    assert minion(g, 0, "CS2_120").spell_damage == 1  # the neighbour on its right


@covers("EX1_043")
def test_twilight_drake_gains_health_per_card_in_hand():
    g = make_game(hand=["EX1_043", "CS2_120", "CS2_120", "CS2_172"])
    play(g, "EX1_043")
    drake = minion(g, 0, "EX1_043")
    assert (drake.atk, drake.health, drake.max_health) == (4, 4, 4)
    g.silence(drake)
    assert drake.health == 1


@covers("EX1_025", "EX1_025t")
def test_dragonling_mechanic_summons_a_dragonling_to_its_right():
    g = make_game(hand=["EX1_025"], board=["CS2_120"])
    play_at(g, "EX1_025", 0)
    assert board_ids(g) == ["EX1_025", "EX1_025t", "CS2_120"]
    d = g.players[0].board[1]
    assert (d.atk, d.health, d.race) == (2, 1, "MECHANICAL")
    # A full board leaves no room for the Dragonling.
    g2 = make_game(hand=["EX1_025"], board=["CS2_120"] * 6)
    play(g2, "EX1_025")
    assert len(g2.players[0].board) == 7 and "EX1_025t" not in board_ids(g2)


@covers("EX1_595")
def test_cult_master_draws_when_a_friendly_minion_dies():
    g = make_game(board=["EX1_595", "CS2_172"], enemy_board=["CS2_182", "CS2_120"],
                  deck=["CS2_147"] * 3)
    attack(g, minion(g, 0, "CS2_172"), minion(g, 1, "CS2_182"))  # the Raptor dies
    assert hand_ids(g) == ["CS2_147"]
    # An enemy minion dying draws nothing.
    g.players[1].board[0].damage = 10
    g.resolve()
    assert len(g.players[0].hand) == 1 and len(g.players[1].hand) == 0
    # Cult Master's own death draws nothing.
    attack(g, minion(g, 0, "EX1_595"), minion(g, 1, "CS2_120"))
    assert len(g.players[0].hand) == 1


@covers("EX1_595")
def test_cult_master_dying_together_does_not_draw():
    g = make_game(board=["EX1_595", "CS2_120"], deck=["CS2_147"] * 3)
    for m in g.players[0].board:
        m.damage = 10
    g.resolve()
    assert not g.players[0].board and not g.players[0].hand


@covers("EX1_564")
def test_faceless_manipulator_copies_with_enchantments():
    g = make_game(hand=["EX1_564"], enemy_board=["CS2_182"], board=["CS2_122"])
    yeti = minion(g, 1, "CS2_182")
    g.buff(yeti, 2, 2)  # an enchantment: 6/7
    yeti.damage = 3
    yeti.taunt = True
    play(g, "EX1_564", yeti)
    copy = g.players[0].board[1]
    assert copy.cdef.id == "CS2_182" and copy.owner == 0
    # 6/7 with 3 damage, +1 Attack from our Raid Leader's aura.
    assert (copy.atk, copy.health, copy.max_health) == (7, 4, 7) and copy.taunt
    assert copy.sick and not copy.can_attack()
    assert copy.uid != yeti.uid
    g.buff(copy, 1, 1)
    assert yeti.atk == 6  # independent of the original
    g.silence(copy)
    assert (copy.atk, copy.health) == (5, 5)


@covers("EX1_564")
def test_faceless_manipulator_copies_card_behaviour():
    g = make_game(hand=["EX1_564"], board=["CS2_120"], enemy_board=["EX1_595"],
                  deck=["CS2_147"] * 3)
    play(g, "EX1_564", minion(g, 1, "EX1_595"))
    assert board_ids(g) == ["CS2_120", "EX1_595"]
    copy = g.players[0].board[1]
    assert (copy.atk, copy.health) == (4, 2)
    g.players[0].board[0].damage = 10  # our Crocolisk dies: the copied Cult Master draws
    g.resolve()
    assert hand_ids(g) == ["CS2_147"] and not g.players[1].hand
    # A copy of a silenced minion is silenced too.
    g2 = make_game(hand=["EX1_564"], enemy_board=["CS2_122"], board=["CS2_120"])
    g2.silence(minion(g2, 1, "CS2_122"))
    play(g2, "EX1_564", minion(g2, 1, "CS2_122"))
    assert g2.players[0].board[1].silenced and minion(g2, 0, "CS2_120").atk == 2


@covers("EX1_558")
def test_harrison_jones_destroys_weapon_and_draws_its_durability():
    g = make_game(hand=["EX1_558"], deck=["CS2_147"] * 5)
    w = g.equip(1, "CS2_082")
    w.durability = 3
    play(g, "EX1_558")
    assert g.players[1].weapon is None
    assert hand_ids(g) == ["CS2_147"] * 3
    # No weapon: nothing happens.
    g2 = make_game(hand=["EX1_558"])
    g2.equip(0, "CS2_082")
    play(g2, "EX1_558")
    assert not g2.players[0].hand and g2.players[0].weapon is not None


@covers("CS2_221")
def test_spiteful_smith_buffs_weapon_while_damaged():
    g = make_game(board=["CS2_221"], enemy_board=["CS2_120", "CS2_120"])
    g.equip(0, "CS2_082")
    smith = minion(g, 0, "CS2_221")
    assert g.hero_atk(g.players[0]) == 1
    attack(g, smith, g.players[1].board[0])
    assert smith.damaged and g.hero_atk(g.players[0]) == 3
    attack(g, g.players[0].hero, g.players[1].hero)
    assert g.players[1].hero.health == 27
    g.heal(smith, 5)
    g.resolve()
    assert g.hero_atk(g.players[0]) == 1
    smith.damage = 1
    g.silence(smith)
    g.resolve()
    assert g.hero_atk(g.players[0]) == 1


@covers("EX1_028")
def test_stranglethorn_tiger_has_stealth():
    g = make_game(hand=["EX1_028"], enemy_hand=["CS2_072"], enemy_board=["CS2_120"])
    play(g, "EX1_028")
    tiger = minion(g, 0, "EX1_028")
    assert tiger.stealth
    end_turn(g)
    assert tiger not in g.targets_for(1, library()["CS2_072"].script.target, True)
    # the enemy's River Crocolisk may attack the hero only
    assert [a.target for a in g.legal_actions() if a.kind == ATTACK] == [g.players[0].hero.uid]
    end_turn(g)
    attack(g, tiger, g.players[1].hero)
    assert not tiger.stealth and g.players[1].hero.health == 25


@covers("CS2_226")
def test_frostwolf_warlord_gains_per_other_friendly_minion():
    g = make_game(hand=["CS2_226"], board=["CS2_120", "CS2_172", "CS1_042"],
                  enemy_board=["CS2_120"])
    play(g, "CS2_226")
    w = minion(g, 0, "CS2_226")
    assert (w.atk, w.health) == (7, 7)
    g2 = make_game(hand=["CS2_226"], enemy_board=["CS2_120"])
    play(g2, "CS2_226")
    assert (minion(g2, 0, "CS2_226").atk, minion(g2, 0, "CS2_226").health) == (4, 4)


@covers("EX1_005")
def test_big_game_hunter_destroys_only_7_attack_minions():
    g = make_game(hand=["EX1_005", "EX1_005"], enemy_board=["CS2_182", "CS2_120"])
    yeti, croc = minion(g, 1, "CS2_182"), minion(g, 1, "CS2_120")
    g.buff(yeti, 3, 0)  # 7 attack
    g.buff(croc, 4, 0)  # 6 attack
    with pytest.raises(IllegalActionError):
        play(g, "EX1_005", croc)
    play(g, "EX1_005", yeti)
    assert board_ids(g, 1) == ["CS2_120"]
    play(g, "EX1_005")  # no valid target: played without effect
    assert board_ids(g, 1) == ["CS2_120"] and len(g.players[0].board) == 2


@covers("CS2_151", "CS2_152")
def test_silver_hand_knight_summons_a_squire():
    g = make_game(hand=["CS2_151"], board=["CS2_120"])
    play_at(g, "CS2_151", 0)
    assert board_ids(g) == ["CS2_151", "CS2_152", "CS2_120"]
    squire = g.players[0].board[1]
    assert (squire.atk, squire.health) == (2, 2)
