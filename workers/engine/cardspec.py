"""How cards are defined: printed data (from the data package) plus a script of behaviour.

A card's behaviour is registered in one place, `workers/engine/cards/`, with the decorators
below, so a card reads like its text:

    @spell("CS2_072", target=MINION.only(lambda g, m: not m.damaged))   # Backstab
    def backstab(g, owner, card, target):
        g.spell_damage(owner, target, 2)

Hook signatures (owner is the controlling player's index 0/1; `me` the entity the hook
belongs to: the Minion, the Card of a spell or secret, the Weapon, or the Hero for powers):
    play / combo(g, owner, me, target)         battlecry, spell effect, hero power
    deathrattle(g, owner, minion, position)    after the minion left the board at `position`
    trigger(g, owner, me, *event_args)         see GameState.fire for the events
    secret(g, owner, card, *event_args) -> bool    True when the secret was revealed
    aura(g, owner, me) / enrage(g, owner, me)  re-applied after every step
    cost(g, owner, card) -> int                the card's own cost while in hand
    cost_aura(g, owner, me, player, card) -> int   a change to other cards' costs
    requires(g, owner) -> bool                 extra condition to play the card
"""
from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass, field, replace
from typing import Callable, Final


@dataclass(frozen=True)
class CardData:
    """The printed facts of one card, as the data package has them."""

    id: str
    dbf_id: int
    name: str
    type: str
    card_class: str
    rarity: str
    cost: int
    atk: int
    health: int
    durability: int
    race: str | None
    spell_damage: int
    keywords: frozenset[str]
    collectible: bool
    text: str
    card_set: str  # CORE (Basic), EXPERT1 (Classic) or HOF (retired to the Hall of Fame)
    overload: int  # Overload: mana locked during the player's next turn


@dataclass(frozen=True)
class TargetSpec:
    """Which characters a play may target. `side`: 'any', 'enemy' or 'friendly' (seen from the
    player who plays); `kind`: 'character', 'minion' or 'hero'; `where`: an extra test."""

    side: str = "any"
    kind: str = "character"
    where: Callable | None = None

    def only(self, where: Callable) -> "TargetSpec":
        """The same spec restricted by `where(g, entity) -> bool`."""
        return replace(self, where=where)


CHARACTER = TargetSpec()
MINION = TargetSpec(kind="minion")
ENEMY_CHARACTER = TargetSpec(side="enemy")
ENEMY_MINION = TargetSpec(side="enemy", kind="minion")
FRIENDLY_MINION = TargetSpec(side="friendly", kind="minion")
FRIENDLY_CHARACTER = TargetSpec(side="friendly")
HERO = TargetSpec(kind="hero")


@dataclass
class Script:
    play: Callable | None = None
    target: TargetSpec | None = None
    combo: Callable | None = None
    combo_target: TargetSpec | None = None
    deathrattles: tuple = ()
    triggers: dict = field(default_factory=dict)  # event name -> tuple of hooks
    secret: tuple | None = None  # (event name, hook)
    aura: Callable | None = None
    enrage: Callable | None = None
    cost: Callable | None = None
    cost_aura: Callable | None = None
    requires: Callable | None = None
    choose_one: tuple | None = None  # Choose One: the card ids of options 1 and 2
    game_start: Callable | None = None  # game_start(g, owner): a Start of Game card in the deck

    @property
    def events(self) -> frozenset:
        return frozenset(self.triggers)


EMPTY_SCRIPT = Script()
SCRIPTS: dict[str, Script] = {}
# Every event some trigger or secret listens to; GameState.fire returns at once for the others
# (draws, after-attacks). Kept by the decorators and recomputed by build_library; mutated in place.
HEARD_EVENTS: Final[set[str]] = set()


# Every pool a random effect draws cards from, by name: fn(library) -> the card ids it may
# create (a sequence, or a dict of sequences when the effect picks one by an argument). The
# coverage report lists them all, so no random effect can create a card without a script.
RANDOM_POOLS: dict[str, Callable] = {}
_POOL_CACHE: dict = {}  # (pool name, id(library)) -> (library, pool)


def random_pool(fn: Callable) -> Callable:
    """Register a random effect's pool; the returned function computes it once per library."""
    RANDOM_POOLS[fn.__name__] = fn

    def pool(library):
        entry = _POOL_CACHE.get((fn.__name__, id(library)))
        if entry is None or entry[0] is not library:
            entry = _POOL_CACHE[fn.__name__, id(library)] = (library, fn(library))
        return entry[1]
    return pool


def _note_heard_events() -> None:
    for script in SCRIPTS.values():
        HEARD_EVENTS.update(script.triggers)
        if script.secret is not None:
            HEARD_EVENTS.add(script.secret[0])


def script_for(card_id: str) -> Script:
    return SCRIPTS.setdefault(card_id, Script())


def define(*card_ids: str, **fields) -> None:
    """Register cards whose whole behaviour is keywords from the data (or set script fields)."""
    for card_id in card_ids:
        script = script_for(card_id)
        for name, value in fields.items():
            setattr(script, name, value)


def _hook(field_name: str, target_field: str | None = None):
    def decorator_factory(card_id: str, target: TargetSpec | None = None, **fields):
        def register(fn):
            script = script_for(card_id)
            setattr(script, field_name, fn)
            if target is not None and target_field:
                setattr(script, target_field, target)
            for name, value in fields.items():
                setattr(script, name, value)
            return fn
        return register
    return decorator_factory


battlecry = _hook("play", "target")
spell = _hook("play", "target")
hero_power = _hook("play", "target")
weapon = _hook("play", "target")
combo = _hook("combo", "combo_target")
aura = _hook("aura")
enrage = _hook("enrage")
cost = _hook("cost")
cost_aura = _hook("cost_aura")
requires = _hook("requires")


def deathrattle(card_id: str):
    def register(fn):
        script = script_for(card_id)
        script.deathrattles = script.deathrattles + (fn,)
        return fn
    return register


def trigger(card_id: str, event: str):
    def register(fn):
        script = script_for(card_id)
        script.triggers[event] = script.triggers.get(event, ()) + (fn,)
        HEARD_EVENTS.add(event)
        return fn
    return register


def secret(card_id: str, event: str):
    def register(fn):
        script_for(card_id).secret = (event, fn)
        HEARD_EVENTS.add(event)
        return fn
    return register


@dataclass(frozen=True, eq=False)
class CardDef(CardData):
    """A card as the engine plays it: the data's stats (after any stat overrides) + its script."""

    script: Script
    implemented: bool
    # Set once by __post_init__ (see there).
    triggers: dict = field(init=False, repr=False, compare=False)
    has_aura: bool = field(init=False, repr=False, compare=False)
    cost_aura: Callable | None = field(init=False, repr=False, compare=False)
    key: tuple = field(init=False, repr=False, compare=False)  # a copy's Card.key when its cost is as printed
    id_hash: int = field(init=False, repr=False, compare=False)  # the id in the compiled state hash
    # The keywords a new minion starts with (Minion.__init__), read once here.
    kw_taunt: bool = field(init=False, repr=False, compare=False)
    kw_divine_shield: bool = field(init=False, repr=False, compare=False)
    kw_stealth: bool = field(init=False, repr=False, compare=False)
    kw_windfury: bool = field(init=False, repr=False, compare=False)
    kw_charge: bool = field(init=False, repr=False, compare=False)
    kw_cant_attack: bool = field(init=False, repr=False, compare=False)
    kw_poisonous: bool = field(init=False, repr=False, compare=False)
    # and the keywords the engine asks about in legal moves and fights
    kw_secret: bool = field(init=False, repr=False, compare=False)
    kw_freeze: bool = field(init=False, repr=False, compare=False)
    kw_spell_proof: bool = field(init=False, repr=False, compare=False)  # Can't be targeted by spells
    kw_power_proof: bool = field(init=False, repr=False, compare=False)  # ... by hero powers

    # Identity, not field-by-field comparison: every card id has exactly one CardDef per library.
    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return object.__hash__(self)  # by identity, like __eq__: cheap, and one CardDef per id

    def __post_init__(self) -> None:
        # Script facts the engine reads for every minion after every action, kept here to save
        # lookups. Scripts are all registered before a library is built (build_library imports
        # them first); `triggers` is the script's own dict, so later trigger registrations show.
        script = self.script
        object.__setattr__(self, "triggers", script.triggers)
        object.__setattr__(self, "has_aura", script.aura is not None or script.enrage is not None)
        object.__setattr__(self, "cost_aura", script.cost_aura)
        object.__setattr__(self, "key", (self.id, 0))
        object.__setattr__(self, "id_hash", id_hash(self.id))
        kw = self.keywords
        object.__setattr__(self, "kw_taunt", "TAUNT" in kw)
        object.__setattr__(self, "kw_divine_shield", "DIVINE_SHIELD" in kw)
        object.__setattr__(self, "kw_stealth", "STEALTH" in kw)
        object.__setattr__(self, "kw_windfury", "WINDFURY" in kw)
        object.__setattr__(self, "kw_charge", "CHARGE" in kw)
        object.__setattr__(self, "kw_cant_attack", "CANT_ATTACK" in kw)
        object.__setattr__(self, "kw_poisonous", "POISONOUS" in kw)
        object.__setattr__(self, "kw_secret", "SECRET" in kw)
        object.__setattr__(self, "kw_freeze", "FREEZE" in kw)
        object.__setattr__(self, "kw_spell_proof", "CANT_BE_TARGETED_BY_SPELLS" in kw)
        object.__setattr__(self, "kw_power_proof", "CANT_BE_TARGETED_BY_HERO_POWERS" in kw)

    @property
    def is_minion(self) -> bool:
        return self.type == "MINION"

    @property
    def is_spell(self) -> bool:
        return self.type == "SPELL"

    @property
    def is_secret(self) -> bool:
        return "SECRET" in self.keywords

    def __repr__(self) -> str:
        return f"<{self.name} {self.id}>"


def id_hash(card_id: str) -> int:
    """A card id as 62 bits for the compiled state hash (GameState._mixed_hash): the same in
    every process, and a native integer there (a string's own hash has 64 bits and may
    need a Python int object)."""
    digest = hashlib.blake2b(card_id.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") >> 2


def build_library(cards: dict[str, CardData], overrides: dict | None = None) -> dict[str, CardDef]:
    """CardDefs for every card; `overrides` maps id -> {cost, atk, health} (stats only)."""
    from . import cards as _card_scripts  # noqa: F401  (registers every script)

    _note_heard_events()
    overrides = overrides or {}
    library = {}
    for card_id, data in cards.items():
        fields = {name: getattr(data, name) for name in CardData.__dataclass_fields__}
        # Interned, so the engine's comparisons with its literals ("SPELL", "TAUNT" in
        # keywords) succeed on identity instead of comparing characters.
        fields["id"] = sys.intern(fields["id"])
        fields["type"] = sys.intern(fields["type"])
        fields["keywords"] = frozenset(sys.intern(k) for k in fields["keywords"])
        fields.update(overrides.get(card_id, {}))
        script = SCRIPTS.get(card_id)
        # Interned keys: looking up an interned id (a literal in the code, a loaded deck's)
        # then finds its key by identity.
        library[sys.intern(card_id)] = CardDef(**fields, script=script or EMPTY_SCRIPT,
                                               implemented=script is not None)
    return library
