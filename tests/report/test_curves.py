"""The curve arithmetic behind the figures, on hand-made numbers."""
import math

import numpy as np
import pytest

from pipeline.report.figures import _progress_range, common_span, logged_points, mean_band


def test_logged_points_are_the_logged_rows_and_nothing_else():
    history = [{"evaluations": 100, "qd_score": 5.0}, {"evaluations": 100, "qd_score": 5.5},
               {"evaluations": 140, "coverage": 0.1}, {"evaluations": 500, "qd_score": 9.0},
               {"evaluations": 300, "qd_score": 7.5}, {"evaluations": 320, "qd_score": float("nan")}]
    evals, values = logged_points(history, "qd_score")
    assert evals.tolist() == [100, 300, 500] and values.tolist() == [5.5, 7.5, 9.0]
    assert [a.tolist() for a in logged_points([], "qd_score")] == [[], []]


def test_common_span_is_linear_between_logged_points_and_never_carried_past_an_end():
    a = logged_points([{"evaluations": 10, "elites": 4}, {"evaluations": 30, "elites": 8}], "elites")
    b = logged_points([{"evaluations": 20, "elites": 10}, {"evaluations": 40, "elites": 30},
                       {"evaluations": 200, "elites": 100}], "elites")
    grid, curves = common_span([a, b])
    assert grid.tolist() == [20, 30]  # from the later start to the earlier end
    assert curves.tolist() == [[6.0, 8.0], [10.0, 20.0]]
    assert common_span([a, (np.zeros(0), np.zeros(0))])[0].tolist() == []


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


def test_runs_logged_at_different_counts_share_their_common_span_and_stay_in_range():
    """Two runs of different lengths, logged at different counts: the mean covers only where
    both have data, so it neither jumps where one ends nor holds a value a run never reached."""
    short = [{"evaluations": 10, "elites": 4}, {"evaluations": 30, "elites": 6}]
    long = [{"evaluations": 25, "elites": 40}, {"evaluations": 50, "elites": 80}, {"evaluations": 200, "elites": 400}]
    grid, curves = common_span([logged_points(h, "elites") for h in (short, long)])
    assert grid.tolist() == [25, 30] and not np.isnan(curves).any()
    mean, lo, hi = mean_band(curves, *_progress_range("elites", 1600, curves))
    assert mean[-1] == pytest.approx((6 + 48) / 2)  # the long run at 30, linear between 25 and 50
    assert (lo >= 0).all() and (hi <= 1600).all() and (lo <= mean).all() and (mean <= hi).all()


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
