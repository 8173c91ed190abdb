"""The curve arithmetic behind the figures, on hand-made numbers."""
import math

import numpy as np
import pytest

from pipeline.report.figures import _progress_range, mean_band, step_curve


def test_step_curve_holds_the_last_value_and_carries_it_past_the_run_end():
    history = [{"evaluations": 20, "qd_score": 5.0}, {"evaluations": 40, "qd_score": 7.5},
               {"evaluations": 60, "qd_score": 9.0}]
    grid = np.array([0, 19, 20, 39, 40, 59, 60, 61, 100])
    curve = step_curve(history, "qd_score", grid)
    assert curve.tolist() == [0.0, 0.0, 5.0, 5.0, 7.5, 7.5, 9.0, 9.0, 9.0]
    assert step_curve([], "qd_score", grid).tolist() == [0.0] * len(grid)


def test_mean_band_is_a_student_t_interval():
    curves = np.array([[1.0, 2.0, np.nan], [3.0, 4.0, 5.0], [5.0, 9.0, 7.0]])
    mean, lo, hi = mean_band(curves)
    assert mean.tolist() == pytest.approx([3.0, 5.0, 6.0])
    half = 4.302652729911275 * 2.0 / math.sqrt(3)  # t(0.975, 2) * sd / sqrt(n) at the first point
    assert (hi[0] - mean[0]) == pytest.approx(half) and (mean[0] - lo[0]) == pytest.approx(half)
    half_last = 12.706204736174698 * math.sqrt(2) / math.sqrt(2)  # two trials reach the last point
    assert hi[2] - mean[2] == pytest.approx(half_last)
    single = mean_band(np.array([[1.0, 2.0]]))
    assert single[0].tolist() == [1.0, 2.0] and np.isnan(single[1]).all()  # no band from one trial


def test_runs_logged_at_different_counts_share_one_grid_and_stay_in_range():
    """Two runs of different lengths, logged at different evaluation counts: after the short
    run ends it still counts with its final value, so the mean does not jump to the long run
    alone and the band stays within what a count of elites can be."""
    short = [{"evaluations": 10, "elites": 4}, {"evaluations": 30, "elites": 6}]
    long = [{"evaluations": 25, "elites": 40}, {"evaluations": 50, "elites": 80}, {"evaluations": 200, "elites": 400}]
    grid = np.linspace(0, 200, 41)
    curves = np.array([step_curve(h, "elites", grid) for h in (short, long)])
    assert not np.isnan(curves).any()
    mean, lo, hi = mean_band(curves, *_progress_range("elites", 1600, curves))
    assert mean[-1] == pytest.approx((6 + 400) / 2)  # the short run's 6 elites, carried forward
    assert (lo >= 0).all() and (hi <= 1600).all() and (lo <= mean).all() and (mean <= hi).all()
    unclipped = mean_band(curves)[1]
    assert unclipped.min() < -400  # what the figure showed before clipping


def test_percentages_are_clipped_to_0_and_100():
    curves = np.array([[0.0, 50.0, 100.0], [2.0, 90.0, 100.0], [0.0, 99.0, 96.0]])
    mean, lo, hi = mean_band(curves, 0.0, 100.0)
    assert (lo >= 0).all() and (hi <= 100).all()
    assert lo[0] == 0.0 and hi[2] == 100.0  # the raw band crosses both ends here
    raw = mean_band(curves)
    assert raw[1][0] < 0 and raw[2][2] > 100


def test_qd_score_band_is_not_below_zero_unless_a_run_was():
    curves = np.array([[0.0, 1.0], [0.0, 30.0]])
    low, high = _progress_range("qd_score", 1600, curves)
    assert (low, high) == (0.0, np.inf)
    assert _progress_range("qd_score", 1600, np.array([[-2.0, 1.0]]))[0] == -2.0
