"""The bottom layer of the game state: its fields, its random stream, lookups of players and
entities, and the players' marks. The engine's limits live here, where every layer sees them.

`GameState` (state.py) is built up in layers, one concern each, every one a subclass of the one
below it, so a layer calls down, never up: zones (this module) < triggers < deaths (auras,
deaths) < effects (damage, healing, summons, draws and the other primitives the card scripts
call) < combat < moves (costs, targets, legal moves) < card_play < turns < state (apply, copy,
hash: the game interface). Only state.GameState is ever made; the layers below are not games
on their own. All of them are compiled with mypyc (native.py): fields and locals keep one type
each.

Rules follow Basic + Classic Hearthstone as of late 2019, as SabberStone (the paper's
simulator) plays them. Randomness lives in the state (`rng`, one int), so a copy carries its
random stream; planners reseed copies so they cannot see real random outcomes (a deck's order
is not random: it was shuffled at game start).
"""
from __future__ import annotations

from typing import Any, Callable, Final

from mypy_extensions import mypyc_attr

from .cardspec import CardDef
from .entities import Card, Hero, Minion, Player
from .rng import GOLDEN, MASK64, advance, below_halves, join, mix_below, split

# Final: the compiled engine inlines them instead of looking each use up by name.
MAX_HAND: Final = 10
MAX_BOARD: Final = 7
MAX_MANA: Final = 10
MAX_SECRETS: Final = 5
NO_TARGET: Final = -1
# Marks rebuilt from the board by minions' auras (the others last until the end of the turn).
AURA_MARKS: Final = ("spell_double", "heal_to_damage")  # Prophet Velen, Auchenai Soulpriest
# Told (g, method name, its arguments) as play_card, summon, equip, transform, use_hero_power or
# start_turn begins: how the card tests check that a card entered play (tests/engine/scenario.py),
# since the compiled engine's methods cannot be wrapped. Empty in play (a Final list: the
# compiled code tests it without looking a module variable up); set with set_entry_watcher.
_entry_watcher: Final[list[Callable[[Any, str, tuple], None]]] = []


def set_entry_watcher(watch: Callable[[Any, str, tuple], None] | None):
    """Make `watch` (None: nobody) the entry watcher; returns the one before."""
    previous = _entry_watcher[0] if _entry_watcher else None
    _entry_watcher.clear()
    if watch is not None:
        _entry_watcher.append(watch)
    return previous


# A GameState's fields, declared once, here: the slots (plain Python) and the types (mypyc)
# below; state.GameState.copy takes every one of them but proposed_defender, and game.new_game
# sets them through fresh() (tests/engine/test_state_fields.py checks both).
STATE_FIELDS: Final = (
    "players", "current", "turn", "rng", "next_uid", "next_order", "winner", "done",
    "random_events", "library", "auras_live",
    "marks",  # ((player, kind, value), ...): a player's effects (see mark)
    # What may be in play, kept between recounts (see triggers._recount_in_play); None: to recount
    "heard", "cost_auras_in_play", "auras_in_play",
    "proposed_defender",  # set during an attack only (redirecting secrets), never copied
)


# acyclic, as the entities are (entities.py): a state is never part of a reference cycle. Every
# layer above says so too (mypyc allows it only on acyclic bases).
@mypyc_attr(acyclic=True)
class Zones:
    __slots__ = STATE_FIELDS
    players: list[Player]
    current: int
    turn: int
    rng: int
    next_uid: int
    next_order: int
    winner: Any
    done: bool
    random_events: int
    library: dict[str, CardDef]
    auras_live: bool
    marks: tuple
    heard: frozenset[str] | None
    cost_auras_in_play: bool
    auras_in_play: bool
    proposed_defender: Any

    def rand(self, n: int) -> int:
        """A uniform integer in [0, n) from the state's own stream. A choice among one is no
        randomness (SabberStone raises its random event only with several candidates)."""
        if n <= 1:
            return 0
        self.rng = (self.rng + GOLDEN) & MASK64
        self.random_events += 1
        return mix_below(self.rng, n)

    def choice(self, items):
        return items[self.rand(len(items))] if items else None

    def shuffle(self, items: list) -> None:
        """Shuffle `items` in place (Fisher-Yates on the state's stream: each swap is one rand(),
        drawn here on the stream's halves)."""
        n = len(items)
        if n < 2:
            return
        high, low = split(self.rng)
        for i in range(n - 1, 0, -1):
            high, low = advance(high, low)
            j = below_halves(high, low, i + 1)
            items[i], items[j] = items[j], items[i]
        self.rng = join(high, low)
        self.random_events += n - 1

    def sample(self, items, k: int) -> list:
        """`k` distinct items at random; all of them, in order and with no random event, when
        there are no more than `k` (SabberStone's random tasks are random only then)."""
        pool = list(items)
        if len(pool) <= k:
            return pool
        picked: list = []
        while pool and len(picked) < k:
            picked.append(pool.pop(self.rand(len(pool))))
        return picked

    @property
    def player(self) -> Player:
        return self.players[self.current]

    @property
    def opponent(self) -> Player:
        return self.players[1 - self.current]

    def new_uid(self) -> int:
        self.next_uid += 1
        return self.next_uid

    def card(self, card_id: str) -> CardDef:
        return self.library[card_id]

    def entity(self, uid: int):
        for p in self.players:
            if p.hero.uid == uid:
                return p.hero
            for m in p.board:
                if m.uid == uid:
                    return m
        return None

    def owner_of(self, entity) -> int:
        return entity.owner

    def characters(self, side: int | None = None) -> list:
        """Heroes and minions; `side` restricts to one player."""
        sides = (side,) if side is not None else (self.current, 1 - self.current)
        out: list = []
        for i in sides:
            p = self.players[i]
            out.append(p.hero)
            out.extend(p.board)
        return out

    def minions(self, side: int | None = None) -> list[Minion]:
        if side is not None:
            return list(self.players[side].board)
        return self.players[self.current].board + self.players[1 - self.current].board

    def alive(self, entity: Hero | Minion) -> bool:
        if isinstance(entity, Hero):
            return entity.health > 0
        if entity.doomed():
            return False
        for m in self.players[entity.owner].board:  # by identity: `in` compared each through Python
            if m is entity:
                return True
        return False

    def spell_power(self, owner: int) -> int:
        return sum(m.spell_damage for m in self.players[owner].board if not m.silenced)

    def has_room(self, owner: int) -> bool:
        """Whether `owner`'s board can take another minion (also a `requires` hook as is)."""
        return len(self.players[owner].board) < MAX_BOARD

    def position_of(self, minion: Minion) -> int:
        return self.players[minion.owner].board.index(minion)

    def adjacent(self, minion: Minion) -> list[Minion]:
        board = self.players[minion.owner].board
        i = board.index(minion)
        return [board[j] for j in (i - 1, i + 1) if 0 <= j < len(board)]

    # A hand's and a deck's list is shared by the copies of a state (copies are the beam
    # search's main cost, and most actions change neither the opponent's hand nor any deck), so
    # whatever changes one asks for it here: a list of this state's own, made only while it may
    # be shared (Player.hand_shared, deck_shared: set by a copy on both sides).
    def hand_to_change(self, owner: int) -> list[Card]:
        """`owner`'s hand as a list of this state's own, to change in place (the only way a
        hand changes in place: its value kept for the state hash is dropped here)."""
        p = self.players[owner]
        if p.hand_shared:
            p.hand = p.hand[:]
            p.hand_shared = False
        p.hand_hash_of = None
        return p.hand

    def deck_to_change(self, owner: int) -> list[Card]:
        """`owner`'s deck as a list of this state's own, to change in place."""
        p = self.players[owner]
        if p.deck_shared:
            p.deck = p.deck[:]
            p.deck_shared = False
        return p.deck

    def deal(self, owner: int, hand: list[Card], deck: list[Card]) -> None:
        """Give `owner` these new lists, this state's own, as its hand and deck (a
        determinization's new deal of the hidden cards)."""
        p = self.players[owner]
        p.hand = hand
        p.deck = deck
        p.hand_shared = p.deck_shared = False

    def mark(self, owner: int, kind: str, value=None) -> None:
        """An effect on `owner`: until the end of the turn (Ice Block's Immune, Kirin Tor Mage,
        Charge, Commanding Shout, Shadow Madness), or while an aura lasts (AURA_MARKS)."""
        self.marks += ((owner, kind, value),)

    def marked(self, owner: int, kind: str) -> list:
        """The values of `owner`'s `kind` marks (one per mark)."""
        return [value for who, what, value in self.marks if who == owner and what == kind]

    def unmark(self, owner: int, kind: str, value=None) -> None:
        self.marks = tuple(m for m in self.marks if not (
            m[0] == owner and m[1] == kind and (value is None or m[2] == value)))
