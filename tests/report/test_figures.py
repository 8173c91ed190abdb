"""The report of one short real run: its figures draw exactly the logged rows (dots at the
logged points, no values carried between them), and where a run logged too little for a curve
the page says so in words instead of drawing empty axes."""
import html

import numpy as np

from pipeline.report.build import build_report
from pipeline.report.figures import loss_plot, progress_plot
from pipeline.report.runs import load_runs
from pipeline.state import checkpoint as ckpt

from .conftest import metrics_rows


def lines_by_gid(fig) -> dict[str, tuple[list, list]]:
    return {line.get_gid(): (list(line.get_xdata()), list(line.get_ydata()))
            for ax in fig.axes for line in ax.lines if line.get_gid()}


def test_the_figures_draw_the_logged_rows(short_run, tmp_path):
    rows = metrics_rows(short_run)
    out = build_report([short_run], tmp_path / "report", transfer="none")
    page = (out / "index.html").read_text()
    assert "qd_progress.png" in page and "surrogate_loss.png" in page and "not drawn" not in page
    assert "archive-dsa_me-seed0.html" in page and (out / "archive-dsa_me-seed0.html").is_file()
    # one run: said in the singular, and why there is no test said once, in words
    assert f"1 run of 1 algorithm: {short_run}" in page and "runs of" not in page
    why = "No significance tests: they compare algorithms over repeated trials, and this report holds one run."
    assert page.count("significance tests") == 1 and why in page and "not testable" not in page
    assert (out / "statistics.md").read_text() == why + "\n"
    assert "pipeline.report.paper" not in (out / "table1.md").read_text()  # not a run of experiment=paper

    run = load_runs([short_run])[0]
    lines = lines_by_gid(progress_plot([run]))
    assert set(lines) == {"run:dsa_me:0:qd_score", "run:dsa_me:0:elites"}  # one trial: no mean
    for key in ("qd_score", "elites"):
        xs, ys = lines[f"run:dsa_me:0:{key}"]
        assert xs == [r["evaluations"] for r in rows] and ys == [r[key] for r in rows]
    assert len(rows) >= 3 and xs[-1] == 60  # the initial decks, the lag's mutants, two batches or more

    trained = [r for r in rows if r["outer_iteration"] > 0 and "train_mse_per_target" in r]
    assert len(trained) >= 2
    lines = lines_by_gid(loss_plot([run]))
    for t in range(3):
        xs, ys = lines[f"train:dsa_me:0:{t}"]
        assert xs == [r["outer_iteration"] for r in trained]
        assert np.allclose(ys, [r["train_mse_per_target"][t] for r in trained])
        xs, ys = lines[f"val:dsa_me:0:{t}"]
        assert np.allclose(ys, [r["val_mse_per_target"][t] for r in trained])


def test_too_little_data_is_said_in_words(short_run, tmp_path):
    """The same run cut to its first logged row: no curve can be drawn, and the page says why."""
    cut = tmp_path / "cut"
    cut.mkdir()
    saved = ckpt.load(short_run / "checkpoint.h5")
    first = saved.state["history"][0]
    assert first["outer_iteration"] == 0
    ckpt.save(cut / "checkpoint.h5", config_yaml=saved.config_yaml, identity=saved.identity,
              state={**saved.state, "history": [first]}, arrays=saved.arrays, blobs=saved.blobs)
    out = build_report([cut], tmp_path / "report", transfer="none")
    page = html.unescape((out / "index.html").read_text())
    assert not (out / "qd_progress.png").exists() and not (out / "surrogate_loss.png").exists()
    assert "QD-score and elites: not drawn, every run logged its archive at most once" in page
    assert "Surrogate loss: not drawn, the runs logged the surrogate's losses for at most 0 outer iterations" in page
    assert "archive_heatmaps.png" in page and "ccdf.png" in page  # what there is data for is drawn


def test_table_1_of_a_run_of_experiment_paper_points_to_the_papers_table(short_run, tmp_path):
    import yaml
    paper = tmp_path / "paper"
    paper.mkdir()
    saved = ckpt.load(short_run / "checkpoint.h5")
    config = {**yaml.safe_load(saved.config_yaml), "name": "paper"}
    ckpt.save(paper / "checkpoint.h5", config_yaml=yaml.safe_dump(config), identity=saved.identity,
              state=saved.state, arrays=saved.arrays, blobs=saved.blobs)
    out = build_report([paper], tmp_path / "report", transfer="none")
    table = (out / "table1.md").read_text()
    assert "beside the paper's own Table 1" in table and "make paper-table" in table
    assert "make paper-table" in html.unescape((out / "index.html").read_text())
