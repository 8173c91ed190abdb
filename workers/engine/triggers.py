"""The game state's triggers: events fired to the hooks of minions and weapons in play and to
the waiting secrets, and what is kept of play between recounts so that an event nobody hears
costs one set lookup (a layer of GameState: see zones.py)."""
from __future__ import annotations

from operator import itemgetter
from typing import Any, Final

from mypy_extensions import mypyc_attr

from .cardspec import HEARD_EVENTS
from .entities import Minion
from .zones import Zones

_first: Final = itemgetter(0)
_NO_LISTENERS: Final[list[tuple[int, Any, tuple]]] = []  # shared: callers only read it
_NOTHING_HEARD: Final[frozenset[str]] = frozenset()


@mypyc_attr(acyclic=True)
class Triggers(Zones):
    __slots__ = ()

    def fire(self, event: str, *args) -> bool:
        """Run every hook listening to `event`, in play order; False when none ran (so nothing
        changed). Events and their args:
        play_card/cast_spell/after_spell/secret_played/draw (player, card); summon (minion);
        death (minion, position); damage (character, amount, source); heal (character, amount);
        attack/after_attack (attacker, defender); turn_start/turn_end (player)."""
        if event not in HEARD_EVENTS:
            return False  # no card listens to it
        return self._run_hooks(event, self._listeners(event), args)

    def _run_hooks(self, event: str, listeners: list[tuple[int, Any, tuple]], args: tuple) -> bool:
        """fire's work, for `listeners` = self._listeners(event)."""
        two = len(args) == 2  # fire2's events, the usual ones: a call without a tuple built
        for owner, me, hooks in listeners:
            for hook in hooks:
                if two:
                    hook(self, owner, me, args[0], args[1])
                else:
                    hook(self, owner, me, *args)
        ran = len(listeners) > 0
        # Secrets only trigger on their owner's opponent's turn.
        waiting = self.players[1 - self.current].secrets
        if waiting:
            for card in list(waiting):
                spec = card.cdef.script.secret
                if spec is not None and spec[0] == event and card in waiting:
                    ran = True
                    if spec[1](self, 1 - self.current, card, *args):
                        waiting.remove(card)
                        self.fire("secret_revealed", 1 - self.current, card)
        return ran

    # fire with one, two or three arguments, for the engine's own frequent events: the same
    # result, without packing the arguments into a tuple when nothing hears the event (by far
    # the usual case), and with one scan for the listeners; written out three times, so plain
    # Python makes no more calls than one `fire(event, *args)`. (No HEARD_EVENTS test: an event no card hears
    # is not in `heard`, and no secret waits for it.)
    def fire1(self, event: str, a: Any) -> bool:
        listeners = self._listeners(event)
        if listeners is _NO_LISTENERS and not self.players[1 - self.current].secrets:
            return False  # nothing hears it: what fire would return
        return self._run_hooks(event, listeners, (a,))

    def fire2(self, event: str, a: Any, b: Any) -> bool:
        listeners = self._listeners(event)
        if listeners is _NO_LISTENERS and not self.players[1 - self.current].secrets:
            return False
        return self._run_hooks(event, listeners, (a, b))

    def fire3(self, event: str, a: Any, b: Any, c: Any) -> bool:
        listeners = self._listeners(event)
        if listeners is _NO_LISTENERS and not self.players[1 - self.current].secrets:
            return False
        return self._run_hooks(event, listeners, (a, b, c))

    def fire_secrets(self, event: str, *args) -> bool:
        """Only the waiting secrets' part of `fire`, for events no minion listens to (Counterspell,
        Mirror Entity, Spellbender, Ice Block): no board scan. Whether one was revealed."""
        owner = 1 - self.current
        waiting = self.players[owner].secrets
        revealed = False
        for card in list(waiting):
            spec = card.cdef.script.secret
            if spec is not None and spec[0] == event and card in waiting:
                if spec[1](self, owner, card, *args):
                    waiting.remove(card)
                    revealed = True
                    self.fire("secret_revealed", owner, card)
        return revealed

    def _listeners(self, event: str) -> list[tuple[int, Any, tuple]]:
        """(owner, entity, hooks) of every minion and weapon listening to `event`, in play order.
        A minion about to die still reacts, except to deaths (SabberStone)."""
        if event not in self._count_in_play_if_stale():
            return _NO_LISTENERS  # by far the usual answer, given without a scan of the boards
        listeners: list[tuple[int, int, Any, tuple]] | None = None  # mostly none: no list, no sort
        for p in self.players:
            for m in p.board:
                if not m.listens:  # most minions: no triggers, no lookup
                    continue
                triggers = m.cdef.triggers
                if event in triggers and not m.silenced and (event != "death" or not m.doomed()):
                    if listeners is None:
                        listeners = []
                    listeners.append((m.order, m.owner, m, triggers[event]))
            w = p.weapon
            if w is not None:
                triggers = w.cdef.triggers
                if triggers and event in triggers:
                    if listeners is None:
                        listeners = []
                    listeners.append((0, p.index, w, triggers[event]))
        if listeners is None:
            return _NO_LISTENERS
        if len(listeners) > 1:
            listeners.sort(key=_first)
        return [(owner, me, hooks) for _, owner, me, hooks in listeners]

    def _count_in_play_if_stale(self) -> frozenset[str]:
        """`heard`, recounted first (with the aura flags) if an entry or exit made the counts
        stale: what every reader of the counts asks first."""
        heard = self.heard
        if heard is None:
            heard = self._recount_in_play()
        return heard

    def _entered_or_left(self, minion: Minion) -> None:
        """`minion` entered or left play: the counts are stale if they count it (recounted
        when next asked)."""
        if minion.counts_in_play():
            self.heard = None

    def _recount_in_play(self) -> frozenset[str]:
        """Count what is in play and keep it until a minion or weapon that has triggers, an
        aura or a cost aura enters play (summon, transform, equip) or such a minion dies:
        `heard`, the events some minion or weapon in play has triggers for;
        `cost_auras_in_play` and `auras_in_play`, whether some minion has a cost aura, an aura
        or enrage (silenced or not). Between recounts each can only say more than is there, so
        the scans they stand in for find nothing when they say nothing. (A minion that becomes
        a copy of another in play, Faceless Manipulator's and Mirror Entity's, adds nothing:
        the original was counted. The soak and fuzz runs check the rule after every action.)
        Returns `heard`."""
        events: set[str] | None = None
        cost_auras = auras = False
        for p in self.players:
            for m in p.board:
                if m.listens:
                    if events is None:
                        events = set()
                    events.update(m.cdef.triggers)
                if m.cost_aura_source:
                    cost_auras = True
                if m.aura_source:
                    auras = True
            w = p.weapon
            if w is not None and w.cdef.triggers:
                if events is None:
                    events = set()
                events.update(w.cdef.triggers)
        heard = _NOTHING_HEARD if events is None else frozenset(events)
        self.heard = heard
        self.cost_auras_in_play = cost_auras
        self.auras_in_play = auras
        return heard
