"""A chunk of an evaluation's games as the head node needs them: per opponent, the sums of the
protocol's integer statistics (one small array), and the failed tries. A Dask task returns this
instead of a Python object per game, so the head node's work per task is a few array additions.
The sums are of integers, so `summarize_chunks` gives exactly what `summarize` gives on the
records themselves."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from .results import EvaluationResult, GameRecord, OpponentBreakdown

FIELDS = ("finished", "won", "health_difference", "turns", "hand_size_sum", "minion_damage",
          "cards_drawn", "mana_spent", "mana_available")
_COLUMN = {name: i for i, name in enumerate(FIELDS)}
GAME_FIELDS = ("won", "own_health", "enemy_health", *FIELDS[3:])  # the GameRecord fields they are made of


@dataclass
class ChunkSums:
    sums: np.ndarray  # int64 (opponents, FIELDS): over the games that finished
    tried: int  # distinct games tried, finished or not
    errors: list[tuple[int, int, int, str]]  # every failed try: (game index, opponent index, seed, message)
    lost: list[int]  # games that failed on every try

    @classmethod
    def of(cls, records: Sequence[GameRecord], opponents: int) -> "ChunkSums":
        done = [r for r in records if r.error is None]
        fields = {name: np.array([getattr(r, name) for r in done], dtype=np.int64) for name in GAME_FIELDS}
        sums = sums_by_opponent(fields, np.array([r.opponent_index for r in done], dtype=np.int64), opponents)
        errors = [(r.game_index, r.opponent_index, r.seed, r.error) for r in records if r.error is not None]
        lost = sorted({e[0] for e in errors} - {r.game_index for r in done})
        return cls(sums, len({r.game_index for r in records}), errors, lost)


def sums_by_opponent(fields: dict[str, np.ndarray], opponent: np.ndarray, opponents: int) -> np.ndarray:
    """ChunkSums.sums of finished games given as arrays of their GameRecord fields
    (GAME_FIELDS) and of their opponent indices."""
    won = (fields["won"] != 0).astype(np.int64)
    columns = np.stack([np.ones(len(opponent), dtype=np.int64), won, fields["own_health"] - fields["enemy_health"],
                        *(fields[name] for name in FIELDS[3:])], axis=1)
    sums = np.zeros((opponents, len(FIELDS)), dtype=np.int64)
    np.add.at(sums, opponent, columns)
    return sums


def summarize_chunks(chunks: Sequence[ChunkSums], deck_stats: dict[str, float],
                     opponent_names: Sequence[str]) -> EvaluationResult:
    """The evaluation's summary from its chunks' sums (as results.summarize on the records)."""
    per_opponent = sum(c.sums for c in chunks)
    errors = sorted(((g, seed, message) for c in chunks for g, _, seed, message in c.errors), key=lambda e: e[0])
    total = [int(v) for v in per_opponent.sum(axis=0)]
    col = _COLUMN
    n = total[col["finished"]]
    if not n:
        raise RuntimeError(f"every game of the evaluation raised inside the engine: {errors[:3]}")
    turns = total[col["turns"]]
    per_turn = max(turns, 1)
    ancillary = {
        "win_rate": total[col["won"]] / n,
        "damage_per_turn": total[col["minion_damage"]] / per_turn,
        "cards_drawn_per_turn": total[col["cards_drawn"]] / per_turn,
        "mana_spent_per_turn": total[col["mana_spent"]] / per_turn,
        "mana_wasted_per_turn": (total[col["mana_available"]] - total[col["mana_spent"]]) / per_turn,
        **deck_stats,
    }
    breakdown = []
    for index, name in enumerate(opponent_names):
        row = [int(v) for v in per_opponent[index]]
        m = row[col["finished"]]
        if not m:
            continue
        breakdown.append(OpponentBreakdown(
            name=name, games=m, win_rate=row[col["won"]] / m, health_difference=row[col["health_difference"]] / m,
            turns=row[col["turns"]] / m, hand_size=row[col["hand_size_sum"]] / max(row[col["turns"]], 1)))
    return EvaluationResult(
        objective=total[col["health_difference"]] / n,
        measures=(turns / n, total[col["hand_size_sum"]] / per_turn),
        ancillary=ancillary,
        per_opponent=breakdown,
        games=n,
        errors=errors,
    )


def summed(play_games):
    """An engine's `play_sums` made from its `play_games`: the records of a chunk of games summed
    per opponent, which is what a Dask task sends back (the stand-in engine sums without records)."""
    def play_sums(deck: Sequence[str], game_indices: Sequence[int], seed: int, *, opponents, **options) -> ChunkSums:
        return ChunkSums.of(play_games(deck, game_indices, seed, opponents=opponents, **options), len(opponents))
    return play_sums
