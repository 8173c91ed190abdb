"""The evaluation client on a real LocalCluster with the built-in engine (random players)."""
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from distributed import Client, LocalCluster

from pipeline.cluster.evaluation import EvaluationClient, evaluation_seed
from pipeline.run_errors import EvaluationError
from workers.protocol.evaluate import evaluate_deck

GAMES = 12


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with Client(cluster) as c:
            yield c


def _evaluator(client, space, games_per_task):
    return EvaluationClient(client, space, run_seed=11, games=GAMES, games_per_task=games_per_task,
                            player="random", strategy="nn", beam_depth=13, beam_width=4)


def test_results_match_direct_evaluation_in_submission_order(client, space):
    decks = space.random_decks(np.random.default_rng(0), 6)
    ids = np.array([5, 3, 9, 0, 1, 2])
    results = _evaluator(client, space, games_per_task=5).evaluate(decks, ids)
    for deck, eid, result in zip(decks, ids, results):
        direct = evaluate_deck(space.decode(deck), games=GAMES, seed=evaluation_seed(11, eid), player="random")
        assert result.targets() == direct.targets()
        assert result.games == GAMES


def test_chunking_does_not_change_results(client, space):
    decks = space.random_decks(np.random.default_rng(1), 3)
    a = _evaluator(client, space, games_per_task=1).evaluate(decks, np.arange(3))
    b = _evaluator(client, space, games_per_task=GAMES).evaluate(decks, np.arange(3))
    assert [r.targets() for r in a] == [r.targets() for r in b]


def test_seeds_depend_only_on_run_seed_and_evaluation_id():
    assert evaluation_seed(1, 2) == evaluation_seed(1, 2)
    assert len({evaluation_seed(s, e) for s in range(5) for e in range(200)}) == 1000


def test_tasks_lost_with_a_killed_worker_run_again(space):
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with Client(cluster) as c:
            evaluator = EvaluationClient(c, space, run_seed=3, games=60, games_per_task=2, player="random",
                                         strategy="nn", beam_depth=13, beam_width=4)
            decks = space.random_decks(np.random.default_rng(2), 8)
            pids = list(c.run(os.getpid).values())
            killer = threading.Timer(0.3, lambda: os.kill(pids[0], 9))
            killer.start()
            started = time.time()
            results = evaluator.evaluate(decks, np.arange(8))
            killer.join()
            assert time.time() - started > 0.3, "the evaluation ended before the worker was killed"
    expected = [evaluate_deck(space.decode(d), games=60, seed=evaluation_seed(3, i), player="random").targets()
                for i, d in enumerate(decks)]
    assert [r.targets() for r in results] == expected


def test_ready_hands_back_each_deck_in_order_as_its_games_arrive(client, space):
    """ready() returns once the next deck's games are in, with every deck after it that is
    complete too, never one out of order; the parts are those evaluate() gives at once."""
    decks = space.random_decks(np.random.default_rng(3), 8)
    ids = np.arange(20, 28)
    batch = _evaluator(client, space, games_per_task=2).submit(decks, ids)
    parts = []
    while batch.waiting:
        parts.append(batch.ready(most=5))
        assert 1 <= len(parts[-1]) <= 5
    whole = _evaluator(client, space, games_per_task=2).evaluate(decks, ids)
    assert [r.targets() for part in parts for r in part] == [r.targets() for r in whole]
    assert len(parts) > 2, "the decks came back only in whole parts of `most`"
    assert batch.timing is not None


def test_a_batch_with_nothing_left_hands_back_nothing_at_once(client, space):
    """Once every deck is handed back, ready() and results() return [] without waiting for tasks
    that will not come, and the batch's timing is not taken twice."""
    evaluator = _evaluator(client, space, games_per_task=GAMES)
    batch = evaluator.submit(space.random_decks(np.random.default_rng(4), 2), np.arange(2))
    assert len(batch.results()) == 2 and not batch.waiting
    with ThreadPoolExecutor(1) as pool:  # a wait that never ends fails here, not at the suite's limit
        assert pool.submit(batch.ready, 3).result(timeout=30) == []
        assert pool.submit(batch.results).result(timeout=30) == []
    assert evaluator.timings == [batch.timing] and evaluator.unfinished == []


def test_decks_whose_games_failed_are_not_handed_back_by_the_error(client, space):
    """Every game of the second deck fails in the engine (a score it does not know, for that
    deck alone): results() raises for it and leaves the batch as it was, both decks waiting,
    so the same call raises again and the first deck can still be handed back alone."""
    evaluator = EvaluationClient(client, space, run_seed=5, games=4, games_per_task=2, player="beam",
                                 strategy="nn", beam_depth=2, beam_width=1)
    decks = space.random_decks(np.random.default_rng(5), 2)
    batch = evaluator.submit(decks, np.array([40, 41]), strategies=["nn", "no-such-score"])
    for _ in range(2):
        with pytest.raises(EvaluationError, match="4 of 4 games of evaluation 41 failed .*no-such-score"):
            batch.results()
        assert (batch.returned, batch.waiting, batch.timing) == (0, 2, None) and evaluator.unfinished == [batch]
    (first,) = batch.ready(most=1)
    assert batch.returned == 1 and first.games == 4
