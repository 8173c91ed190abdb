"""Heroes, hero powers, The Coin, the Rogue's dagger and the Shaman's basic totems."""
from ..cardspec import CHARACTER, define, hero_power, requires, spell, trigger
from ..entities import Hero
from ..state import MAX_BOARD, GameState
from .druid import hero_attack_and_armor

define("HERO_03", "HERO_05", "HERO_04", "HERO_07")  # heroes: 30 health, no text
define("CS2_082")  # Wicked Knife, the 1/2 dagger of Dagger Mastery


@spell("GAME_005")
def the_coin(g, owner, card, target):
    g.gain_mana(owner, 1)


@hero_power("CS2_083b")
def dagger_mastery(g: GameState, owner: int, hero: Hero, target: object) -> None:
    g.equip(owner, "CS2_082")


@hero_power("DS1h_292")
def steady_shot(g: GameState, owner: int, hero: Hero, target: object) -> None:
    g.damage(None, g.players[1 - owner].hero, 2)


@hero_power("CS2_101")
def reinforce(g: GameState, owner: int, hero: Hero, target: object) -> None:
    g.summon(owner, "CS2_101t")


requires("CS2_101")(GameState.has_room)
define("CS2_101t")  # Silver Hand Recruit


@hero_power("CS2_056")
def life_tap(g: GameState, owner: int, hero: Hero, target: object) -> None:
    g.damage(None, g.players[owner].hero, 2)  # the damage first, as SabberStone
    g.draw(owner)


# Mage, Warrior and Priest hero powers. SabberStone adds neither Spell Damage nor Prophet Velen's
# doubling to Fireblast's damage; Velen doubles Lesser Heal (GameState.spell_heal).
@hero_power("CS2_034", target=CHARACTER)
def fireblast(g, owner, hero, target):
    g.damage(None, target, 1)


@hero_power("CS2_102")
def armor_up(g, owner, hero, target):
    g.gain_armor(owner, 2)


@hero_power("CS1h_001", target=CHARACTER)
def lesser_heal(g, owner, hero, target):
    g.spell_heal(owner, target, 2)


# ---------------------------------------------------------------- Druid and Shaman hero powers
define("HERO_02", "HERO_06")  # Thrall, Malfurion Stormrage: 30 health, no text


@hero_power("CS2_017")
def shapeshift(g, owner, hero, target):
    hero_attack_and_armor(g, owner, 1, 1)


BASIC_TOTEMS = ("CS2_050", "CS2_051", "CS2_052", "NEW1_009")  # Searing, Stoneclaw, Wrath of Air, Healing


def _totems_not_in_play(g, owner):
    on_board = {m.cdef.id for m in g.players[owner].board}
    return [t for t in BASIC_TOTEMS if t not in on_board]


@hero_power("CS2_049")
def totemic_call(g, owner, hero, target):
    g.summon(owner, g.choice(_totems_not_in_play(g, owner)))


# Not usable with a full board, nor with all four totems in play (SabberStone's requirements).
requires("CS2_049")(lambda g, owner: len(g.players[owner].board) < MAX_BOARD
                    and bool(_totems_not_in_play(g, owner)))
define("CS2_050", "CS2_051", "CS2_052")  # Searing 1/1, Stoneclaw 0/2 Taunt, Wrath of Air Spell Damage +1


@trigger("NEW1_009", "turn_end")  # Healing Totem
def healing_totem(g, owner, me, player):
    if player == owner:
        for m in g.players[owner].board:
            g.heal(m, 1)
