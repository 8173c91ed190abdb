"""The curve arithmetic behind the figures, on hand-made numbers."""
import math

import numpy as np
import pytest

from pipeline.report.figures import mean_band, step_curve


def test_step_curve_holds_the_last_value_and_stops_at_the_last_evaluation():
    history = [{"evaluations": 20, "qd_score": 5.0}, {"evaluations": 40, "qd_score": 7.5},
               {"evaluations": 60, "qd_score": 9.0}]
    grid = np.array([0, 19, 20, 39, 40, 59, 60, 61])
    curve = step_curve(history, "qd_score", grid)
    assert curve[:7].tolist() == [0.0, 0.0, 5.0, 5.0, 7.5, 7.5, 9.0]
    assert math.isnan(curve[7])  # an unfinished run says nothing past its last checkpoint


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
