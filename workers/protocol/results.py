"""Result types shared by every engine: one record per game, one summary per evaluation.

The head node only ever sees these, so the built-in engine and SabberStone are
interchangeable. A deck evaluation may be split into chunks of games (Dask tasks); the
records of all chunks are summarised once, in game order, on the head node.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Sequence

# The 12 targets of the "(ad)" surrogates, in a fixed order: the objective and the two
# measures first, then the nine ancillary statistics of the protocol.
TARGET_NAMES: tuple[str, ...] = (
    "health_difference",
    "turns",
    "hand_size",
    "win_rate",
    "damage_per_turn",
    "cards_drawn_per_turn",
    "mana_spent_per_turn",
    "mana_wasted_per_turn",
    "deck_mana_sum",
    "deck_mana_variance",
    "num_minions",
    "num_spells",
)


@dataclass(frozen=True)
class GameRecord:
    """What one game contributes to an evaluation (all from the evaluated player's view)."""

    game_index: int
    opponent_index: int
    seed: int
    won: bool
    own_health: int
    enemy_health: int
    turns: int  # own turns played
    hand_size_sum: int  # hand size right after each own turn ended, summed over own turns
    minion_damage: int  # attack of the attacker at each own minion attack
    cards_drawn: int  # per own turn, at least 1
    mana_spent: int  # the turn's used mana after each planning round (workers.players.game_counters)
    mana_available: int  # the turn's mana crystals after each planning round
    error: str | None = None  # set when the engine raised; this try then counts nowhere else
    hand_size_start_sum: int = 0  # hand size at the start of each own turn (after the draw), summed
    card_plays: tuple[tuple[str, int], ...] = ()  # (id of a deck card, times the evaluated player played it)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class OpponentBreakdown:
    name: str
    games: int
    win_rate: float
    health_difference: float
    turns: float
    hand_size: float


@dataclass
class EvaluationResult:
    objective: float  # mean (own health - enemy health) at game end
    measures: tuple[float, float]  # (mean own turns per game, mean hand size)
    ancillary: dict[str, float]
    per_opponent: list[OpponentBreakdown]
    games: int  # games that finished without an engine error
    errors: list[tuple[int, int, str]] = field(default_factory=list)  # failed tries: (game index, seed, message)

    def targets(self) -> list[float]:
        """The 12 surrogate targets in TARGET_NAMES order."""
        values = {"health_difference": self.objective, "turns": self.measures[0],
                  "hand_size": self.measures[1], **self.ancillary}
        return [float(values[name]) for name in TARGET_NAMES]


def deck_statistics(deck_costs: Sequence[int], deck_types: Sequence[str]) -> dict[str, float]:
    """The deck-only ancillary statistics: mana sum, population variance, minion and spell counts."""
    n = len(deck_costs)
    mean = sum(deck_costs) / n
    return {
        "deck_mana_sum": float(sum(deck_costs)),
        "deck_mana_variance": sum((c - mean) ** 2 for c in deck_costs) / n,
        "num_minions": float(sum(t == "MINION" for t in deck_types)),
        "num_spells": float(sum(t == "SPELL" for t in deck_types)),
    }


def summarize(records: Sequence[GameRecord], deck_stats: dict[str, float],
              opponent_names: Sequence[str]) -> EvaluationResult:
    """Aggregate game records (any order) into the protocol's objective, measures and ancillaries."""
    records = sorted(records, key=lambda r: r.game_index)
    good = [r for r in records if r.error is None]
    errors = [(r.game_index, r.seed, r.error) for r in records if r.error is not None]
    if not good:
        raise RuntimeError(f"every game of the evaluation raised inside the engine: {errors[:3]}")
    n = len(good)
    turns = sum(r.turns for r in good)
    per_turn = max(turns, 1)
    ancillary = {
        "win_rate": sum(r.won for r in good) / n,
        "damage_per_turn": sum(r.minion_damage for r in good) / per_turn,
        "cards_drawn_per_turn": sum(r.cards_drawn for r in good) / per_turn,
        "mana_spent_per_turn": sum(r.mana_spent for r in good) / per_turn,
        "mana_wasted_per_turn": sum(r.mana_available - r.mana_spent for r in good) / per_turn,
        **deck_stats,
    }
    breakdown = []
    for index, name in enumerate(opponent_names):
        games = [r for r in good if r.opponent_index == index]
        if not games:
            continue
        m = len(games)
        breakdown.append(OpponentBreakdown(
            name=name, games=m,
            win_rate=sum(r.won for r in games) / m,
            health_difference=sum(r.own_health - r.enemy_health for r in games) / m,
            turns=sum(r.turns for r in games) / m,
            hand_size=sum(r.hand_size_sum for r in games) / max(sum(r.turns for r in games), 1),
        ))
    return EvaluationResult(
        objective=sum(r.own_health - r.enemy_health for r in good) / n,
        measures=(turns / n, sum(r.hand_size_sum for r in good) / per_turn),
        ancillary=ancillary,
        per_opponent=breakdown,
        games=n,
        errors=errors,
    )
