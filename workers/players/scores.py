"""Score functions of the protocol's beam-search players, from the acting player's view.

A won state scores +inf and a lost one -inf; otherwise:
- Aggro and Control: the hand-written scores of the protocol;
- NeuralNet: an MLP [15, 5, 4, 1] with tanh after every layer over 15 raw features, x 1e6.

`score_function` turns a strategy (aggro, control, nn or a weights .json file) into a score,
`cached_score` keeps one per process, and `check_strategy` refuses a bad one with one line
before any game is played.
"""
from __future__ import annotations

import json
import math
from array import array
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Final, Sequence

from .. import DATA
from ..engine.entities import Minion, Player
from ..engine.state import GameState
from ..inputs import InputError, finite_numbers, load_json

INF: Final = float("inf")
MEMO_SIZE: Final = 1 << 16  # scored feature vectors kept per network (about 10 MB at most)
try:  # the forward pass in C, built with the compiled engine (mlp_forward.c); else Python's
    from .mlp_forward import forward as c_forward, new_memo as c_new_memo, score as c_score
except ImportError:
    c_forward = c_new_memo = c_score = None
C_MAX_UNITS: Final = 64  # the widest layer c_forward takes


def _terminal(g: GameState, me: int) -> float | None:
    """SabberStone's guards, in its order: a dead enemy hero first (so a state where both
    heroes died counts as won), then a dead own hero."""
    if g.players[1 - me].hero.health < 1:
        return INF
    if g.players[me].hero.health < 1:
        return -INF
    return None


def _taunt_health(board: list[Minion]) -> int:
    return sum(m.health for m in board if m.taunt)


def aggro_score(g: GameState, me: int) -> float:
    end = _terminal(g, me)
    if end is not None:
        return end
    own, enemy = g.players[me], g.players[1 - me]
    score = 1000.0 if (not enemy.board and own.board) else 0.0
    score -= 1000 * _taunt_health(enemy.board)
    score += sum(m.atk for m in own.board)
    score += 1000 * (own.hero.health - enemy.hero.health)
    return score


def control_score(g: GameState, me: int) -> float:
    end = _terminal(g, me)
    if end is not None:
        return end
    own, enemy = g.players[me], g.players[1 - me]
    score = 1000.0 if (not enemy.board and own.board) else 0.0
    score += 50 * (len(own.board) - len(enemy.board))
    score += 25 * (_taunt_health(own.board) - _taunt_health(enemy.board))
    score += sum(m.atk for m in own.board)
    score += 10 * (own.hero.health - enemy.hero.health)
    return score


def state_features(g: GameState, me: int) -> tuple[int, ...]:
    """The 15 raw features of the neural-net player, in `player_strategy_nn.json` order. One
    pass per board with the minions' attack and health written out (this runs for every state
    the beam search scores)."""
    own, enemy = g.players[me], g.players[1 - me]
    # as SabberStone reports it: the weapon counts on its owner's turn only (GameState.hero_atk)
    own_atk, own_health, own_taunt = _board_sums(own.board)
    enemy_atk, enemy_health, enemy_taunt = _board_sums(enemy.board)
    return (
        own.hero.health, enemy.hero.health, g.hero_atk(own), g.hero_atk(enemy),
        _hand_cost(g, me, own), len(own.hand), len(enemy.hand), len(own.deck), len(enemy.deck),
        own_atk, enemy_atk, own_health, enemy_health, own_taunt, enemy_taunt,
    )


def _hand_cost(g: GameState, me: int, own: Player) -> int:
    """The summed current cost of the hand, as `GameState.cost_of` gives it card by card."""
    modifiers = g.cost_modifiers()
    total = 0
    for card in own.hand:
        cdef = card.cdef
        if cdef.script.cost is None and not modifiers:  # cost_of without its rarely needed parts
            cost = cdef.cost + card.cost_mod
            if cdef.type == "SPELL":
                if own.free_spells_turns:
                    continue
                cost -= own.spell_discount
            if cost > 0:
                total += cost
        else:
            total += g.cost_of(me, card, modifiers)
    return total


def _board_sums(board: list[Minion]) -> tuple[int, int, int]:
    """(attack, health, taunt health) of one board. Minion.atk and Minion.health written out:
    this runs for both boards of every state scored, and compiled, each was a call."""
    atk = health = taunt = 0
    for m in board:
        value = m.base_atk + m.atk_bonus + m.turn_atk + m.aura_atk
        if value > 0:
            atk += value
        value = m.base_health + m.health_bonus + m.aura_health - m.damage
        health += value
        if m.taunt:
            taunt += value
    return atk, health, taunt


class NeuralNetScore:
    """The evaluated player's learned score. Weights: flat, all matrices row-major
    [input][output] layer by layer, then all biases."""

    def __init__(self, weights: list[float], layer_sizes: tuple[int, ...] = (15, 5, 4, 1)):
        expected = sum(a * b for a, b in zip(layer_sizes, layer_sizes[1:])) + sum(layer_sizes[1:])
        if len(weights) != expected:
            raise ValueError(f"neural-net score needs {expected} weights, got {len(weights)}")
        self.layers: list[tuple[list[list[float]], list[float]]] = []
        offset = 0
        shapes = list(zip(layer_sizes, layer_sizes[1:]))
        matrices: list[list[list[float]]] = []
        for n_in, n_out in shapes:
            # Stored transposed (one row of input weights per output) for a fast dot product.
            matrices.append([[float(weights[offset + i * n_out + j]) for i in range(n_in)] for j in range(n_out)])
            offset += n_in * n_out
        for (n_in, n_out), matrix in zip(shapes, matrices):
            self.layers.append((matrix, [float(b) for b in weights[offset:offset + n_out]]))
            offset += n_out
        # c_forward's parameters: per layer per output unit its weights, then its bias
        self.sizes = tuple(layer_sizes)
        self.params = array("d", [value for matrix, bias in self.layers
                                  for row, b in zip(matrix, bias) for value in row + [b]]).tobytes()
        self.in_c = c_forward is not None and max(layer_sizes) <= C_MAX_UNITS
        self._memo: dict[tuple[int, ...], float] = {}
        # in C, the memo is a table there, keyed by the features as native integers (c_score)
        self._c_memo = c_new_memo(layer_sizes[0]) if self.in_c else None

    @classmethod
    def from_file(cls, path: str | Path | None = None) -> "NeuralNetScore":
        spec = json.loads(Path(path or DATA / "player_strategy_nn.json").read_text())
        return cls(spec["weights"], tuple(spec["layer_sizes"]))

    def forward(self, features: Sequence[int]) -> float:
        if self.in_c:
            return c_forward(self.sizes, self.params, tuple(features))
        return self.forward_in_python(features)

    def forward_in_python(self, features: Sequence[int]) -> float:
        # Each unit: its products added one by one from 0.0 (what sum(map(mul, row, values))
        # does, the same float operations in the same order), plus the bias, through tanh.
        values = [float(x) for x in features]
        tanh = math.tanh
        for matrix, bias in self.layers:
            out: list[float] = []
            for j in range(len(matrix)):
                row = matrix[j]
                acc = 0.0
                for i in range(len(row)):
                    acc += row[i] * values[i]
                out.append(tanh(acc + bias[j]))
            values = out
        return values[0]

    def __call__(self, g: GameState, me: int) -> float:
        return self.value(g, me)

    def value(self, g: GameState, me: int) -> float:
        """The score (`__call__`), as a method: the beam search calls it natively, where a call
        of the instance goes through Python (arguments parsed, the float boxed)."""
        end = _terminal(g, me)
        if end is not None:
            return end
        features = state_features(g, me)
        # Sibling states of a search often share their features (a minion played at another
        # position, an attack that changes nothing counted): score each feature vector once.
        if self._c_memo is not None:
            return c_score(self.sizes, self.params, features, self._c_memo)  # the same, in C
        value = self._memo.get(features)
        if value is None:
            if len(self._memo) >= MEMO_SIZE:
                self._memo.clear()
            value = float(int(self.forward(features) * 1e6))  # SabberStone's int cast
            self._memo[features] = value
        return value


def score_function(name: Any) -> Callable[[GameState, int], float]:
    """'aggro', 'control', 'nn' (the reference weights), a path to a weights JSON file, or the
    weights themselves as a tuple of numbers (what the strategy search sends its workers: a
    candidate needs no file on any machine)."""
    if isinstance(name, tuple):
        return NeuralNetScore([float(w) for w in name])
    if name == "aggro":
        return aggro_score
    if name == "control":
        return control_score
    if name == "nn":
        return NeuralNetScore.from_file()
    path = Path(name)
    if path.suffix == ".json" and path.exists():
        return NeuralNetScore.from_file(path)
    raise ValueError(f"unknown strategy {name!r}: expected aggro, control, nn or a weights .json file")


@lru_cache(maxsize=16)
def cached_score(strategy: Any) -> Callable[[GameState, int], float]:
    """score_function(strategy), made once per process (a network's memo is kept with it)."""
    return score_function(strategy)


def check_strategy(strategy: Any, what: str = "strategy") -> None:
    """A score function name (aggro, control, nn) or a weights .json file whose weights are
    finite and fit the network; InputError naming `what` otherwise."""
    if strategy in ("aggro", "control", "nn"):
        return
    if not isinstance(strategy, str) or not strategy.endswith(".json"):
        raise InputError(f"{what} {strategy!r} is not aggro, control, nn or a weights .json file")
    spec = load_json(strategy, "weights file")
    if not isinstance(spec, dict) or "weights" not in spec:
        raise InputError(f"weights file {strategy} needs a \"weights\" list")
    weights = finite_numbers(spec["weights"], f"weights file {strategy}: weights")
    sizes = spec.get("layer_sizes", [15, 5, 4, 1])
    if sizes != [15, 5, 4, 1]:
        raise InputError(f"weights file {strategy}: layer_sizes must be [15, 5, 4, 1] (15 state "
                         f"features in, one score out), got {sizes!r}")
    try:
        score_function(strategy)
        NeuralNetScore(weights, tuple(sizes))
    except (ValueError, TypeError, KeyError) as exc:
        raise InputError(f"weights file {strategy}: {exc}") from None
