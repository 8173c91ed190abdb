"""The value-guided beam search with one more ply: the opponent's reply.

The beam search of the protocol (the same expansion, dedupe and beam as
workers.players.play.BeamSearchPlayer) collects every line that ends the turn. The `replies`
best of them by the value network (turn-end states, where the network was trained) are then
looked at once more: on a copy of each end state in which the opponent's hand is dealt again
from its hand and deck cards and both decks are reshuffled (so nothing hidden is used), the
opponent plays its whole turn as the protocol's beam player would (the opponent model: the
protocol's score), and the network values the state at the end of that turn from the
opponent's view, again a state of the kind it was trained on; the line's value is 1 minus that
(or the game's result), averaged over `samples` such deals, the same deals for every line. The
line of the best such value is played; a won game needs no reply.

With `prune`, states within the turn are ranked by that protocol score and only the
turn-ending ones by the network (workers.players.value_beam.PrunedValueScore).
"""
from __future__ import annotations

from ..engine.actions import Action
from ..engine.rng import GOLDEN, MASK64, derive, mix
from ..engine.state import GameState
from .play import BeamSearchPlayer, beam_level
from .value_beam import PrunedValueScore, ValueScore


class ReplyBeamPlayer(BeamSearchPlayer):
    def __init__(self, model, seed: int, depth: int = 13, width: int = 4, hide_deck_order: bool = False,
                 prune=None, replies: int = 4, samples: int = 1, opponent_score=None):
        score = ValueScore(model) if prune is None else PrunedValueScore(model, prune)
        super().__init__(score, seed, depth, width, hide_deck_order=hide_deck_order)
        if replies < 1 or samples < 1:
            raise ValueError(f"replies and samples must be at least 1, got {replies} and {samples}")
        if opponent_score is None:
            from .scores import cached_score
            opponent_score = cached_score("nn")
        self.model, self.replies, self.samples = model, replies, samples
        self.opponent_score = opponent_score
        self.reply_stream = derive(seed, 0x5245504C)
        self.replies_played = 0

    def candidates(self, g: GameState) -> list:
        """(value, order, line, end state) of every turn-ending line the beam search meets."""
        me = g.current
        beam = [(self.planning_root(g), ())]
        ended: list = []
        for _ in range(self.depth):
            beam, expanded = beam_level(beam, me, self.score, self.width, ended)
            self.states_expanded += expanded
            if not beam:
                break
        return [(value, order, line, end) for order, (value, line, end) in enumerate(ended)]

    def plan(self, g: GameState) -> list:
        me = g.current
        found = self.candidates(g)
        if not found:
            return []
        found.sort(key=lambda c: (-c[0], c[1]))
        best = found[0]
        if best[3].done or len(found) == 1:
            return [Action(*m) for m in best[2]]
        # Every line meets the same `samples` deals of the hidden cards (common random numbers):
        # the lines are compared on equal luck, not on which drew the kinder opponent hand.
        deals = [self._next() for _ in range(self.samples)]
        best_value = float("-inf")
        for value, order, line, state in found[:self.replies]:
            after = sum(self.reply_value(state, me, deal) for deal in deals) / self.samples
            if after > best_value:
                best, best_value = (value, order, line, state), after
        return [Action(*m) for m in best[2]]

    def reply_value(self, end: GameState, me: int, deal: int | None = None) -> float:
        """`me`'s value after the opponent's reply to the turn that ended in `end`, on the deal
        of hidden cards and the random stream that `deal` seeds (a new one when None)."""
        if end.done:
            return 1.0 if end.winner == me else 0.0 if end.winner == 1 - me else 0.5
        deal = self._next() if deal is None else deal
        s = self.determinize(end, me, deal)
        opponent = BeamSearchPlayer(self.opponent_score, derive(deal, 1), self.depth, self.width)
        opponent.take_turn(s)
        self.replies_played += 1
        if s.done:
            return 1.0 if s.winner == me else 0.0 if s.winner == 1 - me else 0.5
        return 1.0 - self.model(s, 1 - me)

    def determinize(self, g: GameState, me: int, deal: int | None = None) -> GameState:
        """A copy of `g` with what `me` cannot know dealt again: the opponent's hand from its hand
        and deck cards (same counts), both decks in a new order, the random stream `deal` (a new
        one when None)."""
        s = g.copy()
        s.rng = self._next() if deal is None else deal
        opp = s.players[1 - me]
        pool = opp.hand + opp.deck
        s.shuffle(pool)
        n = len(opp.hand)
        s.deal(1 - me, pool[:n], pool[n:])
        s.shuffle(s.deck_to_change(me))
        return s

    def _next(self) -> int:
        self.reply_stream = (self.reply_stream + GOLDEN) & MASK64
        return mix(self.reply_stream)
