"""Basic and Classic Priest cards, the Shadowform hero powers and the Priest's tokens."""
from ..cardspec import (CHARACTER, ENEMY_MINION, FRIENDLY_MINION, MINION, aura, battlecry, define,
                        hero_power, requires, spell, trigger)
from ..entities import Minion
from ..state import GameState
from .mage import deck_all_odd

define("HERO_09")  # Anduin Wrynn: 30 Health, no text
define("EX1_345t")  # Shadow of Nothing, 0/1 (Mindgames found no minion)

ATTACK_AT_MOST_3 = MINION.only(lambda g, m: m.atk <= 3)


def _steal(g, owner, target, until_end_of_turn=False):
    """Take control of an enemy minion (GameState.take_control destroys it if the board is full)."""
    g.take_control(target, owner)
    if until_end_of_turn and target.owner == owner:
        target.sick = False  # Shadow Madness gives Charge
        g.mark(owner, "borrowed", target.uid)  # given back at the end of the turn (GameState)


# ---------------------------------------------------------------- spells
@spell("EX1_332", target=MINION)  # Silence
def silence(g, owner, card, target):
    g.silence(target)


@spell("EX1_621")  # Circle of Healing
def circle_of_healing(g, owner, card, target):
    for m in g.minions():
        g.spell_heal(owner, m, 4)


@spell("CS1_129", target=MINION)  # Inner Fire: its Attack before auras becomes its Health
def inner_fire(g, owner, card, target):
    target.turn_atk = 0
    target.atk_bonus = target.health - target.base_atk


@spell("CS1_130", target=CHARACTER)  # Holy Smite
def holy_smite(g, owner, card, target):
    g.spell_damage(owner, target, 2)


@spell("CS2_003")  # Mind Vision
def mind_vision(g, owner, card, target):
    seen = g.choice(g.players[1 - owner].hand)
    if seen is not None:
        g.give(owner, seen.cdef.id)


@spell("CS2_004", target=MINION)  # Power Word: Shield
def power_word_shield(g, owner, card, target):
    g.buff(target, health=2)
    g.draw(owner)


@spell("EX1_192")  # Radiance
def radiance(g, owner, card, target):
    g.spell_heal(owner, g.players[owner].hero, 5)


@spell("CS2_234", target=ATTACK_AT_MOST_3)  # Shadow Word: Pain
def shadow_word_pain(g, owner, card, target):
    g.destroy(target)


@spell("CS2_236", target=MINION)  # Divine Spirit: + its current Health
def divine_spirit(g, owner, card, target):
    g.buff(target, health=max(0, target.health))


@spell("DS1_233")  # Mind Blast
def mind_blast(g, owner, card, target):
    g.spell_damage(owner, g.players[1 - owner].hero, 5)


@spell("EX1_339")  # Thoughtsteal
def thoughtsteal(g, owner, card, target):
    for copied in g.sample(g.players[1 - owner].deck, 2):
        g.give(owner, copied.cdef.id)


@spell("EX1_622", target=MINION.only(lambda g, m: m.atk >= 5))  # Shadow Word: Death
def shadow_word_death(g, owner, card, target):
    g.destroy(target)


@spell("EX1_625")  # Shadowform
def shadowform(g, owner, card, target):
    # Mind Spike becomes Mind Shatter; any other power, Mind Shatter too, becomes Mind Spike (as
    # SabberStone plays it; the text keeps Mind Shatter). A new power can be used this turn.
    hero = g.players[owner].hero
    hero.power = g.card("EX1_625t2" if hero.power.id == "EX1_625t" else "EX1_625t")
    hero.power_uses = 0


@spell("EX1_334", target=ENEMY_MINION.only(lambda g, m: m.atk <= 3))  # Shadow Madness
def shadow_madness(g, owner, card, target):
    _steal(g, owner, target, until_end_of_turn=True)


@spell("EX1_345")  # Mindgames
def mindgames(g, owner, card, target):
    minions = [c for c in g.players[1 - owner].deck if c.cdef.type == "MINION"]
    picked = g.choice(minions)
    g.summon(owner, picked.cdef if picked is not None else "EX1_345t")


@spell("EX1_626")  # Mass Dispel
def mass_dispel(g, owner, card, target):
    for m in g.minions(1 - owner):
        g.silence(m)
    g.draw(owner)


@spell("CS1_112")  # Holy Nova
def holy_nova(g, owner, card, target):
    for c in g.characters(1 - owner):
        g.spell_damage(owner, c, 2)
    for c in g.characters(owner):
        g.spell_heal(owner, c, 2)


@spell("EX1_624", target=CHARACTER)  # Holy Fire
def holy_fire(g, owner, card, target):
    g.damage(None, target, 5)  # SabberStone adds no Spell Damage (nor Velen) to this damage
    g.spell_heal(owner, g.players[owner].hero, 5)


@spell("CS1_113", target=ENEMY_MINION)  # Mind Control
def mind_control(g, owner, card, target):
    _steal(g, owner, target)


for _stealer in ("EX1_334", "EX1_345", "CS1_113"):
    requires(_stealer)(GameState.has_room)


# ---------------------------------------------------------------- hero powers of Shadowform
@hero_power("EX1_625t", target=CHARACTER)  # Mind Spike
def mind_spike(g, owner, hero, target):
    g.damage(None, target, 2)  # SabberStone's Velen does not double hero power damage


@hero_power("EX1_625t2", target=CHARACTER)  # Mind Shatter
def mind_shatter(g, owner, hero, target):
    g.damage(None, target, 3)


# ---------------------------------------------------------------- minions
@trigger("CS2_235", "heal")  # Northshire Cleric
def northshire_cleric(g, owner, me, character, amount):
    if isinstance(character, Minion):
        g.draw(owner)


@trigger("EX1_341", "turn_start")  # Lightwell
def lightwell(g, owner, me, player):
    if player == owner:
        hurt = g.choice([c for c in g.characters(owner) if c.damaged and g.alive(c)])
        if hurt is not None:
            g.heal(hurt, 3, owner)


@aura("EX1_335")  # Lightspawn: its Attack is set to its Health (after the auras before it)
def lightspawn(g: GameState, owner: int, me: Minion) -> None:
    me.aura_atk += me.health - (me.base_atk + me.atk_bonus + me.turn_atk + me.aura_atk)


@aura("EX1_591")  # Auchenai Soulpriest (see GameState.heal)
def auchenai_soulpriest(g: GameState, owner: int, me: Minion) -> None:
    g.mark(owner, "heal_to_damage")


@aura("EX1_350")  # Prophet Velen (see GameState.spell_damage and spell_heal)
def prophet_velen(g: GameState, owner: int, me: Minion) -> None:
    g.mark(owner, "spell_double")


@battlecry("GIL_837")  # Glitter Moth
def glitter_moth(g, owner, me, target):
    # SabberStone doubles their maximum Health (before auras); damage stays (Divine Spirit
    # doubles the current Health instead).
    if deck_all_odd(g, owner):
        for m in g.players[owner].board:
            if m is not me:
                g.buff(m, health=m.base_health + m.health_bonus)


@battlecry("EX1_091", target=ENEMY_MINION.only(lambda g, m: m.atk <= 2))  # Cabal Shadow Priest
def cabal_shadow_priest(g, owner, me, target):
    if target is not None:
        _steal(g, owner, target)


@battlecry("EX1_623", target=FRIENDLY_MINION)  # Temple Enforcer
def temple_enforcer(g, owner, me, target):
    if target is not None:
        g.buff(target, health=3)
