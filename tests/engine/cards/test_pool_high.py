"""Tests of the high-cost neutral pool cards (and their tokens): each checks what the text says."""
import pytest

from workers.engine.actions import PLAY
from workers.engine.cardspec import CHARACTER
from workers.engine.cards.pool_high import DREAM_CARDS
from workers.errors import IllegalActionError
from ..scenario import attack, board_ids, covers, end_turn, find_card, make_game, minion, play

CROC, RAPTOR, BACKSTAB = "CS2_120", "CS2_172", "CS2_072"


@covers("NEW1_024")
def test_captain_greenskin_gives_the_weapon_plus_one_plus_one():
    g = make_game(hand=["NEW1_024", "NEW1_024"])
    play(g, "NEW1_024")  # no weapon: nothing happens
    assert g.players[0].weapon is None
    g.equip(0, "CS2_082")  # Wicked Knife 1/2
    play(g, "NEW1_024")
    w = g.players[0].weapon
    assert (w.atk, w.durability) == (2, 3)
    assert g.hero_atk(g.players[0]) == 2


@covers("EX1_399")
def test_gurubashi_berserker_gains_three_attack_each_time_it_takes_damage():
    g = make_game(board=["EX1_399", CROC], enemy_board=[CROC])
    guru = minion(g, 0, "EX1_399")
    attack(g, guru, minion(g, 1, CROC))
    assert (guru.atk, guru.health) == (5, 5)
    g.damage(None, guru, 1)
    g.resolve()
    assert guru.atk == 8
    g.damage(None, minion(g, 0, CROC), 1)  # another minion's damage does nothing
    g.resolve()
    assert guru.atk == 8
    g.silence(guru)
    assert guru.atk == 2


@covers("DS1_055")
def test_darkscale_healer_restores_two_to_friendly_characters_only():
    g = make_game(hand=["DS1_055"], board=[CROC], enemy_board=[CROC])
    mine, theirs = minion(g, 0, CROC), minion(g, 1, CROC)
    mine.damage = theirs.damage = 2
    g.players[0].hero.health = 25
    g.players[1].hero.health = 25
    play(g, "DS1_055")
    assert mine.health == 3 and theirs.health == 1
    assert g.players[0].hero.health == 27
    assert g.players[1].hero.health == 25


@covers("EX1_033")
def test_windfury_harpy_attacks_twice():
    g = make_game(board=["EX1_033"])
    harpy = minion(g, 0, "EX1_033")
    enemy = g.players[1].hero
    attack(g, harpy, enemy)
    attack(g, harpy, enemy)
    assert enemy.health == 22
    with pytest.raises(IllegalActionError):
        attack(g, harpy, enemy)


@covers("CS2_155")
def test_archmage_adds_one_spell_damage_until_silenced():
    g = make_game(hand=[BACKSTAB, BACKSTAB], board=["CS2_155"], enemy_board=["CS2_186", "CS2_186"])
    first, second = g.players[1].board
    play(g, BACKSTAB, first)
    assert first.health == 4
    g.silence(minion(g, 0, "CS2_155"))
    play(g, BACKSTAB, second)
    assert second.health == 5


@covers("NEW1_040", "NEW1_040t")
def test_hogger_summons_a_taunt_gnoll_at_the_end_of_its_owners_turn_only():
    g = make_game(board=["NEW1_040", CROC])
    end_turn(g)
    assert board_ids(g, 0) == ["NEW1_040", "NEW1_040t", CROC]  # to Hogger's right
    gnoll = minion(g, 0, "NEW1_040t")
    assert (gnoll.atk, gnoll.health, gnoll.taunt) == (2, 2, True)
    end_turn(g)  # the opponent's turn end
    assert board_ids(g, 0).count("NEW1_040t") == 1


@covers("CS2_200", "CS2_186", "CS2_201")
def test_vanilla_minions_have_their_printed_stats():
    g = make_game(hand=["CS2_200", "CS2_186", "CS2_201"], mana=20)
    for card_id, stats in (("CS2_200", (6, 6, 7)), ("CS2_186", (7, 7, 7)), ("CS2_201", (7, 9, 5))):
        mana = g.players[0].mana
        play(g, card_id)
        m = minion(g, 0, card_id)
        assert (mana - g.players[0].mana, m.atk, m.health) == stats
        assert not m.can_attack()
    assert minion(g, 0, "CS2_201").race == "BEAST"


@covers("EX1_110", "EX1_110t")
def test_cairne_summons_baine_in_his_place_unless_silenced():
    g = make_game(board=[CROC, "EX1_110", RAPTOR], enemy_board=["CS2_186"])
    attack(g, minion(g, 0, "EX1_110"), minion(g, 1, "CS2_186"))
    assert board_ids(g, 0) == [CROC, "EX1_110t", RAPTOR]
    baine = minion(g, 0, "EX1_110t")
    assert (baine.atk, baine.health) == (4, 5)
    g = make_game(board=["EX1_110"], enemy_board=["CS2_186"])
    cairne = minion(g, 0, "EX1_110")
    g.silence(cairne)
    attack(g, cairne, minion(g, 1, "CS2_186"))
    assert board_ids(g, 0) == []


@covers("EX1_283")
def test_frost_elemental_freezes_its_target_and_what_it_fights():
    g = make_game(hand=["EX1_283", "EX1_283"], board=["EX1_283"], enemy_board=[CROC, "CS2_186"],
                  mana=20)
    croc, golem = g.players[1].board
    play(g, "EX1_283", croc)
    assert croc.frozen
    play(g, "EX1_283", g.players[1].hero)
    assert g.players[1].hero.frozen
    attack(g, g.players[0].board[0], golem)
    assert golem.frozen  # SabberStone: the card's FREEZE tag acts in its fights


@covers("EX1_190")
def test_whitemane_summons_friendly_minions_that_died_this_turn():
    g = make_game(hand=["EX1_190"], board=[CROC, RAPTOR, "CS2_186"], enemy_board=["CS2_186", RAPTOR])
    attack(g, minion(g, 0, CROC), minion(g, 1, "CS2_186"))
    attack(g, minion(g, 0, RAPTOR), minion(g, 1, RAPTOR))
    assert board_ids(g, 0) == ["CS2_186"]
    play(g, "EX1_190")
    # In death order, to her right; the enemy Raptor stays dead; the copies are fresh.
    assert board_ids(g, 0) == ["CS2_186", "EX1_190", CROC, RAPTOR]
    assert minion(g, 0, CROC).health == 3
    assert board_ids(g, 1) == ["CS2_186"]


@covers("EX1_190")
def test_whitemane_ignores_minions_that_died_on_an_earlier_turn():
    g = make_game(hand=["EX1_190"], board=[CROC], enemy_board=["CS2_186"])
    attack(g, minion(g, 0, CROC), minion(g, 1, "CS2_186"))
    end_turn(g)
    end_turn(g)
    play(g, "EX1_190")
    assert board_ids(g, 0) == ["EX1_190"]


@covers("EX1_188")
def test_barrens_stablehand_summons_a_random_beast():
    seen = set()
    for seed in range(1, 9):
        g = make_game(hand=["EX1_188"], board=[CROC], seed=seed)
        play(g, "EX1_188")
        board = g.players[0].board
        assert len(board) == 3 and board[0].cdef.id == CROC and board[1].cdef.id == "EX1_188"
        beast = board[2].cdef
        assert beast.race == "BEAST" and beast.collectible and beast.is_minion and beast.implemented
        seen.add(beast.id)
    assert len(seen) > 1
    g = make_game(hand=["EX1_188"], board=[CROC] * 6)
    play(g, "EX1_188")  # a full board: no Beast
    assert len(g.players[0].board) == 7


@covers("EX1_187")
def test_arcane_devourer_grows_when_its_owner_casts_a_spell():
    g = make_game(hand=[BACKSTAB], board=["EX1_187"], enemy_board=[CROC], enemy_hand=[BACKSTAB])
    dev = minion(g, 0, "EX1_187")
    play(g, BACKSTAB, minion(g, 1, CROC))
    assert (dev.atk, dev.health) == (7, 7)
    end_turn(g)
    g.players[1].mana = 10
    play(g, BACKSTAB, dev)  # the opponent's spell: no growth
    assert (dev.atk, dev.health) == (7, 5)


@covers("EX1_187", "DREAM_02")
def test_arcane_devourer_grows_before_its_owners_spell_resolves():
    g = make_game(hand=["DREAM_02"], board=["EX1_187"])
    play(g, "DREAM_02")
    dev = minion(g, 0, "EX1_187")  # 7/7 before taking 5
    assert (dev.atk, dev.health) == (7, 2)


@covers("NEW1_038")
def test_gruul_grows_at_the_end_of_each_turn():
    g = make_game(board=["NEW1_038"])
    gruul = minion(g, 0, "NEW1_038")
    end_turn(g)
    assert (gruul.atk, gruul.health) == (8, 8)
    gruul = minion(g, 0, "NEW1_038")
    end_turn(g)
    assert (gruul.atk, gruul.health) == (9, 9)


@covers("EX1_563")
def test_malygos_adds_five_spell_damage():
    g = make_game(hand=[BACKSTAB, "DREAM_02"], board=["EX1_563"], enemy_board=["CS2_200", "CS2_186"])
    play(g, BACKSTAB, minion(g, 1, "CS2_200"))
    assert board_ids(g, 1) == ["CS2_186"]  # 7 damage kills the 6/7
    play(g, "DREAM_02")
    assert g.players[1].hero.health == 20
    assert minion(g, 0, "EX1_563").health == 2  # Malygos is no Ysera: 10 damage


@covers("EX1_560")
def test_nozdormu_is_an_eight_eight_and_turns_go_on():
    g = make_game(hand=["EX1_560"])
    play(g, "EX1_560")
    noz = minion(g, 0, "EX1_560")
    assert (noz.atk, noz.health, g.players[0].mana) == (8, 8, 1)
    end_turn(g)
    end_turn(g)
    assert g.current == 0 and not g.done


@covers("EX1_572")
def test_ysera_adds_a_dream_card_at_the_end_of_her_owners_turn():
    seen = set()
    for seed in range(1, 11):
        g = make_game(board=["EX1_572"], seed=seed)
        end_turn(g)
        hand = [c.cdef.id for c in g.players[0].hand]
        assert len(hand) == 1 and hand[0] in DREAM_CARDS
        seen.add(hand[0])
        end_turn(g)  # the opponent's turn end adds nothing
        assert sum(c.cdef.id in DREAM_CARDS for c in g.players[0].hand) == 1
    assert len(seen) >= 3


@covers("DREAM_01")
def test_laughing_sister_cannot_be_targeted_by_spells_or_hero_powers():
    g = make_game(hand=["DREAM_04", "EX1_283"], enemy_board=["DREAM_01"])
    sister = minion(g, 1, "DREAM_01")
    assert (sister.atk, sister.health) == (3, 5)
    with pytest.raises(IllegalActionError):
        play(g, "DREAM_04", sister)
    assert sister not in g.targets_for(0, CHARACTER, False, by_power=True)
    play(g, "EX1_283", sister)  # a battlecry may target her
    assert sister.frozen


@covers("DREAM_02")
def test_ysera_awakens_hits_everything_but_yseras():
    g = make_game(hand=["DREAM_02"], board=["EX1_572", CROC, "CS2_155"],
                  enemy_board=["EX1_572", "CS2_186"])
    play(g, "DREAM_02")
    assert board_ids(g, 0) == ["EX1_572", "CS2_155"]
    assert minion(g, 0, "CS2_155").health == 1  # 5 + Archmage's 1
    assert minion(g, 1, "CS2_186").health == 1
    assert minion(g, 0, "EX1_572").health == minion(g, 1, "EX1_572").health == 12
    assert g.players[0].hero.health == g.players[1].hero.health == 24


@covers("DREAM_03")
def test_emerald_drake_is_a_seven_six_for_four():
    g = make_game(hand=["DREAM_03"], mana=4)
    play(g, "DREAM_03")
    drake = minion(g, 0, "DREAM_03")
    assert (drake.atk, drake.health, g.players[0].mana) == (7, 6, 0)


@covers("DREAM_04")
def test_dream_returns_a_minion_to_its_owners_hand():
    g = make_game(hand=["DREAM_04", "DREAM_04"], board=[CROC], enemy_board=["CS2_186"])
    golem = minion(g, 1, "CS2_186")
    golem.damage = 3
    play(g, "DREAM_04", golem)
    assert board_ids(g, 1) == []
    assert [c.cdef.id for c in g.players[1].hand][-1] == "CS2_186"
    play(g, "DREAM_04", minion(g, 0, CROC))
    assert board_ids(g, 0) == [] and [c.cdef.id for c in g.players[0].hand] == [CROC]


@covers("DREAM_05")
def test_nightmare_buffs_then_destroys_at_the_start_of_the_casters_next_turn():
    g = make_game(hand=["DREAM_05", "DREAM_05"], board=[CROC], enemy_board=["CS2_186"])
    croc, golem = minion(g, 0, CROC), minion(g, 1, "CS2_186")
    play(g, "DREAM_05", croc)
    play(g, "DREAM_05", golem)
    assert (croc.atk, croc.health, golem.atk, golem.health) == (7, 8, 12, 12)
    end_turn(g)  # the opponent's turn starts: both survive
    assert board_ids(g, 0) == [CROC] and board_ids(g, 1) == ["CS2_186"]
    end_turn(g)  # the caster's next turn starts: both are destroyed
    assert board_ids(g, 0) == [] and board_ids(g, 1) == []


@covers("DREAM_05")
def test_silence_removes_nightmare():
    g = make_game(hand=["DREAM_05"], board=[CROC])
    croc = minion(g, 0, CROC)
    play(g, "DREAM_05", croc)
    g.silence(croc)
    assert (croc.atk, croc.health) == (2, 3)
    end_turn(g)
    end_turn(g)
    assert board_ids(g, 0) == [CROC]


@covers("NEW1_030")
def test_deathwing_destroys_all_minions_itself_too_and_discards_the_hand():
    g = make_game(hand=["NEW1_030", CROC, RAPTOR], board=[CROC, "EX1_110"], enemy_board=["CS2_186"],
                  enemy_hand=[CROC])
    play(g, "NEW1_030")
    assert board_ids(g, 0) == ["EX1_110t"]  # Cairne's Deathrattle still fires; SabberStone's
    assert board_ids(g, 1) == []               # Deathwing destroys itself too
    assert g.players[0].hand == []
    assert g.players[1].hand  # only your own hand


@covers("EX1_105")
def test_mountain_giant_costs_one_less_per_other_card_in_hand():
    g = make_game(hand=["EX1_105"])
    giant = g.players[0].hand[0]
    assert g.cost_of(0, giant) == 12
    g = make_game(hand=["EX1_105", CROC, CROC, CROC, CROC])
    assert g.cost_of(0, g.players[0].hand[0]) == 8
    play(g, "EX1_105")
    assert g.players[0].mana == 2
    g = make_game(hand=["EX1_105", CROC])
    assert not any(a.kind == PLAY and a.index == find_card(g, "EX1_105") for a in g.legal_actions())
