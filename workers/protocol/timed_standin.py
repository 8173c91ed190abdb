"""STAND-IN engine for `make scale` (tools.scale) only: no game is played. A task sleeps for the
time real games of this engine took on this machine (drawn from measured per-game times, with
their spread) and returns the records of a real evaluation from a fixed table: those of the
table's deck nearest to the asked one (fewest differing card copies), game by game. So hundreds
of worker slots fit on a small machine while the head node, the scheduler and the search do
their real work on realistic numbers. Its results describe the table, never the deck asked for.

The table (`table.npz`, written by tools.scale's calibration) holds `card_ids` (the pool),
`decks` (copies per pool card, one row per table deck), `records` (per deck and game the
GameRecord fields in RECORD_FIELDS order), `seconds_per_game` (the mean of each timed chunk of
real games) and `games_per_chunk` (the games of those chunks; 12 where absent).
"""
from __future__ import annotations

import time
from functools import lru_cache
from typing import Sequence

import numpy as np

from ..engine.rng import derive
from . import evaluate as builtin
from .results import GameRecord
from .chunk_sums import ChunkSums, sums_by_opponent

RECORD_FIELDS = ("won", "own_health", "enemy_health", "turns", "hand_size_sum", "minion_damage",
                 "cards_drawn", "mana_spent", "mana_available", "hand_size_start_sum")


class Table:
    def __init__(self, path: str):
        with np.load(path) as data:
            self.card_ids = [str(c) for c in data["card_ids"]]
            self.decks = data["decks"].astype(np.int32)
            self.records = data["records"].astype(np.int64)
            self.seconds_per_game = data["seconds_per_game"].astype(np.float64)
            self.games_per_chunk = int(data["games_per_chunk"]) if "games_per_chunk" in data else 12
        self.index = {card: i for i, card in enumerate(self.card_ids)}
        if not len(self.decks) or self.records.shape[0::2] != (len(self.decks), len(RECORD_FIELDS)) \
                or not len(self.seconds_per_game):
            raise ValueError(f"{path}: not a stand-in table (decks, records, seconds_per_game)")

    def nearest(self, deck: Sequence[str]) -> int:
        counts = np.zeros(len(self.card_ids), dtype=np.int32)
        for card in deck:
            counts[self.index[card]] += 1
        return int(np.argmin(np.abs(self.decks - counts).sum(axis=1)))


@lru_cache(maxsize=2)
def table(path: str) -> Table:
    return Table(path)


def _rows(deck: Sequence[str], game_indices: Sequence[int], seed: int, table_path: str, opponents):
    """The table rows of these games, their opponents and the opponents' count, after sleeping as
    long as real games took (game g: the table's game g modulo its games per deck, rounded to
    whole rounds of the opponents, so it was against the same opponent g % opponents)."""
    t = table(table_path)
    row = t.nearest(deck)
    n_opponents = len(opponents) if opponents is not None else 6
    per_deck = t.records.shape[1] - t.records.shape[1] % n_opponents or t.records.shape[1]
    rng = np.random.default_rng(derive(seed, game_indices[0] if len(game_indices) else 0) & 0xFFFFFFFF)
    # a task of k games takes as long as k / games_per_chunk timed chunks drawn at random: the
    # spread of its time shrinks with its size, as a sum of games' times does
    chunks = rng.choice(t.seconds_per_game, size=max(1, round(len(game_indices) / t.games_per_chunk)))
    time.sleep(len(game_indices) * float(chunks.mean()))
    games = np.asarray(game_indices, dtype=np.int64)
    return t.records[row, games % per_deck], games % n_opponents, n_opponents


def play_games(deck: Sequence[str], game_indices: Sequence[int], seed: int, *, table_path: str,
               opponents=None, **_protocol_options) -> list[GameRecord]:
    """The nearest table deck's records for these games. Deterministic in (deck, games, seed),
    so a resumed run gets the same numbers."""
    rows, against, _ = _rows(deck, game_indices, seed, table_path, opponents)
    records = []
    for g, values, o in zip(game_indices, rows.tolist(), against.tolist()):
        fields = dict(zip(RECORD_FIELDS, values))
        fields["won"] = bool(fields["won"])
        records.append(GameRecord(game_index=g, opponent_index=o, seed=derive(seed, g), **fields))
    return records


def play_sums(deck: Sequence[str], game_indices: Sequence[int], seed: int, *, table_path: str,
               opponents=None, **_protocol_options) -> ChunkSums:
    """ChunkSums.of(play_games(...)) without a Python object per game: the worker's own work per
    task stays far below the head node's, as a real engine's is beside its games."""
    rows, against, n_opponents = _rows(deck, game_indices, seed, table_path, opponents)
    fields = {name: rows[:, i] for i, name in enumerate(RECORD_FIELDS)}
    return ChunkSums(sums_by_opponent(fields, against, n_opponents), len(set(game_indices)), [], [])


def warm_up(stat_overrides: dict | None = None, table_path: str | None = None) -> None:
    builtin.warm_up(stat_overrides)
    if table_path:
        table(table_path)
