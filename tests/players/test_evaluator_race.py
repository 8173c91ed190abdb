"""tools.evaluator_race: EvoStone2's shared scoring object emulated. At rate 0 it plays the
protocol's own games; a raced score reads another game's state from a point of Rate() on."""
import pytest

from tools import evaluator_race
from tools.evaluator_race import READS, RacedScore, play_deck
from workers.engine.game import new_game
from workers.players.scores import NeuralNetScore, state_features
from workers.protocol.evaluate import card_library, default_opponents, evaluate_deck, miracle_rogue


def test_at_rate_zero_the_games_are_the_protocols():
    deck = miracle_rogue()
    protocol = evaluate_deck(deck, games=6, seed=3)
    unraced = play_deck(deck, 0.0, 6, 3)
    assert unraced["raced"] == 0 and unraced["scores"] > 0
    assert unraced["health_difference"] == protocol.objective
    assert (unraced["turns"], unraced["hand_size"]) == protocol.measures
    assert unraced["win_rate"] == protocol.ancillary["win_rate"]


def test_a_raced_score_reads_the_other_games_state_from_a_random_read_on():
    opponent = default_opponents()[0]
    g = new_game(card_library(), [miracle_rogue(), list(opponent.cards)], ["ROGUE", opponent.hero_class], 7)
    own = (g.players[1].hero.health, g.players[0].hero.health) + state_features(g, 0)
    foreign = (25, 3, 3, 25, 4, 0, 9, 2, 7, 14, 12, 11, 6, 15, 9, 4, 2)  # another game, further on
    assert len(own) == len(foreign) == READS
    score = RacedScore(NeuralNetScore.from_file(), rate=1.0, seed=0)
    assert score(g, 0) == score.rate_reads(own)  # nothing foreign yet: the first game never races
    score.this_game = [foreign]
    score.end_game()
    assert score.foreign == [foreign] and score.this_game == []
    mixes = {score.rate_reads(own[:k] + foreign[k:]) for k in range(READS)}
    values = [score(g, 0) for _ in range(300)]
    assert score.raced == 300
    assert set(values) <= mixes
    assert score.rate_reads(foreign) in values and len(set(values)) > 3
    won_elsewhere = (0,) + foreign[1:]  # the other game's opponent is dead: the guard says won
    assert score.rate_reads(won_elsewhere) == float("inf")


def test_the_race_costs_the_evaluated_player_games():
    deck = miracle_rogue()
    assert play_deck(deck, 0.3, 12, 5)["health_difference"] < play_deck(deck, 0.0, 12, 5)["health_difference"]


def test_a_folder_without_decks_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        evaluator_race.main([str(tmp_path)])
    assert stop.value.code != 0
    assert "has no decks.npz" in capsys.readouterr().err
