"""Tests of the Druid cards, their Choose One options and tokens, and Shapeshift."""
from workers.engine.actions import ATTACK, PLAY_OPTION_1, PLAY_OPTION_2
from ..scenario import (attack, board_ids, covers, end_turn, find_card, hand_ids, hero_power,
                        make_game, minion, play, play_option, stats)

CROC, RAPTOR, YETI, KOBOLD = "CS2_120", "CS2_172", "CS2_182", "CS2_142"  # 2/3, 3/2, 4/5, SD+1
SQUIRE = "EX1_008"  # Argent Squire 1/1 Divine Shield


def plays_of(g, card_id):
    i = find_card(g, card_id)
    return [m for m in g.legal_moves() if m[0] not in (0, ATTACK) and m[1] == i]


# ---------------------------------------------------------------- Basic
@covers("CS2_005")
def test_claw_gives_the_hero_two_attack_this_turn_and_two_armor():
    g = make_game(hand=["CS2_005"])
    play(g, "CS2_005")
    hero = g.players[0].hero
    assert (g.hero_atk(g.players[0]), hero.armor) == (2, 2)
    attack(g, hero, g.players[1].hero)
    assert g.players[1].hero.health == 28
    end_turn(g)
    assert (hero.turn_atk, hero.armor) == (0, 2)  # the Attack lasts this turn; the Armor stays


@covers("CS2_008")
def test_moonfire_deals_one_damage_plus_spell_damage():
    g = make_game(hand=["CS2_008", "CS2_008"], board=[KOBOLD])
    enemy = g.players[1].hero
    play(g, "CS2_008", enemy)
    assert enemy.health == 28
    g.players[0].board.clear()
    play(g, "CS2_008", enemy)
    assert enemy.health == 27


@covers("EX1_169")
def test_innervate_gives_one_mana_this_turn_only():
    g = make_game(hand=["EX1_169", "CS2_005"], mana=0)
    assert plays_of(g, "CS2_005") == []  # Claw costs (1)
    play(g, "EX1_169")
    assert (g.player.mana, g.player.max_mana) == (1, 0)
    play(g, "CS2_005")
    assert g.player.mana == 0
    end_turn(g)
    end_turn(g)
    assert (g.player.mana, g.player.max_mana) == (1, 1)


@covers("CS2_009")
def test_mark_of_the_wild_gives_taunt_and_two_two():
    g = make_game(hand=["CS2_009"], enemy_board=[CROC])
    play(g, "CS2_009", minion(g, 1, CROC))
    croc = minion(g, 1, CROC)
    assert stats(croc) == (4, 5) and croc.taunt


@covers("CS2_011")
def test_savage_roar_gives_every_friendly_character_two_attack_this_turn():
    g = make_game(hand=["CS2_011"], board=[CROC, RAPTOR], enemy_board=[YETI])
    play(g, "CS2_011")
    assert [m.atk for m in g.players[0].board] == [4, 5]
    assert g.hero_atk(g.players[0]) == 2
    assert minion(g, 1, YETI).atk == 4  # not the enemy's
    end_turn(g)
    assert [m.atk for m in g.players[0].board] == [2, 3]
    assert g.players[0].hero.turn_atk == 0


@covers("CS2_013", "CS2_013t")
def test_wild_growth_gains_an_empty_crystal_or_gives_excess_mana_at_ten():
    g = make_game(hand=["CS2_013"], mana=5)
    play(g, "CS2_013")
    assert (g.player.mana, g.player.max_mana) == (2, 6)
    assert hand_ids(g) == []

    g = make_game(hand=["CS2_013"], mana=10)
    play(g, "CS2_013")
    assert (g.player.mana, g.player.max_mana) == (7, 10)
    assert hand_ids(g) == ["CS2_013t"]
    play(g, "CS2_013t")  # Excess Mana: (0), draw a card
    assert hand_ids(g) == ["CS2_120"] and g.player.mana == 7


@covers("CS2_007")
def test_healing_touch_restores_eight_health():
    g = make_game(hand=["CS2_007"])
    hero = g.players[0].hero
    hero.health = 15
    play(g, "CS2_007", hero)
    assert hero.health == 23


@covers("CS2_012")
def test_swipe_deals_four_to_an_enemy_and_one_to_all_other_enemies():
    g = make_game(hand=["CS2_012"], board=[CROC], enemy_board=[YETI, RAPTOR])
    targets = {m[2] for m in plays_of(g, "CS2_012")}
    assert targets == {g.players[1].hero.uid, minion(g, 1, YETI).uid, minion(g, 1, RAPTOR).uid}
    play(g, "CS2_012", minion(g, 1, YETI))
    assert minion(g, 1, YETI).health == 1 and minion(g, 1, RAPTOR).health == 1
    assert g.players[1].hero.health == 29
    assert minion(g, 0, CROC).health == 3  # own minions untouched


@covers("EX1_173")
def test_starfire_deals_five_and_draws():
    g = make_game(hand=["EX1_173"], enemy_board=[YETI])
    play(g, "EX1_173", minion(g, 1, YETI))
    assert board_ids(g, 1) == []
    assert hand_ids(g) == [CROC]


@covers("CS2_232", "HERO_06")
def test_ironbark_protector_is_an_eight_eight_taunt_and_malfurion_has_thirty_health():
    g = make_game(hand=["CS2_232"], classes=("DRUID", "HUNTER"))
    assert g.players[0].hero.health == 30 and g.players[0].hero.cdef.id == "HERO_06"
    play(g, "CS2_232")
    ironbark = minion(g, 0, "CS2_232")
    assert stats(ironbark) == (8, 8) and ironbark.taunt


@covers("CS2_017")
def test_shapeshift_gives_one_attack_this_turn_and_one_armor():
    g = make_game(classes=("DRUID", "HUNTER"), enemy_board=[RAPTOR])
    hero_power(g)
    hero = g.players[0].hero
    assert (g.hero_atk(g.players[0]), hero.armor, g.player.mana) == (1, 1, 8)
    attack(g, hero, minion(g, 1, RAPTOR))
    assert minion(g, 1, RAPTOR).health == 1 and hero.armor == 0  # the raptor's 3 hit armour first
    end_turn(g)
    assert hero.turn_atk == 0


# ---------------------------------------------------------------- Classic
@covers("EX1_161")
def test_naturalize_destroys_a_minion_and_the_opponent_draws_two():
    g = make_game(hand=["EX1_161"], enemy_board=[YETI])
    before = len(g.players[1].hand)
    play(g, "EX1_161", minion(g, 1, YETI))
    assert board_ids(g, 1) == []
    assert len(g.players[1].hand) == before + 2


@covers("EX1_578")
def test_savagery_deals_the_heros_attack_to_a_minion():
    g = make_game(hand=["CS2_005", "EX1_578"], board=[KOBOLD], enemy_board=[YETI])
    play(g, "CS2_005")  # hero attack 2
    play(g, "EX1_578", minion(g, 1, YETI))
    assert minion(g, 1, YETI).health == 3  # SabberStone: no Spell Damage


@covers("EX1_570")
def test_bite_gives_four_attack_this_turn_and_four_armor():
    g = make_game(hand=["EX1_570"])
    play(g, "EX1_570")
    hero = g.players[0].hero
    assert (g.hero_atk(g.players[0]), hero.armor) == (4, 4)
    attack(g, hero, g.players[1].hero)
    assert g.players[1].hero.health == 26


@covers("EX1_158", "EX1_158t")
def test_soul_of_the_forest_gives_a_treant_deathrattle_that_silence_removes():
    g = make_game(hand=["EX1_158"], board=[RAPTOR, CROC, SQUIRE], enemy_board=[YETI])
    play(g, "EX1_158")
    attack(g, minion(g, 0, RAPTOR), minion(g, 1, YETI))  # the raptor dies
    assert board_ids(g) == [CROC, SQUIRE, "EX1_158t"]  # SabberStone: at the right end
    assert stats(g.players[0].board[2]) == (2, 2)
    croc = minion(g, 0, CROC)
    g.silence(croc)
    g.destroy(croc)
    g.resolve()
    assert board_ids(g) == [SQUIRE, "EX1_158t"]  # silenced: no treant

    g = make_game(hand=["EX1_158"], enemy_board=[CROC])
    play(g, "EX1_158")
    g.destroy(minion(g, 1, CROC))
    g.resolve()
    assert board_ids(g) == [] and board_ids(g, 1) == []  # only own minions got it


@covers("EX1_571")
def test_force_of_nature_summons_three_treants_as_room_allows():
    g = make_game(hand=["EX1_571"])
    play(g, "EX1_571")
    assert board_ids(g) == ["EX1_158t"] * 3
    g = make_game(hand=["EX1_571"], board=[CROC] * 5)
    play(g, "EX1_571")
    assert board_ids(g) == [CROC] * 5 + ["EX1_158t"] * 2
    g = make_game(hand=["EX1_571"], board=[CROC] * 7)
    assert plays_of(g, "EX1_571") == []


@covers("EX1_183")
def test_gift_of_the_wild_gives_friendly_minions_two_two_and_taunt():
    g = make_game(hand=["EX1_183"], board=[CROC, RAPTOR], enemy_board=[YETI])
    play(g, "EX1_183")
    assert [stats(m) for m in g.players[0].board] == [(4, 5), (5, 4)]
    assert all(m.taunt for m in g.players[0].board)
    assert stats(minion(g, 1, YETI)) == (4, 5) and not minion(g, 1, YETI).taunt


@covers("GIL_130")
def test_gloom_stag_gains_two_two_only_with_an_all_odd_deck():
    g = make_game(hand=["GIL_130"], deck=["CS2_037", "CS2_182"])  # Yeti (4) is even
    play(g, "GIL_130")
    stag = minion(g, 0, "GIL_130")
    assert stats(stag) == (2, 6) and stag.taunt
    g = make_game(hand=["GIL_130"], deck=["CS2_037", "CS2_008"])  # Moonfire (0) is even
    play(g, "GIL_130")
    assert stats(minion(g, 0, "GIL_130")) == (2, 6)
    g = make_game(hand=["GIL_130"], deck=["CS2_037", "EX1_241"])  # Frost Shock (1), Lava Burst (3)
    play(g, "GIL_130")
    assert stats(minion(g, 0, "GIL_130")) == (4, 8)


# ---------------------------------------------------------------- Choose One
@covers("EX1_154", "EX1_154a", "EX1_154b")
def test_wrath_three_damage_or_one_damage_and_a_card():
    g = make_game(hand=["EX1_154"], board=[KOBOLD], enemy_board=[YETI])
    play_option(g, "EX1_154", 1, minion(g, 1, YETI))
    assert minion(g, 1, YETI).health == 1  # 3 + Spell Damage
    g = make_game(hand=["EX1_154"], enemy_board=[YETI])
    play_option(g, "EX1_154", 2, minion(g, 1, YETI))
    assert minion(g, 1, YETI).health == 4 and hand_ids(g) == [CROC]


@covers("EX1_160", "EX1_160a", "EX1_160b", "EX1_160t")
def test_power_of_the_wild_a_panther_or_plus_one_plus_one():
    g = make_game(hand=["EX1_160"], board=[CROC])
    play_option(g, "EX1_160", 1)
    assert board_ids(g) == [CROC, "EX1_160t"]
    assert stats(minion(g, 0, "EX1_160t")) == (3, 2) and minion(g, 0, CROC).atk == 2
    g = make_game(hand=["EX1_160"], board=[CROC, RAPTOR])
    play_option(g, "EX1_160", 2)
    assert [stats(m) for m in g.players[0].board] == [(3, 4), (4, 3)]
    g = make_game(hand=["EX1_160"], board=[CROC] * 7)
    assert [m[0] for m in plays_of(g, "EX1_160")] == [PLAY_OPTION_2]  # no room for the panther


@covers("EX1_155", "EX1_155a", "EX1_155b")
def test_mark_of_nature_four_attack_or_four_health_and_taunt():
    g = make_game(hand=["EX1_155"], board=[CROC])
    play_option(g, "EX1_155", 1, minion(g, 0, CROC))
    assert stats(minion(g, 0, CROC)) == (6, 3) and not minion(g, 0, CROC).taunt
    g = make_game(hand=["EX1_155"], board=[CROC])
    play_option(g, "EX1_155", 2, minion(g, 0, CROC))
    assert stats(minion(g, 0, CROC)) == (2, 7) and minion(g, 0, CROC).taunt


@covers("NEW1_007", "NEW1_007a", "NEW1_007b")
def test_starfall_two_to_all_enemy_minions_or_five_to_one():
    g = make_game(hand=["NEW1_007"], board=[CROC, KOBOLD], enemy_board=[YETI, RAPTOR])
    play_option(g, "NEW1_007", 1)
    assert board_ids(g, 1) == [YETI] and minion(g, 1, YETI).health == 3  # no Spell Damage
    assert minion(g, 0, CROC).health == 3 and g.players[1].hero.health == 30
    g = make_game(hand=["NEW1_007"], enemy_board=[YETI, RAPTOR])
    play_option(g, "NEW1_007", 2, minion(g, 1, YETI))
    assert board_ids(g, 1) == [RAPTOR]


@covers("EX1_164", "EX1_164a", "EX1_164b")
def test_nourish_two_full_crystals_or_three_cards():
    g = make_game(hand=["EX1_164"], mana=6)
    play_option(g, "EX1_164", 1)
    assert (g.player.mana, g.player.max_mana) == (2, 8)
    g = make_game(hand=["EX1_164"], mana=9)
    play_option(g, "EX1_164", 1)
    assert (g.player.mana, g.player.max_mana) == (4, 10)  # only one crystal below the cap
    g = make_game(hand=["EX1_164"], mana=6)
    play_option(g, "EX1_164", 2)
    assert hand_ids(g) == [CROC] * 3 and g.player.max_mana == 6


@covers("EX1_166", "EX1_166a", "EX1_166b")
def test_keeper_of_the_grove_two_damage_or_silence():
    g = make_game(hand=["EX1_166"], board=[KOBOLD], enemy_board=[YETI])
    play_option(g, "EX1_166", 1, g.players[1].hero)
    assert g.players[1].hero.health == 28  # a battlecry: no Spell Damage
    assert stats(minion(g, 0, "EX1_166")) == (2, 2)
    g = make_game(hand=["EX1_166"], enemy_board=[SQUIRE])
    play_option(g, "EX1_166", 2, minion(g, 1, SQUIRE))
    assert not minion(g, 1, SQUIRE).divine_shield and minion(g, 1, SQUIRE).silenced


@covers("EX1_165", "EX1_165a", "EX1_165b", "EX1_165t1", "EX1_165t2")
def test_druid_of_the_claw_becomes_a_charging_cat_or_a_taunting_bear():
    g = make_game(hand=["EX1_165"], sick=True)
    play_option(g, "EX1_165", 1)
    cat = g.players[0].board[0]
    assert cat.cdef.id == "EX1_165t1" and stats(cat) == (4, 4) and cat.race == "BEAST"
    attack(g, cat, g.players[1].hero)  # Charge
    assert g.players[1].hero.health == 26
    g = make_game(hand=["EX1_165"])
    play_option(g, "EX1_165", 2)
    bear = g.players[0].board[0]
    assert bear.cdef.id == "EX1_165t2" and stats(bear) == (4, 6) and bear.taunt
    assert not any(m[0] == ATTACK for m in g.legal_moves())  # no Charge
    # the new form is announced as summoned: Knife Juggler throws a knife at the only enemy
    g = make_game(hand=["EX1_165"], board=["NEW1_019"])
    play_option(g, "EX1_165", 1)
    assert g.players[1].hero.health == 29


@covers("EX1_178", "EX1_178a", "EX1_178b")
def test_ancient_of_war_taunt_and_five_health_or_five_attack():
    g = make_game(hand=["EX1_178"])
    play_option(g, "EX1_178", 1)  # Rooted (SabberStone's option 1)
    ancient = minion(g, 0, "EX1_178")
    assert stats(ancient) == (5, 10) and ancient.taunt
    g = make_game(hand=["EX1_178"])
    play_option(g, "EX1_178", 2)  # Uproot
    ancient = minion(g, 0, "EX1_178")
    assert stats(ancient) == (10, 5) and not ancient.taunt


@covers("NEW1_008", "NEW1_008a", "NEW1_008b")
def test_ancient_of_lore_draws_a_card_or_restores_five_health():
    g = make_game(hand=["NEW1_008"])
    play_option(g, "NEW1_008", 1)
    assert hand_ids(g) == [CROC]
    g = make_game(hand=["NEW1_008"])
    hero = g.players[0].hero
    hero.health = 20
    play_option(g, "NEW1_008", 2, hero)
    assert hero.health == 25 and hand_ids(g) == []


@covers("EX1_573", "EX1_573a", "EX1_573b", "EX1_573t")
def test_cenarius_buffs_the_others_or_summons_two_taunt_treants():
    g = make_game(hand=["EX1_573"], board=[CROC], enemy_board=[RAPTOR])
    play_option(g, "EX1_573", 1, position=0)
    assert stats(minion(g, 0, CROC)) == (4, 5)
    assert stats(minion(g, 0, "EX1_573")) == (5, 8) and stats(minion(g, 1, RAPTOR)) == (3, 2)
    g = make_game(hand=["EX1_573"], board=[CROC])
    play_option(g, "EX1_573", 2, position=0)
    assert board_ids(g) == ["EX1_573", CROC, "EX1_573t", "EX1_573t"]  # the treants on the right
    assert all(m.taunt and stats(m) == (2, 2) for m in g.players[0].board[2:])
    g = make_game(hand=["EX1_573"], board=[CROC] * 5)
    assert {m[0] for m in plays_of(g, "EX1_573")} == {PLAY_OPTION_1, PLAY_OPTION_2}
    g = make_game(hand=["EX1_573"], board=[CROC] * 6)
    assert {m[0] for m in plays_of(g, "EX1_573")} == {PLAY_OPTION_1}  # two slots needed
