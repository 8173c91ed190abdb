"""Basic and Classic Warrior cards and their weapons."""
from ..cardspec import (CHARACTER, ENEMY_MINION, FRIENDLY_MINION, MINION, aura, battlecry, define,
                        enrage, requires, spell, trigger)
from ..entities import Minion
from ..state import GameState
from .mage import enemy_minions

define("HERO_01")  # Garrosh Hellscream: 30 Health, no text
define("NEW1_011")  # Kor'kron Elite: Charge
define("CS2_106", "CS2_112")  # Fiery War Axe 3/2, Arcanite Reaper 5/2
define("EX1_398t", "EX1_409t")  # Battle Axe 2/2 (Arathi Weaponsmith), Heavy Axe 1/3 (Upgrade!)
# Gorehowl: attacking a minion costs 1 Attack instead of 1 Durability (GameState.attack). A
# Gorehowl at 0 Attack stays equipped, as in SabberStone.
define("EX1_411")

DAMAGED_MINION = MINION.only(lambda g, m: m.damaged)


# ---------------------------------------------------------------- spells
@spell("EX1_607", target=MINION)  # Inner Rage (SabberStone adds no Spell Damage to it)
def inner_rage(g, owner, card, target):
    g.damage(None, target, 1)
    g.buff(target, 2)


@spell("CS2_103", target=FRIENDLY_MINION)  # Charge
def charge(g, owner, card, target):
    target.charge = True
    g.mark(owner, "no_hero_attack", target.uid)  # see GameState.legal_moves


@spell("EX1_400")  # Whirlwind
def whirlwind(g, owner, card, target):
    for m in g.minions():
        g.spell_damage(owner, m, 1)


@spell("EX1_409")  # Upgrade!
def upgrade(g, owner, card, target):
    w = g.players[owner].weapon
    if w is None:
        g.equip(owner, "EX1_409t")
    else:
        w.atk += 1
        w.durability += 1


@spell("EX1_410", target=MINION)  # Shield Slam
def shield_slam(g, owner, card, target):
    armor = g.players[owner].hero.armor
    if armor > 0:  # with no Armor, no damage, not even Spell Damage (SabberStone)
        g.spell_damage(owner, target, armor)


@spell("CS2_104", target=DAMAGED_MINION)  # Rampage
def rampage(g, owner, card, target):
    g.buff(target, 3, 3)


@spell("CS2_105")  # Heroic Strike
def heroic_strike(g, owner, card, target):
    g.players[owner].hero.turn_atk += 4


@spell("CS2_108", target=ENEMY_MINION.only(lambda g, m: m.damaged))  # Execute
def execute(g, owner, card, target):
    g.destroy(target)


@spell("CS2_114")  # Cleave
def cleave(g, owner, card, target):
    for m in g.sample([m for m in enemy_minions(g, owner) if g.alive(m)], 2):
        g.spell_damage(owner, m, 2)


requires("CS2_114")(lambda g, owner: len(g.players[1 - owner].board) > 0)


@spell("EX1_391", target=MINION)  # Slam
def slam(g, owner, card, target):
    g.spell_damage(owner, target, 2)
    if g.alive(target):
        g.draw(owner)


@spell("EX1_392")  # Battle Rage
def battle_rage(g, owner, card, target):
    g.draw(owner, sum(1 for c in g.characters(owner) if c.damaged))


@spell("NEW1_036")  # Commanding Shout
def commanding_shout(g, owner, card, target):
    g.mark(owner, "min_health")  # see GameState.damage
    g.draw(owner)


@spell("EX1_606")  # Shield Block
def shield_block(g, owner, card, target):
    g.gain_armor(owner, 5)
    g.draw(owner)


@spell("EX1_408", target=CHARACTER)  # Mortal Strike
def mortal_strike(g, owner, card, target):
    g.spell_damage(owner, target, 6 if g.players[owner].hero.health <= 12 else 4)


@spell("EX1_407")  # Brawl
def brawl(g, owner, card, target):
    everyone = g.minions()
    survivor = g.choice(everyone)
    for m in everyone:
        if m is not survivor:
            g.destroy(m)


requires("EX1_407")(lambda g, owner: len(g.minions()) >= 2)


# ---------------------------------------------------------------- minions
@trigger("EX1_402", "damage")  # Armorsmith
def armorsmith(g, owner, me, character, amount, source):
    if isinstance(character, Minion) and character.owner == owner:
        g.gain_armor(owner, 1)


@battlecry("EX1_603", target=MINION)  # Cruel Taskmaster
def cruel_taskmaster(g, owner, me, target):
    if target is not None:
        g.damage(me, target, 1)
        g.buff(target, 2)


@aura("EX1_084")  # Warsong Commander, as of late 2019 (SabberStone): Charge minions +1 Attack
def warsong_commander(g: GameState, owner: int, me: Minion) -> None:
    for m in g.players[owner].board:
        if m.charge or m.aura_charge:
            m.aura_atk += 1


@trigger("EX1_604", "damage")  # Frothing Berserker
def frothing_berserker(g, owner, me, character, amount, source):
    if isinstance(character, Minion):
        g.buff(me, 1)


@battlecry("EX1_398")  # Arathi Weaponsmith
def arathi_weaponsmith(g, owner, me, target):
    g.equip(owner, "EX1_398t")


@enrage("EX1_414")  # Grommash Hellscream (Charge from the data)
def grommash_hellscream(g: GameState, owner: int, me: Minion) -> None:
    me.aura_atk += 6
