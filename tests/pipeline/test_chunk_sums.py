"""What a task sends back (workers.protocol.chunk_sums): its summary is exactly the records' summary,
failed tries and lost games included; and the automatic task size."""
import dataclasses

import numpy as np
import pytest

from pipeline.cluster.evaluation import check_failures, games_per_task
from pipeline.run_errors import EvaluationError
from workers.protocol.evaluate import default_opponents, deck_stats, play_games
from workers.protocol.results import summarize
from workers.protocol.chunk_sums import ChunkSums, summarize_chunks

NAMES = [o.name for o in default_opponents()]


def _records(space, games, seed=5):
    deck = space.decode(space.random_decks(np.random.default_rng(seed), 1)[0])
    return deck, play_games(deck, list(range(games)), seed, player="random")


def test_tallies_of_any_chunking_summarize_as_the_records_do(space):
    deck, records = _records(space, 18)
    # a try that failed before its game finished, and a game lost on every try
    records.insert(3, dataclasses.replace(records[2], error="boom", won=False))
    records[7] = dataclasses.replace(records[7], error="lost for good")
    expected = summarize(records, deck_stats(deck), NAMES)
    for size in (1, 4, 18):
        chunks = [[r for r in records if s <= r.game_index < s + size] for s in range(0, 18, size)]
        got = summarize_chunks([ChunkSums.of(c, len(NAMES)) for c in chunks], deck_stats(deck), NAMES)
        assert got == expected
    assert expected.games == 17 and len(expected.errors) == 2


def test_lost_games_beyond_the_allowed_share_stop_the_evaluation(space):
    _, records = _records(space, 12)
    lost = [dataclasses.replace(r, error="engine bug") if r.game_index < 2 else r for r in records]
    tallies = [ChunkSums.of(lost[:6], len(NAMES)), ChunkSums.of(lost[6:], len(NAMES))]
    check_failures(0, tallies, 0.2, NAMES)  # 2 of 12 games: within 20%
    with pytest.raises(EvaluationError, match=r"2 of 12 games of evaluation 7 .*game 0 against .*engine bug"):
        check_failures(7, tallies, 0.1, NAMES)


@pytest.mark.parametrize("slots, expected", [(1, 10), (2, 10), (20, 20), (50, 50), (100, 100), (200, 200), (1000, 200),
                                             (5000, 200)])
def test_auto_task_size_grows_with_the_slots(slots, expected):
    assert games_per_task("auto", 200, slots) == expected
    assert games_per_task(7, 200, slots) == 7


def test_auto_task_size_covers_small_evaluations():
    assert games_per_task("auto", 6, 1) == 6 and games_per_task("auto", 24, 2) == 12


def test_a_batch_of_fewer_decks_than_slots_is_split_finer():
    assert games_per_task("auto", 200, 200, decks=1000) == 200
    assert games_per_task("auto", 200, 200, decks=100) == 100  # 200 tasks: one per slot
    assert games_per_task("auto", 200, 1000, decks=100) == 20
    assert games_per_task("auto", 200, 1000, decks=10) == 10  # at most 20 tasks per deck
