"""The upgraded Basic hero powers Baku the Mooneater gives (SabberStone's Justicar Trueheart
table: each class's Basic power and its upgrade)."""
from ..cardspec import CHARACTER, define, hero_power, requires
from ..state import MAX_BOARD

UPGRADED_POWERS = {
    "CS1h_001": "AT_132_PRIEST", "CS2_017": "AT_132_DRUID", "CS2_034": "AT_132_MAGE",
    "CS2_049": "AT_132_SHAMAN", "CS2_056": "AT_132_WARLOCK", "CS2_083b": "AT_132_ROGUE",
    "CS2_101": "AT_132_PALADIN", "CS2_102": "AT_132_WARRIOR", "DS1h_292": "AT_132_HUNTER",
}
# Searing, Stoneclaw, Wrath of Air and Healing Totem
BASIC_TOTEMS = ("CS2_050", "CS2_051", "CS2_052", "NEW1_009")


def _board_has_room(g, owner):
    return len(g.players[owner].board) < MAX_BOARD


@hero_power("AT_132_WARRIOR")  # Tank Up!
def tank_up(g, owner, hero, target):
    g.gain_armor(owner, 4)


@hero_power("AT_132_SHAMAN")  # Totemic Slam
def totemic_slam(g, owner, hero, target):
    # "A Totem of your choice" (SabberStone: a Discover); the engine has no choices: a random one.
    g.summon(owner, g.choice(BASIC_TOTEMS))


@hero_power("AT_132_ROGUE")  # Poisoned Daggers
def poisoned_daggers(g, owner, hero, target):
    g.equip(owner, "AT_132_ROGUEt")


@hero_power("AT_132_PALADIN")  # The Silver Hand
def the_silver_hand(g, owner, hero, target):
    for _ in range(2):
        g.summon(owner, "CS2_101t")


@hero_power("AT_132_HUNTER")  # Ballista Shot
def ballista_shot(g, owner, hero, target):
    g.damage(None, g.players[1 - owner].hero, 3)


@hero_power("AT_132_DRUID")  # Dire Shapeshift
def dire_shapeshift(g, owner, hero, target):
    g.gain_armor(owner, 2)
    hero.turn_atk += 2


@hero_power("AT_132_WARLOCK")  # Soul Tap
def soul_tap(g, owner, hero, target):
    g.draw(owner)


@hero_power("AT_132_MAGE", target=CHARACTER)  # Fireblast Rank 2
def fireblast_rank_2(g, owner, hero, target):
    g.damage(None, target, 2)


@hero_power("AT_132_PRIEST", target=CHARACTER)  # Heal
def heal(g, owner, hero, target):
    g.heal(target, 4)


for _power in ("AT_132_SHAMAN", "AT_132_PALADIN"):
    requires(_power)(_board_has_room)
define("AT_132_ROGUEt")  # Poisoned Dagger, 2/2
# The keyword-only Basic totems (Healing Totem's end-of-turn heal belongs with the Shaman cards).
define("CS2_050", "CS2_051", "CS2_052")
