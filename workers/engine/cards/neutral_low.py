"""Cheap Basic and Classic neutral minions (costs 0-2)."""
from ..cardspec import (CHARACTER, FRIENDLY_MINION, MINION, aura, battlecry, cost_aura,
                        deathrattle, define, enrage, trigger)
from ..entities import Card, Minion
from ..state import MAX_HAND, GameState

# Keywords (or nothing) only: Wisp, Stonetusk Boar, Worgen Infiltrator, Murloc Raider,
# Kobold Geomancer, Faerie Dragon, and the Murloc Scout token.
define("CS2_231", "CS2_171", "EX1_010", "CS2_168", "CS2_142", "NEW1_023", "EX1_506a")


@enrage("EX1_009")
def angry_chicken(g: GameState, owner: int, me: Minion) -> None:
    me.aura_atk += 5


@trigger("EX1_001", "heal")
def lightwarden(g, owner, me, character, amount):
    g.buff(me, atk=2)


@trigger("EX1_509", "summon")
def murloc_tidecaller(g, owner, me, summoned):
    if summoned.owner == owner and summoned is not me and summoned.race == "MURLOC":
        g.buff(me, atk=1)


@trigger("EX1_080", "secret_played")
def secretkeeper(g, owner, me, player, card):
    g.buff(me, atk=1, health=1)


@battlecry("EX1_011", target=CHARACTER)
def voodoo_doctor(g, owner, me, target):
    if target is not None:
        g.heal(target, 2)


@battlecry("NEW1_025")
def bloodsail_corsair(g, owner, me, target):
    w = g.players[1 - owner].weapon
    if w is not None:
        w.durability -= 1  # a weapon at 0 is destroyed by resolve


@battlecry("NEW1_017", target=MINION.only(lambda g, m: m.race == "MURLOC"))
def hungry_crab(g, owner, me, target):
    if target is not None:
        g.destroy(target)
        g.buff(me, atk=2, health=2)


def _random_other_friend(g, owner, me):
    """SabberStone's pool at the end of a turn: every other friendly minion, doomed ones too
    (deaths are processed after all end-of-turn effects)."""
    return g.choice([m for m in g.players[owner].board if m is not me])


@trigger("EX1_004", "turn_end")
def young_priestess(g, owner, me, player):
    if player == owner:
        m = _random_other_friend(g, owner, me)
        if m is not None and not m.destroyed and m.health > 0:  # a doomed pick stays doomed
            g.buff(m, health=1)


@trigger("NEW1_037", "turn_end")
def master_swordsmith(g, owner, me, player):
    if player == owner:
        m = _random_other_friend(g, owner, me)
        if m is not None:
            g.buff(m, atk=1)


@aura("CS2_146")
def southsea_deckhand(g: GameState, owner: int, me: Minion) -> None:
    if g.players[owner].weapon is not None:
        me.aura_charge = True
        me.sick = False  # SabberStone: losing the Charge later does not make it exhausted again


@cost_aura("EX1_076")
def pint_sized_summoner(g: GameState, owner: int, me: Minion, player: int, card: Card) -> int:
    # minions_played counts minions played from hand this turn (summons don't count).
    if player == owner and card.cdef.is_minion and g.players[owner].minions_played == 0:
        return -1
    return 0


@deathrattle("EX1_096")
def loot_hoarder(g, owner, minion, position):
    g.draw(owner)


@deathrattle("EX1_012")
def bloodmage_thalnos(g, owner, minion, position):
    g.draw(owner)


@battlecry("EX1_506")
def murloc_tidehunter(g, owner, me, target):
    g.summon(owner, "EX1_506a", g.position_of(me) + 1)


@trigger("EX1_100", "cast_spell")
def lorewalker_cho(g, owner, me, player, card):
    g.give(1 - player, card.cdef.id)


@battlecry("NEW1_018")
def bloodsail_raider(g, owner, me, target):
    w = g.players[owner].weapon
    if w is not None:
        g.buff(me, atk=w.atk + w.aura_atk)


@battlecry("EX1_058")
def sunfury_protector(g, owner, me, target):
    for m in g.adjacent(me):
        m.taunt = True


@battlecry("EX1_015")
def novice_engineer(g, owner, me, target):
    g.draw(owner)


@trigger("NEW1_020", "after_spell")
def wild_pyromancer(g, owner, me, player, card):
    # A Pyromancer killed by the spell itself is gone before "after you cast" triggers.
    if player == owner and me.health > 0:
        for m in g.minions():
            g.damage(me, m, 1)


@battlecry("EX1_049", target=FRIENDLY_MINION)
def youthful_brewmaster(g, owner, me, target):
    if target is not None and target is not me:
        g.return_to_hand(target)


@aura("EX1_162")
def dire_wolf_alpha(g: GameState, owner: int, me: Minion) -> None:
    for m in g.adjacent(me):
        m.aura_atk += 1


@battlecry("EX1_066")
def acidic_swamp_ooze(g, owner, me, target):
    g.destroy_weapon(1 - owner)


@trigger("EX1_055", "cast_spell")
def mana_addict(g, owner, me, player, card):
    if player == owner:
        me.turn_atk += 2


@battlecry("NEW1_029")
def millhouse_manastorm(g, owner, me, target):
    # Counted down at the end of each of the opponent's own turns: covers their next turn.
    opp = g.players[1 - owner]
    opp.free_spells_turns = max(opp.free_spells_turns, 1)


def draw_from_deck(g, owner, matches):
    """Draw a random card of the deck that `matches(cdef)` (SabberStone's DrawFromDeck); None
    when there is none. A full hand burns it."""
    p = g.players[owner]
    picks = [i for i, c in enumerate(p.deck) if matches(c.cdef)]
    if not picks:
        return None
    card = g.deck_to_change(owner).pop(g.choice(picks))
    if len(p.hand) >= MAX_HAND:
        return None
    g.hand_to_change(owner).append(card)
    g.fire("draw", owner, card)
    return card


@battlecry("NEW1_016")  # Captain's Parrot (SabberStone leaves it blank: a TODO)
def captains_parrot(g, owner, me, target):
    draw_from_deck(g, owner, lambda c: c.race in ("PIRATE", "ALL"))
