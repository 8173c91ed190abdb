"""Text tests of the low-cost neutral minions in workers/engine/cards/pool_low.py."""
import pytest

from workers.errors import IllegalActionError
from ..scenario import attack, attack_targets, covers, end_turn, make_game, minion, play

CROC, RAPTOR, BACKSTAB = "CS2_120", "CS2_172", "CS2_072"


def total_damage(g):
    return sum(p.hero.damage + sum(m.damage for m in p.board) for p in g.players)


@covers("EX1_508")
def test_grimscale_oracle_buffs_other_friendly_murlocs_only():
    g = make_game(hand=["EX1_508"], board=["CS2_173", CROC], enemy_board=["CS2_173"])
    bluegill, croc = minion(g, 0, "CS2_173"), minion(g, 0, CROC)
    play(g, "EX1_508")
    oracle = minion(g, 0, "EX1_508")
    assert (bluegill.atk, croc.atk, oracle.atk) == (3, 2, 1)
    assert minion(g, 1, "CS2_173").atk == 2
    g.silence(oracle)
    g.resolve()
    assert bluegill.atk == 2


@covers("CS2_189")
def test_elven_archer_deals_one_damage_to_any_character():
    g = make_game(hand=["CS2_189", "CS2_189"], enemy_board=[CROC])
    croc = minion(g, 1, CROC)
    play(g, "CS2_189", croc)
    assert croc.health == 2
    play(g, "CS2_189", g.players[1].hero)
    assert g.players[1].hero.health == 29


@covers("EX1_405")
def test_shieldbearer_taunt_must_be_attacked_first():
    g = make_game(board=[CROC], enemy_board=["EX1_405"])
    croc, bearer = minion(g, 0, CROC), minion(g, 1, "EX1_405")
    assert (bearer.atk, bearer.health) == (0, 4)
    assert attack_targets(g, croc) == {bearer.uid}
    with pytest.raises(IllegalActionError):
        attack(g, croc, g.players[1].hero)
    attack(g, croc, bearer)
    assert bearer.health == 2 and croc.health == 3


@covers("CS2_188")
def test_abusive_sergeant_gives_two_attack_this_turn_only():
    g = make_game(hand=["CS2_188", "CS2_188"], board=[CROC], enemy_board=[RAPTOR])
    croc, raptor = minion(g, 0, CROC), minion(g, 1, RAPTOR)
    play(g, "CS2_188", croc)
    play(g, "CS2_188", raptor)
    assert croc.atk == 4 and raptor.atk == 5
    end_turn(g)
    assert croc.atk == 2 and raptor.atk == 3


@covers("EX1_008")
def test_argent_squire_divine_shield_absorbs_the_first_hit():
    g = make_game(board=["EX1_008"], enemy_board=[CROC])
    squire, croc = minion(g, 0, "EX1_008"), minion(g, 1, CROC)
    attack(g, squire, croc)
    assert squire.health == 1 and not squire.divine_shield and croc.health == 2
    g.damage(None, squire, 1)
    g.resolve()
    assert squire not in g.players[0].board


@covers("CS2_169")
def test_young_dragonhawk_attacks_twice():
    g = make_game(board=["CS2_169"])
    hawk = minion(g, 0, "CS2_169")
    attack(g, hawk, g.players[1].hero)
    attack(g, hawk, g.players[1].hero)
    assert g.players[1].hero.health == 28
    with pytest.raises(IllegalActionError):
        attack(g, hawk, g.players[1].hero)


@covers("CS2_173")
def test_bluegill_warrior_charges():
    g = make_game(hand=["CS2_173"])
    play(g, "CS2_173")
    attack(g, minion(g, 0, "CS2_173"), g.players[1].hero)
    assert g.players[1].hero.health == 28


@covers("EX1_045")
def test_ancient_watcher_cannot_attack():
    g = make_game(board=["EX1_045", CROC])
    watcher = minion(g, 0, "EX1_045")
    assert (watcher.atk, watcher.health) == (4, 5)
    assert not attack_targets(g, watcher)
    assert attack_targets(g, minion(g, 0, CROC))
    g.silence(watcher)
    assert not attack_targets(g, watcher)  # SabberStone's silence keeps the card's own Can't Attack


@covers("EX1_082")
def test_mad_bomber_splits_three_damage_among_all_other_characters():
    hit_friendly = hit_enemy = False
    for seed in range(1, 13):
        g = make_game(hand=["EX1_082"], board=["EX1_045"], enemy_board=["EX1_405"], seed=seed)
        play(g, "EX1_082")
        bomber = minion(g, 0, "EX1_082")
        assert bomber.damage == 0
        assert total_damage(g) == 3
        hit_friendly |= g.players[0].hero.damage + minion(g, 0, "EX1_045").damage > 0
        hit_enemy |= g.players[1].hero.damage + minion(g, 1, "EX1_405").damage > 0
    assert hit_friendly and hit_enemy


@covers("EX1_082")
def test_mad_bomber_skips_characters_already_killed():
    # Only the two heroes and a 1-health minion: the minion can take at most one missile.
    killed = 0
    for seed in range(1, 13):
        g = make_game(hand=["EX1_082"], enemy_board=["EX1_008"], seed=seed)
        squire = minion(g, 1, "EX1_008")
        squire.divine_shield = False
        play(g, "EX1_082")
        heroes = g.players[0].hero.damage + g.players[1].hero.damage
        killed += squire not in g.players[1].board
        assert heroes == (2 if squire not in g.players[1].board else 3)
    assert killed


@covers("EX1_557")
def test_nat_pagle_sometimes_draws_an_extra_card_at_the_start_of_its_owners_turn():
    extra = set()
    for seed in range(1, 13):
        g = make_game(board=["EX1_557"], seed=seed)
        end_turn(g)
        assert len(g.players[1].hand) == 1  # the opponent's turn: no extra card for anyone
        assert len(g.players[0].hand) == 0
        end_turn(g)
        extra.add(len(g.players[0].hand) - 1)
    assert extra == {0, 1}


@covers("NEW1_021")
def test_doomsayer_destroys_all_minions_at_the_start_of_its_owners_turn():
    g = make_game(board=["NEW1_021", CROC], enemy_board=[RAPTOR])
    end_turn(g)
    assert len(g.players[0].board) == 2 and len(g.players[1].board) == 1
    g.players[1].board[0].sick = False
    end_turn(g)
    assert not g.players[0].board and not g.players[1].board


@covers("NEW1_021")
def test_silenced_doomsayer_does_nothing():
    g = make_game(board=["NEW1_021", CROC])
    g.silence(minion(g, 0, "NEW1_021"))
    end_turn(g)
    end_turn(g)
    assert len(g.players[0].board) == 2


@covers("EX1_059")
def test_crazed_alchemist_swaps_attack_and_health():
    g = make_game(hand=["EX1_059", "EX1_059"], board=["EX1_045"], enemy_board=["EX1_405"])
    watcher, bearer = minion(g, 0, "EX1_045"), minion(g, 1, "EX1_405")
    play(g, "EX1_059", watcher)
    assert (watcher.atk, watcher.health) == (5, 4)
    play(g, "EX1_059", bearer)  # a 0/4 becomes a 4/0 and dies
    assert bearer not in g.players[1].board
    g.silence(watcher)  # silence undoes the swap
    assert (watcher.atk, watcher.health) == (4, 5)


@covers("EX1_059")
def test_crazed_alchemist_uses_current_health_of_a_damaged_minion():
    g = make_game(hand=["EX1_059"], board=["EX1_045"])
    watcher = minion(g, 0, "EX1_045")
    g.damage(None, watcher, 3)  # 4/2
    play(g, "EX1_059", watcher)
    assert (watcher.atk, watcher.health, watcher.damaged) == (2, 4, False)


@covers("EX1_616")
def test_mana_wraith_makes_all_minions_cost_one_more():
    g = make_game(hand=[CROC, BACKSTAB, "EX1_616"], enemy_hand=[RAPTOR])
    play(g, "EX1_616")
    me, enemy = g.players
    assert g.cost_of(0, me.hand[0]) == 3
    assert g.cost_of(0, me.hand[1]) == 0  # spells unchanged
    assert g.cost_of(1, enemy.hand[0]) == 3
    g.silence(minion(g, 0, "EX1_616"))
    assert g.cost_of(0, me.hand[0]) == 2 and g.cost_of(1, enemy.hand[0]) == 2


@covers("CS2_121")
def test_frostwolf_grunt_taunt():
    g = make_game(board=[CROC], enemy_board=["CS2_121", RAPTOR])
    croc, grunt = minion(g, 0, CROC), minion(g, 1, "CS2_121")
    assert attack_targets(g, croc) == {grunt.uid}
    attack(g, croc, grunt)
    assert grunt not in g.players[1].board


@covers("EX1_006")
def test_alarm_o_bot_swaps_with_a_minion_from_hand_at_the_start_of_its_owners_turn():
    g = make_game(board=["EX1_006", RAPTOR], hand=["EX1_017", BACKSTAB], deck=[BACKSTAB] * 5)
    end_turn(g)
    assert minion(g, 0, "EX1_006")  # not on the opponent's turn
    end_turn(g)
    me = g.players[0]
    assert [m.cdef.id for m in me.board] == ["EX1_017", RAPTOR]
    assert me.board[0].sick
    ids = sorted(c.cdef.id for c in me.hand)
    assert ids == sorted(["EX1_006", BACKSTAB, BACKSTAB])


@covers("EX1_006")
def test_alarm_o_bot_stays_without_a_minion_in_hand():
    g = make_game(board=["EX1_006"], hand=[BACKSTAB], deck=[BACKSTAB] * 5)
    end_turn(g)
    end_turn(g)
    assert [m.cdef.id for m in g.players[0].board] == ["EX1_006"]
    assert all(c.cdef.id == BACKSTAB for c in g.players[0].hand)


@covers("CS2_203")
def test_ironbeak_owl_silences_a_minion():
    g = make_game(hand=["CS2_203"], board=[CROC], enemy_board=["CS2_121"])
    grunt = minion(g, 1, "CS2_121")
    play(g, "CS2_203", grunt)
    assert grunt.silenced and not grunt.taunt
    croc = minion(g, 0, CROC)
    attack(g, croc, g.players[1].hero)
    assert g.players[1].hero.health == 28


@covers("EX1_083", "EX1_tk28", "EX1_tk29")
def test_tinkmaster_transforms_another_random_minion():
    outcomes = set()
    for seed in range(1, 13):
        g = make_game(hand=["EX1_083"], board=[CROC], enemy_board=[RAPTOR], seed=seed)
        play(g, "EX1_083")
        assert minion(g, 0, "EX1_083")
        ids = [m.cdef.id for m in g.minions()]
        changed = [m for m in g.minions() if m.cdef.id in ("EX1_tk28", "EX1_tk29")]
        assert len(changed) == 1 and len(ids) == 3
        m = changed[0]
        assert (m.atk, m.health) == ((5, 5) if m.cdef.id == "EX1_tk29" else (1, 1))
        outcomes.add((m.owner, m.cdef.id))
    assert {o[0] for o in outcomes} == {0, 1}
    assert {o[1] for o in outcomes} == {"EX1_tk28", "EX1_tk29"}


@covers("EX1_083")
def test_tinkmaster_alone_does_nothing():
    g = make_game(hand=["EX1_083"])
    play(g, "EX1_083")
    assert [m.cdef.id for m in g.minions()] == ["EX1_083"]


@covers("EX1_170")
def test_emperor_cobra_destroys_any_minion_it_damages():
    g = make_game(board=["EX1_170"], enemy_board=["EX1_045"])
    attack(g, minion(g, 0, "EX1_170"), minion(g, 1, "EX1_045"))
    assert not g.players[1].board


@covers("CS2_124")
def test_wolfrider_charges():
    g = make_game(hand=["CS2_124"])
    play(g, "CS2_124")
    attack(g, minion(g, 0, "CS2_124"), g.players[1].hero)
    assert g.players[1].hero.health == 27


@covers("CS2_118")
def test_magma_rager_is_a_vanilla_five_one():
    g = make_game(hand=["CS2_118"], enemy_board=[CROC])
    play(g, "CS2_118")
    rager = minion(g, 0, "CS2_118")
    assert (rager.atk, rager.health) == (5, 1)
    end_turn(g)
    attack(g, minion(g, 1, CROC), rager)
    assert not g.players[0].board and not g.players[1].board


@covers("EX1_556", "skele21")
def test_harvest_golem_leaves_a_damaged_golem_in_its_place():
    g = make_game(board=[RAPTOR, "EX1_556", CROC], enemy_board=["CS2_118"])
    attack(g, minion(g, 0, "EX1_556"), minion(g, 1, "CS2_118"))
    board = g.players[0].board
    assert [m.cdef.id for m in board] == [RAPTOR, "skele21", CROC]
    assert (board[1].atk, board[1].health) == (2, 1)


@covers("EX1_007")
def test_acolyte_of_pain_draws_whenever_it_takes_damage():
    g = make_game(hand=["CS2_189", "CS2_189"], board=["EX1_007", CROC])
    acolyte = minion(g, 0, "EX1_007")
    play(g, "CS2_189", minion(g, 0, CROC))  # another minion: no card
    assert len(g.players[0].hand) == 1
    play(g, "CS2_189", acolyte)
    assert len(g.players[0].hand) == 1 and acolyte.health == 2  # drew one for the archer played
    acolyte.divine_shield = True
    g.damage(None, acolyte, 1)  # absorbed: no damage, no card
    assert len(g.players[0].hand) == 1


@covers("EX1_390")
def test_tauren_warrior_has_three_more_attack_while_damaged():
    g = make_game(board=[CROC], enemy_board=["EX1_390"])
    tauren = minion(g, 1, "EX1_390")
    assert tauren.taunt and tauren.atk == 2
    attack(g, minion(g, 0, CROC), tauren)  # the tauren hits back for 2 before enrage
    assert tauren.health == 1 and tauren.atk == 5
    g.heal(tauren, 5)
    g.resolve()
    assert tauren.atk == 2


@covers("EX1_017")
def test_jungle_panther_stealth_until_it_attacks():
    g = make_game(board=["EX1_017"], enemy_hand=["CS2_189"])
    panther = minion(g, 0, "EX1_017")
    end_turn(g)
    with pytest.raises(IllegalActionError):
        play(g, "CS2_189", panther)
    end_turn(g)
    attack(g, panther, g.players[1].hero)
    assert not panther.stealth and g.players[1].hero.health == 26


@covers("EX1_189")
def test_brightwing_adds_a_random_legendary_minion_to_hand():
    seen = set()
    for seed in range(1, 9):
        g = make_game(hand=["EX1_189"], seed=seed)
        play(g, "EX1_189")
        (card,) = g.players[0].hand
        cdef = card.cdef
        assert cdef.rarity == "LEGENDARY" and cdef.type == "MINION" and cdef.collectible
        assert cdef.implemented  # never a card the engine would play without its text
        seen.add(cdef.id)
    assert len(seen) > 1
