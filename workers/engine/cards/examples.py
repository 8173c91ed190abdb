"""One card of each kind of hook, as the pattern for every other card module."""
from ..cardspec import (CHARACTER, MINION, aura, combo, cost, deathrattle, define, enrage,
                        secret, spell, trigger)
from ..entities import Card, Minion
from ..state import GameState

define("CS2_120", "CS2_172", "CS1_042")  # River Crocolisk, Bloodfen Raptor, Goldshire Footman


@spell("CS2_072", target=MINION.only(lambda g, m: not m.damaged))
def backstab(g: GameState, owner: int, card: Card, target: Minion) -> None:
    g.spell_damage(owner, target, 2)


@combo("EX1_134", target=CHARACTER)
def si7_agent(g, owner, me, target):
    g.damage(me, target, 2)


@deathrattle("EX1_029")
def leper_gnome(g, owner, me, position):
    g.damage(me, g.players[1 - owner].hero, 2)


@trigger("NEW1_019", "summon")
def knife_juggler(g, owner, me, summoned):
    if summoned.owner == owner and summoned is not me:
        enemy = g.random_enemy(owner)
        if enemy is not None:
            g.damage(me, enemy, 1)


@aura("CS2_122")
def raid_leader(g: GameState, owner: int, me: Minion) -> None:
    for m in g.players[owner].board:
        if m is not me:
            m.aura_atk += 1


@enrage("EX1_393")
def amani_berserker(g: GameState, owner: int, me: Minion) -> None:
    me.aura_atk += 3


@cost("EX1_586")
def sea_giant(g: GameState, owner: int, card: Card) -> int:
    others = len(g.players[0].board) + len(g.players[1].board)
    return card.cdef.cost - others


@secret("EX1_554", "attack")
def snake_trap(g, owner, card, attacker, defender):
    if defender.owner != owner or defender is g.players[owner].hero:
        return False
    for _ in range(3):
        if g.summon(owner, "EX1_554t") is None:
            return False  # SabberStone: a full board stops it before the secret is used up
    return True


define("EX1_554t")  # Snake
