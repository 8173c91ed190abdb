"""Classic class cards: Rogue, Warlock, Paladin and Hunter."""
from ..cardspec import (CHARACTER, ENEMY_MINION, FRIENDLY_MINION, MINION, aura, battlecry,
                        combo, cost_aura, deathrattle, define, hero_power, random_pool, requires,
                        secret, spell, trigger)
from ..entities import Card, Hero, Minion
from ..state import MAX_HAND, GameState
from .neutral_low import _random_other_friend, draw_from_deck


def _has_weapon(g: GameState, owner: int) -> bool:
    return g.players[owner].weapon is not None


def _is_beast(m: Minion) -> bool:
    return m.race in ("BEAST", "ALL")


def _is_demon(entity: Hero | Minion) -> bool:
    return entity.cdef.race in ("DEMON", "ALL")  # a hero too: Lord Jaraxxus is a Demon


def set_attack(m, value):
    """"Change a minion's Attack to N": earlier buffs are overridden, auras still add."""
    m.atk_bonus = value - m.base_atk
    m.turn_atk = 0


def set_health(m, value):
    """"Change a minion's Health to N": undamaged at N (auras still add; silence undoes it)."""
    m.health_bonus = value - m.base_health
    m.damage = 0


@random_pool
def minions_by_race(library) -> dict[str, list[str]]:
    """Per race, the collectible minions in card id order (Call of the Void, Bane of Doom,
    Barrens Stablehand)."""
    pools: dict[str, list[str]] = {}
    for c in sorted(library.values(), key=lambda c: c.id):
        if c.collectible and c.type == "MINION" and c.race:
            pools.setdefault(c.race, []).append(c.id)
    return pools


def enchant(g, owner, kind, entity):
    """Note an effect of `owner`'s on one character, kept in Player.enchants (see state.py)."""
    p = g.players[owner]
    p.enchants = p.enchants + ((kind, entity.uid),)


# ---------------------------------------------------------------- Rogue
@combo("EX1_613")
def edwin_vancleef(g, owner, me, target):
    others = g.players[owner].cards_played - 1  # cards_played already counts Edwin
    g.buff(me, 2 * others, 2 * others)


@spell("EX1_145")
def preparation(g: GameState, owner: int, card: Card, target: object) -> None:
    # play_card clears the discount before the effect, so a second Preparation replaces it.
    # (3) less, as SabberStone plays it; the card's text of late 2019 says (2).
    g.players[owner].spell_discount = 3


@spell("EX1_144", target=FRIENDLY_MINION)
def shadowstep(g: GameState, owner: int, card: Card, target: Minion) -> None:
    p = g.players[owner]
    before = len(p.hand)
    g.return_to_hand(target)
    if len(p.hand) > before:
        returned = p.hand[-1]
        g.hand_to_change(owner)[-1] = Card(returned.uid, returned.cdef, cost_mod=-2)


@spell("CS2_074")
def deadly_poison(g, owner, card, target):
    g.players[owner].weapon.atk += 2


requires("CS2_074")(_has_weapon)


@spell("EX1_128")
def conceal(g: GameState, owner: int, card: Card, target: object) -> None:
    # SabberStone: when Conceal wears off, every friendly minion loses Stealth, its own too.
    for m in g.players[owner].board:
        m.stealth = m.stealth_until_next_turn = True


@spell("EX1_124", target=CHARACTER)
def eviscerate(g: GameState, owner: int, card: Card, target: Hero | Minion) -> None:
    g.damage(None, target, 2)  # SabberStone adds no Spell Damage to Eviscerate


@combo("EX1_124", target=CHARACTER)
def eviscerate_combo(g: GameState, owner: int, card: Card, target: Hero | Minion) -> None:
    g.damage(None, target, 4)


@spell("EX1_581", target=ENEMY_MINION)
def sap(g: GameState, owner: int, card: Card, target: Minion) -> None:
    g.return_to_hand(target)


@spell("EX1_278", target=CHARACTER)
def shiv(g: GameState, owner: int, card: Card, target: Hero | Minion) -> None:
    g.spell_damage(owner, target, 1)
    g.draw(owner)


@spell("CS2_073", target=MINION)
def cold_blood(g: GameState, owner: int, card: Card, target: Minion) -> None:
    g.buff(target, 2)


@combo("CS2_073", target=MINION)
def cold_blood_combo(g: GameState, owner: int, card: Card, target: Minion) -> None:
    g.buff(target, 4)


@spell("EX1_129")
def fan_of_knives(g: GameState, owner: int, card: Card, target: object) -> None:
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


@spell("NEW1_004")
def vanish(g, owner, card, target):
    for m in g.minions(owner) + g.minions(1 - owner):  # yours first, each board left to right
        g.return_to_hand(m)


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


define("CS2_065")  # Voidwalker: Taunt


@spell("NEW1_003", target=CHARACTER.only(lambda g, c: _is_demon(c)))
def sacrificial_pact(g, owner, card, target):
    target.destroyed = True  # a Demon hero (Lord Jaraxxus) too
    g.heal(g.players[owner].hero, 5)


@trigger("CS2_059", "turn_end")
def blood_imp(g, owner, me, player):
    if player == owner:
        m = _random_other_friend(g, owner, me)
        if m is not None:
            g.buff(m, health=1)


@spell("CS2_063", target=ENEMY_MINION)
def corruption(g, owner, card, target):
    target.destroy_at_start_of = owner


@spell("EX1_181")
def call_of_the_void(g, owner, card, target):
    # SabberStone draws from its whole format; the engine knows the Basic and Classic Demons.
    g.give(owner, g.choice(minions_by_race(g.library)["DEMON"]))


@spell("EX1_308", target=CHARACTER)
def soulfire(g, owner, card, target):
    g.spell_damage(owner, target, 4)
    g.discard_random(owner, 1)


@spell("EX1_316", target=FRIENDLY_MINION)
def power_overwhelming(g, owner, card, target):
    g.buff(target, 4, 4)
    enchant(g, owner, "overwhelm", target)  # dies at the end of this turn (state.end_turn)


@battlecry("EX1_319")
def flame_imp(g, owner, me, target):
    g.damage(me, g.players[owner].hero, 3)


@spell("EX1_596", target=MINION)
def demonfire(g, owner, card, target):
    if target.owner == owner and _is_demon(target):
        g.buff(target, 2, 2)
    else:
        g.spell_damage(owner, target, 2)


@spell("CS2_057", target=MINION)
def shadow_bolt(g, owner, card, target):
    g.spell_damage(owner, target, 4)


@spell("CS2_061", target=CHARACTER)
def drain_life(g, owner, card, target):
    g.spell_damage(owner, target, 2)
    g.heal(g.players[owner].hero, 2)


@battlecry("EX1_301")
def felguard(g, owner, me, target):
    p = g.players[owner]  # an empty crystal goes first: the mana left stays if it can
    p.max_mana = max(0, p.max_mana - 1)
    p.mana = min(p.mana, p.max_mana)


@spell("EX1_317")
def sense_demons(g, owner, card, target):
    # The Worthless Imp is the card's text; SabberStone only draws (its Imp is a TODO).
    for _ in range(2):
        if draw_from_deck(g, owner, _is_demon_card) is None and \
                not any(_is_demon_card(c.cdef) for c in g.players[owner].deck):
            g.give(owner, "EX1_317t")  # none left (a burnt draw is no Imp)


def _is_demon_card(cdef):
    return cdef.type == "MINION" and cdef.race in ("DEMON", "ALL")


define("EX1_317t")  # Worthless Imp, 1/1


@spell("CS2_062")
def hellfire(g, owner, card, target):
    for c in g.characters(owner) + g.characters(1 - owner):
        g.spell_damage(owner, c, 3)


@spell("EX1_303", target=FRIENDLY_MINION)
def shadowflame(g, owner, card, target):
    amount = target.atk
    g.destroy(target)
    for m in g.minions(1 - owner):
        g.spell_damage(owner, m, amount)


@battlecry("EX1_313")
def pit_lord(g, owner, me, target):
    g.damage(me, g.players[owner].hero, 5)


@cost_aura("EX1_315")
def summoning_portal(g: GameState, owner: int, me: Minion, player: int, card: Card) -> int:
    if player != owner or card.cdef.type != "MINION":
        return 0
    # 2 less each, but not below (1): several Portals share the reduction in board order.
    portals = [m for m in g.players[owner].board if m.cdef.id == "EX1_315" and not m.silenced]
    total = min(2 * len(portals), max(0, card.cdef.cost + card.cost_mod - 1))
    return -min(2, max(0, total - 2 * portals.index(me)))


@spell("EX1_320", target=CHARACTER)
def bane_of_doom(g, owner, card, target):
    g.spell_damage(owner, target, 2)
    if target.destroyed or target.health <= 0:
        g.summon(owner, g.choice(minions_by_race(g.library)["DEMON"]))


@battlecry("CS2_064")
def dread_infernal(g, owner, me, target):
    for c in g.characters(owner) + g.characters(1 - owner):
        if c is not me:
            g.damage(me, c, 1)


@aura("EX1_185")
def siegebreaker(g: GameState, owner: int, me: Minion) -> None:
    for m in g.players[owner].board:
        if m is not me and _is_demon(m):
            m.aura_atk += 1


@spell("EX1_312")
def twisting_nether(g, owner, card, target):
    for m in g.minions(owner) + g.minions(1 - owner):
        g.destroy(m)


@battlecry("EX1_323")
def lord_jaraxxus(g, owner, me, target):
    """The minion leaves play (no death) and its hero replaces yours, as SabberStone: a new
    hero at 15 of 15 Health, no armour, not frozen, a fresh INFERNO! and Blood Fury."""
    p = g.players[owner]
    p.board.remove(me)
    hero = Hero.new(g.new_uid(), g.library["EX1_323h"], owner, g.library["EX1_tk33"])
    p.hero = hero
    g.equip(owner, "EX1_323w")


define("EX1_323h", "EX1_323w", "EX1_tk34")  # Lord Jaraxxus (hero), Blood Fury 3/8, Infernal 6/6


@hero_power("EX1_tk33")
def inferno(g, owner, hero, target):
    g.summon(owner, "EX1_tk34")


requires("EX1_tk33")(GameState.has_room)


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
    g.random_missiles(owner, 8 + g.spell_power(owner))


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


@secret("EX1_130", "attack")
def noble_sacrifice(g, owner, card, attacker, defender):
    if attacker.owner == owner or not g.alive(attacker):
        return False
    defender_token = g.summon(owner, "EX1_130a")
    if defender_token is None:
        return False  # a full board: no Defender, the secret stays
    g.proposed_defender = defender_token
    return True


define("EX1_130a")  # Defender, 2/1


@secret("EX1_136", "died")
def redemption(g, owner, card, dead, position):
    if dead.owner != owner:
        return False
    back = g.summon(owner, dead.cdef)  # a fresh copy (SabberStone's CopyTask), at 1 Health
    if back is None:
        return False
    back.damage = back.max_health - 1
    return True


@secret("EX1_379", "play_minion")
def repentance(g, owner, card, played):
    if played.owner == owner or not g.alive(played):
        return False
    set_health(played, 1)
    return True


@spell("EX1_619")
def equality(g, owner, card, target):
    for m in g.minions(owner) + g.minions(1 - owner):
        set_health(m, 1)


@spell("EX1_360", target=MINION)
def humility(g, owner, card, target):
    set_attack(target, 1)


@spell("EX1_363", target=MINION)
def blessing_of_wisdom(g, owner, card, target):
    enchant(g, owner, "wisdom", target)  # its caster draws when it attacks (state.attack)


@spell("EX1_349")
def divine_favor(g, owner, card, target):
    gap = len(g.players[1 - owner].hand) - len(g.players[owner].hand)
    if gap > 0:
        g.draw(owner, gap)


@trigger("EX1_366", "summon")
def sword_of_justice(g, owner, me, summoned):
    if summoned.owner == owner and me.durability > 0 and g.players[owner].weapon is me:
        g.buff(summoned, 1, 1)
        me.durability -= 1  # at 0 resolve destroys it


@battlecry("CS2_088")
def guardian_of_kings(g, owner, me, target):
    g.heal(g.players[owner].hero, 6)


@battlecry("EX1_382", target=ENEMY_MINION)
def aldor_peacekeeper(g, owner, me, target):
    if target is not None:
        set_attack(target, 1)


@battlecry("EX1_362", target=FRIENDLY_MINION)
def argent_protector(g, owner, me, target):
    if target is not None:
        target.divine_shield = True


@spell("EX1_355", target=MINION)
def blessed_champion(g, owner, card, target):
    g.buff(target, target.atk)


@spell("EX1_371", target=MINION)
def hand_of_protection(g, owner, card, target):
    target.divine_shield = True


@spell("CS2_089", target=CHARACTER)
def holy_light(g, owner, card, target):
    g.heal(target, 6)


@spell("EX1_365", target=CHARACTER)
def holy_wrath(g, owner, card, target):
    drawn = g.draw(owner)  # no card (fatigue, a burnt card): no damage
    if drawn:
        g.spell_damage(owner, target, drawn[0].cdef.cost)


@spell("EX1_184")
def righteousness(g, owner, card, target):
    for m in g.minions(owner):
        m.divine_shield = True


@spell("CS2_094", target=CHARACTER)
def hammer_of_wrath(g, owner, card, target):
    g.spell_damage(owner, target, 3)
    g.draw(owner)


@spell("CS2_087", target=MINION)
def blessing_of_might(g, owner, card, target):
    g.buff(target, 3)


# ---------------------------------------------------------------- Hunter
@aura("DS1_175")
def timber_wolf(g: GameState, owner: int, me: Minion) -> None:
    for m in g.players[owner].board:
        if m is not me and _is_beast(m):
            m.aura_atk += 1


@trigger("EX1_531", "death")
def scavenging_hyena(g, owner, me, dead, position):
    if dead.owner == owner and dead is not me and _is_beast(dead):
        g.buff(me, 2, 1)


@aura("DS1_178")
def tundra_rhino(g: GameState, owner: int, me: Minion) -> None:
    for m in g.players[owner].board:
        if _is_beast(m):
            m.aura_charge = True
            m.sick = False  # SabberStone: losing the Charge later does not exhaust it again


define("EX1_543")  # King Krush: Charge

COMPANIONS = ("NEW1_032", "NEW1_033", "NEW1_034")  # Misha, Leokk, Huffer


@spell("NEW1_031")
def animal_companion(g, owner, card, target):
    g.summon(owner, g.choice(COMPANIONS))


requires("NEW1_031")(GameState.has_room)
define("NEW1_032", "NEW1_034")  # Misha (Taunt), Huffer (Charge)


@aura("NEW1_033")
def leokk(g: GameState, owner: int, me: Minion) -> None:
    for m in g.players[owner].board:
        if m is not me:
            m.aura_atk += 1


@spell("EX1_538")
def unleash_the_hounds(g, owner, card, target):
    for _ in range(len(g.players[1 - owner].board)):
        g.summon(owner, "EX1_538t")


requires("EX1_538")(lambda g, owner: g.has_room(owner)
                    and len(g.players[1 - owner].board) > 0)
define("EX1_538t")  # Hound, 1/1 Charge


@trigger("EX1_536", "secret_revealed")
def eaglehorn_bow(g, owner, me, player, card):
    if player == owner:
        me.durability += 1


@spell("DS1_184")
def tracking(g, owner, card, target):
    """Look at the top 3, draw one, discard the others. The engine has no choices: the kept
    card is a random one of the three (SabberStone offers the choice to its player)."""
    deck = g.deck_to_change(owner)
    top = [deck.pop() for _ in range(min(3, len(deck)))]
    if top:
        kept = g.choice(top)
        if len(g.players[owner].hand) < MAX_HAND:
            g.hand_to_change(owner).append(kept)
            g.fire("draw", owner, kept)


@spell("DS1_185", target=CHARACTER)
def arcane_shot(g, owner, card, target):
    g.spell_damage(owner, target, 2)


@spell("EX1_549", target=FRIENDLY_MINION.only(lambda g, m: _is_beast(m)))
def bestial_wrath(g, owner, card, target):
    target.turn_atk += 2
    target.immune = True
    enchant(g, owner, "immune", target)  # until the end of this turn


@spell("CS2_084", target=MINION)
def hunters_mark(g, owner, card, target):
    set_health(target, 1)


@secret("EX1_533", "attack")
def misdirection(g, owner, card, attacker, defender):
    hero = g.players[owner].hero
    if g.proposed_defender is not hero or not g.alive(attacker):
        return False
    others = [c for c in g.characters(owner) + g.characters(1 - owner)
              if c is not attacker and c is not hero and g.alive(c) and not c.immune]
    if not others:
        return False
    g.proposed_defender = g.choice(others)
    return True


@spell("EX1_544")
def flare(g, owner, card, target):
    for m in g.minions(owner) + g.minions(1 - owner):
        m.stealth = m.stealth_until_next_turn = False
    g.players[1 - owner].secrets = []
    g.draw(owner)


@secret("EX1_609", "play_minion")
def snipe(g, owner, card, played):
    if played.owner == owner or not g.alive(played):
        return False
    g.spell_damage(owner, played, 4)
    return True


@secret("EX1_610", "attack")
def explosive_trap(g, owner, card, attacker, defender):
    if g.proposed_defender is not g.players[owner].hero:
        return False
    for c in g.characters(1 - owner):
        g.spell_damage(owner, c, 2)
    return True


@secret("EX1_611", "attack")
def freezing_trap(g, owner, card, attacker, defender):
    if attacker.owner == owner or isinstance(attacker, Hero) or not g.alive(attacker):
        return False
    p = g.players[attacker.owner]
    before = len(p.hand)
    g.return_to_hand(attacker)
    if len(p.hand) > before:
        returned = p.hand[-1]
        g.hand_to_change(attacker.owner)[-1] = Card(returned.uid, returned.cdef, cost_mod=2)
    return True


@spell("EX1_539", target=CHARACTER)
def kill_command(g, owner, card, target):
    beast = any(_is_beast(m) for m in g.players[owner].board)
    g.spell_damage(owner, target, 5 if beast else 3)


@spell("EX1_617")
def deadly_shot(g, owner, card, target):
    victim = g.choice([m for m in g.players[1 - owner].board if g.alive(m)])
    if victim is not None:
        g.destroy(victim)


requires("EX1_617")(lambda g, owner: len(g.players[1 - owner].board) > 0)


@battlecry("DS1_070", target=FRIENDLY_MINION.only(lambda g, m: _is_beast(m)))
def houndmaster(g, owner, me, target):
    if target is not None:
        g.buff(target, 2, 2)
        target.taunt = True


@spell("DS1_183")
def multi_shot(g, owner, card, target):
    for m in g.sample([m for m in g.players[1 - owner].board if g.alive(m)], 2):
        g.spell_damage(owner, m, 3)


requires("DS1_183")(lambda g, owner: len(g.players[1 - owner].board) > 0)  # SabberStone: 1, not 2


@trigger("CS2_237", "summon")
def starving_buzzard(g, owner, me, summoned):
    if summoned.owner == owner and summoned is not me and _is_beast(summoned):
        g.draw(owner)


@spell("EX1_537", target=MINION)
def explosive_shot(g, owner, card, target):
    neighbours = g.adjacent(target)
    g.spell_damage(owner, target, 5)
    for m in neighbours:
        g.spell_damage(owner, m, 2)


@deathrattle("EX1_534")
def savannah_highmane(g, owner, me, position):
    for _ in range(2):
        g.summon(owner, "EX1_534t", position)


define("EX1_534t")  # Hyena, 2/2 Beast


@trigger("DS1_188", "attack")
def gladiators_longbow(g, owner, me, attacker, defender):
    hero = g.players[owner].hero
    if attacker is hero:
        hero.immune = True
        enchant(g, owner, "attacking", hero)  # state.attack ends it after the blows
