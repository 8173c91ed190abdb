"""Heroes, hero powers, The Coin and the Rogue's dagger."""
from ..cardspec import ENEMY_CHARACTER, define, hero_power, requires, spell

define("HERO_03", "HERO_05", "HERO_04", "HERO_07")  # heroes: 30 health, no text
define("CS2_082")  # Wicked Knife, the 1/2 dagger of Dagger Mastery


@spell("GAME_005")
def the_coin(g, owner, card, target):
    g.gain_mana(owner, 1)


@hero_power("CS2_083b")
def dagger_mastery(g, owner, hero, target):
    g.equip(owner, "CS2_082")


@hero_power("DS1h_292")
def steady_shot(g, owner, hero, target):
    g.damage(None, g.players[1 - owner].hero, 2)


@hero_power("CS2_101")
def reinforce(g, owner, hero, target):
    g.summon(owner, "CS2_101t")


requires("CS2_101")(lambda g, owner: len(g.players[owner].board) < 7)
define("CS2_101t")  # Silver Hand Recruit


@hero_power("CS2_056")
def life_tap(g, owner, hero, target):
    g.damage(None, g.players[owner].hero, 2)  # the damage first, as SabberStone
    g.draw(owner)
