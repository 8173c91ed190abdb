"""Classic class cards: Rogue, Warlock, Paladin and Hunter."""
from ..cardspec import (CHARACTER, ENEMY_MINION, FRIENDLY_MINION, MINION, aura, battlecry,
                        combo, deathrattle, define, requires, secret, spell, trigger)
from ..entities import Card
from ..state import MAX_BOARD


def _has_weapon(g, owner):
    return g.players[owner].weapon is not None


def _board_has_room(g, owner):
    return len(g.players[owner].board) < MAX_BOARD


def _is_beast(m):
    return m.race in ("BEAST", "ALL")


# ---------------------------------------------------------------- Rogue
@combo("EX1_613")
def edwin_vancleef(g, owner, me, target):
    others = g.players[owner].cards_played - 1  # cards_played already counts Edwin
    g.buff(me, 2 * others, 2 * others)


@spell("EX1_145")
def preparation(g, owner, card, target):
    # play_card clears the discount before the effect, so a second Preparation replaces it.
    # (3) less, as SabberStone plays it; the card's text of late 2019 says (2).
    g.players[owner].spell_discount = 3


@spell("EX1_144", target=FRIENDLY_MINION)
def shadowstep(g, owner, card, target):
    p = g.players[owner]
    before = len(p.hand)
    g.return_to_hand(target)
    if len(p.hand) > before:
        returned = p.hand[-1]
        p.hand[-1] = Card(returned.uid, returned.cdef, cost_mod=-2)


@spell("CS2_074")
def deadly_poison(g, owner, card, target):
    g.players[owner].weapon.atk += 2


requires("CS2_074")(_has_weapon)


@spell("EX1_128")
def conceal(g, owner, card, target):
    # SabberStone: when Conceal wears off, every friendly minion loses Stealth, its own too.
    for m in g.players[owner].board:
        m.stealth = m.stealth_until_next_turn = True


@spell("EX1_124", target=CHARACTER)
def eviscerate(g, owner, card, target):
    g.damage(None, target, 2)  # SabberStone adds no Spell Damage to Eviscerate


@combo("EX1_124", target=CHARACTER)
def eviscerate_combo(g, owner, card, target):
    g.damage(None, target, 4)


@spell("EX1_581", target=ENEMY_MINION)
def sap(g, owner, card, target):
    g.return_to_hand(target)


@spell("EX1_278", target=CHARACTER)
def shiv(g, owner, card, target):
    g.spell_damage(owner, target, 1)
    g.draw(owner)


@spell("CS2_073", target=MINION)
def cold_blood(g, owner, card, target):
    g.buff(target, 2)


@combo("CS2_073", target=MINION)
def cold_blood_combo(g, owner, card, target):
    g.buff(target, 4)


@spell("EX1_129")
def fan_of_knives(g, owner, card, target):
    for m in g.minions(1 - owner):
        g.spell_damage(owner, m, 1)
    g.draw(owner)


@spell("CS2_233")
def blade_flurry(g, owner, card, target):
    w = g.players[owner].weapon
    amount = w.atk + w.aura_atk
    g.destroy_weapon(owner)
    for m in g.minions(1 - owner):  # Spell Damage applies to Blade Flurry
        g.spell_damage(owner, m, amount)


requires("CS2_233")(_has_weapon)


# ---------------------------------------------------------------- Warlock
@battlecry("EX1_306")
def felstalker(g, owner, me, target):
    g.discard_random(owner, 1)


@battlecry("EX1_304")
def void_terror(g, owner, me, target):
    # As SabberStone plays it: only with two neighbours, and their maximum Health counts.
    if len(g.adjacent(me)) < 2:
        return
    for m in g.adjacent(me):
        if g.alive(m):
            g.buff(me, m.atk, m.max_health)
            g.destroy(m)


@battlecry("EX1_310")
def doomguard(g, owner, me, target):
    g.discard_random(owner, 2)


@spell("EX1_302", target=MINION)
def mortal_coil(g, owner, card, target):
    g.spell_damage(owner, target, 1)
    if target.health <= 0 or target.destroyed:
        g.draw(owner)


@spell("EX1_309", target=MINION)
def siphon_soul(g, owner, card, target):
    g.destroy(target)
    g.heal(g.players[owner].hero, 3)


# ---------------------------------------------------------------- Paladin
@deathrattle("EX1_383")
def tirion_fordring(g, owner, me, position):
    g.equip(owner, "EX1_383t")


define("EX1_383t")  # Ashbringer, 5/3


@secret("EX1_132", "damage")
def eye_for_an_eye(g, owner, card, character, amount, source):
    if character is not g.players[owner].hero:
        return False
    # SabberStone adds its owner's Spell Damage to the reflected amount.
    g.damage(None, g.players[1 - owner].hero, amount + g.spell_power(owner))
    return True


@spell("CS2_093")
def consecration(g, owner, card, target):
    for c in g.characters(1 - owner):
        g.spell_damage(owner, c, 2)


@spell("CS2_092", target=MINION)
def blessing_of_kings(g, owner, card, target):
    g.buff(target, 4, 4)


@spell("EX1_384")
def avenging_wrath(g, owner, card, target):
    # One missile at a time, each at a random enemy still alive.
    for _ in range(8 + g.spell_power(owner)):
        enemy = g.choice([c for c in g.characters(1 - owner) if g.alive(c)])
        if enemy is None:
            break
        g.damage(None, enemy, 1)


@spell("EX1_354", target=CHARACTER)
def lay_on_hands(g, owner, card, target):
    g.heal(target, 8)
    g.draw(owner, 3)


define("CS2_091")  # Light's Justice


@trigger("CS2_097", "attack")
def truesilver_champion(g, owner, me, attacker, defender):
    hero = g.players[owner].hero
    if attacker is hero:
        g.heal(hero, 2)


# ---------------------------------------------------------------- Hunter
@aura("DS1_175")
def timber_wolf(g, owner, me):
    for m in g.players[owner].board:
        if m is not me and _is_beast(m):
            m.aura_atk += 1


@trigger("EX1_531", "death")
def scavenging_hyena(g, owner, me, dead, position):
    if dead.owner == owner and dead is not me and _is_beast(dead):
        g.buff(me, 2, 1)


@aura("DS1_178")
def tundra_rhino(g, owner, me):
    for m in g.players[owner].board:
        if _is_beast(m):
            m.aura_charge = True
            m.sick = False  # SabberStone: losing the Charge later does not exhaust it again


define("EX1_543")  # King Krush: Charge

COMPANIONS = ("NEW1_032", "NEW1_033", "NEW1_034")  # Misha, Leokk, Huffer


@spell("NEW1_031")
def animal_companion(g, owner, card, target):
    g.summon(owner, g.choice(COMPANIONS))


requires("NEW1_031")(_board_has_room)
define("NEW1_032", "NEW1_034")  # Misha (Taunt), Huffer (Charge)


@aura("NEW1_033")
def leokk(g, owner, me):
    for m in g.players[owner].board:
        if m is not me:
            m.aura_atk += 1


@spell("EX1_538")
def unleash_the_hounds(g, owner, card, target):
    for _ in range(len(g.players[1 - owner].board)):
        g.summon(owner, "EX1_538t")


requires("EX1_538")(lambda g, owner: _board_has_room(g, owner)
                    and len(g.players[1 - owner].board) > 0)
define("EX1_538t")  # Hound, 1/1 Charge


@trigger("EX1_536", "secret_revealed")
def eaglehorn_bow(g, owner, me, player, card):
    if player == owner:
        me.durability += 1
