"""Players: uniformly random legal play, and the protocol's end-of-turn beam search."""
from __future__ import annotations

from .engine.actions import END_TURN
from .engine.rng import GOLDEN, MASK64, derive, mix
from .engine.state import GameState


class RandomPlayer:
    """Plays a uniformly random legal action until it ends its turn."""

    def __init__(self, seed: int):
        self.rng = derive(seed, 0x52414E44)
        self.observer = None  # called with the game after every action (soak checks)

    def _rand(self, n: int) -> int:
        self.rng = (self.rng + GOLDEN) & MASK64
        return mix(self.rng) % n

    def take_turn(self, g: GameState) -> None:
        me = g.current
        while not g.done and g.current == me:
            moves = g.legal_moves()  # plain tuples: cheaper than legal_actions(), same order
            g.apply(moves[self._rand(len(moves))], check=False)
            if self.observer is not None:
                self.observer(g)


class BeamSearchPlayer:
    """Plans the rest of its turn by beam search over copies of the state.

    From the current state every legal action is expanded on a copy; children whose state
    hash was already seen are dropped; children that end the turn or the game become
    candidates; the `width` best other children form the next beam, up to `depth` actions.
    The best candidate's line is then played; if randomness happens while playing it, the
    player plans again from the new state. Copies draw their randomness from the player's own
    planning stream, so a plan cannot see real random outcomes or the next card drawn.
    """

    def __init__(self, score, seed: int, depth: int = 13, width: int = 4):
        self.score = score
        self.depth = depth
        self.width = width
        self.plan_stream = derive(seed, 0x504C414E)
        self.states_expanded = 0
        self.observer = None  # called with the game after every real action (soak checks)

    def plan(self, g: GameState) -> list:
        me = g.current
        score = self.score
        root = g.copy()
        self.plan_stream = mix(self.plan_stream + GOLDEN & MASK64)
        root.rng = self.plan_stream
        seen = {root.state_hash()}
        beam = [(root, [])]
        best_line, best_value = None, float("-inf")
        for _ in range(self.depth):
            children = []
            for state, line in beam:
                for action in state.legal_actions():
                    child = state.copy()
                    child.apply(action, check=False)
                    self.states_expanded += 1
                    key = child.state_hash()
                    if key in seen:
                        continue
                    seen.add(key)
                    value = score(child, me)
                    new_line = line + [action]
                    if action.kind == END_TURN or child.done or child.current != me:
                        if best_line is None or value > best_value:
                            best_line, best_value = new_line, value
                    else:
                        children.append((value, len(children), child, new_line))
            if not children:
                break
            children.sort(key=lambda item: (-item[0], item[1]))
            beam = [(child, line) for _, _, child, line in children[:self.width]]
        return best_line or []

    def take_turn(self, g: GameState) -> None:
        me = g.current
        while not g.done and g.current == me:
            line = self.plan(g)
            if not line:
                line = [g.legal_actions()[0]]  # END is always legal
            for action in line:
                before = g.random_events
                g.apply(action)  # checked: a plan that is illegal for real is an engine bug
                if self.observer is not None:
                    self.observer(g)
                if g.done or g.current != me or g.random_events != before:
                    break  # turn over, or randomness happened: plan again


def play_game(g: GameState, players) -> GameState:
    """Let the two players alternate turns until the game is over."""
    while not g.done:
        players[g.current].take_turn(g)
    return g
