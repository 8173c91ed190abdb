"""The paper's Section 6 test error from run summaries alone (surrogate.pt, decks.npz,
evaluations.csv) agrees with the same analysis on the runs' checkpoints."""
import pytest

from pipeline.report import section6
from pipeline.report.analysis import surrogate_test_mse

from ..pipeline.helpers import run_pipeline


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("section6")
    for seed in (1, 2):
        run_pipeline(f"seed={seed}", run_dir=root / f"seed{seed}")
    return root / "seed1", root / "seed2"


def test_summary_mse_is_the_checkpoints(two_runs):
    a, b = two_runs
    from_summaries = section6.test_mse(a, b)
    from_checkpoints = surrogate_test_mse(a / "checkpoint.h5", b / "checkpoint.h5")
    assert set(from_summaries) == set(from_checkpoints) == {"health_difference", "turns", "hand_size"}
    for name, value in from_checkpoints.items():  # evaluations.csv keeps 6 significant digits
        assert from_summaries[name] == pytest.approx(value, rel=1e-4)
    mean, pairs = section6.mean_pairwise_mse([a, b])
    assert pairs == 2
    assert mean["turns"] == pytest.approx((from_summaries["turns"] + section6.test_mse(b, a)["turns"]) / 2)


def test_a_run_without_its_surrogate_is_left_out(two_runs, tmp_path):
    a, _ = two_runs
    assert section6.test_mse(tmp_path, a) is None and section6.mean_pairwise_mse([a, tmp_path]) == ({}, 0)
