"""Tests of the Shaman cards and tokens, Totemic Call and the basic totems."""
from workers.engine.actions import ATTACK
from workers.engine.cards.basic_game import BASIC_TOTEMS
from ..scenario import (attack, board_ids, covers, end_turn, find_card, hero_power, make_game,
                        minion, play, stats)

CROC, RAPTOR, YETI, KOBOLD = "CS2_120", "CS2_172", "CS2_182", "CS2_142"  # 2/3, 3/2, 4/5, SD+1
SQUIRE = "EX1_008"  # Argent Squire 1/1 Divine Shield
SHAMAN = ("SHAMAN", "HUNTER")


def plays_of(g, card_id):
    i = find_card(g, card_id)
    return [m for m in g.legal_moves() if m[0] not in (0, ATTACK) and m[1] == i]


def attacks_of(g, attacker):
    return [m for m in g.legal_moves() if m[0] == ATTACK and m[1] == attacker.uid]


# ---------------------------------------------------------------- Basic
@covers("CS2_041")
def test_ancestral_healing_restores_a_minion_to_full_and_gives_taunt():
    g = make_game(hand=["CS2_041"], enemy_board=[YETI])
    yeti = minion(g, 1, YETI)
    yeti.damage = 3
    play(g, "CS2_041", yeti)
    assert stats(yeti) == (4, 5) and yeti.taunt
    assert plays_of(make_game(hand=["CS2_041"]), "CS2_041") == []  # minions only


@covers("EX1_244")
def test_totemic_might_gives_only_totems_two_health():
    g = make_game(hand=["EX1_244"], board=["CS2_050", CROC, "EX1_565"], enemy_board=["CS2_051"])
    play(g, "EX1_244")
    assert [m.max_health for m in g.players[0].board] == [3, 3, 5]
    assert minion(g, 1, "CS2_051").max_health == 2  # not the enemy's


@covers("CS2_037")
def test_frost_shock_damages_and_freezes_an_enemy():
    g = make_game(hand=["CS2_037"], board=[CROC], enemy_board=[YETI])
    assert {m[2] for m in plays_of(g, "CS2_037")} == {g.players[1].hero.uid, minion(g, 1, YETI).uid}
    play(g, "CS2_037", minion(g, 1, YETI))
    yeti = minion(g, 1, YETI)
    assert yeti.health == 4 and yeti.frozen
    end_turn(g)
    assert attacks_of(g, yeti) == []  # frozen on its owner's turn


@covers("CS2_039")
def test_windfury_lets_a_minion_attack_twice():
    g = make_game(hand=["CS2_039"], board=[CROC])
    play(g, "CS2_039", minion(g, 0, CROC))
    croc = minion(g, 0, CROC)
    attack(g, croc, g.players[1].hero)
    attack(g, croc, g.players[1].hero)
    assert g.players[1].hero.health == 26 and attacks_of(g, croc) == []


@covers("CS2_045")
def test_rockbiter_weapon_gives_a_friendly_character_three_attack_this_turn():
    g = make_game(hand=["CS2_045", "CS2_045"], board=[CROC], enemy_board=[YETI])
    assert {m[2] for m in plays_of(g, "CS2_045")} == {g.players[0].hero.uid, minion(g, 0, CROC).uid}
    play(g, "CS2_045", g.players[0].hero)
    play(g, "CS2_045", minion(g, 0, CROC))
    assert (g.hero_atk(g.players[0]), minion(g, 0, CROC).atk) == (3, 5)
    attack(g, g.players[0].hero, g.players[1].hero)
    assert g.players[1].hero.health == 27
    end_turn(g)
    assert (g.players[0].hero.turn_atk, minion(g, 0, CROC).atk) == (0, 2)


@covers("CS2_046")
def test_bloodlust_gives_friendly_minions_three_attack_this_turn():
    g = make_game(hand=["CS2_046"], board=[CROC, RAPTOR], enemy_board=[YETI])
    play(g, "CS2_046")
    assert [m.atk for m in g.players[0].board] == [5, 6] and minion(g, 1, YETI).atk == 4
    end_turn(g)
    assert [m.atk for m in g.players[0].board] == [2, 3]


@covers("EX1_246", "hexfrog")
def test_hex_turns_a_minion_into_a_zero_one_taunt_frog():
    g = make_game(hand=["EX1_246"], enemy_board=[SQUIRE, YETI])
    play(g, "EX1_246", minion(g, 1, YETI))
    frog = g.players[1].board[1]
    assert frog.cdef.id == "hexfrog" and stats(frog) == (0, 1) and frog.taunt


@covers("EX1_565")
def test_flametongue_totem_gives_adjacent_minions_two_attack():
    g = make_game(hand=["EX1_565"], board=[CROC, RAPTOR, YETI])
    play(g, "EX1_565", position=1)
    assert [m.atk for m in g.players[0].board] == [4, 0, 5, 4]  # not itself, not the yeti
    totem = minion(g, 0, "EX1_565")
    g.silence(totem)
    g.refresh_auras()
    assert [m.atk for m in g.players[0].board] == [2, 0, 3, 4]
    g.players[0].board[1].silenced = False
    g.destroy(totem)
    g.resolve()
    assert [m.atk for m in g.players[0].board] == [2, 3, 4]


@covers("EX1_587")
def test_windspeaker_gives_a_friendly_minion_windfury():
    g = make_game(hand=["EX1_587"], board=[CROC], enemy_board=[YETI])
    assert {m[2] for m in plays_of(g, "EX1_587")} == {minion(g, 0, CROC).uid}
    play(g, "EX1_587", minion(g, 0, CROC))
    assert minion(g, 0, CROC).windfury and not minion(g, 0, "EX1_587").windfury
    g = make_game(hand=["EX1_587"])
    play(g, "EX1_587")  # no target: a 3/3
    assert stats(minion(g, 0, "EX1_587")) == (3, 3)


@covers("CS2_042")
def test_fire_elemental_deals_three_damage():
    g = make_game(hand=["CS2_042"], board=[KOBOLD], enemy_board=[YETI])
    play(g, "CS2_042", minion(g, 1, YETI))
    assert minion(g, 1, YETI).health == 2  # a battlecry: no Spell Damage
    assert stats(minion(g, 0, "CS2_042")) == (6, 5)


@covers("CS2_049", "CS2_050", "CS2_051", "CS2_052", "NEW1_009")
def test_totemic_call_summons_a_random_basic_totem_not_already_in_play():
    seen = set()
    for seed in range(40):
        g = make_game(classes=SHAMAN, seed=seed, board=["CS2_050"])
        hero_power(g)
        assert g.player.mana == 8 and len(g.players[0].board) == 2
        seen.add(g.players[0].board[1].cdef.id)
    assert seen == set(BASIC_TOTEMS) - {"CS2_050"}  # never a second Searing Totem

    g = make_game(classes=SHAMAN, board=["CS2_050", "CS2_051", "CS2_052"])
    hero_power(g)
    assert board_ids(g)[-1] == "NEW1_009"  # the only one missing
    g = make_game(classes=SHAMAN, board=list(BASIC_TOTEMS))
    assert not any(m[0] == 3 for m in g.legal_moves())  # all four in play
    g = make_game(classes=SHAMAN, board=[CROC] * 7)
    assert not any(m[0] == 3 for m in g.legal_moves())  # no room


def test_the_basic_totems_do_what_they_say():
    g = make_game(hand=["CS2_008"], board=[CROC, "CS2_052", "NEW1_009", "CS2_050", "CS2_051"],
                  enemy_board=[YETI])
    assert [stats(m) for m in g.players[0].board[1:]] == [(0, 2), (0, 2), (1, 1), (0, 2)]
    assert minion(g, 0, "CS2_051").taunt
    play(g, "CS2_008", g.players[1].hero)  # Wrath of Air: Spell Damage +1
    assert g.players[1].hero.health == 28
    minion(g, 0, CROC).damage = 2
    minion(g, 1, YETI).damage = 2
    end_turn(g)  # Healing Totem: at the end of its owner's turn, 1 to each friendly minion
    assert minion(g, 0, CROC).health == 2 and minion(g, 1, YETI).health == 3
    end_turn(g)
    assert minion(g, 0, CROC).health == 2  # not at the end of the opponent's turn
    end_turn(g)
    assert minion(g, 0, CROC).health == 3


@covers("HERO_02")
def test_thrall_has_thirty_health_and_totemic_call():
    g = make_game(classes=SHAMAN)
    hero = g.players[0].hero
    assert (hero.cdef.id, hero.health, hero.power.id) == ("HERO_02", 30, "CS2_049")


# ---------------------------------------------------------------- Classic
@covers("EX1_238")
def test_lightning_bolt_deals_three_and_overloads_one():
    g = make_game(hand=["EX1_238"], board=[KOBOLD], mana=3)
    play(g, "EX1_238", g.players[1].hero)
    assert g.players[1].hero.health == 26 and g.player.overload_owed == 1


@covers("EX1_241")
def test_lava_burst_deals_five_and_overloads_two():
    g = make_game(hand=["EX1_241"], mana=3)
    play(g, "EX1_241", g.players[1].hero)
    assert g.players[1].hero.health == 25 and g.player.overload_owed == 2


@covers("EX1_245")
def test_earth_shock_silences_then_deals_one():
    g = make_game(hand=["EX1_245", "EX1_245"], enemy_board=[SQUIRE, YETI])
    play(g, "EX1_245", minion(g, 1, SQUIRE))
    assert board_ids(g, 1) == [YETI]  # the shield went with the silence
    yeti = minion(g, 1, YETI)
    yeti.atk_bonus = yeti.health_bonus = 2
    play(g, "EX1_245", yeti)
    assert stats(yeti) == (4, 4) and yeti.silenced


@covers("EX1_251")
def test_forked_lightning_deals_two_to_two_random_enemy_minions():
    hit_sets = set()
    for seed in range(30):
        g = make_game(hand=["EX1_251"], board=[CROC], enemy_board=[YETI, YETI, YETI], seed=seed)
        play(g, "EX1_251")
        hit = tuple(m.damage for m in g.players[1].board)
        assert sorted(hit) == [0, 2, 2] and minion(g, 0, CROC).damage == 0
        hit_sets.add(hit)
    assert len(hit_sets) == 3
    assert g.player.overload_owed == 2
    g = make_game(hand=["EX1_251"], enemy_board=[YETI])
    play(g, "EX1_251")  # SabberStone: one enemy minion is enough
    assert minion(g, 1, YETI).damage == 2
    assert plays_of(make_game(hand=["EX1_251"]), "EX1_251") == []


@covers("EX1_259")
def test_lightning_storm_deals_two_or_three_to_each_enemy_minion():
    amounts = set()
    for seed in range(20):
        g = make_game(hand=["EX1_259"], board=[CROC], enemy_board=[YETI, YETI], seed=seed)
        play(g, "EX1_259")
        amounts.update(m.damage for m in g.players[1].board)
        assert minion(g, 0, CROC).damage == 0 and g.players[1].hero.health == 30
    assert amounts == {2, 3}
    assert g.player.overload_owed == 2


@covers("EX1_248", "EX1_tk11")
def test_feral_spirit_summons_two_taunt_wolves_and_overloads_two():
    g = make_game(hand=["EX1_248"], board=[CROC])
    play(g, "EX1_248")
    assert board_ids(g) == [CROC, "EX1_tk11", "EX1_tk11"]
    assert all(stats(m) == (2, 3) and m.taunt for m in g.players[0].board[1:])
    assert g.player.overload_owed == 2
    assert plays_of(make_game(hand=["EX1_248"], board=[CROC] * 7), "EX1_248") == []


@covers("CS2_038")
def test_ancestral_spirit_resummons_the_minion_when_it_dies():
    g = make_game(hand=["CS2_038"], board=[CROC, RAPTOR, SQUIRE], enemy_board=[YETI])
    raptor = minion(g, 0, RAPTOR)
    play(g, "CS2_038", raptor)
    g.buff(raptor, 1, 1)
    attack(g, raptor, minion(g, 1, YETI))
    assert board_ids(g) == [CROC, RAPTOR, SQUIRE]
    back = g.players[0].board[1]
    assert back is not raptor and stats(back) == (3, 2)  # a fresh copy
    g.destroy(back)
    g.resolve()
    assert board_ids(g) == [CROC, SQUIRE]  # only once

    g = make_game(hand=["CS2_038"], board=[CROC])
    play(g, "CS2_038", minion(g, 0, CROC))
    g.silence(minion(g, 0, CROC))
    g.destroy(minion(g, 0, CROC))
    g.resolve()
    assert board_ids(g) == []


@covers("CS2_053")
def test_far_sight_draws_a_card_that_costs_three_less():
    g = make_game(hand=["CS2_053"], deck=[CROC, YETI])
    play(g, "CS2_053")
    drawn = g.player.hand[0]
    assert drawn.cdef.id == YETI and g.cost_of(0, drawn) == 1
    g = make_game(hand=["CS2_053"], deck=[CROC])
    play(g, "CS2_053")
    assert g.cost_of(0, g.player.hand[0]) == 0  # not below (0)


@covers("EX1_258")
def test_unbound_elemental_grows_when_an_overload_card_is_played():
    g = make_game(hand=["EX1_238", "CS2_008", "EX1_243"], board=["EX1_258"], enemy_hand=["EX1_238"])
    unbound = minion(g, 0, "EX1_258")
    play(g, "CS2_008", g.players[1].hero)
    assert stats(unbound) == (2, 4)
    play(g, "EX1_238", g.players[1].hero)
    play(g, "EX1_243")
    assert stats(unbound) == (4, 6)
    end_turn(g)
    play(g, "EX1_238", g.players[0].hero)  # the opponent's Overload card, as SabberStone has it
    assert stats(unbound) == (5, 7)


@covers("EX1_575")
def test_mana_tide_totem_draws_at_the_end_of_its_owners_turn():
    g = make_game(board=["EX1_575"])
    end_turn(g)
    assert len(g.players[0].hand) == 1
    end_turn(g)  # player 0 draws for its own turn start
    assert len(g.players[0].hand) == 2
    end_turn(g)
    assert len(g.players[0].hand) == 3


@covers("EX1_243", "EX1_250", "NEW1_010")
def test_the_keyword_minions_play_with_their_keywords_and_overload():
    g = make_game(hand=["EX1_243", "EX1_250"], mana=6)
    play(g, "EX1_243")
    play(g, "EX1_250")
    devil, earth = g.players[0].board
    assert stats(devil) == (3, 1) and devil.windfury
    assert stats(earth) == (7, 8) and earth.taunt
    assert g.player.overload_owed == 5 and attacks_of(g, devil) == []
    end_turn(g)
    end_turn(g)
    attack(g, devil, g.players[1].hero)
    attack(g, devil, g.players[1].hero)  # Windfury
    assert g.players[1].hero.health == 24

    g = make_game(hand=["NEW1_010"])
    play(g, "NEW1_010")
    alakir = minion(g, 0, "NEW1_010")
    assert alakir.charge and alakir.divine_shield and alakir.taunt and alakir.windfury
    assert g.player.overload_owed == 0
    attack(g, alakir, g.players[1].hero)
    attack(g, alakir, g.players[1].hero)
    assert g.players[1].hero.health == 24


@covers("EX1_247", "EX1_567")
def test_the_overload_weapons():
    g = make_game(hand=["EX1_247", "EX1_567"])
    play(g, "EX1_247")
    assert (g.player.weapon.atk, g.player.weapon.durability, g.player.overload_owed) == (2, 3, 1)
    play(g, "EX1_567")  # Doomhammer: 2/8 Windfury, Overload (2)
    assert (g.player.weapon.atk, g.player.weapon.durability, g.player.overload_owed) == (2, 8, 3)
    hero = g.players[0].hero
    attack(g, hero, g.players[1].hero)
    attack(g, hero, g.players[1].hero)
    assert g.players[1].hero.health == 26 and not g.hero_can_attack(g.players[0])


@covers("GIL_530")
def test_murkspark_eel_as_sabberstone_plays_it_has_no_target():
    g = make_game(hand=["GIL_530"], deck=[CROC], enemy_board=[YETI])  # an all-even deck
    assert {m[2] for m in plays_of(g, "GIL_530")} == {-1}
    play(g, "GIL_530")
    assert stats(minion(g, 0, "GIL_530")) == (2, 3)
    assert minion(g, 1, YETI).damage == 0 and g.players[1].hero.health == 30
