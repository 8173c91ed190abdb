"""The paper's Section 6 from run summaries alone agrees with the same analyses on the runs'
checkpoints: the test error (surrogate.pt, decks.npz, evaluations.csv), and the transfer of the
last surrogate archive (surrogate_elites.npz), whose games are played once and kept
(transfer_games.npz)."""
import numpy as np
import pytest

from pipeline.report import analysis, paper, section6
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


def test_the_transfer_from_summaries_is_the_checkpoints_and_its_games_are_played_once(two_runs, monkeypatch):
    a, _ = two_runs
    (a / section6.TRANSFER_GAMES).unlink(missing_ok=True)  # another test of this module may have played it
    assert section6.transfer(a) is None  # nothing played yet
    from_summaries = section6.play_transfer(a, workers=1, progress=False)
    assert from_summaries == analysis.run_transfer(a / "checkpoint.h5", workers=1)
    assert from_summaries["surrogate_elites"] > 0
    with np.load(a / section6.TRANSFER_GAMES) as kept:
        assert len(kept["targets"]) == from_summaries["surrogate_elites"]
        assert kept["targets"].dtype == np.float64

    def no_games(*args, **kwargs):
        raise AssertionError("played again")
    monkeypatch.setattr(analysis, "play_elites", no_games)
    assert section6.play_transfer(a, workers=1, progress=False) == section6.transfer(a) == from_summaries


def test_games_kept_for_other_elites_are_not_counted(two_runs, tmp_path):
    import shutil
    a, _ = two_runs
    moved = shutil.copytree(a, tmp_path / "run")
    np.savez_compressed(moved / section6.TRANSFER_GAMES, elites=np.array("another archive"), targets=np.zeros((9999, 4)))
    assert section6.transfer(moved) is None


def test_the_paper_table_shows_both_analyses_beside_the_papers(two_runs):
    a, b = two_runs
    section6.play_transfer(a, workers=1, progress=False)
    finished = [{"evaluations": 60}]  # a summary's last log row: the run's budget reached
    trials = [paper.Summary(run, "dsa_me", seed, 60, finished, None) for seed, run in ((1, a), (2, b))]
    text = paper.section6_markdown(trials)
    mse, pairs = section6.mean_pairwise_mse([a, b])
    assert f"mean over {pairs} ordered pairs of trials (seeds 1, 2)" in text
    assert f"| ours | {mse['turns']:.2f} | {mse['hand_size']:.2f} | {mse['health_difference']:.2f} |" in text
    played = section6.transfer(a)
    assert "mean over 1 trial (seed 1;" in text
    assert (f"| ours | {played['retained_share'] * 100:.2f} | {played['same_cell_share'] * 100:.2f} | "
            f"{played['mean_manhattan_distance']:.2f} |") in text
    assert "| paper | 44.00 | 3.00 | 2.45 |" in text


def test_trials_under_way_are_left_out_of_section6(two_runs):
    a, b = two_runs
    under_way = [paper.Summary(run, "dsa_me", seed, 100, [{"evaluations": 60}], None) for seed, run in ((1, a), (2, b))]
    text = paper.section6_markdown(under_way)
    assert "0 of 0 here do" in text and "No finished DSA-ME trial" in text
