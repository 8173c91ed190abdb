"""Basic and Classic Mage cards, their secrets and tokens (and helpers the Warrior and Priest
cards share)."""
from ..cardspec import (CHARACTER, MINION, battlecry, cost, cost_aura, define, random_pool,
                        requires, secret, spell, trigger)
from ..entities import Card, Minion
from ..state import GameState
from .pool_mid import _COPIED

define("HERO_08")  # Jaina Proudmoore: 30 Health, no text
define("CS2_033")  # Water Elemental: its Freeze (in combat) comes from the data
define("CS2_tk1", "CS2_mirror", "tt_010a")  # Sheep 1/1, Mirror Image 0/2 Taunt, Spellbender 1/3


# ---------------------------------------------------------------- shared helpers
def enemy_minions(g, owner):
    return g.minions(1 - owner)


def deck_all_odd(g, owner):
    """'If your deck has only odd-Cost cards' (true for an empty deck, as in SabberStone)."""
    return all(c.cdef.cost % 2 for c in g.players[owner].deck)


@random_pool
def class_spells(library) -> dict[str, list[str]]:
    """Per class, its collectible spells in card id order (Tome of Intellect's pool)."""
    pools: dict[str, list[str]] = {}
    for c in sorted(library.values(), key=lambda c: c.id):
        if c.collectible and c.type == "SPELL":
            pools.setdefault(c.card_class, []).append(c.id)
    return pools


# ---------------------------------------------------------------- spells
@spell("CS2_027")  # Mirror Image
def mirror_image(g, owner, card, target):
    for _ in range(2):
        g.summon(owner, "CS2_mirror")


requires("CS2_027")(GameState.has_room)


@spell("CS2_031", target=CHARACTER)  # Ice Lance
def ice_lance(g, owner, card, target):
    if target.frozen:
        g.spell_damage(owner, target, 4)
    else:
        g.freeze(target)


@spell("EX1_180")  # Tome of Intellect: a random Mage spell of this card set
def tome_of_intellect(g, owner, card, target):
    g.give(owner, g.choice(class_spells(g.library)["MAGE"]))


@spell("EX1_277")  # Arcane Missiles
def arcane_missiles(g, owner, card, target):
    # Spell Damage adds missiles, each 1 damage at a random living enemy (SabberStone; its
    # missiles are not doubled by Prophet Velen).
    g.random_missiles(owner, 3 + g.spell_power(owner))


@spell("CS2_024", target=CHARACTER)  # Frostbolt
def frostbolt(g, owner, card, target):
    g.spell_damage(owner, target, 3)
    g.freeze(target)


@spell("CS2_025")  # Arcane Explosion
def arcane_explosion(g, owner, card, target):
    for m in enemy_minions(g, owner):
        g.spell_damage(owner, m, 1)


@spell("EX1_179", target=MINION)  # Icicle
def icicle(g, owner, card, target):
    g.spell_damage(owner, target, 2)
    if target.frozen:
        g.draw(owner)


@spell("CS2_023")  # Arcane Intellect
def arcane_intellect(g, owner, card, target):
    g.draw(owner, 2)


@spell("CS2_026")  # Frost Nova
def frost_nova(g, owner, card, target):
    for m in enemy_minions(g, owner):
        g.freeze(m)


@spell("CS2_022", target=MINION)  # Polymorph
def polymorph(g, owner, card, target):
    g.transform(target, "CS2_tk1")


@spell("CS2_029", target=CHARACTER)  # Fireball
def fireball(g, owner, card, target):
    g.spell_damage(owner, target, 6)


@spell("EX1_275", target=MINION)  # Cone of Cold: freeze them, then the damage (SabberStone)
def cone_of_cold(g, owner, card, target):
    hit = [target] + g.adjacent(target)
    for m in hit:
        g.freeze(m)
    for m in hit:
        g.spell_damage(owner, m, 1)


@spell("CS2_028")  # Blizzard
def blizzard(g, owner, card, target):
    victims = enemy_minions(g, owner)
    for m in victims:
        g.spell_damage(owner, m, 2)
    for m in victims:
        g.freeze(m)


@spell("CS2_032")  # Flamestrike
def flamestrike(g, owner, card, target):
    for m in enemy_minions(g, owner):
        g.spell_damage(owner, m, 4)


@spell("EX1_279", target=CHARACTER)  # Pyroblast
def pyroblast(g, owner, card, target):
    g.spell_damage(owner, target, 10)


# ---------------------------------------------------------------- secrets
MAGE_SECRETS = ("EX1_287", "EX1_289", "EX1_294", "EX1_295", "EX1_594", "tt_010")


@secret("EX1_287", "counter")  # Counterspell: the play then stops (GameState.play_card)
def counterspell(g, owner, card, player, spell_card):
    return True


@secret("EX1_289", "attack")  # Ice Barrier
def ice_barrier(g, owner, card, attacker, defender):
    if defender is not g.players[owner].hero:
        return False
    g.gain_armor(owner, 8)
    return True


@secret("EX1_294", "play_minion")  # Mirror Entity: a copy with its buffs and damage (SabberStone)
def mirror_entity(g, owner, card, played):
    if not g.alive(played) or not g.has_room(owner):
        return False
    copy = g.summon(owner, played.cdef, announce=False)
    for name in _COPIED:
        setattr(copy, name, getattr(played, name))
    g.fire("summon", copy)
    return True


@secret("EX1_295", "fatal_damage")  # Ice Block: the damage is prevented (GameState.damage)
def ice_block(g, owner, card, hero):
    if hero is not g.players[owner].hero:
        return False
    g.mark(owner, "immune")
    return True


@secret("EX1_594", "attack")  # Vaporize: the attack is then cancelled (GameState.attack)
def vaporize(g, owner, card, attacker, defender):
    if defender is not g.players[owner].hero or not isinstance(attacker, Minion):
        return False
    g.destroy(attacker)
    return True


@secret("tt_010", "spell_target")  # Spellbender: `box` holds the spell's minion target
def spellbender(g, owner, card, player, spell_card, box):
    if not g.has_room(owner):
        return False
    box[0] = g.summon(owner, "tt_010a")
    return True


def _free_secret(g: GameState, owner: int, card: Card) -> int:
    """A Mage secret's cost: (0) after Kirin Tor Mage this turn. (Only the Mage secrets get this
    hook; a copied Hunter or Paladin secret keeps its cost.)"""
    return 0 if g.marks and g.marked(owner, "free_secret") else card.cdef.cost


for _secret_id in MAGE_SECRETS:
    cost(_secret_id)(_free_secret)


# ---------------------------------------------------------------- minions
@battlecry("EX1_612")  # Kirin Tor Mage
def kirin_tor_mage(g, owner, me, target):
    g.mark(owner, "free_secret")


@cost_aura("EX1_608")  # Sorcerer's Apprentice
def sorcerers_apprentice(g: GameState, owner: int, me: Minion, player: int, card: Card) -> int:
    return -1 if player == owner and card.cdef.type == "SPELL" else 0


@trigger("NEW1_012", "cast_spell")  # Mana Wyrm
def mana_wyrm(g, owner, me, player, card):
    if player == owner:
        g.buff(me, 1)


@trigger("EX1_559", "cast_spell")  # Archmage Antonidas
def archmage_antonidas(g, owner, me, player, card):
    if player == owner:
        g.give(owner, "CS2_029")


@trigger("EX1_274", "turn_end")  # Ethereal Arcanist
def ethereal_arcanist(g, owner, me, player):
    if player == owner and g.players[owner].secrets:
        g.buff(me, 2, 2)


@battlecry("GIL_838")  # Black Cat (Spell Damage +1 from the data)
def black_cat(g, owner, me, target):
    if deck_all_odd(g, owner):
        g.draw(owner)
