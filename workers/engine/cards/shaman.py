"""Shaman cards (Basic, Classic, Hall of Fame) and their tokens. Overload comes from the card
data (GameState.play_card owes it, start_turn locks it); Totemic Call is in basic_game."""
from ..cardspec import (CHARACTER, ENEMY_CHARACTER, FRIENDLY_CHARACTER, FRIENDLY_MINION, MINION,
                        aura, battlecry, define, requires, spell, trigger)
from ..entities import Card, Minion
from ..state import GameState
from .druid import free_slots

define("EX1_243")  # Dust Devil: Windfury, Overload (2)
define("EX1_250")  # Earth Elemental: Taunt, Overload (3)
define("EX1_247")  # Stormforged Axe: Overload (1)
define("EX1_567")  # Doomhammer: Windfury, Overload (2)
define("NEW1_010")  # Al'Akir the Windlord: Charge, Divine Shield, Taunt, Windfury
define("EX1_tk11", "hexfrog")  # Spirit Wolf 2/3 Taunt; Frog 0/1 Taunt
# Murkspark Eel: SabberStone gives it no target (its REQ_DRAG_TO_PLAY requirement is not read),
# so its Battlecry never deals the 2 damage of its text.
define("GIL_530")


def _is_totem(m):
    return m.race in ("TOTEM", "ALL")


# ---------------------------------------------------------------- Basic
@spell("CS2_041", target=MINION)  # Ancestral Healing
def ancestral_healing(g, owner, card, target):
    g.heal(target, target.damage)
    target.taunt = True


@spell("EX1_244")  # Totemic Might
def totemic_might(g, owner, card, target):
    for m in g.players[owner].board:
        if _is_totem(m):
            g.buff(m, health=2)


@spell("CS2_037", target=ENEMY_CHARACTER)  # Frost Shock
def frost_shock(g, owner, card, target):
    g.spell_damage(owner, target, 1)
    g.freeze(target)


@spell("CS2_039", target=MINION)  # Windfury
def windfury(g, owner, card, target):
    target.windfury = True


@spell("CS2_045", target=FRIENDLY_CHARACTER)  # Rockbiter Weapon
def rockbiter_weapon(g, owner, card, target):
    target.turn_atk += 3


@spell("CS2_046")  # Bloodlust
def bloodlust(g, owner, card, target):
    for m in g.players[owner].board:
        m.turn_atk += 3


@spell("EX1_246", target=MINION)  # Hex
def hex_(g, owner, card, target):
    g.transform(target, "hexfrog")


@aura("EX1_565")  # Flametongue Totem
def flametongue_totem(g: GameState, owner: int, me: Minion) -> None:
    for m in g.adjacent(me):
        m.aura_atk += 2


@battlecry("EX1_587", target=FRIENDLY_MINION)  # Windspeaker
def windspeaker(g, owner, me, target):
    if target is not None:
        target.windfury = True


@battlecry("CS2_042", target=CHARACTER)  # Fire Elemental
def fire_elemental(g, owner, me, target):
    if target is not None:
        g.damage(me, target, 3)


# ---------------------------------------------------------------- Classic
@spell("EX1_238", target=CHARACTER)  # Lightning Bolt
def lightning_bolt(g, owner, card, target):
    g.spell_damage(owner, target, 3)


@spell("EX1_241", target=CHARACTER)  # Lava Burst
def lava_burst(g, owner, card, target):
    g.spell_damage(owner, target, 5)


@spell("EX1_245", target=MINION)  # Earth Shock
def earth_shock(g, owner, card, target):
    g.silence(target)
    g.spell_damage(owner, target, 1)


@spell("EX1_251")  # Forked Lightning
def forked_lightning(g, owner, card, target):
    for m in g.sample(g.minions(1 - owner), 2):
        g.spell_damage(owner, m, 2)


# SabberStone asks for one enemy minion (the card data says two).
requires("EX1_251")(lambda g, owner: len(g.players[1 - owner].board) >= 1)


@spell("EX1_259")  # Lightning Storm
def lightning_storm(g, owner, card, target):
    for m in g.minions(1 - owner):
        g.spell_damage(owner, m, 2 + g.rand(2))


@spell("EX1_248")  # Feral Spirit
def feral_spirit(g, owner, card, target):
    for _ in range(2):
        g.summon(owner, "EX1_tk11")


requires("EX1_248")(free_slots(1))


@spell("CS2_038", target=MINION)  # Ancestral Spirit
def ancestral_spirit(g, owner, card, target):
    target.deathrattles = target.deathrattles + (_resummon,)  # silence clears it


def _resummon(g, owner, minion, position):
    g.summon(owner, minion.cdef, position)  # a fresh copy, without its buffs


@spell("CS2_053")  # Far Sight
def far_sight(g, owner, card, target):
    for drawn in g.draw(owner):
        p = g.players[owner]
        i = p.hand.index(drawn)
        g.hand_to_change(owner)[i] = Card(drawn.uid, drawn.cdef, cost_mod=drawn.cost_mod - 3)


@trigger("EX1_258", "play_card")  # Unbound Elemental
def unbound_elemental(g, owner, me, player, card):
    # SabberStone's trigger has no source filter: the opponent's Overload cards count too,
    # though the text says "whenever you play".
    if card.cdef.overload:
        g.buff(me, 1, 1)


@trigger("EX1_575", "turn_end")  # Mana Tide Totem
def mana_tide_totem(g, owner, me, player):
    if player == owner:
        g.draw(owner)
