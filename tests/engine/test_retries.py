"""A game that raises inside the engine is played again with new seeds, as the reference
evaluator does: its failed tries are kept as errors, the first try that finishes counts, and a
game that fails every try is left out and judged by cluster.max_failed_share."""
from __future__ import annotations

import pytest

from pipeline.cluster.evaluation import check_failures
from pipeline.run_errors import EvaluationError
from workers.protocol import evaluate
from workers.protocol.results import summarize
from workers.protocol.chunk_sums import ChunkSums

SEED = 17


@pytest.fixture
def flaky_engine(monkeypatch):
    """The real engine, except that game 1's first try and every try of game 2 raise."""
    real = evaluate.play_one_game
    broken = {evaluate.game_seed(SEED, 1, 0)} | {evaluate.game_seed(SEED, 2, a) for a in range(evaluate.ATTEMPTS)}

    def play_one_game(deck, opponent, game_seed, **kwargs):
        if game_seed in broken:
            raise IndexError("a planted engine failure")
        return real(deck, opponent, game_seed, **kwargs)

    monkeypatch.setattr(evaluate, "play_one_game", play_one_game)


def test_a_failed_try_is_played_again_with_the_next_seed(flaky_engine):
    deck = evaluate.miracle_rogue()
    records = evaluate.play_games(deck, range(3), SEED, player="random")
    assert [(r.game_index, r.error is None) for r in records] == [
        (0, True), (1, False), (1, True), *[(2, False)] * evaluate.ATTEMPTS]
    assert records[0].seed == evaluate.game_seed(SEED, 0) and records[2].seed == evaluate.game_seed(SEED, 1, 1)
    assert len({r.seed for r in records}) == len(records)  # every try has its own seed
    assert "planted engine failure" in records[1].error

    result = summarize(records, evaluate.deck_stats(deck), [o.name for o in evaluate.default_opponents()])
    assert result.games == 2 and len(result.errors) == 1 + evaluate.ATTEMPTS
    # The finished try is the game a clean run of that seed plays.
    clean = evaluate.play_games(deck, [0], SEED, player="random")[0]
    assert records[0] == clean

    names = [o.name for o in evaluate.default_opponents()]
    tallies = [ChunkSums.of(records, len(names))]
    check_failures(0, tallies, 0.5, names)  # one of three games lost: within 50%
    with pytest.raises(EvaluationError, match=r"1 of 3 games of evaluation 4 failed .* game 2 .*planted"):
        check_failures(4, tallies, 0.05, names)


def test_card_plays_count_only_the_decks_own_cards():
    deck = ["CS2_072"] * 2 + ["EX1_134"] * 2
    plays = {"CS2_072": 3, "GAME_005": 1, "EX1_014t": 2, "EX1_134": 1}
    assert evaluate.deck_plays(plays, deck) == (("CS2_072", 3), ("EX1_134", 1))
