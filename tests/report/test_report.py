"""`make report` on a small sweep (conftest.py): every part of the report, Table 1 checked
against numbers computed here from the checkpoints with h5py, the page checked in Chromium."""
import csv
import json
import math
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import h5py
import numpy as np
import pytest
import yaml

from pipeline.state import checkpoint as ckpt

from .browser import inspect_page
from .conftest import SEEDS, SWEPT, UNFINISHED

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ("qd_progress", "ccdf", "archive_heatmaps")  # and surrogate_loss where a run logged 2 iterations


def drawn_figures(sweep: Path) -> tuple[str, ...]:
    """The figures the sweep's logs give curves for: the loss figure needs a run with losses
    logged for two outer iterations (pipeline.report.figures.MIN_LOSS_POINTS)."""
    most = max(sum(1 for r in (json.loads(ln) for ln in p.read_text().splitlines())
                   if r.get("outer_iteration", 0) > 0 and "train_sse_per_example" in r)
               for p in sweep.rglob("metrics.jsonl"))
    return FIGURES + (("surrogate_loss",) if most >= 2 else ())


def report_cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "pipeline.report", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def independent_table(sweep: Path) -> dict[str, dict]:
    """Per algorithm, from the HDF5 files directly: the four numbers of each trial."""
    per_algo: dict[str, list[dict]] = {}
    for path in sorted(sweep.rglob("checkpoint.h5")):
        with h5py.File(path, "r") as f:
            cfg = yaml.safe_load(f.attrs["config"])
            f_obj = f["real_archive/objective"][()]
            win = f["real_archive/targets"][()][:, 3]
            n_evals = len(f["evaluations/decks"])
        cells = cfg["archive"]["dims"][0] * cfg["archive"]["dims"][1]
        per_algo.setdefault(cfg["algorithm"]["name"], []).append({
            "max_fitness": f_obj.max(), "max_win_rate": 100 * win.max(),
            "coverage": 100 * len(f_obj) / cells, "qd_score": np.sum((f_obj + 30) / 60),
            "evaluations": n_evals})
    return per_algo


def read_csv(path: Path) -> list[dict]:
    with open(path) as f:
        return list(csv.DictReader(f))


def test_every_part_is_written(report, sweep):
    for name in ("table1.csv", "table1.md", "statistics.csv", "statistics.md", "surrogate_mse.csv",
                 "surrogate_mse.md", "surrogate_transfer.csv", "surrogate_transfer.md", "decks.md",
                 "decks.json", "index.html"):
        assert (report / name).stat().st_size > 0, name
    for stem in drawn_figures(sweep):
        assert (report / f"{stem}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (report / f"{stem}.pdf").read_bytes()[:5] == b"%PDF-"
    if "surrogate_loss" not in drawn_figures(sweep):
        assert "Surrogate loss: not drawn" in (report / "index.html").read_text()
    for run in {p.parent.resolve() for p in sweep.rglob("checkpoint.h5")}:  # each run's archive page
        seed = yaml.safe_load((run / "config.yaml").read_text())["seed"]
        algorithm = yaml.safe_load((run / "config.yaml").read_text())["algorithm"]["name"]
        assert (report / f"archive-{algorithm}-seed{seed}.html").stat().st_size > 0
    assert not list(report.parent.glob(".report.tmp-*"))  # the staging folder is gone


def test_table1_matches_the_checkpoints(report, sweep):
    expected = independent_table(sweep)
    rows = {r["algorithm"]: r for r in read_csv(report / "table1.csv")}
    assert set(rows) == set(expected) == {*SWEPT, "random_search"}
    for algorithm, trials in expected.items():
        row = rows[algorithm]
        assert int(row["trials"]) == len(trials)
        assert int(row["evaluations_min"]) == min(t["evaluations"] for t in trials)
        assert int(row["evaluations_max"]) == max(t["evaluations"] for t in trials)
        for key in ("max_fitness", "max_win_rate", "coverage", "qd_score"):
            values = [float(t[key]) for t in trials]
            assert float(row[f"{key}_mean"]) == pytest.approx(statistics.fmean(values), rel=1e-5)
            se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.nan
            if math.isnan(se):
                assert math.isnan(float(row[f"{key}_se"]))
            else:
                assert float(row[f"{key}_se"]) == pytest.approx(se, rel=1e-5, abs=1e-9)
    # The Markdown table holds the same numbers in the paper's "mean +- se" form.
    md = (report / "table1.md").read_text()
    dsa = [line for line in md.splitlines() if line.startswith("| DSA-ME |")][0]
    qd = [float(t["qd_score"]) for t in expected["dsa_me"]]
    assert f"{statistics.fmean(qd):.2f} +- {statistics.stdev(qd) / math.sqrt(len(qd)):.2f}" in dsa


def test_unfinished_run_counts_with_its_last_checkpoint(report, sweep):
    algorithm, seed = UNFINISHED
    with h5py.File(sweep / f"{algorithm}-seed{seed}" / "checkpoint.h5", "r") as f:
        done = len(f["evaluations/decks"])
    assert 0 < done < 2000
    row = {r["algorithm"]: r for r in read_csv(report / "table1.csv")}[algorithm]
    assert int(row["trials"]) == len(SEEDS) + 1
    assert done in (int(row["evaluations_min"]), int(row["evaluations_max"]))
    assert int(row["finished"]) == len(SEEDS)
    assert "1 of them unfinished" in (report / "index.html").read_text()


def test_statistics(report):
    rows = read_csv(report / "statistics.csv")
    tests = {r["test"] for r in rows}
    assert tests == {"one-way ANOVA", "two-way ANOVA", "pairwise Welch t-test"}
    one_way = {r["metric"]: r for r in rows if r["test"] == "one-way ANOVA"}
    assert set(one_way) == {"max_fitness", "max_win_rate", "coverage", "qd_score"}
    two_way = [r for r in rows if r["test"] == "two-way ANOVA"]
    assert len(two_way) == 12 and any("interaction" in r["hypothesis"] for r in two_way)
    pairwise = [r for r in rows if r["test"] == "pairwise Welch t-test"]
    k = len(SWEPT) + 1
    assert len(pairwise) == 4 * k * (k - 1) // 2
    for metric in one_way:
        group = [r for r in pairwise if r["metric"] == metric and r["p_value"] != "nan"]
        for r in group:  # Bonferroni over the testable pairs of the metric
            assert float(r["p_adjusted"]) == pytest.approx(min(1.0, float(r["p_value"]) * len(group)), rel=1e-4)
    for r in rows:
        assert r["verdict"] and ("significant" in r["verdict"] or "not testable" in r["verdict"]
                                 or "differ" in r["verdict"] or "higher" in r["verdict"])


def test_one_way_anova_f_statistic(report, sweep):
    """F = between-group mean square / within-group mean square, computed here by hand."""
    groups = [[t["qd_score"] for t in ts] for ts in independent_table(sweep).values()]
    allv = np.concatenate(groups)
    k, n = len(groups), len(allv)
    between = sum(len(g) * (np.mean(g) - allv.mean()) ** 2 for g in groups) / (k - 1)
    within = sum(((np.asarray(g) - np.mean(g)) ** 2).sum() for g in groups) / (n - k)
    row = [r for r in read_csv(report / "statistics.csv") if r["test"] == "one-way ANOVA" and r["metric"] == "qd_score"][0]
    assert float(row["statistic"]) == pytest.approx(between / within, rel=1e-4)


def test_surrogate_analyses(report, sweep):
    from pipeline.report.analysis import surrogate_test_mse
    runs = sorted(p.parent for p in sweep.rglob("checkpoint.h5"))
    with_model = [r for r in runs if "dsa_me" in r.name]
    mse = read_csv(report / "surrogate_mse.csv")
    assert len(mse) == len(with_model) * (len(runs) - 1)
    row = mse[0]
    direct = surrogate_test_mse(Path(row["model_run"]) / "checkpoint.h5", Path(row["data_run"]) / "checkpoint.h5")
    for target, value in direct.items():
        assert float(row[target]) == pytest.approx(value, rel=1e-5)
    transfer = read_csv(report / "surrogate_transfer.csv")
    assert {r["algorithm"] for r in transfer} == {a for a in SWEPT if "dsa_me" in a}
    for r in transfer:
        assert 0 <= float(r["retained_share"]) <= 1 and 0 <= float(r["same_cell_share"]) <= 1
        assert float(r["mean_manhattan_distance"]) >= 0 and int(r["surrogate_elites"]) > 0


def test_decks(report, sweep):
    from pipeline.deck_space import DeckSpace
    space = DeckSpace.from_pool_file()
    decks = json.loads((report / "decks.json").read_text())
    assert len(decks) == len(list(sweep.rglob("checkpoint.h5")))
    for run in decks:
        with h5py.File(Path(run["run"]) / "checkpoint.h5", "r") as f:
            objective = f["real_archive/objective"][()]
            solutions = f["real_archive/solution"][()]
        best = run["best"][0]
        assert best["objective"] == pytest.approx(objective.max())
        deck = space.from_deck_code(best["deck_code"])
        assert np.array_equal(deck, solutions[np.argmax(objective)])
        assert len(run["best"]) == min(10, len(objective))
        assert 0 <= best["win_rate"] <= 1 and best["cards"]
        assert max(d["objective"] for d in run["regions"]) == pytest.approx(objective.max())
    assert "deck code" in (report / "decks.md").read_text()


def test_page_in_chromium(chromium, report, sweep):  # chromium first: installs while the sweep runs
    shot = report / "screenshot.png"
    seen = inspect_page(chromium, report / "index.html", shot)
    assert seen["errors"] == []
    assert sorted(i["src"] for i in seen["images"]) == sorted(f"{s}.png" for s in drawn_figures(sweep))
    assert all(i["complete"] and i["width"] > 0 for i in seen["images"]), seen["images"]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 50_000
    html = (report / "index.html").read_text()
    assert "Table 1" in html and "two-way ANOVA" in html and "Surrogate-versus-real" in html


def test_mixed_configs_are_refused(sweep, tmp_path):
    """Runs of another game count or deck size cannot share a table; nothing is written."""
    for key, value in (("opponents.games", 8), ("deck_space.deck_size", 20)):
        other = tmp_path / key / "other-run"
        shutil.copytree(sweep / "dsa_me-seed0", other)
        saved = ckpt.load(other / "checkpoint.h5")  # rewritten whole, so its checksums hold
        cfg = yaml.safe_load(saved.config_yaml)
        section, name = key.split(".")
        cfg[section][name] = value
        ckpt.save(other / "checkpoint.h5", config_yaml=yaml.safe_dump(cfg), identity=saved.identity,
                  state=saved.state, arrays=saved.arrays, blobs=saved.blobs)
        out = tmp_path / key / "report"
        done = report_cli(sweep, other, "--out", out, "--transfer", "none")
        assert done.returncode == 2
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: runs are not comparable") and key in lines[0]
        assert not out.exists() and not list(out.parent.glob(".report.tmp-*"))


def test_bad_inputs(sweep, tmp_path):
    out = tmp_path / "report"
    empty = tmp_path / "empty"
    empty.mkdir()
    (tmp_path / "file.txt").write_text("x")
    dup = tmp_path / "dup"
    shutil.copytree(sweep / "dsa_me-seed0", dup / "again")
    cases = [([tmp_path / "missing"], "does not exist"), ([empty], "holds no run"),
             ([tmp_path / "file.txt"], "is not a directory"),
             ([sweep / "dsa_me-seed0", dup], "two runs of dsa_me with seed 0")]
    for args, message in cases:
        done = report_cli(*args, "--out", out, "--transfer", "none")
        assert done.returncode == 2 and message in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
        assert not out.exists()
    precious = tmp_path / "precious"  # an existing folder that is not a report is never replaced
    precious.mkdir()
    (precious / "notes.txt").write_text("keep")
    done = report_cli(sweep / "dsa_me-seed0", "--out", precious, "--transfer", "none")
    assert done.returncode == 2 and "is not a report folder" in done.stderr
    assert [p.name for p in precious.iterdir()] == ["notes.txt"]
    corrupt = tmp_path / "corrupt"
    corrupt.mkdir()
    (corrupt / "checkpoint.h5").write_bytes(b"not hdf5")
    done = report_cli(corrupt, "--out", out)
    assert done.returncode == 2 and "is damaged or not a DSA-ME checkpoint" in done.stderr and not out.exists()


def test_surrogate_losses_are_logged_per_target(sweep, report):
    """The per-target losses behind the loss figure add up to the surrogate's overall losses."""
    for algorithm, k in (("dsa_me", 3), ("dsa_me_ad", 12)):
        rows = [json.loads(line) for line in (sweep / f"{algorithm}-seed0" / "metrics.jsonl").read_text().splitlines()]
        trained = [r for r in rows if r["outer_iteration"] > 0 and "train_sse_per_example" in r]
        assert trained
        for r in trained:
            assert len(r["train_mse_per_target"]) == len(r["val_mse_per_target"]) == k
            assert sum(r["train_mse_per_target"]) == pytest.approx(r["train_sse_per_example"], rel=1e-4)
            assert np.mean(r["val_mse_per_target"]) == pytest.approx(r["val_mse"], rel=1e-4)
