"""One-step lookahead (OSL): the baseline of e Silva Vieira et al. 2023 (seed 004), gym-locm
1.4.0's `GreedyBattleAgent`, on the built-in engine.

At each decision every legal action is played on a copy of the state and the copy is scored
from the acting player's view; the best action is played, and the turn goes on until no action
scores above ending the turn (`stop="score"`, the default: ending the turn is scored as the
state before it, and an action that ties with it is still played), or, as gym-locm's agent
does, until nothing but ending the turn is legal (`stop="never"`: ending the turn is never
compared). Ties between actions keep the engine's move order (the first best wins).

The score (gym-locm's `eval_state`): +1000 if the opponent's hero is dead, -1000 if one's own
is, 2 x (own hero health - opponent hero health), plus the sum of attack + health of one's own
minions minus the opponent's. gym-locm also adds 10 x the difference in minion counts per lane,
but its code subtracts the own count from itself, so the term is always 0; it is left out here.
Hearthstone has armour, which LOCM does not: a hero's health here is health + armour.

Copies draw random outcomes from the player's own stream (one reseed per decision, the same for
every candidate), so the lookahead never sees the real game's next random outcome.
"""
from __future__ import annotations

from ..engine.actions import END_TURN
from ..engine.rng import GOLDEN, MASK64, derive, mix
from ..engine.state import GameState
from .game_counters import GameCounters
from .play import Observer, play_turn

STOPS = ("score", "never")


def osl_score(g: GameState, me: int) -> float:
    """gym-locm's eval_state from player `me`'s view (see the module docstring)."""
    own, opp = g.players[me], g.players[1 - me]
    score = 0.0
    if g.done:
        if g.winner == me:
            score += 1000.0
        elif g.winner == 1 - me:
            score -= 1000.0
        # a draw (both heroes died): +1000 and -1000, nothing
    score += 2.0 * ((own.hero.health + own.hero.armor) - (opp.hero.health + opp.hero.armor))
    for m in own.board:
        score += m.atk + m.health
    for m in opp.board:
        score -= m.atk + m.health
    return score


class OSLPlayer:
    """Plays the action whose resulting state scores best, one action at a time."""

    def __init__(self, seed: int, stop: str = "score"):
        if stop not in STOPS:
            raise ValueError(f"stop must be one of {', '.join(STOPS)}, got {stop!r}")
        self.stop = stop
        self.stream = derive(seed, 0x4F534C)
        self.observer: Observer | None = None  # called with the game after every action
        self.counters: GameCounters | None = None  # the evaluated player's statistics, when counted

    def choose(self, g: GameState) -> tuple:
        """The move to play now (END_TURN when nothing scores better)."""
        me = g.current
        moves = g.legal_moves()  # END first
        self.stream = mix(self.stream + GOLDEN & MASK64)
        best, best_value = moves[0], (osl_score(g, me) if self.stop == "score" else float("-inf"))
        for move in moves:
            if move[0] == END_TURN:
                continue
            child = g.copy()
            child.rng = self.stream  # common random numbers across candidates
            child.apply(move, check=False)
            value = osl_score(child, me)
            # >= against ending the turn (an action that changes nothing scored is still
            # played: a weapon, a draw), > among actions (the first best keeps it).
            if value > best_value or (best[0] == END_TURN and value == best_value):
                best, best_value = move, value
        return best

    def take_turn(self, g: GameState) -> None:
        play_turn(g, self.choose, self.counters, self.observer)  # the whole turn is one planning round
