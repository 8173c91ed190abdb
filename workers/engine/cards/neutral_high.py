"""Neutral minions of cost 5 and more, and the Rogue's pool of class cards."""
from dataclasses import replace

from ..cardspec import (CHARACTER, ENEMY_MINION, FRIENDLY_MINION, HERO, MINION, aura, battlecry,
                        combo, cost, cost_aura, deathrattle, define, random_pool, requires,
                        spell, trigger, weapon)
from ..entities import Card, Minion
from .hero_powers_upgraded import UPGRADED_POWERS
from ..state import MAX_BOARD, GameState

# Keyword-only cards and the tokens the cards below create.
define("CS1_069", "CS2_187", "CS2_213", "EX1_067", "EX1_032", "CS2_162", "CS2_161",
       "EX1_522", "CS2_080")
define("EX1_116t", "ds1_whelptoken", "EX1_finkle", "EX1_614t", "EX1_131t")


# ------------------------------------------------------------------ neutral minions
@battlecry("EX1_593")  # Nightblade
def nightblade(g, owner, me, target):
    g.damage(me, g.players[1 - owner].hero, 3)


@battlecry("EX1_116")  # Leeroy Jenkins
def leeroy_jenkins(g: GameState, owner: int, me: Minion, target: object) -> None:
    for _ in range(2):
        g.summon(1 - owner, "EX1_116t")


@battlecry("CS2_150", target=CHARACTER)  # Stormpike Commando
def stormpike_commando(g, owner, me, target):
    if target is not None:
        g.damage(me, target, 2)


@deathrattle("EX1_097")  # Abomination
def abomination(g, owner, me, position):
    for c in g.characters():
        g.damage(me, c, 2)


@cost_aura("CS2_227")  # Venture Co. Mercenary
def venture_co_mercenary(g: GameState, owner: int, me: Minion, player: int, card: Card) -> int:
    return 3 if player == owner and card.cdef.type == "MINION" else 0


@battlecry("NEW1_041")  # Stampeding Kodo
def stampeding_kodo(g, owner, me, target):
    weak = [m for m in g.players[1 - owner].board if g.alive(m) and m.atk <= 2]
    victim = g.choice(weak)
    if victim is not None:
        g.destroy(victim)


@battlecry("EX1_284")  # Azure Drake (Spell Damage +1 comes from the data)
def azure_drake(g, owner, me, target):
    g.draw(owner)


@deathrattle("EX1_577")  # The Beast
def the_beast(g, owner, me, position):
    g.summon(1 - owner, "EX1_finkle")


@trigger("EX1_095", "cast_spell")  # Gadgetzan Auctioneer
def gadgetzan_auctioneer(g: GameState, owner: int, me: Minion, player: int, card: Card) -> None:
    if player == owner:
        g.draw(owner)


@battlecry("EX1_002", target=ENEMY_MINION.only(lambda g, m: m.taunt))  # The Black Knight
def the_black_knight(g, owner, me, target):
    if target is not None:
        g.destroy(target)


@trigger("EX1_614", "play_card")  # Illidan Stormrage
def illidan_stormrage(g, owner, me, player, card):
    if player != owner or card.uid == me.uid:  # not for his own play
        return
    # A minion being played is on the board already, so the Flame goes right of Illidan after it
    # took its place (SabberStone's order).
    g.summon(owner, "EX1_614t", g.players[owner].board.index(me) + 1)


@battlecry("EX1_583")  # Priestess of Elune
def priestess_of_elune(g, owner, me, target):
    g.heal(g.players[owner].hero, 4)


@aura("CS2_222")  # Stormwind Champion
def stormwind_champion(g: GameState, owner: int, me: Minion) -> None:
    for m in g.players[owner].board:
        if m is not me:
            m.aura_atk += 1
            m.aura_health += 1


@trigger("EX1_249", "turn_end")  # Baron Geddon
def baron_geddon(g, owner, me, player):
    if player == owner:
        for c in g.characters():
            if c is not me:
                g.damage(me, c, 2)


@battlecry("EX1_561", target=HERO)  # Alexstrasza
def alexstrasza(g, owner, me, target):
    if target is not None:
        target.health = 15  # sets Health (up or down); armour and max Health stay


@battlecry("EX1_562")  # Onyxia
def onyxia(g, owner, me, target):
    board = g.players[owner].board
    right = True
    while len(board) < MAX_BOARD and me in board:
        # Whelps alternate right and left of Onyxia.
        g.summon(owner, "ds1_whelptoken", board.index(me) + (1 if right else 0))
        right = not right


# ------------------------------------------------------------------ Rogue
@combo("EX1_131")  # Defias Ringleader
def defias_ringleader(g, owner, me, target):
    board = g.players[owner].board
    g.summon(owner, "EX1_131t", board.index(me) + 1 if me in board else None)


@battlecry("NEW1_014", target=FRIENDLY_MINION)  # Master of Disguise
def master_of_disguise(g, owner, me, target):
    if target is not None:  # a Stealth it had before is lost too when this wears off (SabberStone)
        target.stealth = True
        target.stealth_until_next_turn = True


@battlecry("EX1_191", target=FRIENDLY_MINION)  # Plaguebringer
def plaguebringer(g, owner, me, target):
    if target is not None:
        target.poisonous = True


@combo("NEW1_005", target=MINION)  # Kidnapper
def kidnapper(g, owner, me, target):
    if target is not None:
        g.return_to_hand(target)


@spell("CS2_075")  # Sinister Strike
def sinister_strike(g, owner, card, target):
    g.spell_damage(owner, g.players[1 - owner].hero, 3)


@random_pool
def class_cards(library) -> dict[str, list[str]]:
    """Per class, its collectible cards in card id order (Pilfer's pool: SabberStone draws from
    all of Standard; the engine from the Basic and Classic cards)."""
    pools: dict[str, list[str]] = {}
    for c in sorted(library.values(), key=lambda c: c.id):
        if c.collectible and c.type in ("MINION", "SPELL", "WEAPON"):
            pools.setdefault(c.card_class, []).append(c.id)
    return pools


@spell("EX1_182")  # Pilfer
def pilfer(g, owner, card, target):
    """Add a random card from your opponent's class to your hand."""
    card_id = g.choice(class_cards(g.library).get(g.players[1 - owner].hero.cdef.card_class, ()))
    if card_id is not None:
        g.give(owner, card_id)


@spell("EX1_126", target=ENEMY_MINION)  # Betrayal
def betrayal(g, owner, card, target):
    # The spell deals the damage (SabberStone): Poisonous and Freeze of the minion do nothing.
    amount = target.atk
    for m in g.adjacent(target):
        g.damage(None, m, amount)


@spell("EX1_137")  # Headcrack
def headcrack(g, owner, card, target):
    g.damage(None, g.players[1 - owner].hero, 2)  # no Spell Damage in SabberStone


@combo("EX1_137")
def headcrack_combo(g, owner, card, target):
    headcrack(g, owner, card, target)
    p = g.players[owner]
    p.pending_cards = p.pending_cards + ("EX1_137",)


@spell("CS2_076", target=ENEMY_MINION)  # Assassinate
def assassinate(g, owner, card, target):
    g.destroy(target)


@spell("CS2_077")  # Sprint
def sprint(g, owner, card, target):
    g.draw(owner, 4)


@weapon("EX1_133", target=CHARACTER)  # Perdition's Blade
def perditions_blade(g, owner, me, target):
    if target is not None:
        g.damage(me, target, 1)


# No Combo: SabberStone never runs a weapon's Combo (it plays Perdition's Blade's battlecry).


# ------------------------------------------------------------------ neutral legendaries
POWER_CHORDS = ("PRO_001a", "PRO_001b", "PRO_001c")
HORDE_WARRIORS = ("CS2_121", "EX1_021", "EX1_023", "EX1_110", "EX1_390", "CS2_179")  # SabberStone's list
INVENTIONS = ("Mekka1", "Mekka2", "Mekka3", "Mekka4")


@battlecry("PRO_001")  # Elite Tauren Chieftain (SabberStone leaves it blank: a TODO)
def elite_tauren_chieftain(g, owner, me, target):
    for side in (owner, 1 - owner):
        g.give(side, g.choice(POWER_CHORDS))


@spell("PRO_001a")  # I Am Murloc
def i_am_murloc(g, owner, card, target):
    for _ in range(3 + g.rand(3)):
        g.summon(owner, "PRO_001at")


@spell("PRO_001b", target=CHARACTER)  # Rogues Do It...
def rogues_do_it(g, owner, card, target):
    g.spell_damage(owner, target, 4)
    g.draw(owner)


@spell("PRO_001c")  # Power of the Horde
def power_of_the_horde(g, owner, card, target):
    g.summon(owner, g.choice(HORDE_WARRIORS))


for _chord in ("PRO_001a", "PRO_001c"):
    requires(_chord)(GameState.has_room)
define("PRO_001at")  # Murloc, 1/1


@deathrattle("EX1_016")  # Sylvanas Windrunner
def sylvanas_windrunner(g, owner, me, position):
    victim = g.choice([m for m in g.players[1 - owner].board if g.alive(m)])
    if victim is not None:
        g.take_control(victim, owner)


@trigger("EX1_298", "turn_end")  # Ragnaros the Firelord (Can't Attack from the data)
def ragnaros_the_firelord(g, owner, me, player):
    if player == owner:
        enemy = g.random_enemy(owner)
        if enemy is not None:
            g.damage(me, enemy, 8)


@battlecry("EX1_112")  # Gelbin Mekkatorque
def gelbin_mekkatorque(g, owner, me, target):
    g.summon(owner, g.choice(INVENTIONS))


# Gelbin's inventions, by their text (SabberStone leaves them blank).
@trigger("Mekka1", "turn_start")  # Homing Chicken
def homing_chicken(g, owner, me, player):
    if player == owner and g.alive(me):
        g.destroy(me)
        g.draw(owner, 3)


@trigger("Mekka2", "turn_end")  # Repair Bot
def repair_bot(g, owner, me, player):
    if player == owner:
        hurt = g.choice([c for c in g.characters(owner) + g.characters(1 - owner)
                         if c.damaged and g.alive(c)])
        if hurt is not None:
            g.heal(hurt, 6)


@trigger("Mekka3", "turn_end")  # Emboldener 3000
def emboldener_3000(g, owner, me, player):
    if player == owner:
        m = g.choice([m for m in g.minions(owner) + g.minions(1 - owner) if g.alive(m)])
        if m is not None:
            g.buff(m, 1, 1)


@trigger("Mekka4", "turn_start")  # Poultryizer
def poultryizer(g, owner, me, player):
    if player == owner:
        m = g.choice([m for m in g.minions(owner) + g.minions(1 - owner) if g.alive(m)])
        if m is not None:
            g.transform(m, "Mekka4t")


define("Mekka4t")  # Chicken, 1/1


@cost("EX1_620")  # Molten Giant
def molten_giant(g: GameState, owner: int, card: Card) -> int:
    return card.cdef.cost - g.players[owner].hero.damage


def _deck_costs_all(deck, parity):
    return all(c.cdef.cost % 2 == parity for c in deck)


def _genn_greymane(g, owner):
    """Start of Game, only even-Cost cards: the starting hero power costs (1)."""
    hero = g.players[owner].hero
    if _deck_costs_all(g.players[owner].deck, 0):
        hero.power = replace(hero.power, cost=1)


def _baku_the_mooneater(g, owner):
    """Start of Game, only odd-Cost cards: the Basic hero power is upgraded."""
    hero = g.players[owner].hero
    upgraded = UPGRADED_POWERS.get(hero.power.id)
    if upgraded is not None and _deck_costs_all(g.players[owner].deck, 1):
        hero.power = g.library[upgraded]


define("GIL_692", game_start=_genn_greymane)
define("GIL_826", game_start=_baku_the_mooneater)
