"""Neutral minions of 5+ mana from the deck-search pool, with their tokens and Ysera's Dream cards."""
from ..cardspec import CHARACTER, MINION, battlecry, cost, deathrattle, define, spell, trigger
from ..entities import Card
from ..state import GameState
from .class_cards import minions_by_race

# Keywords only (or no text): Windfury Harpy, Archmage, Boulderfist Ogre, War Golem, Core Hound,
# Malygos, Gnoll, Baine Bloodhoof, Laughing Sister, Emerald Drake.
define("EX1_033", "CS2_155", "CS2_200", "CS2_186", "CS2_201", "EX1_563", "NEW1_040t",
       "EX1_110t", "DREAM_01", "DREAM_03")
# Nozdormu's only text limits how long a human may think; a simulated turn has no clock, so it
# is the vanilla 8/8 for 9 it is in a game.
define("EX1_560")


@battlecry("NEW1_024")  # Captain Greenskin
def captain_greenskin(g, owner, me, target):
    weapon = g.players[owner].weapon
    if weapon is not None:
        weapon.atk += 1
        weapon.durability += 1


@trigger("EX1_399", "damage")  # Gurubashi Berserker
def gurubashi_berserker(g, owner, me, character, amount, source):
    if character is me:
        g.buff(me, atk=3)


@battlecry("DS1_055")  # Darkscale Healer
def darkscale_healer(g, owner, me, target):
    for c in g.characters(owner):
        g.heal(c, 2)


@trigger("NEW1_040", "turn_end")  # Hogger
def hogger(g, owner, me, player):
    if player == owner:
        g.summon(owner, "NEW1_040t", g.position_of(me) + 1)


@deathrattle("EX1_110")  # Cairne Bloodhoof
def cairne_bloodhoof(g, owner, me, position):
    g.summon(owner, "EX1_110t", position)


# The data gives Frost Elemental FREEZE for its battlecry, so in SabberStone its fights freeze too.
@battlecry("EX1_283", target=CHARACTER)  # Frost Elemental
def frost_elemental(g, owner, me, target):
    if target is not None:
        g.freeze(target)


@battlecry("EX1_190")  # High Inquisitor Whitemane
def whitemane(g, owner, me, target):
    # Fresh copies, in the order they died, at the right end (as SabberStone summons them).
    for card_id in g.players[owner].died_this_turn:
        if g.summon(owner, card_id) is None:
            break


@battlecry("EX1_188")  # Barrens Stablehand
def barrens_stablehand(g, owner, me, target):
    beast = g.choice(minions_by_race(g.library)["BEAST"])
    if beast is not None:
        g.summon(owner, beast)  # at the right end, as SabberStone summons it


@trigger("EX1_187", "cast_spell")  # Arcane Devourer: before the spell resolves
def arcane_devourer(g, owner, me, player, card):
    if player == owner:
        g.buff(me, 2, 2)


@trigger("NEW1_038", "turn_end")  # Gruul: each turn, either player's
def gruul(g, owner, me, player):
    g.buff(me, 1, 1)


@battlecry("NEW1_030")  # Deathwing
def deathwing(g, owner, me, target):
    for m in g.minions():  # SabberStone destroys Deathwing too ("all other minions" says the text)
        g.destroy(m)
    g.players[owner].hand = []


@cost("EX1_105")  # Mountain Giant
def mountain_giant(g: GameState, owner: int, card: Card) -> int:
    others = sum(1 for c in g.players[owner].hand if c is not card)
    return card.cdef.cost - others


# ------------------------------------------------------------------ Ysera and her Dream cards
DREAM_CARDS = ("DREAM_01", "DREAM_02", "DREAM_03", "DREAM_04", "DREAM_05")


@trigger("EX1_572", "turn_end")  # Ysera
def ysera(g, owner, me, player):
    if player == owner:
        g.give(owner, g.choice(DREAM_CARDS))


@spell("DREAM_02")  # Ysera Awakens
def ysera_awakens(g, owner, card, target):
    for c in g.characters():
        if c.cdef.id != "EX1_572":
            g.spell_damage(owner, c, 5)


@spell("DREAM_04", target=MINION)  # Dream
def dream(g, owner, card, target):
    g.return_to_hand(target)


@spell("DREAM_05", target=MINION)  # Nightmare
def nightmare(g, owner, card, target):
    g.buff(target, 5, 5)
    target.destroy_at_start_of = owner
