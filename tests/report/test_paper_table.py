"""Our runs beside the paper's Table 1 from their summaries alone (config.yaml, metrics.jsonl):
the paper's numbers, the ratio of ours to theirs and the 3-SE flag, per algorithm; runs of
another scale or space are refused. The configs are the real `experiment=paper` ones; the
final metrics lines are set here so that the arithmetic can be checked."""
import json
import math
import subprocess
import sys

import pytest
from omegaconf import OmegaConf

from pipeline.report import paper

from ..pipeline.helpers import ROOT


def _summary(folder, algorithm, seed, finals, *overrides):
    """A run folder's summary: its resolved config, and one metrics line per (evaluations, qd_score)."""
    from hydra import compose as hydra_compose, initialize_config_dir
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        cfg = hydra_compose("config", overrides=["experiment=paper", f"algorithm={algorithm}", f"seed={seed}", *overrides])
    folder.mkdir(parents=True)
    (folder / "config.yaml").write_text(OmegaConf.to_yaml(cfg, resolve=True))
    (folder / "metrics.jsonl").write_text("".join(json.dumps(line) + "\n" for line in finals))
    return folder


def _final(evaluations, qd_score, max_fitness=20.0, max_win_rate=0.97, coverage=0.30):
    return {"evaluations": evaluations, "qd_score": qd_score, "max_fitness": max_fitness,
            "max_win_rate": max_win_rate, "coverage": coverage}


def test_ours_beside_the_papers_with_the_ratio_and_the_3_se_flag(tmp_path):
    root = tmp_path / "paper"
    _summary(root / "dsa_me-seed0", "dsa_me", 0, [_final(100, 20.0), _final(10_000, 330.0, 22.0, 0.984, 0.31)])
    _summary(root / "dsa_me-seed1", "dsa_me", 1, [_final(10_000, 340.0, 22.4, 0.984, 0.33)])
    _summary(root / "map_elites-seed0", "map_elites", 0, [_final(5_000, 100.0, 14.0, 0.85, 0.10)])
    rows = {r["algorithm"]: r for r in paper.comparison_rows(paper.find_summaries([root]))}
    dsa = rows["dsa_me"]
    assert dsa["trials"] == 2 and dsa["finished"] == 2
    assert dsa["qd_score"]["ours"] == pytest.approx((335.0, 5.0, 5.0 * 2 ** 0.5))  # mean, SE, per-trial SD
    # Welch's test against the paper's 5 trials (338.52 +- 5.86), by its textbook formula
    v1, v2 = 50.0 / 2, (5.86 * 5 ** 0.5) ** 2 / 5
    t = (335.0 - 338.52) / (v1 + v2) ** 0.5
    dof = (v1 + v2) ** 2 / (v1 ** 2 / 1 + v2 ** 2 / 4)
    from scipy.stats import t as student
    assert dsa["qd_score"]["p"] == pytest.approx(2 * student.sf(abs(t), dof))
    assert dsa["qd_score"]["paper_sd"] == pytest.approx(5.86 * 5 ** 0.5)
    assert dsa["qd_score"]["ratio"] == pytest.approx(335.0 / 338.52) and dsa["qd_score"]["within"]
    assert dsa["coverage"]["ours"][0] == pytest.approx(32.0) and dsa["coverage"]["within"]  # percent
    assert dsa["max_fitness"]["ours"][0] == pytest.approx(22.2) and dsa["max_fitness"]["within"]
    me = rows["map_elites"]
    assert me["finished"] == 0 and me["qd_score"]["ratio"] == pytest.approx(100 / 136.89) and not me["qd_score"]["within"]
    assert math.isnan(me["qd_score"]["p"])  # one trial: no test
    done = subprocess.run([sys.executable, "-m", "pipeline.report.paper", str(root), "--out", str(tmp_path / "out")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert list(rows) == ["map_elites", "dsa_me"]  # the paper's order
    table = (tmp_path / "out" / "paper_table.md").read_text()
    assert table == done.stdout and "GECCO 2022" in table and "1 of our runs are unfinished" in table
    assert "| | ratio ours / paper (outside mean +- 3 SE: *) | 0.89 | 0.94 * | 0.70 * | 0.73 * |" in table
    assert "| | per-trial SD, ours / paper | 0.28 / 0.36 | 0.00 / 0.22 | 1.41 / 1.59 | 7.07 / 13.10 |" in table
    assert "| | per-trial SD, ours / paper | - / 1.39 |" in table  # MAP-Elites: one trial
    figure = tmp_path / "out" / "qd_score_vs_paper.png"
    assert figure.read_bytes()[:4] == b"\x89PNG"
    # again: nothing changed, nothing written (a tracked folder stays clean)
    written = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "out").iterdir()}
    again = subprocess.run([sys.executable, "-m", "pipeline.report.paper", str(root), "--out", str(tmp_path / "out")],
                           cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0 and again.stdout == table
    assert {p.name: p.stat().st_mtime_ns for p in (tmp_path / "out").iterdir()} == written


def test_runs_without_a_batch_or_under_way_beside_a_finished_one_are_named_not_counted(tmp_path):
    _summary(tmp_path / "dsa_me-seed0", "dsa_me", 0, [_final(10_000, 330.0)])
    _summary(tmp_path / "dsa_me-seed1", "dsa_me", 1, [])
    _summary(tmp_path / "dsa_me-seed2", "dsa_me", 2, [_final(100, 20.0)])
    table = paper.table_markdown(paper.find_summaries([tmp_path]))
    assert "Not counted, no batch yet: dsa_me seed 1." in table and "ours: 1 trial (seed 0)" in table
    assert "Under way, not counted beside finished trials: dsa_me seed 2 (100 evaluations)." in table


@pytest.mark.parametrize("override, said", [("opponents.games=24", "of 24 games"),
                                            ("algorithm.budget=500", "a run of 500 evaluations"),
                                            ("archive.dims=[20,20]", "not the paper's")])
def test_a_run_of_another_scale_or_space_is_refused(tmp_path, override, said):
    _summary(tmp_path / "run", "dsa_me", 0, [_final(100, 20.0)], override)
    with pytest.raises(paper.ReportError, match=said):
        paper.find_summaries([tmp_path])


def _evaluations(folder, rows):
    """evaluations.csv as a run writes it: (health difference, win rate, turns, hand size) per row."""
    lines = ["eval_id,outer_iteration,health_difference,win_rate,turns,hand_size"]
    lines += [f"{i},0,{f},{w},{t},{h}" for i, (f, w, t, h) in enumerate(rows)]
    (folder / "evaluations.csv").write_text("\n".join(lines) + "\n")


def test_the_second_table_counts_the_paper_reference_codes_cells(tmp_path):
    """Two evaluations in neighbouring even cells (turns 14.7 and 14.85) share EvoStone2's cell 35 (its
    cells are wider), so on the paper's cells one elite is left; a third row past the log's last
    line is not counted; a run without evaluations.csv is named."""
    root = tmp_path / "paper"
    run = _summary(root / "dsa_me-seed0", "dsa_me", 0, [_final(2, 1.0, 6.0, 0.7, 2 / 1600)])
    _evaluations(run, [(6.0, 0.7, 14.7, 4.0), (0.0, 0.5, 14.85, 4.0), (30.0, 1.0, 8.0, 2.0)])
    _summary(root / "map_elites-seed0", "map_elites", 0, [_final(10_000, 100.0)])
    summaries = paper.find_summaries([root])
    dsa = next(s for s in summaries if s.algorithm == "dsa_me")
    assert dsa.evostone2()["elites"] == 1 and dsa.evostone2()["qd_score"] == pytest.approx(36 / 60)
    assert dsa.evostone2()["max_win_rate"] == pytest.approx(0.7)
    assert dsa.evostone2(1)["qd_score"] == pytest.approx(36 / 60) and dsa.evostone2(0)["elites"] == 0
    table = paper.table_markdown(summaries)
    ours, theirs = table.split("## On the paper's cells")
    assert "| DSA-ME | ours: 1 trial (seed 0), 2 evaluations | 6.00 | 70.00 | 0.12 | 1.00 |" in ours
    assert "| DSA-ME | ours: 1 trial (seed 0), 2 evaluations | 6.00 | 70.00 | 0.06 | 0.60 |" in theirs
    assert "MAP-Elites" not in theirs.split("\n\nWithout")[0]
    assert "Without evaluations.csv, so not in this table: map_elites seed 0." in theirs


def test_an_evaluations_file_shorter_than_the_log_is_refused(tmp_path):
    run = _summary(tmp_path / "run", "dsa_me", 0, [_final(3, 1.0)])
    _evaluations(run, [(6.0, 0.7, 14.7, 4.0), (0.0, 0.5, 14.95, 4.0)])
    with pytest.raises(paper.ReportError, match="holds 2 whole rows, not the 3"):
        paper.find_summaries([tmp_path])


def test_the_report_on_summaries_without_checkpoints_points_to_the_paper_table(tmp_path):
    from pipeline.report.runs import find_run_dirs
    _summary(tmp_path / "paper" / "dsa_me-seed0", "dsa_me", 0, [_final(10_000, 330.0)])
    with pytest.raises(paper.ReportError, match="make paper-table"):
        find_run_dirs([tmp_path / "paper"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(paper.ReportError, match="holds no run with a checkpoint"):
        find_run_dirs([tmp_path / "empty"])
