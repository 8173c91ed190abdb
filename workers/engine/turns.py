"""A turn's start and end, in SabberStone's order (a layer of GameState: see zones.py)."""
from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from .card_play import CardPlay
from .zones import MAX_MANA, _entry_watcher

TURN_LIMIT: Final = 100  # total turns; a game this long is a draw (fatigue ends real games sooner)


@mypyc_attr(acyclic=True)
class Turns(CardPlay):
    __slots__ = ()

    def start_turn(self) -> None:
        """SabberStone's order: ready the player and its mana, run start-of-turn effects and
        their deaths, then draw (and process deaths again)."""
        if _entry_watcher:
            _entry_watcher[0](self, "start_turn", ())
        pi = self.current
        p = self.players[pi]
        for side in self.players:
            side.died_this_turn = ()
            side.drawn_this_turn = 0
        p.turns += 1
        p.max_mana = min(MAX_MANA, p.max_mana + 1)
        p.mana = p.max_mana
        if p.overload_owed or p.overload_locked:
            # Overload: what was owed is locked for this turn. As in SabberStone (remaining mana
            # = crystals - used - locked), a lock larger than the crystals leaves mana below 0.
            p.overload_locked, p.overload_owed = p.overload_owed, 0
            p.mana -= p.overload_locked
        p.used_mana = 0
        p.cards_played = p.minions_played = 0
        p.hero.attacks = 0
        p.hero.power_uses = 0
        for m in p.board:
            m.attacks = 0
            m.sick = False
            if m.stealth_until_next_turn:
                m.stealth = m.stealth_until_next_turn = False
        changed = self.fire1("turn_start", pi)
        for side in self.players:  # "at the start of your next turn, destroy it" (Nightmare),
            for m in side.board:  # after the minions' own start-of-turn effects, as in SabberStone
                if m.destroy_at_start_of == pi:
                    m.destroyed = changed = True
        if changed:
            self.resolve()
            if self.done:
                return
        self.draw(pi)
        self.resolve()

    def end_turn(self) -> None:
        pi = self.current
        p = self.players[pi]
        if self.fire1("turn_end", pi):
            self.resolve()  # (as in attack: a no-op when no hook ran)
        if p.enchants or self.players[1 - pi].enchants:  # effects that end with this turn
            self._end_enchants(("overwhelm", "immune", "attacking"))
            self.resolve()
        if self.done:
            return
        if self.marks:  # this turn's effects end; Shadow Madness gives its minions back
            self._end_turn_marks()
            self.resolve()
            if self.done:
                return
        if p.pending_cards:  # Headcrack's combo: back in hand at the end of this turn (SabberStone)
            pending, p.pending_cards = p.pending_cards, ()
            for card_id in pending:
                self.give(pi, card_id)
        for side in self.players:
            side.hero.turn_atk = 0
            for m in side.board:
                m.turn_atk = 0
        # Frozen characters that could have attacked and did not thaw at the end of their own
        # turn; a minion played this turn stays frozen (SabberStone: not exhausted, no attacks).
        if p.hero.frozen and p.hero.attacks == 0:
            p.hero.frozen = False
        for m in p.board:
            if m.frozen and m.attacks == 0 and not m.sick:
                m.frozen = False
        p.spell_discount = 0
        if p.free_spells_turns:
            p.free_spells_turns -= 1
        self.refresh_auras()
        self.current = 1 - pi
        self.turn += 1
        if self.turn > TURN_LIMIT:
            self.done = True
            self.winner = -1
            return
        self.start_turn()
