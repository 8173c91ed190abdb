"""The game state and its narrow interface: legal actions, apply, copy, hash, result.

`GameState` is the top of the state's layers (zones < triggers < deaths < effects < combat <
moves < card_play < turns, each a module of one concern: see zones.py); this module adds what
makes it a game: `apply` (illegal actions raise `IllegalActionError`), `copy`, `state_hash`
and `result`. Effects mark damage and deaths; `resolve` (deaths.py) then removes the dead in
play order, runs death triggers and deathrattles and re-applies auras until nothing changes.

This module is compiled with mypyc (native.py): its fields and locals keep one type each.
"""
from __future__ import annotations

from operator import attrgetter
from typing import Final

from mypy_extensions import i64, mypyc_attr

from .actions import ATTACK, END_TURN, HERO_POWER, OPTION_OF_KIND, PLAY
from .cardspec import CardDef
from .entities import Minion, Player
from .native import compiled
from .turns import TURN_LIMIT, Turns
from .zones import (MAX_BOARD, MAX_HAND, MAX_MANA, MAX_SECRETS, NO_TARGET, STATE_FIELDS,
                    set_entry_watcher)
from ..errors import IllegalActionError

# What the card scripts, players and tools import from here, with GameState.
__all__ = ["GameState", "MAX_BOARD", "MAX_HAND", "MAX_MANA", "MAX_SECRETS", "NO_TARGET", "STATE_FIELDS",
           "TURN_LIMIT", "set_entry_watcher"]

_uid: Final = attrgetter("uid")
# state_hash's mixing: 62 bits kept, so the compiled code (64-bit integers, wrapping) and plain
# Python (exact integers, then masked) compute the same value.
_HASH_MASK: Final = (1 << 62) - 1
_HASH_MULTIPLIER: Final = 0x2545F4914F6CDD1D  # odd: the product is one-to-one in the bits kept
_NO_WINNER: Final = 2  # the winner, None while the game goes on (-1: a draw, 0 or 1)
_EMPTY_TUPLE_HASH: Final[i64] = hash(())


def _mix(h: i64, v: i64) -> i64:
    """`v` mixed into the hash `h` (state_hash): multiplied in after an exclusive or, the high
    bits folded back down."""
    h = ((h ^ v) * _HASH_MULTIPLIER) & _HASH_MASK
    return h ^ (h >> 29)


def _tuple_hash(t: tuple) -> i64:
    """hash(t) for the compiled state hash; an empty tuple, the usual case, by a native
    constant (a Python int of 64 bits would be converted at every use)."""
    if t:
        return hash(t)
    return _EMPTY_TUPLE_HASH


def _minion_flags(m: Minion) -> i64:
    """A minion's keyword and status flags as the bits of one native integer (state_hash)."""
    return (i64(m.sick) | i64(m.frozen) << 1 | i64(m.taunt) << 2 | i64(m.divine_shield) << 3
            | i64(m.stealth) << 4 | i64(m.silenced) << 5 | i64(m.windfury) << 6 | i64(m.poisonous) << 7)


def _hand_hash(p: Player) -> i64:
    """The hand in creation order for the compiled state hash: each card mixed with its place
    in uid order, summed (no sorted copy). Kept with the list (`Player.hand_hash_of`), which
    copies share, until the list changes (a hand changes in place only through
    hand_to_change, which drops the value): most of the states the beam search hashes share
    the opponent's hand with their parent, and often their own."""
    hand = p.hand
    if p.hand_hash_of is hand:
        return p.hand_hash
    cards: i64 = 0
    for c in hand:
        place = 0
        for other in hand:
            if other.uid < c.uid:
                place += 1
        cards += _mix(_mix(_mix(0, place), c.cdef.id_hash), c.cost_mod)
    cards &= _HASH_MASK
    p.hand_hash_of = hand
    p.hand_hash = cards
    return cards


COMPILED: Final = compiled()  # whether this module runs compiled (state_hash's form)


@mypyc_attr(acyclic=True, free_list_len=1)  # the last one freed is kept for the next (entities.py)
class GameState(Turns):
    __slots__ = ()

    @staticmethod
    def fresh(library: dict[str, CardDef], rng: int) -> "GameState":
        """A state before its players are added (game.new_game sets the game up from here):
        every field at its start value."""
        g = GameState()
        g.players = []
        g.current = 0
        g.turn = 1
        g.rng = rng
        g.next_uid = 0
        g.next_order = 0
        g.winner = None
        g.done = False
        g.random_events = 0
        g.library = library
        g.auras_live = False
        g.marks = ()
        g.heard = None  # counted when first asked
        g.cost_auras_in_play = False
        g.auras_in_play = False
        return g

    def copy(self) -> "GameState":
        new = GameState()  # (no __init__: compiled, a direct allocation; __new__ was a Python call)
        new.players = [self.players[0].copy(), self.players[1].copy()]
        new.current = self.current
        new.turn = self.turn
        new.rng = self.rng
        new.next_uid = self.next_uid
        new.next_order = self.next_order
        new.winner = self.winner
        new.done = self.done
        new.random_events = self.random_events
        new.library = self.library
        new.auras_live = self.auras_live  # some aura field may be non-zero (see refresh_auras)
        new.marks = self.marks  # a tuple
        new.heard = self.heard  # a frozenset
        new.cost_auras_in_play = self.cost_auras_in_play
        new.auras_in_play = self.auras_in_play
        return new

    def state_hash(self) -> int:
        """Hash of the state as SabberStone's planner tells states apart (`Game.Hash` without
        entity ids): the hand in creation order of its cards, so playing one or the other of
        two identical cards can leave different hands, and each minion's order of play, so
        the same minions played in another order make another state. Every state the beam
        search reaches is hashed: compiled, the fields are mixed one by one into a 62-bit
        value (`_mixed_hash`: native integers, nothing boxed or built); in plain Python, where
        each mix would be a call, the hash of one flat tuple of the same fields
        (`_hash_key`). The two tell the same states apart (a test checks them field by
        field); the values differ, as hash values of strings differ between processes."""
        if COMPILED:
            return self._mixed_hash()
        return hash(self._hash_key())

    def keep_hand_hashes(self) -> None:
        """Work out the hands' parts of the compiled state hash now, so that the copies made
        from this state find them kept (the beam search asks it of each state it expands)."""
        if COMPILED:
            _hand_hash(self.players[0])
            _hand_hash(self.players[1])

    def _mixed_hash(self) -> int:
        """state_hash of the compiled engine: each sequence after its length, a card by its
        id's hash (CardDef.id_hash: a native integer, where a string's hash may not be)."""
        h = _mix(_mix(_mix(0, self.current), 1 if self.done else 0),
                 _NO_WINNER if self.winner is None else self.winner)
        h = _mix(h, _tuple_hash(self.marks))
        for p in self.players:
            hero = p.hero
            h = _mix(_mix(_mix(_mix(h, hero.health), hero.armor), hero.turn_atk), hero.attacks)
            h = _mix(_mix(_mix(h, 1 if hero.frozen else 0), hero.power_uses), p.mana)
            h = _mix(_mix(_mix(h, p.max_mana), p.cards_played), p.minions_played)
            h = _mix(_mix(_mix(h, p.spell_discount), p.fatigue), p.free_spells_turns)
            h = _mix(_mix(h, len(p.deck)), _tuple_hash(p.pending_cards))
            h = _mix(_mix(h, _tuple_hash(p.died_this_turn)),
                     _tuple_hash(self._enchant_keys(p) if p.enchants else ()))
            h = _mix(_mix(h, p.overload_owed), p.overload_locked)
            w = p.weapon
            if w is None:
                h = _mix(h, 0)
            else:
                h = _mix(_mix(_mix(_mix(h, 1), w.cdef.id_hash), w.atk), w.durability)
            h = _mix(_mix(h, len(p.hand)), _hand_hash(p))
            h = _mix(h, len(p.secrets))
            for c in p.secrets:
                h = _mix(h, c.cdef.id_hash)
            h = _mix(h, len(p.board))
            for m in p.board:
                # (max health, damage) tells states apart as (health, max health)
                h = _mix(_mix(_mix(h, m.cdef.id_hash), m.order), m.atk)
                h = _mix(_mix(_mix(h, m.max_health), m.damage), m.attacks)
                h = _mix(_mix(_mix(h, _minion_flags(m)), m.spell_damage), m.counter)
                h = _mix(h, m.destroy_at_start_of)
        return h

    def _hash_key(self) -> tuple:
        """state_hash of the plain Python engine: the fields as one flat tuple (a tuple per
        hand, zone and board)."""
        parts = [self.current, self.done, self.winner, self.marks]
        for p in self.players:
            h = p.hero
            w = p.weapon
            hand = p.hand
            if len(hand) > 1:
                hand = sorted(hand, key=_uid)
            parts += (
                h.health, h.armor, h.turn_atk, h.attacks, h.frozen, h.power_uses, p.mana,
                p.max_mana, p.cards_played, p.minions_played, p.spell_discount, p.fatigue,
                p.free_spells_turns, len(p.deck), p.pending_cards, p.died_this_turn,
                self._enchant_keys(p) if p.enchants else (),
                (w.cdef.id, w.atk, w.durability) if w else None,
                tuple([c.key for c in hand]),
                tuple([c.cdef.id for c in p.secrets]) if p.secrets else (),
                # (max health, damage) tells states apart as (health, max health)
                tuple([(m.cdef.id, m.order, m.atk, m.max_health, m.damage, m.attacks, m.sick,
                        m.frozen, m.taunt, m.divine_shield, m.stealth, m.silenced, m.windfury,
                        m.spell_damage, m.counter, m.poisonous, m.destroy_at_start_of)
                       for m in p.board]),
            )
            if p.overload_owed or p.overload_locked:  # only then, so the usual state's key stays short
                parts.append((p.overload_owed, p.overload_locked))
        return tuple(parts)

    def _enchant_keys(self, p: Player) -> tuple:
        """p.enchants for state_hash: each kind with its minion's order of play (as the minions
        are hashed, no entity ids); 0 for a hero."""
        keys = []
        for kind, uid in p.enchants:
            target = self.entity(uid)
            if target is not None:
                keys.append((kind, target.order if isinstance(target, Minion) else 0))
        return tuple(keys)

    def apply(self, action: tuple, check: bool = True) -> None:
        """Play one action. With `check`, an action not in `legal_actions()` raises, and its
        numbers may be of any integer type (numpy's too); unchecked, they are Python ints."""
        if check:
            if action not in self.legal_moves():
                raise IllegalActionError(f"illegal action {action!r} for player {self.current}")
            action = (int(action[0]), int(action[1]), int(action[2]), int(action[3]))  # (numpy's too)
        kind: int
        index: int
        target: int
        position: int
        kind, index, target, position = action
        if kind == END_TURN:
            self.end_turn()
            return
        if kind == PLAY:
            if not self.play_card(index, target, position):
                return  # settled: a resolve now would change nothing
        elif kind == ATTACK:
            self.attack(self.entity(index), self.entity(target))
        elif kind == HERO_POWER:
            self.use_hero_power(target)
        elif not self.play_card(index, target, position, OPTION_OF_KIND[kind]):  # Choose One
            return
        self.resolve()

    def result(self, player) -> int:
        """+1 won, -1 lost, 0 drawn or still running, from `player`'s view (any integer type:
        callers pass numpy's too)."""
        if not self.done or self.winner == -1:
            return 0
        return 1 if self.winner == player else -1
