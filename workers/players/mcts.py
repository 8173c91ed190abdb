"""Information-set Monte-Carlo tree search (SO-ISMCTS, Cowling, Powley and Whitehouse 2012) for
the built-in engine, where the opponent's hand and both decks' order are hidden.

Every iteration of a search starts from a fresh *determinization* of the real state: a copy
whose opponent hand and deck are dealt again from their pooled cards (same counts), whose own
deck is reshuffled, and whose random stream is new. Statistics are shared across
determinizations by information set: a node is the sequence of actions from the root (the
dict path of action tuples), and at each node only the actions legal in the current
determinization are candidates. Selection is UCB1 with availability counts (a child's
exploration term uses how often it was *available*, not the parent's visits), each player
maximising its own reward; one new node is added per iteration; the leaf is valued by

- ``playout``: uniformly random moves to the game's end (1 win, 0 loss, 0.5 draw),
- ``value``: a value network (workers.players.value_model) on the leaf state,
- ``cutoff``: ``cutoff`` random moves, then the network (or the result if the game ended);

the network values a state at a turn's end, as it was trained: a leaf in the middle of a
turn first ends that turn. The tree spans the rest of the game (``horizon="game"``, the
default of playout and cutoff leaves) or only the rest of the player's own turn
(``horizon="turn"``, the default of value leaves): then every leaf is an end of the own turn
valued from the player's own view, the states the network was trained on, and no leaf cuts
the opponent's turn short (which would flatter the line that ends the own turn at once).

A turn is played action by action, each action chosen by a search of ``iterations``
iterations (and/or ``seconds``); the most visited root child is played. With ``reuse`` the
chosen child's subtree is kept as the next root, unless the action drew a random outcome or
moved cards out of (or into) a deck: then the information set is new and the search starts
afresh. With an iteration budget every choice is a function of the player's seed and the
game, so games replay exactly; a time budget is not reproducible.

``positions="right"`` (default) offers each minion only at the right end of the board, one
move instead of one per position; ``"all"`` searches every position the engine offers.
The player reports to its `GameCounters` as the random player does (the whole turn is one
planning round).

Why not OpenSpiel's bots (open_spiel 2.0.2 has a wheel for this Python): wrapped as a Python
pyspiel game (the gym_env action indices, clone = GameState.copy, resample_from_infostate = the
determinization here), its Python ISMCTSBot needs allow_inconsistent_action_sets (legal actions
differ between determinizations), which deep-copies a node at every selection: 21.8 ms per
iteration against about 1 ms here (50 iterations per action, 6 games against the random
player, both won all 6: 267 s against 8.5 s); its C++ ISMCTSBot crashed (segmentation fault) on
the Python-defined game.
"""
from __future__ import annotations

import math
import time

from ..engine.actions import END, Action
from ..engine.rng import GOLDEN, MASK64, derive, mix
from ..engine.state import GameState
from .game_counters import GameCounters
from .play import Observer, play_turn, random_playout

LEAVES = ("playout", "value", "cutoff")
POSITIONS = ("right", "all")
HORIZONS = ("game", "turn")


class Node:
    """Statistics of one action sequence from the root: visits, summed reward from the view of
    `mover` (the player who took the last action), and how often the action was available."""
    __slots__ = ("children", "visits", "reward", "avail", "mover")

    def __init__(self, mover: int):
        self.children: dict = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 0
        self.mover = mover


class LeafValue:
    """A value network (workers.players.value_model.ValueModel) as a leaf reward in [0, 1] for `me`.

    The network was trained on turn-end states from the view of the player who just ended its
    turn (the other player to move, after its draw), so a leaf is valued at a turn's end: a
    leaf in the middle of a turn first ends that turn (MCTSPlayer._leaf), and the state is
    read from the view of the player *not* to move, turned into `me`'s view (1 - r for the
    other player). A "discounted" model's value (-8 lost .. 10 won) is mapped linearly onto
    [0, 1]."""

    def __init__(self, model):
        self.model = model
        self.encode = model.encoder.fn
        self.win = model.target == "win"

    def __call__(self, g: GameState, me: int) -> float:
        viewer = 1 - g.current
        v = self.model.value_of(self.encode(g, viewer))
        r = v if self.win else min(1.0, max(0.0, (v + 8.0) / 18.0))
        return r if viewer == me else 1.0 - r


class MCTSPlayer:
    def __init__(self, seed: int, iterations: int | None = 200, seconds: float | None = None,
                 c: float = 0.7, leaf: str = "playout", value=None, cutoff: int = 8,
                 positions: str = "right", reuse: bool = True, horizon: str | None = None):
        if iterations is None and seconds is None:
            raise ValueError("mcts needs a budget: iterations, seconds or both")
        if iterations is not None and iterations < 1:
            raise ValueError(f"mcts iterations must be at least 1, got {iterations}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"mcts seconds must be positive, got {seconds}")
        if leaf not in LEAVES:
            raise ValueError(f"mcts leaf {leaf!r} is not one of {', '.join(LEAVES)}")
        if leaf != "playout" and value is None:
            raise ValueError(f"mcts leaf={leaf} needs a value model")
        if positions not in POSITIONS:
            raise ValueError(f"mcts positions {positions!r} is not one of {', '.join(POSITIONS)}")
        horizon = horizon or ("turn" if leaf == "value" else "game")
        if horizon not in HORIZONS:
            raise ValueError(f"mcts horizon {horizon!r} is not one of {', '.join(HORIZONS)}")
        if not (c >= 0 and math.isfinite(c)):
            raise ValueError(f"mcts exploration constant c must be finite and >= 0, got {c}")
        if cutoff < 0:
            raise ValueError(f"mcts cutoff must be >= 0, got {cutoff}")
        self.iterations, self.seconds, self.c = iterations, seconds, float(c)
        self.leaf, self.cutoff, self.positions, self.reuse = leaf, int(cutoff), positions, reuse
        self.horizon = horizon
        self.value = LeafValue(value) if value is not None and leaf != "playout" else None
        self.stream = derive(seed, 0x4D435453)
        self.observer: Observer | None = None  # called with the game after every real action (soak checks)
        self.counters: GameCounters | None = None  # the evaluated player's statistics, when counted
        self.searches = 0  # decisions that needed a search (more than one legal action)
        self.iterations_run = 0
        self._root: Node | None = None  # the last search's root, within a turn
        self._last: tuple | None = None  # the action chosen last this turn
        self._known_before: tuple = ()  # what was known when it was chosen (see _known)

    # ------------------------------------------------------------------ playing
    def take_turn(self, g: GameState) -> None:
        self._root, self._last = None, None
        # checked, as every real action; the whole turn is one planning round
        play_turn(g, self.next_action, self.counters, self.observer, check=True)
        self._root, self._last = None, None

    def next_action(self, g: GameState) -> Action:
        """`choose`, from the subtree of the action chosen last this turn when `reuse` keeps it:
        when that action drew no random outcome and moved no card out of (or into) a deck."""
        root: Node | None = self._root
        self._root = None
        if (self.reuse and root is not None and self._last is not None
                and self._known_before == _known(g)):
            self._root = root.children.get(self._last)
        action = self.choose(g)
        self._last, self._known_before = tuple(action), _known(g)
        return action

    def choose(self, g: GameState) -> Action:
        """The action to play now: END without a search when it is the only one."""
        moves = self._moves(g)
        if len(moves) == 1:
            self._root = None
            return Action(*moves[0])
        root = self._root if self._root is not None else Node(1 - g.current)
        self.search(g, root)
        self._root = root
        children = root.children
        best, best_key = [moves[0]], None
        for m in moves:  # most visits, then best mean reward, then a draw among equals
            ch = children.get(m)
            if ch is None or ch.visits == 0:
                continue
            key = (ch.visits, ch.reward / ch.visits)
            if best_key is None or key > best_key:
                best, best_key = [m], key
            elif key == best_key:
                best.append(m)
        # (not the first in the engine's order: that is END, and ending the turn on every tie
        # throws away whole turns when a small budget leaves many children alike)
        return Action(*best[self._next() % len(best)] if len(best) > 1 else best[0])

    # ------------------------------------------------------------------ search
    def search(self, g: GameState, root: Node) -> None:
        me = g.current
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        budget = self.iterations
        done = 0
        while True:
            if budget is not None and done >= budget:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            self._iterate(g, root, me)
            done += 1
        self.searches += 1
        self.iterations_run += done

    def _iterate(self, g: GameState, root: Node, me: int) -> None:
        s = self.determinize(g, me)
        node, path = root, []
        c, log, sqrt = self.c, math.log, math.sqrt
        whole_game = self.horizon == "game"
        while not s.done and (whole_game or s.current == me):
            moves = self._moves(s)
            children = node.children
            untried = [m for m in moves if m not in children]
            if untried:
                for m in moves:
                    if m in children:
                        children[m].avail += 1
                move = untried[self._next() % len(untried)]
                child = children[move] = Node(s.current)
                child.avail = 1
                s.apply(move, check=False)
                path.append(child)
                break
            best, best_value = moves[0], -1.0
            for m in moves:
                ch = children[m]
                ch.avail += 1
                v = ch.reward / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                if v > best_value:
                    best, best_value = m, v
            node = children[best]
            s.apply(best, check=False)
            path.append(node)
        reward = self._leaf(s, me, path[-1].mover)
        for node in path:
            node.visits += 1
            node.reward += reward if node.mover == me else 1.0 - reward

    def determinize(self, g: GameState, me: int) -> GameState:
        """A copy of `g` consistent with what `me` knows: the opponent's hand dealt again from its
        hand and deck cards (same counts), both decks in a new order, a new random stream."""
        s = g.copy()
        s.rng = self._next()
        opp = s.players[1 - me]
        if opp.hand and opp.deck:
            pool = opp.hand + opp.deck
            s.shuffle(pool)
            n = len(opp.hand)
            s.deal(1 - me, pool[:n], pool[n:])
        else:
            s.shuffle(s.deck_to_change(1 - me))
        s.shuffle(s.deck_to_change(me))
        return s

    def _leaf(self, s: GameState, me: int, mover: int) -> float:
        """The reward in [0, 1] for `me` of a leaf reached by an action of `mover`."""
        if self.leaf != "value":
            limit = self.cutoff if self.leaf == "cutoff" else -1
            self.stream, mover = random_playout(s, self.stream, mover, limit)
        if not s.done and s.current == mover:
            s.apply(END, check=False)  # mid-turn: valued as if the turn ended here
        if s.done:
            return 1.0 if s.winner == me else 0.0 if s.winner == 1 - me else 0.5
        assert self.value is not None  # a leaf other than playout has a model (__init__)
        return self.value(s, me)

    def _moves(self, s: GameState) -> list:
        moves = s.legal_moves()
        if self.positions == "right":
            right = len(s.players[s.current].board)
            moves = [m for m in moves if m[3] < 0 or m[3] == right]
        return moves

    def _next(self) -> int:
        self.stream = (self.stream + GOLDEN) & MASK64
        return mix(self.stream)


def _known(g: GameState) -> tuple:
    """What an action may change that makes the information set new: random events so far and
    the decks' sizes."""
    return (g.random_events, len(g.players[0].deck), len(g.players[1].deck))
