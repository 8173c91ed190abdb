"""The mutable pieces of a game: cards in deck/hand/secret zones, minions, heroes, weapons, players.

Cards in a deck or hand never change, so copies of a game share them. Minions, heroes, weapons
and players do change and copy themselves field by field (`__slots__` + explicit copy is several
times faster than `copy.copy`).
"""
from __future__ import annotations

from .cardspec import CardDef


def _slot_copier(cls, skip: tuple = ()):
    """A `copy` method that assigns every slot of `cls` by name (minus `skip`, which the caller
    fills in). Generated from `__slots__` so it cannot miss a field, and several times faster
    than a getattr/setattr loop; game copies are the beam search's main cost."""
    lines = [f"    new.{name} = self.{name}" for name in cls.__slots__ if name not in skip]
    source = "def copy(self):\n    new = new_instance(cls)\n" + "\n".join(lines) + "\n    return new\n"
    namespace = {"new_instance": object.__new__, "cls": cls}
    exec(source, namespace)
    return namespace["copy"]


class Card:
    """A card in a deck, hand or secret zone. Immutable once created."""

    __slots__ = ("uid", "cdef", "cost_mod", "key")

    def __init__(self, uid: int, cdef: CardDef, cost_mod: int = 0):
        self.uid = uid
        self.cdef = cdef
        self.cost_mod = cost_mod  # this copy's own cost change (Shadowstep: -2)
        self.key = (cdef.id, cost_mod)  # what tells it apart in a state's hash

    def __repr__(self) -> str:
        return f"Card({self.cdef.name}#{self.uid})"


class Minion:
    __slots__ = (
        "uid", "cdef", "owner", "order", "base_atk", "base_health", "atk_bonus", "health_bonus",
        "turn_atk", "aura_atk", "aura_health", "damage", "taunt", "divine_shield", "stealth",
        "windfury", "charge", "frozen", "silenced", "cant_attack", "spell_damage", "attacks",
        "sick", "destroyed", "deathrattles", "aura_charge", "aura_windfury", "counter",
        "poisonous", "stealth_until_next_turn", "destroy_at_start_of",
        "immune",  # Immune (Bestial Wrath): takes no damage; cleared via Player.enchants
    )

    def __init__(self, uid: int, cdef: CardDef, owner: int, order: int):
        self.uid = uid
        self.cdef = cdef
        self.owner = owner
        self.order = order  # play order, for triggers and deaths
        self.base_atk = cdef.atk
        self.base_health = cdef.health
        self.atk_bonus = 0  # permanent enchantments (silence removes)
        self.health_bonus = 0
        self.turn_atk = 0  # "this turn" attack, cleared at end of turn
        self.aura_atk = 0  # recomputed from auras after every step
        self.aura_health = 0
        self.damage = 0
        kw = cdef.keywords
        self.taunt = "TAUNT" in kw
        self.divine_shield = "DIVINE_SHIELD" in kw
        self.stealth = "STEALTH" in kw
        self.windfury = "WINDFURY" in kw
        self.charge = "CHARGE" in kw
        self.cant_attack = "CANT_ATTACK" in kw
        self.poisonous = "POISONOUS" in kw
        self.stealth_until_next_turn = False  # Conceal-style stealth, lost at owner's turn start
        self.spell_damage = cdef.spell_damage
        self.frozen = False
        self.silenced = False
        self.attacks = 0
        self.sick = True
        self.destroyed = False
        self.deathrattles = cdef.script.deathrattles  # tuple of callables; silence clears
        self.aura_charge = False
        self.aura_windfury = False
        self.counter = 0  # per-minion scratch value some cards need (e.g. Millhouse's turn)
        self.destroy_at_start_of = -1  # player whose next turn start destroys it (Nightmare); silence clears
        self.immune = False

    # copy() is generated from __slots__ below the class.

    @property
    def atk(self) -> int:
        value = self.base_atk + self.atk_bonus + self.turn_atk + self.aura_atk
        return value if value > 0 else 0

    @property
    def max_health(self) -> int:
        return self.base_health + self.health_bonus + self.aura_health

    @property
    def health(self) -> int:
        return self.base_health + self.health_bonus + self.aura_health - self.damage

    @property
    def race(self) -> str | None:
        return self.cdef.race

    @property
    def damaged(self) -> bool:
        return self.damage > 0

    @property
    def has_windfury(self) -> bool:
        return self.windfury or self.aura_windfury

    def can_attack(self) -> bool:
        # Cheapest and most often decisive tests first: most minions have attacked or are sick.
        if self.attacks and (self.attacks >= 2 or not (self.windfury or self.aura_windfury)):
            return False
        if self.sick and not (self.charge or self.aura_charge):
            return False
        if self.frozen or self.cant_attack:
            return False
        return self.base_atk + self.atk_bonus + self.turn_atk + self.aura_atk > 0  # atk > 0

    def __repr__(self) -> str:
        return f"{self.cdef.name}#{self.uid}({self.atk}/{self.health})"


Minion.copy = _slot_copier(Minion)


class Weapon:
    __slots__ = ("uid", "cdef", "atk", "durability", "aura_atk")

    def __init__(self, uid: int, cdef: CardDef):
        self.uid = uid
        self.cdef = cdef
        self.atk = cdef.atk
        self.durability = cdef.durability
        self.aura_atk = 0

    def copy(self) -> "Weapon":
        new = Weapon.__new__(Weapon)
        new.uid, new.cdef, new.atk, new.durability, new.aura_atk = (
            self.uid, self.cdef, self.atk, self.durability, self.aura_atk)
        return new


class Hero:
    __slots__ = ("uid", "cdef", "owner", "health", "max_health", "armor", "turn_atk", "attacks",
                 "frozen", "power", "power_uses", "destroyed",
                 "immune")  # Immune (Gladiator's Longbow while attacking)

    def __init__(self, uid: int, cdef: CardDef, owner: int, power: CardDef):
        self.uid = uid
        self.cdef = cdef
        self.owner = owner
        self.health = cdef.health
        self.max_health = cdef.health
        self.armor = 0
        self.turn_atk = 0
        self.attacks = 0
        self.frozen = False
        self.power = power
        self.power_uses = 0
        # Marked dead: by lethal damage (a later heal is too late) or by a poisonous minion it
        # attacked (SabberStone), whatever its Health then.
        self.destroyed = False
        self.immune = False

    # copy() is generated from __slots__ below the class.

    @property
    def damage(self) -> int:
        return self.max_health - self.health

    @property
    def damaged(self) -> bool:
        return self.health < self.max_health

    def __repr__(self) -> str:
        return f"Hero#{self.uid}({self.health}+{self.armor})"


Hero.copy = _slot_copier(Hero)


class Player:
    """One side of the game. `index` is 0 or 1; entities refer to their owner by index."""

    __slots__ = (
        "index", "hero", "weapon", "hand", "deck", "board", "secrets", "mana", "max_mana",
        "temp_mana", "fatigue", "cards_played", "minions_played", "spell_discount",
        "free_spells_turns", "turns", "drawn_this_turn", "used_mana", "pending_cards",
        "died_this_turn", "overload_owed", "overload_locked",
        "enchants",  # ((kind, uid), ...): this player's effects on one character each
    )

    def __init__(self, index: int, hero: Hero, deck: list[Card]):
        self.index = index
        self.hero = hero
        self.weapon: Weapon | None = None
        self.hand: list[Card] = []
        self.deck = deck
        self.board: list[Minion] = []
        self.secrets: list[Card] = []
        self.mana = 0
        self.max_mana = 0
        self.temp_mana = 0
        self.fatigue = 0
        self.cards_played = 0  # this turn, for Combo
        self.minions_played = 0  # this turn, for Pint-Sized Summoner
        self.spell_discount = 0  # Preparation: next spell this turn costs that much less
        self.free_spells_turns = 0  # Millhouse Manastorm: spells cost (0) during this many own turns
        self.pending_cards = ()  # card ids put in hand at the end of this turn (Headcrack's combo)
        self.died_this_turn = ()  # card ids of own minions that died this turn, in order (Whitemane)
        self.turns = 0  # own turns started
        self.drawn_this_turn = 0  # cards drawn (burnt ones too) since the current turn started
        self.used_mana = 0  # mana spent in own current (or last) turn
        self.overload_owed = 0  # Overload of cards played this turn, locked next turn
        self.overload_locked = 0  # mana locked this turn by last turn's Overload
        # (kind, uid): "wisdom" (Blessing of Wisdom), "overwhelm" (Power Overwhelming), "immune"
        # (this turn) and "attacking" (Gladiator's Longbow); see GameState._end_enchants.
        self.enchants = ()

    def copy(self) -> "Player":
        new = _copy_player_fields(self)
        new.hero = self.hero.copy()
        new.weapon = self.weapon.copy() if self.weapon is not None else None
        new.hand = self.hand[:]
        new.deck = self.deck[:]
        new.board = [m.copy() for m in self.board]
        new.secrets = self.secrets[:]
        return new


_copy_player_fields = _slot_copier(Player, skip=("hero", "weapon", "hand", "deck", "board", "secrets"))
