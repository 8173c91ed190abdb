"""The mutable pieces of a game: cards in deck/hand/secret zones, minions, heroes, weapons, players.

Cards in a deck or hand never change, and the lists of a hand and a deck are shared by copies
of a game until one of them changes it (GameState.hand_to_change). Minions, heroes, weapons
and players do change and copy themselves field by field (`__slots__` + explicit copy is several
times faster than `copy.copy`; game copies are the beam search's main cost). Each class lists
its fields once (`*_FIELDS`); a test checks that `copy` takes every one of them.

This module is compiled with `state` (workers/engine/native.py), so it keeps to what mypyc
compiles: fields typed on the class, and no `__init__`: `Minion()` is a blank (compiled, a bare
allocation, where an `__init__` with defaults was a call per copy) that `copy` fills in, and
`Minion.new(...)` makes one from its card (so for the other classes). The classes
are `acyclic` (mypyc_attr): a game's objects never form a reference cycle (reference counting
frees each one), so they are not tracked by the cyclic collector, and a copy allocates and frees
them without its bookkeeping. (Were one ever part of a cycle, the cycle would be kept, not freed.)
Those a copy makes keep the last one freed for the next one made (`free_list_len`): the beam
search drops many copies as soon as it has hashed them.
"""
from __future__ import annotations

from mypy_extensions import mypyc_attr

from .cardspec import CardDef


@mypyc_attr(acyclic=True)
class Card:
    """A card in a deck, hand or secret zone. Immutable once created."""

    __slots__ = ("uid", "cdef", "cost_mod", "key")

    def __init__(self, uid: int, cdef: CardDef, cost_mod: int = 0):
        self.uid = uid
        self.cdef = cdef
        self.cost_mod = cost_mod  # this copy's own cost change (Shadowstep: -2)
        # what tells it apart in a state's hash (the card's shared tuple when the cost is as printed)
        self.key = cdef.key if cost_mod == 0 else (cdef.id, cost_mod)

    def __repr__(self) -> str:
        return f"Card({self.cdef.name}#{self.uid})"


MINION_FIELDS = (
    "uid", "cdef", "owner", "order", "base_atk", "base_health", "atk_bonus", "health_bonus",
    "turn_atk", "aura_atk", "aura_health", "damage", "taunt", "divine_shield", "stealth",
    "windfury", "charge", "frozen", "silenced", "cant_attack", "spell_damage", "attacks",
    "sick", "destroyed", "deathrattles", "aura_charge", "aura_windfury", "counter",
    "poisonous", "stealth_until_next_turn", "destroy_at_start_of",
    "immune",  # Immune (Bestial Wrath): takes no damage; cleared via Player.enchants
    # Facts of its card, kept on the minion for the board scans after every action (a flag read
    # instead of two lookups); they follow `cdef` (Faceless Manipulator copies them with it).
    "listens",  # the card has triggers
    "aura_source",  # the card has an aura or enrage
    "cost_aura_source",  # the card changes costs
)


@mypyc_attr(acyclic=True, free_list_len=1)
class Minion:
    __slots__ = MINION_FIELDS

    uid: int
    cdef: CardDef
    owner: int
    order: int
    base_atk: int
    base_health: int
    atk_bonus: int
    health_bonus: int
    turn_atk: int
    aura_atk: int
    aura_health: int
    damage: int
    taunt: bool
    divine_shield: bool
    stealth: bool
    windfury: bool
    charge: bool
    cant_attack: bool
    poisonous: bool
    stealth_until_next_turn: bool
    spell_damage: int
    frozen: bool
    silenced: bool
    attacks: int
    sick: bool
    destroyed: bool
    deathrattles: tuple
    aura_charge: bool
    aura_windfury: bool
    counter: int
    destroy_at_start_of: int
    immune: bool
    listens: bool
    aura_source: bool
    cost_aura_source: bool

    @staticmethod
    def new(uid: int, cdef: CardDef, owner: int, order: int) -> Minion:
        """A minion of `cdef` entering play."""
        new = Minion()
        new.uid = uid
        new.cdef = cdef
        new.owner = owner
        new.order = order  # play order, for triggers and deaths
        new.base_atk = cdef.atk
        new.base_health = cdef.health
        new.atk_bonus = 0  # permanent enchantments (silence removes)
        new.health_bonus = 0
        new.turn_atk = 0  # "this turn" attack, cleared at end of turn
        new.aura_atk = 0  # recomputed from auras after every step
        new.aura_health = 0
        new.damage = 0
        new.taunt = cdef.kw_taunt  # the card's keywords, read once by its CardDef
        new.divine_shield = cdef.kw_divine_shield
        new.stealth = cdef.kw_stealth
        new.windfury = cdef.kw_windfury
        new.charge = cdef.kw_charge
        new.cant_attack = cdef.kw_cant_attack
        new.poisonous = cdef.kw_poisonous
        new.stealth_until_next_turn = False  # Conceal-style stealth, lost at owner's turn start
        new.spell_damage = cdef.spell_damage
        new.frozen = False
        new.silenced = False
        new.attacks = 0
        new.sick = True
        new.destroyed = False
        new.deathrattles = cdef.script.deathrattles  # tuple of callables; silence clears
        new.aura_charge = False
        new.aura_windfury = False
        new.counter = 0  # per-minion scratch value some cards need (e.g. Millhouse's turn)
        new.destroy_at_start_of = -1  # player whose next turn start destroys it (Nightmare); silence clears
        new.immune = False
        new.listens = bool(cdef.triggers)
        new.aura_source = cdef.has_aura
        new.cost_aura_source = cdef.cost_aura is not None
        return new

    def copy(self) -> Minion:
        new = Minion()
        new.uid = self.uid
        new.cdef = self.cdef
        new.owner = self.owner
        new.order = self.order
        new.base_atk = self.base_atk
        new.base_health = self.base_health
        new.atk_bonus = self.atk_bonus
        new.health_bonus = self.health_bonus
        new.turn_atk = self.turn_atk
        new.aura_atk = self.aura_atk
        new.aura_health = self.aura_health
        new.damage = self.damage
        new.taunt = self.taunt
        new.divine_shield = self.divine_shield
        new.stealth = self.stealth
        new.windfury = self.windfury
        new.charge = self.charge
        new.frozen = self.frozen
        new.silenced = self.silenced
        new.cant_attack = self.cant_attack
        new.spell_damage = self.spell_damage
        new.attacks = self.attacks
        new.sick = self.sick
        new.destroyed = self.destroyed
        new.deathrattles = self.deathrattles
        new.aura_charge = self.aura_charge
        new.aura_windfury = self.aura_windfury
        new.counter = self.counter
        new.poisonous = self.poisonous
        new.stealth_until_next_turn = self.stealth_until_next_turn
        new.destroy_at_start_of = self.destroy_at_start_of
        new.immune = self.immune
        new.listens = self.listens
        new.aura_source = self.aura_source
        new.cost_aura_source = self.cost_aura_source
        return new

    # Attack and Health, written once: the engine, the state hash, the encoders and the scores
    # read them here (compiled, each is a direct C call, no attribute lookup).
    @property
    def atk(self) -> int:
        value = self.base_atk + self.atk_bonus + self.turn_atk + self.aura_atk
        return value if value > 0 else 0

    @property
    def max_health(self) -> int:
        return self.base_health + self.health_bonus + self.aura_health

    @property
    def health(self) -> int:
        return self.max_health - self.damage

    @property
    def race(self) -> str | None:
        return self.cdef.race

    @property
    def damaged(self) -> bool:
        return self.damage > 0

    @property
    def has_windfury(self) -> bool:
        return self.windfury or self.aura_windfury

    def doomed(self) -> bool:
        """Destroyed or out of Health: it leaves the board at the next death check, and until
        then it can be neither attacked nor targeted."""
        # max_health written out: every death check asks this of every minion, and compiled,
        # a call of max_health from here cost about 1% of random games (callgrind).
        return self.destroyed or self.damage >= self.base_health + self.health_bonus + self.aura_health

    def counts_in_play(self) -> bool:
        """Whether what a state keeps of play (GameState.heard and its aura flags) counts this
        minion: it has triggers, an aura or enrage, or a cost aura. Only such a minion's
        entering or leaving play makes the state recount."""
        return self.listens or self.aura_source or self.cost_aura_source

    def can_attack(self) -> bool:
        """The attacker rule for a minion of the player to act (GameState._attacks): attacks
        left this turn (two with Windfury), no summoning sickness (or Charge), and ready."""
        # Cheapest and most often decisive tests first: most minions have attacked or are sick.
        if self.attacks and (self.attacks >= 2 or not (self.windfury or self.aura_windfury)):
            return False
        if self.sick and not (self.charge or self.aura_charge):
            return False
        return self.ready()

    def ready(self) -> bool:
        """The part of can_attack a new turn does not change: not frozen, not Can't Attack,
        some Attack (the state encoders ask it of the side not to act)."""
        return not (self.frozen or self.cant_attack) and self.atk > 0

    def __repr__(self) -> str:
        return f"{self.cdef.name}#{self.uid}({self.atk}/{self.health})"


WEAPON_FIELDS = ("uid", "cdef", "atk", "durability", "aura_atk")


@mypyc_attr(acyclic=True, free_list_len=1)
class Weapon:
    __slots__ = WEAPON_FIELDS

    uid: int
    cdef: CardDef
    atk: int
    durability: int
    aura_atk: int

    @staticmethod
    def new(uid: int, cdef: CardDef) -> Weapon:
        """A weapon of `cdef`."""
        new = Weapon()
        new.uid = uid
        new.cdef = cdef
        new.atk = cdef.atk
        new.durability = cdef.durability
        new.aura_atk = 0
        return new

    def copy(self) -> Weapon:
        new = Weapon()
        new.uid = self.uid
        new.cdef = self.cdef
        new.atk = self.atk
        new.durability = self.durability
        new.aura_atk = self.aura_atk
        return new


HERO_FIELDS = ("uid", "cdef", "owner", "health", "max_health", "armor", "turn_atk", "attacks",
               "frozen", "power", "power_uses", "destroyed",
               "immune")  # Immune (Gladiator's Longbow while attacking)


@mypyc_attr(acyclic=True, free_list_len=1)
class Hero:
    __slots__ = HERO_FIELDS

    uid: int
    cdef: CardDef
    owner: int
    health: int
    max_health: int
    armor: int
    turn_atk: int
    attacks: int
    frozen: bool
    power: CardDef
    power_uses: int
    destroyed: bool
    immune: bool

    @staticmethod
    def new(uid: int, cdef: CardDef, owner: int, power: CardDef) -> Hero:
        """A hero of `cdef` with the hero power `power`."""
        new = Hero()
        new.uid = uid
        new.cdef = cdef
        new.owner = owner
        new.health = cdef.health
        new.max_health = cdef.health
        new.armor = 0
        new.turn_atk = 0
        new.attacks = 0
        new.frozen = False
        new.power = power
        new.power_uses = 0
        # Marked dead: by lethal damage (a later heal is too late) or by a poisonous minion it
        # attacked (SabberStone), whatever its Health then.
        new.destroyed = False
        new.immune = False
        return new

    def copy(self) -> Hero:
        new = Hero()
        new.uid = self.uid
        new.cdef = self.cdef
        new.owner = self.owner
        new.health = self.health
        new.max_health = self.max_health
        new.armor = self.armor
        new.turn_atk = self.turn_atk
        new.attacks = self.attacks
        new.frozen = self.frozen
        new.power = self.power
        new.power_uses = self.power_uses
        new.destroyed = self.destroyed
        new.immune = self.immune
        return new

    @property
    def damage(self) -> int:
        return self.max_health - self.health

    @property
    def damaged(self) -> bool:
        return self.health < self.max_health

    def __repr__(self) -> str:
        return f"Hero#{self.uid}({self.health}+{self.armor})"


PLAYER_FIELDS = (
    "index", "hero", "weapon", "hand", "deck", "board", "secrets", "mana", "max_mana",
    "temp_mana", "fatigue", "cards_played", "minions_played", "spell_discount",
    "free_spells_turns", "turns", "drawn_this_turn", "used_mana", "pending_cards",
    "died_this_turn", "overload_owed", "overload_locked",
    "enchants",  # ((kind, uid), ...): this player's effects on one character each
    # Whether `hand`, `deck` may be shared with a copy: then changed only on a list of its own
    # (GameState.hand_to_change, deck_to_change).
    "hand_shared", "deck_shared",
    # The state hash's value of the hand list `hand_hash_of`, kept until the list changes
    # (GameState.hand_to_change drops it): see state._hand_hash.
    "hand_hash_of", "hand_hash",
)


@mypyc_attr(acyclic=True, free_list_len=1)
class Player:
    """One side of the game. `index` is 0 or 1; entities refer to their owner by index."""

    __slots__ = PLAYER_FIELDS

    index: int
    hero: Hero
    weapon: Weapon | None
    hand: list[Card]
    deck: list[Card]
    board: list[Minion]
    secrets: list[Card]
    mana: int
    max_mana: int
    temp_mana: int
    fatigue: int
    cards_played: int
    minions_played: int
    spell_discount: int
    free_spells_turns: int
    turns: int
    drawn_this_turn: int
    used_mana: int
    pending_cards: tuple
    died_this_turn: tuple
    overload_owed: int
    overload_locked: int
    enchants: tuple
    hand_shared: bool
    deck_shared: bool
    hand_hash_of: list[Card] | None
    hand_hash: int

    @staticmethod
    def new(index: int, hero: Hero, deck: list[Card]) -> Player:
        """Player `index` with its hero and deck, before the game starts."""
        new = Player()
        new.index = index
        new.hero = hero
        new.weapon = None
        new.hand = []
        new.deck = deck
        new.board = []
        new.secrets = []
        new.mana = 0
        new.max_mana = 0
        new.temp_mana = 0
        new.fatigue = 0
        new.cards_played = 0  # this turn, for Combo
        new.minions_played = 0  # this turn, for Pint-Sized Summoner
        new.spell_discount = 0  # Preparation: next spell this turn costs that much less
        new.free_spells_turns = 0  # Millhouse Manastorm: spells cost (0) during this many own turns
        new.pending_cards = ()  # card ids put in hand at the end of this turn (Headcrack's combo)
        new.died_this_turn = ()  # card ids of own minions that died this turn, in order (Whitemane)
        new.turns = 0  # own turns started
        new.drawn_this_turn = 0  # cards drawn (burnt ones too) since the current turn started
        new.used_mana = 0  # mana spent in own current (or last) turn
        new.overload_owed = 0  # Overload of cards played this turn, locked next turn
        new.overload_locked = 0  # mana locked this turn by last turn's Overload
        # (kind, uid): "wisdom" (Blessing of Wisdom), "overwhelm" (Power Overwhelming), "immune"
        # (this turn) and "attacking" (Gladiator's Longbow); see GameState._end_enchants.
        new.enchants = ()
        new.hand_shared = False
        new.deck_shared = False
        new.hand_hash_of = None
        new.hand_hash = 0
        return new

    def copy(self) -> Player:
        new = Player()
        new.index = self.index
        new.mana = self.mana
        new.max_mana = self.max_mana
        new.temp_mana = self.temp_mana
        new.fatigue = self.fatigue
        new.cards_played = self.cards_played
        new.minions_played = self.minions_played
        new.spell_discount = self.spell_discount
        new.free_spells_turns = self.free_spells_turns
        new.turns = self.turns
        new.drawn_this_turn = self.drawn_this_turn
        new.used_mana = self.used_mana
        new.pending_cards = self.pending_cards
        new.died_this_turn = self.died_this_turn
        new.overload_owed = self.overload_owed
        new.overload_locked = self.overload_locked
        new.enchants = self.enchants
        new.hero = self.hero.copy()
        new.weapon = self.weapon.copy() if self.weapon is not None else None
        # shared, by both, until one of the two changes it (GameState.hand_to_change, deck_to_change)
        new.hand = self.hand
        new.deck = self.deck
        new.hand_shared = new.deck_shared = self.hand_shared = self.deck_shared = True
        new.hand_hash_of = self.hand_hash_of
        new.hand_hash = self.hand_hash
        new.board = [m.copy() for m in self.board]
        # an empty list (by far the usual case) is shared: a secret is added on a new list
        # (CardPlay.play_card), and only a non-empty one loses a secret in place
        new.secrets = self.secrets[:] if self.secrets else self.secrets
        return new

