"""Players, score functions, determinism and the protocol's evaluation."""
import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest

from workers.engine.game import new_game
from workers.protocol.evaluate import (card_library, evaluate_deck, load_opponents, miracle_rogue,
                              play_games, validate_deck)
from workers.errors import DeckError
from workers.players.play import BeamSearchPlayer, RandomPlayer, play_game
from workers.protocol.results import TARGET_NAMES
from workers.players.scores import NeuralNetScore, aggro_score, control_score, state_features
from .scenario import FILLER, make_game

ROOT = Path(__file__).resolve().parents[2]


def test_random_players_finish_games_deterministically():
    lib = card_library()
    deck = miracle_rogue()
    opp = load_opponents()[0]

    def run(seed):
        g = new_game(lib, [deck, list(opp.cards)], ["ROGUE", opp.hero_class], seed)
        play_game(g, [RandomPlayer(seed + 1), RandomPlayer(seed + 2)])
        return g.winner, g.turn, tuple(p.hero.health for p in g.players)

    assert run(5) == run(5)
    assert len({run(s) for s in range(6)}) > 1


def test_the_random_players_split_moves_are_the_legal_moves():
    """front_moves, then attack_move(k) for k < attack_count(): exactly legal_moves(), in its
    order, at every position of random games of every class (the random player and MCTS's
    playouts draw from the split and build only the attack drawn)."""
    from workers.engine.class_pools import HERO_CLASSES as classes, pool_ids, random_pool_deck
    from workers.engine.rng import derive
    lib, positions, attacks = card_library(), 0, 0
    for i in range(90):
        a, b = classes[i % 9], classes[(i * 4 + 1) % 9]
        g = new_game(lib, [random_pool_deck(derive(7, i, 1), pool_ids(a)),
                           random_pool_deck(derive(7, i, 2), pool_ids(b))], [a, b], i)
        choose = random.Random(i)
        while not g.done:
            moves = g.legal_moves()
            front, n = g.front_moves(), g.attack_count()
            assert front + [g.attack_move(k) for k in range(n)] == moves
            positions, attacks = positions + 1, attacks + n
            g.apply(choose.choice(moves))
    assert positions > 2000 and attacks > 1000


def test_neural_net_score_matches_a_hand_computed_forward_pass():
    spec = json.loads((ROOT / "workers/data/player_strategy_nn.json").read_text())
    w = spec["weights"]
    net = NeuralNetScore(w)
    x = [30, 25, 0, 3, 10, 4, 5, 20, 21, 6, 2, 9, 3, 0, 3]
    # Flat layout: matrices 15x5 (0-74), 5x4 (75-94), 4x1 (95-98), then biases 5, 4, 1.
    h1 = [math.tanh(sum(x[i] * w[i * 5 + j] for i in range(15)) + w[99 + j]) for j in range(5)]
    h2 = [math.tanh(sum(h1[i] * w[75 + i * 4 + j] for i in range(5)) + w[104 + j]) for j in range(4)]
    out = math.tanh(sum(h2[i] * w[95 + i] for i in range(4)) + w[108])
    assert net.forward(x) == pytest.approx(out)


def test_score_functions_prefer_a_healthier_hero_and_handle_game_over():
    g = make_game(board=[FILLER])
    better = g.copy()
    better.players[1].hero.health -= 5
    for score in (aggro_score, control_score, NeuralNetScore.from_file()):
        assert score(better, 0) != score(g, 0)
    assert aggro_score(better, 0) > aggro_score(g, 0)
    assert control_score(better, 0) > control_score(g, 0)
    won = g.copy()
    won.players[1].hero.health = 0
    won.resolve()
    assert won.done and won.winner == 0
    assert aggro_score(won, 0) == float("inf") and control_score(won, 1) == float("-inf")
    # Both heroes dead: each side's score reads it as won (SabberStone checks the enemy first).
    both = won.copy()
    both.players[0].hero.health = -1
    assert aggro_score(both, 0) == aggro_score(both, 1) == float("inf")
    assert len(state_features(g, 0)) == 15


def test_beam_search_takes_lethal():
    g = make_game(board=["CS2_172", "CS2_172"], enemy_board=[FILLER])
    g.players[1].hero.health = 6
    player = BeamSearchPlayer(aggro_score, seed=1)
    player.take_turn(g)
    assert g.done and g.winner == 0


def test_beam_search_plays_a_whole_game_without_illegal_moves():
    lib = card_library()
    opp = load_opponents()[2]
    g = new_game(lib, [miracle_rogue(), list(opp.cards)], ["ROGUE", opp.hero_class], 11)
    play_game(g, [BeamSearchPlayer(NeuralNetScore.from_file(), 1, depth=4, width=2),
                  BeamSearchPlayer(aggro_score, 2, depth=4, width=2)])
    assert g.done


def test_evaluate_deck_follows_the_protocol_split_and_is_deterministic():
    deck = miracle_rogue()
    result = evaluate_deck(deck, games=12, seed=3, player="random")
    assert [b.games for b in result.per_opponent] == [2] * 6
    assert result.games == 12 and not result.errors
    assert -30 <= result.objective <= 30 and result.measures[0] >= 1
    assert len(result.targets()) == len(TARGET_NAMES)
    again = evaluate_deck(deck, games=12, seed=3, player="random")
    assert again.targets() == result.targets()
    assert result.ancillary["num_minions"] + result.ancillary["num_spells"] == 30


def test_chunks_of_games_equal_the_whole():
    deck = miracle_rogue()
    whole = play_games(deck, range(8), 9, player="random")
    parts = play_games(deck, [5, 6, 7], 9, player="random") + play_games(deck, range(5), 9, player="random")
    assert sorted(parts, key=lambda r: r.game_index) == whole


def test_same_seed_same_games_in_another_process():
    code = ("from workers.protocol.evaluate import play_games, miracle_rogue;"
            "print([(r.won, r.own_health, r.enemy_health, r.turns) "
            "for r in play_games(miracle_rogue(), range(3), 21, player='beam', beam_depth=3, beam_width=2)])")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.strip()
    here = [(r.won, r.own_health, r.enemy_health, r.turns)
            for r in play_games(miracle_rogue(), range(3), 21, player="beam", beam_depth=3, beam_width=2)]
    assert out == str(here)


@pytest.mark.parametrize("deck, message", [
    (miracle_rogue()[:29], "a deck must have 30 cards, this one has 29"),
    (["CS2_072"] * 3 + ["CS2_120"] * 27, "3 copies of Backstab"),
    (["NOT_A_CARD"] + ["CS2_120"] * 29, "unknown card id 'NOT_A_CARD'"),
    (["CS2_093"] + ["CS2_120"] * 29, "Consecration (CS2_093) is a PALADIN card"),
    (["EX1_613", "EX1_613"] + ["CS2_120"] * 28, "2 copies of Edwin VanCleef"),
])
def test_bad_decks_are_refused_naming_the_card(deck, message):
    with pytest.raises(DeckError, match=message.replace("(", r"\(").replace(")", r"\)")):
        validate_deck(deck)
    with pytest.raises(DeckError):
        evaluate_deck(deck, games=2, player="random")
