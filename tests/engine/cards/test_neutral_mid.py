"""Text tests of the neutral 3-4 cost minions in workers/engine/cards/neutral_mid.py."""
import pytest

from workers.engine.actions import PLAY
from workers.errors import IllegalActionError
from ..scenario import attack, attack_targets, covers, end_turn, make_game, minion, play

CROC, RAPTOR, YETI, WISP = "CS2_120", "CS2_172", "CS2_182", "CS2_231"
RAIDER, CORSAIR, SQUIRE = "CS2_168", "NEW1_025", "EX1_008"  # Murloc 2/1, Pirate 1/2, Divine Shield 1/1


def play_targets(g, card_id):
    i = next(i for i, c in enumerate(g.player.hand) if c.cdef.id == card_id)
    return {a.target for a in g.legal_actions() if a.kind == PLAY and a.index == i}


# ---------------------------------------------------------------- keyword-only minions
@covers("CS2_127", "CS2_125", "EX1_396", "CS2_179")
@pytest.mark.parametrize("taunt_id,atk,health", [
    ("CS2_127", 1, 4), ("CS2_125", 3, 3), ("EX1_396", 1, 7), ("CS2_179", 3, 5)])
def test_taunt_minions_must_be_attacked_first(taunt_id, atk, health):
    g = make_game(board=[CROC], enemy_board=[RAPTOR, taunt_id])
    croc, taunt = minion(g, 0, CROC), minion(g, 1, taunt_id)
    assert (taunt.atk, taunt.health) == (atk, health)
    assert attack_targets(g, croc) == {taunt.uid}
    with pytest.raises(IllegalActionError):
        attack(g, croc, g.players[1].hero)
    g.silence(taunt)
    g.resolve()
    assert g.players[1].hero.uid in attack_targets(g, croc)


@covers("EX1_020", "EX1_023")
@pytest.mark.parametrize("card_id", ["EX1_020", "EX1_023"])
def test_divine_shield_minions_ignore_the_first_damage(card_id):
    g = make_game(hand=["CS2_141", "CS2_141"], enemy_board=[card_id], mana=10)
    shielded = minion(g, 1, card_id)
    full = shielded.health
    play(g, "CS2_141", shielded)
    assert shielded.health == full and not shielded.divine_shield
    play(g, "CS2_141", shielded)
    assert shielded.health == full - 1


@covers("EX1_021")
def test_thrallmar_farseer_attacks_twice():
    g = make_game(board=["EX1_021"])
    farseer = minion(g, 0, "EX1_021")
    hero = g.players[1].hero
    attack(g, farseer, hero)
    attack(g, farseer, hero)
    assert hero.health == 26
    assert not farseer.can_attack()


@covers("EX1_582")
def test_dalaran_mage_adds_spell_damage_until_silenced():
    g = make_game(hand=["CS2_072", "CS2_072"], board=["EX1_582"], enemy_board=[YETI, YETI])
    y1, y2 = g.players[1].board
    play(g, "CS2_072", y1)  # Backstab: 2 + 1
    assert y1.health == 2
    g.silence(minion(g, 0, "EX1_582"))
    play(g, "CS2_072", y2)
    assert y2.health == 3


# ---------------------------------------------------------------- battlecries
@covers("CS2_141")
def test_ironforge_rifleman_deals_one_damage_to_any_character():
    g = make_game(hand=["CS2_141", "CS2_141"], enemy_board=[RAIDER])
    raider = minion(g, 1, RAIDER)
    assert g.players[0].hero.uid in play_targets(g, "CS2_141")
    play(g, "CS2_141", raider)
    assert not g.players[1].board
    play(g, "CS2_141", g.players[1].hero)
    assert g.players[1].hero.health == 29


@covers("EX1_014")
def test_king_mukla_gives_the_opponent_two_bananas():
    g = make_game(hand=["EX1_014"], enemy_hand=[])
    play(g, "EX1_014")
    assert [c.cdef.id for c in g.players[1].hand] == ["EX1_014t", "EX1_014t"]
    assert not any(c.cdef.id == "EX1_014t" for c in g.players[0].hand)


@covers("EX1_014t")
def test_bananas_give_a_minion_plus_one_plus_one():
    g = make_game(hand=["EX1_014t", "EX1_014t"], board=[CROC], enemy_board=[RAPTOR])
    croc, raptor = minion(g, 0, CROC), minion(g, 1, RAPTOR)
    play(g, "EX1_014t", croc)
    play(g, "EX1_014t", raptor)
    assert (croc.atk, croc.health) == (3, 4)
    assert (raptor.atk, raptor.health) == (4, 3)
    assert g.player.mana == 8  # Bananas cost 1


@covers("EX1_590")
def test_blood_knight_takes_every_divine_shield():
    g = make_game(hand=["EX1_590"], board=[SQUIRE, CROC], enemy_board=["EX1_020"])
    play(g, "EX1_590")
    knight = minion(g, 0, "EX1_590")
    assert (knight.atk, knight.health) == (9, 9)
    assert not minion(g, 0, SQUIRE).divine_shield
    assert not minion(g, 1, "EX1_020").divine_shield


@covers("EX1_590")
def test_blood_knight_without_shields_stays_three_three():
    g = make_game(hand=["EX1_590"], board=[CROC])
    play(g, "EX1_590")
    knight = minion(g, 0, "EX1_590")
    assert (knight.atk, knight.health) == (3, 3)


@covers("EX1_103")
def test_coldlight_seer_gives_friendly_murlocs_two_health_itself_too():
    g = make_game(hand=["EX1_103"], board=[RAIDER, CROC], enemy_board=[RAIDER])
    play(g, "EX1_103")
    assert minion(g, 0, RAIDER).health == 3
    assert minion(g, 0, CROC).health == 3
    assert minion(g, 1, RAIDER).health == 1
    assert minion(g, 0, "EX1_103").health == 5  # SabberStone buffs the Seer as well
    assert minion(g, 0, RAIDER).max_health == 3  # a permanent buff, not an aura


@covers("CS2_181")
def test_injured_blademaster_damages_himself():
    g = make_game(hand=["CS2_181", "CS2_117"])
    play(g, "CS2_181")
    blade = minion(g, 0, "CS2_181")
    assert (blade.atk, blade.health, blade.max_health) == (4, 3, 7)
    play(g, "CS2_117", blade)
    assert blade.health == 6


@covers("EX1_085")
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_mind_control_tech_steals_one_random_minion_from_four(seed):
    g = make_game(hand=["EX1_085"], enemy_board=[CROC, RAPTOR, YETI, WISP], seed=seed)
    before = list(g.players[1].board)
    play(g, "EX1_085")
    assert len(g.players[1].board) == 3
    stolen = [m for m in g.players[0].board if m.cdef.id != "EX1_085"]
    assert len(stolen) == 1 and stolen[0] in before
    assert stolen[0].owner == 0 and not stolen[0].can_attack()


@covers("EX1_085")
def test_mind_control_tech_does_nothing_against_three():
    g = make_game(hand=["EX1_085"], enemy_board=[CROC, RAPTOR, YETI])
    play(g, "EX1_085")
    assert len(g.players[1].board) == 3
    assert len(g.players[0].board) == 1


@covers("EX1_085")
def test_mind_control_tech_picks_different_minions_across_seeds():
    picked = set()
    for seed in range(12):
        g = make_game(hand=["EX1_085"], enemy_board=[CROC, RAPTOR, YETI, WISP], seed=seed)
        play(g, "EX1_085")
        picked.add(g.players[0].board[-1].cdef.id)
    assert len(picked) > 1


@covers("EX1_089")
def test_arcane_golem_gives_the_opponent_a_mana_crystal():
    g = make_game(hand=["EX1_089"], mana=5)
    play(g, "EX1_089")
    assert g.players[1].max_mana == 6
    assert g.players[0].max_mana == 5
    end_turn(g)
    assert g.players[1].mana == 7


@covers("EX1_089")
def test_arcane_golem_at_ten_crystals_gives_nothing():
    g = make_game(hand=["EX1_089"], mana=10)
    play(g, "EX1_089")
    assert g.players[1].max_mana == 10


@covers("CS2_117")
def test_earthen_ring_farseer_restores_three_health():
    g = make_game(hand=["CS2_117", "CS2_117"], board=[YETI])
    yeti = minion(g, 0, YETI)
    yeti.damage = 4
    hero = g.players[0].hero
    hero.health = 29
    play(g, "CS2_117", yeti)
    assert yeti.health == 4
    play(g, "CS2_117", hero)
    assert hero.health == 30  # not over the maximum


@covers("EX1_019")
def test_shattered_sun_cleric_buffs_a_friendly_minion_only():
    g = make_game(hand=["EX1_019"], board=[CROC], enemy_board=[RAPTOR])
    croc, raptor = minion(g, 0, CROC), minion(g, 1, RAPTOR)
    assert play_targets(g, "EX1_019") == {croc.uid}
    with pytest.raises(IllegalActionError):
        play(g, "EX1_019", raptor)
    play(g, "EX1_019", croc)
    assert (croc.atk, croc.health) == (3, 4)


@covers("EX1_019")
def test_shattered_sun_cleric_playable_on_empty_board():
    g = make_game(hand=["EX1_019"])
    play(g, "EX1_019")
    assert (minion(g, 0, "EX1_019").atk, minion(g, 0, "EX1_019").health) == (3, 2)


@covers("CS2_196", "CS2_boar")
def test_razorfen_hunter_summons_a_boar_to_its_right():
    # Defender of Argus on the board makes positions matter, so the Hunter can go in the middle.
    g = make_game(hand=["CS2_196"], board=[CROC, "EX1_093"])
    play(g, "CS2_196", position=1)
    assert [m.cdef.id for m in g.players[0].board] == [CROC, "CS2_196", "CS2_boar", "EX1_093"]
    boar = minion(g, 0, "CS2_boar")
    assert (boar.atk, boar.health) == (1, 1)


@covers("EX1_093")
def test_defender_of_argus_buffs_and_taunts_adjacent_minions():
    g = make_game(hand=["EX1_093"], board=[CROC, RAPTOR, WISP])
    positions = {a.position for a in g.legal_actions() if a.kind == PLAY}
    assert positions == {0, 1, 2, 3}  # positional: every slot is offered
    play(g, "EX1_093", position=1)
    croc, raptor, wisp = minion(g, 0, CROC), minion(g, 0, RAPTOR), minion(g, 0, WISP)
    assert (croc.atk, croc.health, croc.taunt) == (3, 4, True)
    assert (raptor.atk, raptor.health, raptor.taunt) == (4, 3, True)
    assert (wisp.atk, wisp.health, wisp.taunt) == (1, 1, False)
    assert not minion(g, 0, "EX1_093").taunt


@covers("EX1_046")
def test_dark_iron_dwarf_gives_two_attack_this_turn_only():
    g = make_game(hand=["EX1_046", "EX1_046"], board=[CROC], enemy_board=[RAPTOR])
    croc, raptor = minion(g, 0, CROC), minion(g, 1, RAPTOR)
    play(g, "EX1_046", croc)
    assert croc.atk == 4
    play(g, "EX1_046", raptor)  # may target an enemy minion too
    assert raptor.atk == 5
    end_turn(g)
    assert croc.atk == 2 and raptor.atk == 3


# ---------------------------------------------------------------- auras and enrage
@covers("NEW1_027")
def test_southsea_captain_buffs_other_friendly_pirates():
    g = make_game(hand=["NEW1_027"], board=[CORSAIR, CROC], enemy_board=[CORSAIR])
    play(g, "NEW1_027")
    corsair, captain = minion(g, 0, CORSAIR), minion(g, 0, "NEW1_027")
    assert (corsair.atk, corsair.health) == (2, 3)
    assert (captain.atk, captain.health) == (3, 3)  # "other" pirates
    assert minion(g, 0, CROC).atk == 2
    assert (minion(g, 1, CORSAIR).atk, minion(g, 1, CORSAIR).health) == (1, 2)
    # A damaged pirate keeps its damage-free health when the aura leaves.
    g.damage(None, corsair, 1)
    captain.destroyed = True
    g.resolve()
    assert (corsair.atk, corsair.health) == (1, 2)


@covers("NEW1_027")
def test_two_southsea_captains_buff_each_other():
    g = make_game(board=["NEW1_027", "NEW1_027"])
    for c in g.players[0].board:
        assert (c.atk, c.health) == (4, 4)
    g.silence(g.players[0].board[0])
    g.resolve()
    a, b = g.players[0].board
    assert (a.atk, a.health) == (4, 4) and (b.atk, b.health) == (3, 3)


@covers("EX1_507")
def test_murloc_warleader_gives_other_friendly_murlocs_two_attack():
    g = make_game(board=["EX1_507", RAIDER, CROC], enemy_board=[RAIDER])
    leader, raider = minion(g, 0, "EX1_507"), minion(g, 0, RAIDER)
    assert raider.atk == 4 and raider.health == 1
    assert leader.atk == 3
    assert minion(g, 0, CROC).atk == 2
    assert minion(g, 1, RAIDER).atk == 2
    g.damage(None, leader, 3)
    g.resolve()
    assert raider.atk == 2


@covers("EX1_412")
def test_raging_worgen_enrage_gives_attack_and_windfury():
    g = make_game(board=["EX1_412"], enemy_board=[WISP])
    worgen = minion(g, 0, "EX1_412")
    assert worgen.atk == 3 and not worgen.has_windfury
    attack(g, worgen, minion(g, 1, WISP))
    assert worgen.health == 2
    assert worgen.atk == 4 and worgen.has_windfury
    attack(g, worgen, g.players[1].hero)  # windfury: a second attack this turn
    assert g.players[1].hero.health == 26
    g.heal(worgen, 5)
    g.resolve()
    assert worgen.atk == 3 and not worgen.has_windfury


@covers("CS2_122")
def test_raid_leader_aura_leaves_when_it_dies():
    g = make_game(board=["CS2_122", CROC], enemy_board=[YETI])
    leader, croc = minion(g, 0, "CS2_122"), minion(g, 0, CROC)
    assert croc.atk == 3 and leader.atk == 2
    assert minion(g, 1, YETI).atk == 4  # only its owner's minions
    attack(g, leader, minion(g, 1, YETI))
    assert "CS2_122" not in [m.cdef.id for m in g.players[0].board]
    assert croc.atk == 2


@covers("CS2_122")
def test_raid_leader_silenced_then_new_minions_get_nothing():
    g = make_game(hand=[RAPTOR], board=["CS2_122", CROC])
    g.silence(minion(g, 0, "CS2_122"))
    g.resolve()
    play(g, RAPTOR)
    assert minion(g, 0, CROC).atk == 2 and minion(g, 0, RAPTOR).atk == 3


@covers("CS2_122")
def test_raid_leader_buffs_minions_summoned_later():
    g = make_game(hand=["CS2_196"], board=["CS2_122"])
    play(g, "CS2_196")
    assert minion(g, 0, "CS2_196").atk == 3
    assert minion(g, 0, "CS2_boar").atk == 2


# ---------------------------------------------------------------- triggers
@covers("EX1_597", "EX1_598")
def test_imp_master_hurts_itself_and_summons_an_imp_at_end_of_own_turn():
    g = make_game(board=["EX1_597", CROC], enemy_board=["EX1_597"])
    master = minion(g, 0, "EX1_597")
    end_turn(g)
    assert master.health == 4
    assert [m.cdef.id for m in g.players[0].board] == ["EX1_597", "EX1_598", CROC]
    imp = minion(g, 0, "EX1_598")
    assert (imp.atk, imp.health) == (1, 1)
    assert len(g.players[1].board) == 1  # the enemy's master waits for its own turn end
    assert minion(g, 1, "EX1_597").health == 5


@covers("EX1_597")
def test_imp_master_summons_its_last_imp_as_it_dies():
    g = make_game(board=["EX1_597"])
    minion(g, 0, "EX1_597").damage = 4
    end_turn(g)
    assert [m.cdef.id for m in g.players[0].board] == ["EX1_598"]


@covers("EX1_044")
def test_questing_adventurer_grows_for_each_card_its_owner_plays():
    g = make_game(hand=["EX1_044", "GAME_005", WISP, "CS2_072"], enemy_hand=[WISP],
                  enemy_board=[YETI])
    play(g, "EX1_044")
    qa = minion(g, 0, "EX1_044")
    assert (qa.atk, qa.health) == (2, 2)  # not for itself
    play(g, "GAME_005")
    play(g, WISP)
    play(g, "CS2_072", minion(g, 1, YETI))
    assert (qa.atk, qa.health) == (5, 5)
    end_turn(g)
    play(g, WISP)  # the opponent's cards do not count
    assert (qa.atk, qa.health) == (5, 5)


@covers("tt_004")
def test_flesheating_ghoul_gains_attack_whenever_any_minion_dies():
    g = make_game(hand=["CS2_141"], board=["tt_004", WISP], enemy_board=[WISP, RAIDER])
    ghoul = minion(g, 0, "tt_004")
    attack(g, minion(g, 0, WISP), minion(g, 1, WISP))  # two minions die
    assert ghoul.atk == 4
    play(g, "CS2_141", minion(g, 1, RAIDER))
    assert ghoul.atk == 5
    assert ghoul.health == 3


@covers("tt_004")
def test_flesheating_ghoul_silenced_stops_growing():
    g = make_game(board=["tt_004", WISP], enemy_board=[WISP])
    ghoul = minion(g, 0, "tt_004")
    g.silence(ghoul)
    attack(g, minion(g, 0, WISP), minion(g, 1, WISP))
    assert ghoul.atk == 2


@covers("EX1_102")
@pytest.mark.parametrize("seed", [1, 2, 3, 5, 8])
def test_demolisher_hits_a_random_enemy_at_start_of_own_turn(seed):
    g = make_game(board=["EX1_102", CROC], enemy_board=[YETI, YETI], seed=seed)
    end_turn(g)  # the enemy's turn starts: nothing
    enemy = g.characters(1)
    assert sum(c.damage for c in g.characters(1)) == 0
    end_turn(g)  # our turn starts: 2 damage to one enemy character
    assert sorted(c.damage for c in enemy) == [0, 0, 2]
    assert all(c.damage == 0 for c in g.characters(0))


@covers("EX1_102")
def test_demolisher_hits_different_enemies_across_seeds():
    hit = set()
    for seed in range(12):
        g = make_game(board=["EX1_102"], enemy_board=[YETI], seed=seed)
        end_turn(g)
        end_turn(g)
        hit.add("hero" if g.players[1].hero.damage else "yeti")
    assert hit == {"hero", "yeti"}


@covers("EX1_050")
def test_coldlight_oracle_makes_each_player_draw_two():
    g = make_game(hand=["EX1_050"])
    decks = [len(p.deck) for p in g.players]
    hands = [len(p.hand) for p in g.players]
    play(g, "EX1_050")
    assert [len(p.deck) for p in g.players] == [decks[0] - 2, decks[1] - 2]
    assert [len(p.hand) for p in g.players] == [hands[0] + 1, hands[1] + 2]  # the Oracle left my hand


@covers("EX1_062")
def test_old_murk_eye_charges_with_one_attack_per_other_murloc():
    g = make_game(hand=["EX1_062"], board=[RAIDER, CROC], enemy_board=[RAIDER], sick=True)
    play(g, "EX1_062")
    murk = minion(g, 0, "EX1_062")
    assert murk.atk == 4  # 2 + two other Murlocs, either side
    attack(g, murk, g.players[1].hero)  # Charge
    assert g.players[1].hero.health == 26
    g.destroy(minion(g, 1, RAIDER))
    g.resolve()
    assert murk.atk == 3
    g.silence(murk)
    g.resolve()
    assert murk.atk == 2
