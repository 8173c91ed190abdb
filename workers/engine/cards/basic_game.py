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


# Mage, Warrior and Priest hero powers. SabberStone adds neither Spell Damage nor Prophet Velen's
# doubling to Fireblast's damage; Velen doubles Lesser Heal (GameState.spell_heal).
from ..cardspec import CHARACTER  # noqa: E402  (appended here to keep the file append-only)


@hero_power("CS2_034", target=CHARACTER)
def fireblast(g, owner, hero, target):
    g.damage(None, target, 1)


@hero_power("CS2_102")
def armor_up(g, owner, hero, target):
    g.gain_armor(owner, 2)


@hero_power("CS1h_001", target=CHARACTER)
def lesser_heal(g, owner, hero, target):
    g.spell_heal(owner, target, 2)
