"""Druid cards (Basic, Classic, Hall of Fame), their Choose One options and tokens.

A Choose One card names its two option cards (`choose_one`); each option is a card of its own
whose script is the effect (and whose target spec and requirement decide its plays). As in
SabberStone, option 1 is the card's id + "a" and option 2 its id + "b", which is not always the
order of the text (Starfall, Power of the Wild, Ancient of War, Keeper of the Grove)."""
from ..cardspec import (CHARACTER, ENEMY_CHARACTER, MINION, battlecry, define, requires, spell)
from ..state import MAX_BOARD, MAX_MANA


def _choose_one(card_id: str) -> None:
    define(card_id, choose_one=(card_id + "a", card_id + "b"))


def free_slots(count: int):
    """A requirement: at least `count` free board slots (SabberStone's REQ_NUM_MINION_SLOTS)."""
    return lambda g, owner: MAX_BOARD - len(g.players[owner].board) >= count


def gain_crystals(g, owner: int, amount: int, full: bool) -> None:
    """Gain Mana Crystals up to 10: full ones add to this turn's mana, empty ones do not."""
    p = g.players[owner]
    added = min(MAX_MANA, p.max_mana + amount) - p.max_mana
    p.max_mana += added
    if full:
        p.mana += added


def hero_attack_and_armor(g, owner: int, atk: int, armor: int) -> None:
    """+`atk` Attack this turn and `armor` Armor for the hero (Claw, Bite, Shapeshift)."""
    g.gain_armor(owner, armor)
    g.players[owner].hero.turn_atk += atk


def give_taunt_buff(m, atk: int, health: int, g) -> None:
    g.buff(m, atk, health)
    m.taunt = True


define("CS2_232")  # Ironbark Protector: Taunt
define("EX1_158t", "EX1_160t", "EX1_573t")  # Treant 2/2, Panther 3/2, Treant 2/2 Taunt
define("EX1_165t1", "EX1_165t2")  # Druid of the Claw: Cat 4/4 Charge, Bear 4/6 Taunt


# ---------------------------------------------------------------- Basic
@spell("CS2_005")  # Claw
def claw(g, owner, card, target):
    hero_attack_and_armor(g, owner, 2, 2)


@spell("CS2_008", target=CHARACTER)  # Moonfire
def moonfire(g, owner, card, target):
    g.spell_damage(owner, target, 1)


@spell("EX1_169")  # Innervate
def innervate(g, owner, card, target):
    g.gain_mana(owner, 1)


@spell("CS2_009", target=MINION)  # Mark of the Wild
def mark_of_the_wild(g, owner, card, target):
    give_taunt_buff(target, 2, 2, g)


@spell("CS2_011")  # Savage Roar
def savage_roar(g, owner, card, target):
    for c in g.characters(owner):
        c.turn_atk += 2


@spell("CS2_013")  # Wild Growth
def wild_growth(g, owner, card, target):
    p = g.players[owner]
    if p.max_mana >= MAX_MANA or p.mana >= MAX_MANA:  # SabberStone's excess mana check
        g.give(owner, "CS2_013t")
    gain_crystals(g, owner, 1, full=False)


@spell("CS2_013t")  # Excess Mana
def excess_mana(g, owner, card, target):
    g.draw(owner)


@spell("CS2_007", target=CHARACTER)  # Healing Touch
def healing_touch(g, owner, card, target):
    g.heal(target, 8)


@spell("CS2_012", target=ENEMY_CHARACTER)  # Swipe
def swipe(g, owner, card, target):
    g.spell_damage(owner, target, 4)
    for c in g.characters(1 - owner):
        if c is not target:
            g.spell_damage(owner, c, 1)


@spell("EX1_173", target=CHARACTER)  # Starfire
def starfire(g, owner, card, target):
    g.spell_damage(owner, target, 5)
    g.draw(owner)


# ---------------------------------------------------------------- Classic
@spell("EX1_161", target=MINION)  # Naturalize
def naturalize(g, owner, card, target):
    g.destroy(target)
    g.draw(1 - owner, 2)


@spell("EX1_578", target=MINION)  # Savagery
def savagery(g, owner, card, target):
    # SabberStone adds no Spell Damage (the card has AFFECTED_BY_SPELL_POWER in the game).
    g.damage(None, target, g.hero_atk(g.players[owner]))


@spell("EX1_570")  # Bite
def bite(g, owner, card, target):
    hero_attack_and_armor(g, owner, 4, 4)


@spell("EX1_158")  # Soul of the Forest
def soul_of_the_forest(g, owner, card, target):
    for m in g.players[owner].board:
        m.deathrattles = m.deathrattles + (_treant_deathrattle,)  # silence clears it


def _treant_deathrattle(g, owner, minion, position):
    g.summon(owner, "EX1_158t")  # at the right end, not where it died: SabberStone's summon


@spell("EX1_571")  # Force of Nature
def force_of_nature(g, owner, card, target):
    for _ in range(3):
        g.summon(owner, "EX1_158t")


requires("EX1_571")(free_slots(1))


@spell("EX1_183")  # Gift of the Wild
def gift_of_the_wild(g, owner, card, target):
    for m in g.players[owner].board:
        give_taunt_buff(m, 2, 2, g)


@battlecry("GIL_130")  # Gloom Stag
def gloom_stag(g, owner, me, target):
    if all(c.cdef.cost % 2 == 1 for c in g.players[owner].deck):
        g.buff(me, 2, 2)


# ---------------------------------------------------------------- Choose One
_choose_one("EX1_154")  # Wrath


@spell("EX1_154a", target=MINION)  # Solar Wrath
def solar_wrath(g, owner, card, target):
    g.spell_damage(owner, target, 3)


@spell("EX1_154b", target=MINION)  # Nature's Wrath
def natures_wrath(g, owner, card, target):
    g.spell_damage(owner, target, 1)
    g.draw(owner)


_choose_one("EX1_160")  # Power of the Wild


@spell("EX1_160a")  # Summon a Panther
def summon_a_panther(g, owner, card, target):
    g.summon(owner, "EX1_160t")


requires("EX1_160a")(free_slots(1))


@spell("EX1_160b")  # Leader of the Pack
def leader_of_the_pack(g, owner, card, target):
    for m in g.players[owner].board:
        g.buff(m, 1, 1)


_choose_one("EX1_155")  # Mark of Nature


@spell("EX1_155a", target=MINION)  # Tiger's Fury
def tigers_fury(g, owner, card, target):
    g.buff(target, 4)


@spell("EX1_155b", target=MINION)  # Thick Hide
def thick_hide(g, owner, card, target):
    give_taunt_buff(target, 0, 4, g)


_choose_one("NEW1_007")  # Starfall; SabberStone adds no Spell Damage to either option


@spell("NEW1_007a")  # Stellar Drift
def stellar_drift(g, owner, card, target):
    for m in g.minions(1 - owner):
        g.damage(None, m, 2)


@spell("NEW1_007b", target=MINION)  # Starlord
def starlord(g, owner, card, target):
    g.damage(None, target, 5)


_choose_one("EX1_164")  # Nourish


@spell("EX1_164a")  # Rampant Growth
def rampant_growth(g, owner, card, target):
    gain_crystals(g, owner, 2, full=True)


@spell("EX1_164b")  # Enrich
def enrich(g, owner, card, target):
    g.draw(owner, 3)


_choose_one("EX1_166")  # Keeper of the Grove: its options act as the battlecry


@battlecry("EX1_166a", target=CHARACTER)  # Moonfire
def keeper_moonfire(g, owner, me, target):
    g.damage(me, target, 2)


@battlecry("EX1_166b", target=MINION)  # Dispel
def keeper_dispel(g, owner, me, target):
    g.silence(target)


_choose_one("EX1_165")  # Druid of the Claw


def _take_form(g, me, card_id):
    # SabberStone's "after you summon" triggers then see the new form (play_card would not
    # announce it, as the minion it played has left the board).
    g.fire("summon", g.transform(me, card_id))


@battlecry("EX1_165a")  # Cat Form
def cat_form(g, owner, me, target):
    _take_form(g, me, "EX1_165t1")


@battlecry("EX1_165b")  # Bear Form
def bear_form(g, owner, me, target):
    _take_form(g, me, "EX1_165t2")


_choose_one("EX1_178")  # Ancient of War


@battlecry("EX1_178a")  # Rooted
def rooted(g, owner, me, target):
    give_taunt_buff(me, 0, 5, g)


@battlecry("EX1_178b")  # Uproot
def uproot(g, owner, me, target):
    g.buff(me, 5)


_choose_one("NEW1_008")  # Ancient of Lore


@battlecry("NEW1_008a")  # Ancient Teachings
def ancient_teachings(g, owner, me, target):
    g.draw(owner)


@battlecry("NEW1_008b", target=CHARACTER)  # Ancient Secrets
def ancient_secrets(g, owner, me, target):
    g.heal(target, 5)


_choose_one("EX1_573")  # Cenarius


@battlecry("EX1_573a")  # Demigod's Favor
def demigods_favor(g, owner, me, target):
    for m in g.players[owner].board:
        if m is not me:
            g.buff(m, 2, 2)


@battlecry("EX1_573b")  # Shan'do's Lesson
def shandos_lesson(g, owner, me, target):
    for _ in range(2):
        g.summon(owner, "EX1_573t")  # at the right end, as SabberStone summons them


# SabberStone asks for two free slots (REQ_NUM_MINION_SLOTS 2) while Cenarius is still in hand.
requires("EX1_573b")(free_slots(2))
