"""The upgraded Basic hero powers Baku the Mooneater gives (SabberStone's Justicar Trueheart
table: each class's Basic power and its upgrade)."""
from ..cardspec import CHARACTER, define, hero_power, requires
from ..game import HEROES
from ..state import GameState
from .basic_game import BASIC_TOTEMS
from .druid import hero_attack_and_armor

# Each class's Basic hero power -> its upgrade, AT_132_<CLASS> (Poisoned Daggers, Ballista Shot...).
UPGRADED_POWERS = {power: f"AT_132_{hero_class}" for hero_class, (_, power) in HEROES.items()}

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
    hero_attack_and_armor(g, owner, 2, 2)


@hero_power("AT_132_WARLOCK")  # Soul Tap
def soul_tap(g, owner, hero, target):
    g.draw(owner)


@hero_power("AT_132_MAGE", target=CHARACTER)  # Fireblast Rank 2
def fireblast_rank_2(g, owner, hero, target):
    g.damage(None, target, 2)


@hero_power("AT_132_PRIEST", target=CHARACTER)  # Heal
def heal(g, owner, hero, target):
    g.spell_heal(owner, target, 4)  # a hero power's healing: Velen doubles it


for _power in ("AT_132_SHAMAN", "AT_132_PALADIN"):
    requires(_power)(GameState.has_room)
define("AT_132_ROGUEt")  # Poisoned Dagger, 2/2
