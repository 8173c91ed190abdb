"""The paper's reference map's cells (EvoStone2's FixedFeatureMap rule), and the archive that
a run's evaluations build on them."""
import numpy as np
import pytest

from pipeline.report.evostone2_cells import evostone2_index, evostone2_metrics

TURNS, HAND = (5.0, 15.0), (1.0, 7.0)


def test_each_range_is_split_by_its_width_plus_one_and_the_ends_are_clipped():
    turns = evostone2_index([4.0, 5.0, 5.3, 10.0, 14.99, 15.0, 16.0], *TURNS, 40)
    assert turns.tolist() == [0, 0, 1, 18, 36, 39, 39]  # an even split would put 10.0 in cell 20
    hand = evostone2_index([1.2, 4.0, 6.99, 7.0], *HAND, 40)
    assert hand.tolist() == [1, 17, 34, 39]


def test_only_38_by_36_of_the_cells_can_be_filled():
    assert len(set(evostone2_index(np.linspace(0, 20, 100_001), *TURNS, 40).tolist())) == 38
    assert len(set(evostone2_index(np.linspace(0, 10, 100_001), *HAND, 40).tolist())) == 36


def test_an_elite_is_replaced_only_by_a_strictly_higher_objective():
    # three evaluations in one cell (turns 10, hand 4), one in another
    objective = np.array([5.0, 5.0, 3.0, -30.0])
    win_rate = np.array([0.6, 0.9, 0.95, 0.1])
    measures = np.array([[10.0, 4.0], [10.05, 4.01], [10.1, 4.02], [15.0, 7.0]])
    numbers = evostone2_metrics(objective, win_rate, measures, [40, 40], [TURNS, HAND], (-30.0, 30.0))
    assert numbers["elites"] == 2 and numbers["coverage"] == pytest.approx(2 / 1600)
    assert numbers["qd_score"] == pytest.approx((5 + 30) / 60)  # the first 5.0 kept, and 0 for -30
    assert numbers["max_fitness"] == 5.0
    assert numbers["max_win_rate"] == pytest.approx(0.6)  # the elites' win rates, not the best seen
