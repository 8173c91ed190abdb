"""The game state's auras and deaths: auras and enrages re-applied after every action, broken
weapons destroyed, and `resolve`, which removes the dead in play order and runs their death
triggers and deathrattles until nothing changes (a layer of GameState: see zones.py)."""
from __future__ import annotations

from operator import attrgetter
from typing import Final

from mypy_extensions import mypyc_attr

from .entities import Minion, Weapon
from .triggers import Triggers
from .zones import AURA_MARKS

_order: Final = attrgetter("order")


@mypyc_attr(acyclic=True)
class Deaths(Triggers):
    __slots__ = ()

    def refresh_auras(self) -> None:
        """Recompute every aura and enrage effect from scratch (cheap when there are none)."""
        self._count_in_play_if_stale()
        if not self.auras_in_play and not self.auras_live:
            return  # no source, and every aura field is zero already
        sources = []
        for p in self.players:
            for m in p.board:
                if m.aura_source and not m.silenced and self._aura_active(m):
                    sources.append(m)
        # With no source now and none applied last time, every aura field is already zero.
        if sources or self.auras_live:
            self._apply_auras(sources)

    @staticmethod
    def _aura_active(m: Minion) -> bool:
        """Whether a minion with an aura or enrage has an effect now (an undamaged enrage
        minion has none, so it need not force a recompute)."""
        script = m.cdef.script
        return script.aura is not None or m.damage > 0

    def _apply_auras(self, sources: list[Minion]) -> None:
        old_health = []
        if self.marks:  # the auras below mark their players again (Velen, Auchenai)
            self.marks = tuple(m for m in self.marks if m[1] not in AURA_MARKS)
        for p in self.players:
            if p.weapon is not None:
                p.weapon.aura_atk = 0
            for m in p.board:
                if m.aura_health:
                    old_health.append((m, m.aura_health))
                m.aura_atk = m.aura_health = 0
                m.aura_charge = m.aura_windfury = False
        if len(sources) > 1:
            sources.sort(key=_order)
        for m in sources:
            script = m.cdef.script
            aura, enrage = script.aura, script.enrage  # read as fields, then called
            if aura is not None:
                aura(self, m.owner, m)
            if enrage is not None and m.damage > 0:
                enrage(self, m.owner, m)
        for m, old in old_health:
            if m.aura_health < old:  # a lost health aura takes its health, not damage, away
                m.damage = max(0, m.damage - (old - m.aura_health))
        self.auras_live = bool(sources)

    def _refresh_and_find_dead(self) -> list[Minion] | None:
        """refresh_auras(), destroy broken weapons, then return the minions to remove (None for
        none). Usually there are no auras and no broken weapons: then one board pass does all."""
        players = self.players
        sources: list[Minion] | None = None  # made only when there is one
        dead: list[Minion] | None = None
        self._count_in_play_if_stale()
        auras = self.auras_in_play
        for p in players:
            for m in p.board:
                if auras and m.aura_source and not m.silenced and self._aura_active(m):
                    if sources is None:
                        sources = []
                    sources.append(m)
                # doomed(), written out: this asks it of every minion after every action
                if m.destroyed or m.damage >= m.base_health + m.health_bonus + m.aura_health:
                    if dead is None:
                        dead = []
                    dead.append(m)
        stale = False
        if sources is not None or self.auras_live:
            self._apply_auras(sources if sources is not None else [])
            stale = True  # auras change health
        for p in players:
            if p.weapon is not None and p.weapon.durability <= 0:
                self.destroy_weapon(p.index)
                stale = True  # its deathrattle may change the boards
        if stale:
            dead = None
            for p in players:
                for m in p.board:
                    if m.doomed():
                        if dead is None:
                            dead = []
                        dead.append(m)
        return dead

    def resolve(self) -> None:
        """Process deaths round by round until none are left, as SabberStone does. Each round
        first checks the heroes (the first dead hero found decides the game); then the dead
        minions leave the board, each one's "whenever a minion dies" listeners are chosen, and
        only then, minion by minion in order of play, those triggers and its deathrattles run."""
        while not self.done:
            dead = self._refresh_and_find_dead()
            if self._heroes_dead() or dead is None:
                return
            if len(dead) > 1:
                dead.sort(key=_order)
            positions: list[int] = []
            for m in dead:
                board = self.players[m.owner].board
                position = board.index(m)
                positions.append(position)
                del board[position]
                self._entered_or_left(m)
                self.players[m.owner].died_this_turn += (m.cdef.id,)
            self.refresh_auras()
            # chosen before any runs (the same for each death)
            listeners = self._listeners("death")
            for k, m in enumerate(dead):
                position = positions[k]
                for owner, me, hooks in listeners:
                    for hook in hooks:
                        hook(self, owner, me, m, position)
                if self.players[1 - self.current].secrets:  # secrets on a death (Redemption)
                    self.fire("died", m, position)
                for fn in m.deathrattles:
                    fn(self, m.owner, m, position)

    def _heroes_dead(self) -> bool:
        """End the game if a hero is dead (both: a draw); whether it is over."""
        hero = self.players[0].hero
        h0 = hero.health <= 0 or hero.destroyed
        hero = self.players[1].hero
        h1 = hero.health <= 0 or hero.destroyed
        if h0 or h1:
            self.done = True
            self.winner = -1 if (h0 and h1) else (1 if h0 else 0)
        return self.done

    def destroy_weapon(self, owner: int) -> None:
        p = self.players[owner]
        if p.weapon is not None:
            old = p.weapon
            p.weapon = None
            self._weapon_destroyed(owner, old)

    def _weapon_destroyed(self, owner: int, weapon: Weapon) -> None:
        for fn in weapon.cdef.script.deathrattles:
            fn(self, owner, weapon, -1)
