"""The upgraded Basic hero powers Baku the Mooneater gives (SabberStone's Justicar Trueheart
table: each class's Basic power and its upgrade)."""
from ..cardspec import CHARACTER, define, hero_power, requires, trigger
from ..game import HEROES
from ..state import MAX_BOARD

# Each class's Basic hero power -> its upgrade, AT_132_<CLASS> (Poisoned Daggers, Ballista Shot...).
UPGRADED_POWERS = {power: f"AT_132_{hero_class}" for hero_class, (_, power) in HEROES.items()}
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
define("CS2_050", "CS2_051", "CS2_052")  # the keyword-only Basic totems


# Also the Shaman's Totemic Call's token: whoever merges the Shaman cards keeps one registration.
@trigger("NEW1_009", "turn_end")  # Healing Totem
def healing_totem(g, owner, me, player):
    if player == owner:
        for m in g.players[owner].board:
            g.heal(m, 1)
