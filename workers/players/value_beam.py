"""The protocol's beam search scored by a value network (workers.players.value_model) instead of the
protocol's hand-made score: `BeamSearchPlayer` unchanged, with a `ValueScore`.

The network gives the acting player's win probability (or discounted outcome) of a state; it
was trained on turn-end states, exactly the candidates the beam search compares at the end of
a line. `max_states` bounds the network evaluations of one planning round: once spent, every
further state scores -inf (+inf if it wins the game), so it can neither enter a beam ahead of
a scored state nor become the chosen line.
"""
from __future__ import annotations

from .play import BeamSearchPlayer


class ValueScore:
    """A ValueModel as a beam score (g, player) -> value, counting the states it scores."""

    def __init__(self, model, max_states: int | None = None):
        if max_states is not None and max_states < 1:
            raise ValueError(f"max_states must be at least 1, got {max_states}")
        self.model = model
        self.max_states = max_states
        self.used = 0  # states scored in the current planning round
        self.scored = 0  # states scored in all

    def __call__(self, g, player: int) -> float:
        if self.max_states is not None:
            if self.used >= self.max_states:  # a won state is still seen: no network needed
                return float("inf") if g.players[1 - player].hero.health < 1 else float("-inf")
            self.used += 1
        self.scored += 1
        return self.model(g, player)


class PrunedValueScore(ValueScore):
    """The network for a state that ends the player's turn (or the game), `prune` (a protocol
    score) for a state within the turn: the beam search compares the two kinds only among
    themselves (candidates with candidates, beam children with beam children)."""

    def __init__(self, model, prune, max_states: int | None = None):
        super().__init__(model, max_states)
        self.prune = prune

    def __call__(self, g, player: int) -> float:
        if g.done or g.current != player:
            return super().__call__(g, player)
        return self.prune(g, player)


class ValueBeamPlayer(BeamSearchPlayer):
    """BeamSearchPlayer(ValueScore(model)); `plan` only resets the budget of the round."""

    def __init__(self, model, seed: int, depth: int = 13, width: int = 4,
                 hide_deck_order: bool = False, max_states: int | None = None, prune=None):
        score = ValueScore(model, max_states) if prune is None else PrunedValueScore(model, prune, max_states)
        super().__init__(score, seed, depth, width, hide_deck_order=hide_deck_order)

    def plan(self, g):
        self.score.used = 0
        return super().plan(g)
