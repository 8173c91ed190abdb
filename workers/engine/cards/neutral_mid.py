"""Neutral Basic/Classic minions of cost 3-4."""
from ..cardspec import (CHARACTER, FRIENDLY_MINION, MINION, aura, battlecry, define, enrage, spell,
                        trigger)
from ..entities import Minion
from ..state import GameState

# Keyword-only cards (Taunt, Divine Shield, Windfury, Spell Damage come from the data) and tokens.
define("CS2_127", "EX1_020", "EX1_582", "EX1_021", "CS2_125", "EX1_023", "EX1_396", "CS2_179")
define("EX1_598", "CS2_boar")  # Imp, Boar


def _is(m: Minion, race: str) -> bool:
    return m.race == race or m.race == "ALL"


@battlecry("CS2_141", target=CHARACTER)
def ironforge_rifleman(g, owner, me, target):
    if target is not None:
        g.damage(me, target, 1)


@aura("NEW1_027")
def southsea_captain(g: GameState, owner: int, me: Minion) -> None:
    for m in g.players[owner].board:
        if m is not me and _is(m, "PIRATE"):
            m.aura_atk += 1
            m.aura_health += 1


@battlecry("EX1_014")
def king_mukla(g, owner, me, target):
    for _ in range(2):
        g.give(1 - owner, "EX1_014t")


@spell("EX1_014t", target=MINION)
def bananas(g, owner, card, target):
    g.buff(target, 1, 1)


@enrage("EX1_412")
def raging_worgen(g: GameState, owner: int, me: Minion) -> None:
    me.aura_atk += 1
    me.aura_windfury = True


@aura("EX1_507")
def murloc_warleader(g: GameState, owner: int, me: Minion) -> None:
    for m in g.players[owner].board:
        if m is not me and _is(m, "MURLOC"):
            m.aura_atk += 2


@trigger("EX1_597", "turn_end")
def imp_master(g, owner, me, player):
    if player != owner:
        return
    g.damage(me, me, 1)
    # The Imp comes even when this damage kills the master (deaths resolve afterwards).
    board = g.players[owner].board
    g.summon(owner, "EX1_598", board.index(me) + 1 if me in board else None)


@battlecry("EX1_590")
def blood_knight(g, owner, me, target):
    lost = 0
    for m in g.minions():
        if m.divine_shield:
            m.divine_shield = False
            lost += 1
    if lost:
        g.buff(me, 3 * lost, 3 * lost)


@trigger("EX1_044", "play_card")
def questing_adventurer(g, owner, me, player, card):
    if player == owner and card.uid != me.uid:  # not for its own play
        g.buff(me, 1, 1)


@battlecry("EX1_103")
def coldlight_seer(g, owner, me, target):
    # "Your other Murlocs", but SabberStone buffs every friendly Murloc, the Seer too.
    for m in g.players[owner].board:
        if _is(m, "MURLOC"):
            g.buff(m, 0, 2)


@battlecry("CS2_181")
def injured_blademaster(g, owner, me, target):
    g.damage(me, me, 4)


@battlecry("EX1_085")
def mind_control_tech(g, owner, me, target):
    enemies = [m for m in g.players[1 - owner].board if g.alive(m)]
    if len(enemies) >= 4:
        g.take_control(g.choice(enemies), owner)


@trigger("tt_004", "death")
def flesheating_ghoul(g, owner, me, dead, position):
    g.buff(me, 1, 0)


@trigger("EX1_102", "turn_start")
def demolisher(g, owner, me, player):
    if player == owner:
        # SabberStone's pool: the enemy hero and every enemy minion, doomed ones included.
        enemy = g.choice(g.characters(1 - owner))
        if enemy is not None:
            g.damage(me, enemy, 2)


@battlecry("EX1_089")
def arcane_golem(g, owner, me, target):
    p = g.players[1 - owner]
    p.max_mana = min(10, p.max_mana + 1)


@battlecry("CS2_117", target=CHARACTER)
def earthen_ring_farseer(g, owner, me, target):
    if target is not None:
        g.heal(target, 3)


@battlecry("EX1_019", target=FRIENDLY_MINION)
def shattered_sun_cleric(g, owner, me, target):
    if target is not None:
        g.buff(target, 1, 1)


@battlecry("CS2_196")
def razorfen_hunter(g, owner, me, target):
    g.summon(owner, "CS2_boar", g.position_of(me) + 1)


@battlecry("EX1_093")
def defender_of_argus(g, owner, me, target):
    for m in g.adjacent(me):
        g.buff(m, 1, 1)
        m.taunt = True


@battlecry("EX1_046", target=MINION)
def dark_iron_dwarf(g, owner, me, target):
    if target is not None:
        target.turn_atk += 2


@battlecry("EX1_050")  # Coldlight Oracle
def coldlight_oracle(g, owner, me, target):
    g.draw(owner, 2)
    g.draw(1 - owner, 2)


@aura("EX1_062")  # Old Murk-Eye (Charge from the data)
def old_murk_eye(g: GameState, owner: int, me: Minion) -> None:
    # By its text, every other Murloc on the battlefield; SabberStone counts its own side only.
    me.aura_atk += sum(1 for m in g.minions(owner) + g.minions(1 - owner)
                       if m is not me and _is(m, "MURLOC"))
