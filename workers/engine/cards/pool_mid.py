"""Mid-cost neutral and class minions of the deck-search pool (4 and 5 mana)."""
from ..cardspec import FRIENDLY_MINION, MINION, battlecry, cost, define, enrage, trigger
from ..entities import Card, MINION_FIELDS, Minion
from ..state import GameState

# Keywords only (Taunt/Charge/Stealth/Spell Damage come from the data) or vanilla; tokens.
define("CS2_131", "CS2_182", "CS2_119", "CS2_197", "EX1_028")
define("NEW1_026t", "EX1_025t", "CS2_152")  # Violet Apprentice, Mechanical Dragonling, Squire


@cost("NEW1_022")
def dread_corsair(g: GameState, owner: int, card: Card) -> int:
    w = g.players[owner].weapon
    return card.cdef.cost - (w.atk + w.aura_atk if w is not None else 0)


@battlecry("CS2_147")
def gnomish_inventor(g, owner, me, target):
    g.draw(owner)


@battlecry("EX1_057", target=FRIENDLY_MINION)
def ancient_brewmaster(g, owner, me, target):
    if target is not None and target is not me:
        g.return_to_hand(target)


@battlecry("EX1_186")
def si7_infiltrator(g, owner, me, target):
    secrets = g.players[1 - owner].secrets
    lost = g.choice(secrets)
    if lost is not None:
        secrets.remove(lost)


@trigger("NEW1_026", "cast_spell")
def violet_teacher(g, owner, me, player, card):
    # Fires before the spell resolves (cast_spell), so the Apprentice can be hit by it.
    if player == owner:
        g.summon(owner, "NEW1_026t", g.position_of(me) + 1)


@battlecry("EX1_048", target=MINION)
def spellbreaker(g, owner, me, target):
    if target is not None:
        g.silence(target)


@battlecry("EX1_584")
def ancient_mage(g, owner, me, target):
    for m in g.adjacent(me):
        m.spell_damage += 1  # an enchantment: silence resets spell_damage to 0


@battlecry("EX1_043")
def twilight_drake(g, owner, me, target):
    g.buff(me, 0, len(g.players[owner].hand))


@battlecry("EX1_025")
def dragonling_mechanic(g, owner, me, target):
    g.summon(owner, "EX1_025t", g.position_of(me) + 1)


@trigger("EX1_595", "death")
def cult_master(g, owner, me, dead, position):
    if dead.owner == owner and dead is not me:
        g.draw(owner)


# What a copy takes from the original, as SabberStone copies it: card, stats, enchantments,
# damage, keywords (Frozen too) and silence; not the timed effects (Nightmare's end, Conceal's
# end), whose triggers SabberStone does not copy. It keeps its own identity, play order and
# exhaustion; auras stay its own.
_COPIED = tuple(s for s in MINION_FIELDS if s not in (
    "uid", "owner", "order", "sick", "attacks", "destroyed", "destroy_at_start_of",
    "stealth_until_next_turn", "aura_atk", "aura_health", "aura_charge", "aura_windfury"))


@battlecry("EX1_564", target=MINION)
def faceless_manipulator(g, owner, me, target):
    if target is None or target is me:
        return
    for name in _COPIED:
        setattr(me, name, getattr(target, name))


@battlecry("EX1_558")
def harrison_jones(g, owner, me, target):
    w = g.players[1 - owner].weapon
    if w is not None:
        durability = w.durability
        g.destroy_weapon(1 - owner)
        g.draw(owner, durability)


@enrage("CS2_221")
def spiteful_smith(g: GameState, owner: int, me: Minion) -> None:
    w = g.players[owner].weapon
    if w is not None:
        w.aura_atk += 2


@battlecry("CS2_226")
def frostwolf_warlord(g, owner, me, target):
    others = sum(1 for m in g.players[owner].board if m is not me)
    g.buff(me, others, others)


@battlecry("EX1_005", target=MINION.only(lambda g, m: m.atk >= 7))
def big_game_hunter(g, owner, me, target):
    if target is not None:
        g.destroy(target)


@battlecry("CS2_151")
def silver_hand_knight(g, owner, me, target):
    g.summon(owner, "CS2_152", g.position_of(me) + 1)
