"""The protocol's per-game statistics of the evaluated player, counted where and when the
reference evaluator (EvoStone2's `GameEvaluator` on SabberStone) counts them.

A player that holds a `GameCounters` (its `counters`) reports its turns, its planning rounds
and every real action to it (through workers.players.play.play_turn); the engine itself keeps
only what the rules need (`used_mana`, `drawn_this_turn`).
"""
from __future__ import annotations

from ..engine.actions import ATTACK, END_TURN, PLAY, PLAY_OPTION_1, PLAY_OPTION_2
from ..engine.entities import Minion
from ..engine.state import GameState


class GameCounters:
    def __init__(self, me: int):
        self.me = me
        self.hand_size_sum = 0  # hand after each own turn (the game's last turn included)
        self.hand_size_start_sum = 0  # hand at the start of each own turn, after the draw
        self.cards_drawn = 0  # per turn: the most cards drawn so far this turn, at least 1
        self.minion_damage = 0  # attacker's attack after each own minion attack (and its deaths)
        self.mana_spent = 0  # used mana of the turn, added after every planning round
        self.mana_available = 0  # the turn's mana crystals, added after every planning round
        self.card_plays: dict[str, int] = {}  # card id: plays (a plain dict: no interpreted __missing__)
        self._drawn_now = 1

    def turn_started(self, g: GameState) -> None:
        self.hand_size_start_sum += len(g.players[self.me].hand)
        self._drawn_now = 1

    def before_action(self, g: GameState, action: tuple) -> Minion | None:
        """Note a card play; return the attacking minion of an attack (read after it)."""
        kind: int = action[0]
        if kind == PLAY or kind == PLAY_OPTION_1 or kind == PLAY_OPTION_2:  # a Choose One card's play too
            index: int = action[1]  # typed, so the compiled code reads the card's fields directly
            card_id = g.players[self.me].hand[index].cdef.id
            self.card_plays[card_id] = self.card_plays.get(card_id, 0) + 1
        elif kind == ATTACK:
            attacker = g.entity(action[1])
            if isinstance(attacker, Minion):
                return attacker
        return None

    def after_action(self, g: GameState, action: tuple, attacker: Minion | None) -> None:
        if attacker is not None:
            # Read once the attack and its deaths are over: an attacker that died has left its
            # auras behind (enrage too), keeping its own buffs, as SabberStone's entity does.
            if attacker in g.players[self.me].board:
                self.minion_damage += attacker.atk
            else:
                self.minion_damage += max(0, attacker.base_atk + attacker.atk_bonus + attacker.turn_atk)
        kind: int = action[0]
        if kind != END_TURN:  # ending the turn resets the count before it is read
            drawn = g.players[self.me].drawn_this_turn
            if drawn > self._drawn_now:
                self._drawn_now = drawn

    def after_plan(self, g: GameState) -> None:
        """Mana is added per planning round, so a turn that re-planned counts its used mana
        more than once: what the reference evaluator does."""
        p = g.players[self.me]
        self.mana_spent += p.used_mana
        self.mana_available += p.max_mana

    def turn_ended(self, g: GameState) -> None:
        self.hand_size_sum += len(g.players[self.me].hand)
        self.cards_drawn += self._drawn_now
