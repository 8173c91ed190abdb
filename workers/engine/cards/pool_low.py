"""Low-cost neutral minions of the deck-search pool (1 to 3 mana)."""
from ..cardspec import (CHARACTER, MINION, aura, battlecry, cost_aura, deathrattle, define,
                        enrage, random_pool, trigger)
from ..entities import Card, Minion
from ..state import GameState

# Keywords only (Taunt, Divine Shield, Windfury, Charge, Can't attack, Poisonous, Stealth, none).
define("EX1_405", "EX1_008", "CS2_169", "CS2_173", "EX1_045", "CS2_121", "EX1_170", "CS2_124",
       "CS2_118", "EX1_017")
define("EX1_tk28", "EX1_tk29", "skele21")  # Squirrel, Devilsaur, Damaged Golem


@aura("EX1_508")  # Grimscale Oracle
def grimscale_oracle(g: GameState, owner: int, me: Minion) -> None:
    for m in g.players[owner].board:
        if m is not me and m.race in ("MURLOC", "ALL"):
            m.aura_atk += 1


@battlecry("CS2_189", target=CHARACTER)  # Elven Archer
def elven_archer(g, owner, me, target):
    if target is not None:
        g.damage(me, target, 1)


@battlecry("CS2_188", target=MINION)  # Abusive Sergeant
def abusive_sergeant(g, owner, me, target):
    if target is not None:
        target.turn_atk += 2


@battlecry("EX1_082")  # Mad Bomber
def mad_bomber(g, owner, me, target):
    # Each missile picks again among characters still alive (a minion killed by one is skipped).
    for _ in range(3):
        pick = g.choice([c for c in g.characters() if c is not me and g.alive(c)])
        if pick is None:
            return
        g.damage(me, pick, 1)


@trigger("EX1_557", "turn_start")  # Nat Pagle
def nat_pagle(g, owner, me, player):
    if player == owner and g.rand(2) == 0:
        g.draw(owner)


@trigger("NEW1_021", "turn_start")  # Doomsayer
def doomsayer(g, owner, me, player):
    if player == owner and not me.destroyed:
        for m in g.minions():
            g.destroy(m)


@battlecry("EX1_059", target=MINION)  # Crazed Alchemist
def crazed_alchemist(g, owner, me, target):
    if target is None:
        return
    # The swap becomes the minion's own stats (silence undoes it, damage is gone); auras still
    # apply on top. A "this turn" attack bonus is folded into the swap.
    new_atk, new_health = target.health, target.atk
    target.turn_atk = 0
    target.atk_bonus = new_atk - target.base_atk
    target.health_bonus = new_health - target.base_health
    target.damage = 0


@cost_aura("EX1_616")  # Mana Wraith
def mana_wraith(g: GameState, owner: int, me: Minion, player: int, card: Card) -> int:
    return 1 if card.cdef.type == "MINION" else 0


@trigger("EX1_006", "turn_start")  # Alarm-o-Bot
def alarm_o_bot(g, owner, me, player):
    p = g.players[owner]
    if player != owner or me.destroyed or me not in p.board:
        return
    pick = g.choice([c for c in p.hand if c.cdef.type == "MINION"])
    if pick is None:
        return
    position = p.board.index(me)
    p.board.remove(me)
    hand = g.hand_to_change(owner)
    hand.remove(pick)
    hand.append(Card(g.new_uid(), me.cdef))  # at the end of the hand, as in SabberStone
    g.summon(owner, pick.cdef, position)


@battlecry("CS2_203", target=MINION)  # Ironbeak Owl
def ironbeak_owl(g, owner, me, target):
    if target is not None:
        g.silence(target)


@battlecry("EX1_083")  # Tinkmaster Overspark
def tinkmaster_overspark(g, owner, me, target):
    victim = g.choice([m for m in g.minions() if m is not me and g.alive(m)])
    if victim is not None:
        g.transform(victim, "EX1_tk29" if g.rand(2) == 0 else "EX1_tk28")


@deathrattle("EX1_556")  # Harvest Golem
def harvest_golem(g, owner, me, position):
    g.summon(owner, "skele21", position)


@trigger("EX1_007", "damage")  # Acolyte of Pain
def acolyte_of_pain(g, owner, me, character, amount, source):
    if character is me:
        g.draw(owner)


@enrage("EX1_390")  # Tauren Warrior
def tauren_warrior(g: GameState, owner: int, me: Minion) -> None:
    me.aura_atk += 3


@random_pool
def legendary_minions(library) -> list[str]:
    """The collectible Legendary minions, in card id order (SabberStone draws from all of
    Standard; the engine from the Basic and Classic cards)."""
    return sorted(c.id for c in library.values()
                  if c.collectible and c.rarity == "LEGENDARY"
                  and c.type == "MINION")


@battlecry("EX1_189")  # Brightwing
def brightwing(g, owner, me, target):
    g.give(owner, g.choice(legendary_minions(g.library)))
