"""Players: the one turn loop every player plugs its choice into (`play_turn`), the game loop,
uniformly random legal play, and the protocol's end-of-turn beam search."""
from __future__ import annotations

import gc
from operator import itemgetter
from typing import Callable, Final

from mypy_extensions import mypyc_attr

from ..engine.actions import END, END_TURN, Action
from ..engine.rng import GOLDEN, MASK64, advance, below_halves, derive, join, mix, split
from ..engine.state import GameState
from .game_counters import GameCounters
from .scores import NeuralNetScore, aggro_score, control_score

Observer = Callable[[GameState], None]
_score: Final = itemgetter(0)  # a beam child's score (C, not a call into Python)
MAX_ACTIONS: Final = 200  # a guard against a loop of free actions: no turn needs this many


class PausedCollector:
    """`with PausedCollector(pause):` pauses Python's cyclic garbage collector while the block
    runs (when `pause` and it was running): for play that makes no reference cycles, where
    reference counting frees all it allocates and each collection would walk the live game
    states again. The collector's counts carry on, so it runs as usual afterwards."""

    def __init__(self, pause: bool = True):
        self.paused = pause and gc.isenabled()

    def __enter__(self) -> None:
        if self.paused:
            gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self.paused:
            gc.enable()


class Chooser:
    """What a player plugs into the turn loop: `choose(g)`, its next action (a legal move of
    `g`, as a tuple or an Action). A compiled player that is one (RandomPlayer) is asked
    through the class's own method table, without a call through a Python callable."""

    def choose(self, g: GameState) -> tuple:
        raise NotImplementedError


class _CallableChooser(Chooser):
    """A player's choice given as a callable (its bound method), for play_turn."""

    def __init__(self, choose: Callable[[GameState], tuple]):
        self.call = choose

    def choose(self, g: GameState) -> tuple:
        return self.call(g)


def play_turn(g: GameState, choose: Callable[[GameState], tuple], counters: GameCounters | None = None,
              observer: Observer | None = None, check: bool = False) -> None:
    """Play the turn of the side to move: apply `choose(g)`, the player's next action (a legal
    move of `g`, as a tuple or an Action), until the turn or the game is over; after
    MAX_ACTIONS actions the turn is ended without asking. The one turn loop of every player: a
    player's `take_turn` resets what it keeps within a turn and passes its choice here, as
    OpenSpiel's bots pass theirs to one game loop. (`turn_loop` is the loop; a Chooser
    passes itself.)

    `check`: every action is checked against the legal ones (players that plan on copies: an
    illegal action would be an engine bug); unchecked, its numbers must be Python ints.
    `observer` is called with the game after every action. `counters` (the evaluated player's
    GameCounters) is told the turn's start, every action, and at the turn's end the end of
    its last planning round and of the turn; a player that plans more than once a turn (the
    beam search) reports the end of each earlier round itself, before it plans again."""
    turn_loop(g, _CallableChooser(choose), counters, observer, check)


def turn_loop(g: GameState, chooser: Chooser, counters: GameCounters | None, observer: Observer | None,
              check: bool) -> None:
    """play_turn with the choice asked of `chooser`: the one turn loop."""
    me = g.current
    if counters is not None:
        counters.turn_started(g)
    played = 0
    while not g.done and g.current == me:
        _act(g, chooser.choose(g) if played < MAX_ACTIONS else END, counters, check)
        played += 1
        if observer is not None:
            observer(g)
    if counters is not None:
        counters.after_plan(g)
        counters.turn_ended(g)


def uniform_move(g: GameState, high: int, low: int) -> tuple:
    """legal_moves()[k] for k = below_halves(high, low, len(legal_moves())), building only the
    attack drawn (the random player's and MCTS playouts' draw: the same draw, the same move)."""
    moves = g.front_moves()
    front = len(moves)
    k = below_halves(high, low, front + g.attack_count())
    return moves[k] if k < front else g.attack_move(k - front)


def _act(g: GameState, action: tuple, counters: GameCounters | None, check: bool) -> None:
    if counters is None:
        g.apply(action, check)
        return
    attacker = counters.before_action(g, action)
    g.apply(action, check)
    counters.after_action(g, action, attacker)


class RandomPlayer(Chooser):
    """Plays a uniformly random legal action until it ends its turn."""

    def __init__(self, seed: int):
        # Its stream as 32-bit halves (workers/engine/rng.py): a draw then builds no 64-bit int.
        self.high, self.low = split(derive(seed, 0x52414E44))
        self.observer: Observer | None = None  # called with the game after every action (soak checks)
        self.counters: GameCounters | None = None  # the evaluated player's statistics, when counted

    def choose(self, g: GameState) -> tuple:
        self.high, self.low = advance(self.high, self.low)
        return uniform_move(g, self.high, self.low)

    def take_turn(self, g: GameState) -> None:
        turn_loop(g, self, self.counters, self.observer, False)  # the whole turn is one planning round


@mypyc_attr(allow_interpreted_subclasses=True)  # workers.players.value_beam.ValueBeamPlayer
class BeamSearchPlayer:
    """Plans the rest of its turn by beam search over copies of the state, as SabberStone's
    `OptionNode` does for the protocol.

    Each depth level expands every legal action of every beam state on a copy; a child whose
    state hash was already seen at this level is dropped; children that end the turn or the
    game become candidates; the `width` best other children (stable by score) form the next
    beam, up to `depth` actions. The first best candidate's line is then played; if randomness
    happens while playing it (or, hiding the deck order, a card comes from or goes into a
    deck), the player plans again from the new state: each plan is one planning round.

    Copies draw random effects from the player's own planning stream, so a plan cannot see a
    real random outcome; they do know the deck order, as SabberStone's clones do, unless
    `hide_deck_order` (off by default) reshuffles the decks of the planning root.
    """

    def __init__(self, score: Callable[[GameState, int], float], seed: int, depth: int = 13,
                 width: int = 4, hide_deck_order: bool = False):
        self.score = score
        self.depth = depth
        self.width = width
        self.hide_deck_order = hide_deck_order
        self.plan_stream = derive(seed, 0x504C414E)
        self.states_expanded = 0
        self.observer: Observer | None = None  # called with the game after every real action
        self.counters: GameCounters | None = None  # the evaluated player's statistics, when counted
        # The plan being played: its actions, how many were played, and what was known when
        # the last one was chosen (random events so far; the decks' sizes when they are hidden).
        self.line: list[Action] = []
        self.line_played = 0
        self.seen_random_events = 0
        self.seen_deck_sizes: list[int] | None = None

    def planning_root(self, g: GameState) -> GameState:
        """The copy a plan starts from: the player's own random stream, and the decks'
        order as the real game has it unless hidden."""
        root = g.copy()
        self.plan_stream = mix(self.plan_stream + GOLDEN & MASK64)
        root.rng = self.plan_stream
        if self.hide_deck_order:
            for p in root.players:
                root.shuffle(root.deck_to_change(p.index))
        return root

    def plan(self, g: GameState) -> list:
        me = g.current
        beam: list[tuple[GameState, tuple]] = [(self.planning_root(g), ())]
        best_line, best_value = None, float("-inf")
        expanded = 0
        ended: list[tuple[float, tuple, GameState]] = []
        for _ in range(self.depth):
            beam, n = beam_level(beam, me, self.score, self.width, ended)
            expanded += n
            # the first best candidate wins: an equally good earlier end of turn beats a longer line
            for value, line, _end in ended:
                if best_line is None or value > best_value:
                    best_line, best_value = line, value
            ended.clear()
            if not beam:
                break
        self.states_expanded += expanded
        return [Action(*move) for move in best_line] if best_line else []

    def take_turn(self, g: GameState) -> None:
        self.line, self.line_played = [], 0  # no plan yet this turn
        # The collector is paused while the turn is planned and played: a plan allocates
        # thousands of copies (collections walked the beam again: a sixth of a protocol game).
        with PausedCollector():
            # checked: a plan illegal for real is an engine bug
            play_turn(g, self.next_action, self.counters, self.observer, check=True)

    def next_action(self, g: GameState) -> Action:
        """The plan's next action. A new plan is made when the plan is played out, or when since
        its last action randomness happened or (hiding the deck order) a card came from or went
        into a deck the plan did not know; the planning round before it ends there."""
        if (self.line_played >= len(self.line) or g.random_events != self.seen_random_events
                or (self.seen_deck_sizes is not None and _deck_sizes(g) != self.seen_deck_sizes)):
            if self.line and self.counters is not None:
                self.counters.after_plan(g)
            line = self.plan(g)
            self.line = line if line else [g.legal_actions()[0]]  # END is always legal
            self.line_played = 0
        action = self.line[self.line_played]
        self.line_played += 1
        self.seen_random_events = g.random_events
        self.seen_deck_sizes = _deck_sizes(g) if self.hide_deck_order else None
        return action


def beam_level(beam: list[tuple[GameState, tuple]], me: int, score: Callable[[GameState, int], float],
               width: int, ended: list[tuple[float, tuple, GameState]]) -> tuple[list[tuple[GameState, tuple]], int]:
    """One depth level of the protocol's beam search (BeamSearchPlayer, and the reply beam of
    workers.players.reply_beam): every legal move of every (state, line) of `beam` applied on a
    copy. A child that ends the turn or the game goes to `ended` as (score, line, state), in
    option order; of the others, a child whose state hash was already seen at this level is
    dropped (duplicates within a level, not across levels), and the `width` best by score,
    ties in option order, are the next beam. Returns it (empty: nothing goes on) and how many
    children were made.

    With the protocol's scores (the network, aggro, control) the duplicates are dropped after
    the sort, and only the children the new beam is chosen from are hashed (a few of some 30):
    those scores are functions of what the hash tells apart, so duplicates score the same and
    keep their option order among themselves in the stable sort: the first of each is the one
    kept before, and the kept ones come in the same order (checked: equal hashes, equal scores,
    on some 150,000 duplicates in protocol games of four decks). Any other score may see what
    the hash does not, so its duplicates are dropped as they come."""
    seen = set()
    children: list[tuple[float, GameState, tuple, tuple]] = []
    expanded = 0
    # The protocol's scores are called natively (a call of `score` goes through Python)
    net = score if isinstance(score, NeuralNetScore) else None
    kind = _AGGRO if score is aggro_score else _CONTROL if score is control_score else _OTHER
    late = net is not None or kind != _OTHER  # duplicates dropped after the sort
    for state, line in beam:
        state.keep_hand_hashes()  # for all its children
        moves = state.legal_moves()  # plain tuples; the chosen line becomes Actions
        last = moves[-1]
        for move in moves:
            # The beam state is not needed after its last move: that child is the state
            # itself, one copy fewer per expanded state.
            child = state if move is last else state.copy()
            child.apply(move, check=False)
            expanded += 1
            action: int = move[0]  # a native int, compared without a boxed END_TURN
            if action == END_TURN or child.done or child.current != me:
                # A turn-ending child needs no hash: it cannot equal a child that goes on
                # (whose turn it is, and whether it is over, are hashed), and one equal to an
                # earlier candidate scores the same, so it could not win.
                ended.append((_score_of(child, me, net, kind, score), line + (move,), child))
                continue
            if not late:
                key: object = child.state_hash()  # boxed once for the set, not at each use
                if key in seen:
                    continue
                seen.add(key)
            # the line is made only for the children kept
            children.append((_score_of(child, me, net, kind, score), child, line, move))
    children.sort(key=_score, reverse=True)  # stable, reversed too: ties keep option order
    if late:
        children = _distinct(children, width)
    return [(child, line + (move,)) for _, child, line, move in children[:width]], expanded


def _distinct(children: list[tuple[float, GameState, tuple, tuple]],
              width: int) -> list[tuple[float, GameState, tuple, tuple]]:
    """The first `width` of `children` whose states' hashes differ from those of the ones
    before them, in their order."""
    kept: list[tuple[float, GameState, tuple, tuple]] = []
    seen = set()
    for entry in children:
        key: object = entry[1].state_hash()
        if key in seen:
            continue
        seen.add(key)
        kept.append(entry)
        if len(kept) >= width:
            break
    return kept


_OTHER: Final = 0  # beam_level's kinds of score: any callable
_AGGRO: Final = 1
_CONTROL: Final = 2


def _score_of(g: GameState, me: int, net: NeuralNetScore | None, kind: int,
              score: Callable[[GameState, int], float]) -> float:
    """score(g, me), the protocol's scores called natively: `net` when it is the network,
    else by `kind`."""
    if net is not None:
        return net.value(g, me)
    if kind == _AGGRO:
        return aggro_score(g, me)
    if kind == _CONTROL:
        return control_score(g, me)
    return score(g, me)


def _deck_sizes(g: GameState) -> list[int]:
    return [len(p.deck) for p in g.players]




def play_game(g: GameState, players, recorder=None) -> GameState:
    """Let the two players alternate turns until the game is over. `recorder` (optional, e.g.
    workers.learning.state_log.StateRecorder) is told `turn_ended(g, player)` after each turn,
    the last one with the game over; it must only read the state.

    Between beam players' turns, which pause the collector themselves, it would only walk the
    live objects again after every turn (a few percent of a protocol game): with beam players
    on both sides it stays paused for the whole game."""
    with PausedCollector(all([isinstance(p, BeamSearchPlayer) for p in players])):
        while not g.done:
            me = g.current
            players[me].take_turn(g)
            if recorder is not None:
                recorder.turn_ended(g, me)
    return g


def random_playout(g: GameState, stream: int, mover: int, limit: int = -1) -> tuple[int, int]:
    """Play uniformly random legal moves on `g` until the game ends or `limit` moves were played
    (-1: no limit), each choice drawn from `stream`, a SplitMix64 counter advanced once per move
    (as MCTS draws its own numbers). Returns the stream after the playout and the player who
    moved last (`mover` when no move was played). Compiled with the engine: MCTS spends most of
    its time here."""
    steps = 0
    high, low = split(stream)
    while not g.done and steps != limit:
        mover = g.current
        high, low = advance(high, low)
        g.apply(uniform_move(g, high, low), False)
        steps += 1
    return join(high, low), mover
