"""The strategy search (experiment=strategy_smoke) as a user runs it: end to end, killed and
resumed, its outputs, its weights file in the deck search, and its config and checkpoint
errors."""
import json
import math
import os
import pickle
import re
import subprocess
import sys

import h5py
import numpy as np
import pytest

from pipeline.state import checkpoint as ckpt
from pipeline.state.config import validate
from pipeline.run_errors import CheckpointError, ConfigError

from .helpers import ROOT, kill_group, wait_for

SMOKE = ["experiment=strategy_smoke", "progress=false"]


def _command(*overrides, run_dir):
    return [sys.executable, "-m", "pipeline", *SMOKE, *overrides, f"run_dir={run_dir}"]


def _run(*overrides, run_dir, check=True):
    done = subprocess.run(_command(*overrides, run_dir=run_dir), cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    if check and done.returncode != 0:
        raise AssertionError(f"pipeline failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return done


def _saved(run_dir) -> int:
    try:
        with h5py.File(run_dir / ckpt.FILENAME, "r") as f:
            return len(f["strategy_evaluations/weights"])
    except (OSError, KeyError):
        return -1


def _final(run_dir):
    saved = ckpt.load(run_dir / ckpt.FILENAME, required=("strategy_evaluations", "strategy_archive"))
    return saved


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An uninterrupted smoke run on one worker."""
    run_dir = tmp_path_factory.mktemp("strategy") / "reference"
    _run("cluster.n_workers=1", run_dir=run_dir)
    return run_dir


def test_killed_and_resumed_smoke_run_gives_the_same_archive(tmp_path, reference):
    """SIGKILL after the first checkpoint, resume with two workers: the same archive,
    evaluations and metrics as the uninterrupted one-worker run."""
    run_dir = tmp_path / "killed"
    proc = subprocess.Popen(_command("cluster.n_workers=2", run_dir=run_dir), cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        assert wait_for(lambda: _saved(run_dir) >= 18 or proc.poll() is not None, timeout=120)
    finally:
        kill_group(proc)
    killed_at = _saved(run_dir)
    assert 18 <= killed_at < 54, killed_at  # mid-run: at least one iteration saved, not all
    done = _run("cluster.n_workers=2", run_dir=run_dir)
    assert f"resuming {run_dir} at {killed_at} evaluations" in done.stderr
    a, b = _final(run_dir), _final(reference)
    for group in ("strategy_archive", "strategy_evaluations"):
        assert a.arrays[group].keys() == b.arrays[group].keys()
        for key in a.arrays[group]:
            assert np.array_equal(a.arrays[group][key], b.arrays[group][key]), f"{group}/{key} differs"
    assert len(a.arrays["strategy_archive"]["index"]) > 1  # candidates reached several cells
    for key in ("qd_score", "best_objective", "batch_mean_objective"):  # the timings may differ
        assert [h[key] for h in a.state["history"]] == [h[key] for h in b.state["history"]]
    rows = [json.loads(r) for r in (run_dir / "metrics.jsonl").read_text().splitlines()]
    assert [r["evaluations"] for r in rows] == [18, 36, 54]


def test_outputs_of_a_strategy_run(reference):
    """Metrics per iteration, the heatmap, and the best elite as a weights file the engine takes."""
    from workers.protocol.evaluate import check_strategy
    rows = [json.loads(r) for r in (reference / "metrics.jsonl").read_text().splitlines()]
    assert [r["iteration"] for r in rows] == [1, 2, 3]
    assert all({"qd_score", "coverage", "best_objective"} <= set(r) for r in rows)
    assert all(b["best_objective"] >= a["best_objective"] for a, b in zip(rows, rows[1:]))
    assert (reference / "archive_heatmap.png").stat().st_size > 1000
    best = json.loads((reference / "best_strategy.json").read_text())
    check_strategy(str(reference / "best_strategy.json"))  # the format of player_strategy_nn.json
    archive = _final(reference).arrays["strategy_archive"]
    top = int(np.argmax(archive["objective"]))
    assert best["weights"] == [float(w) for w in archive["solution"][top]]
    assert best["objective"] == rows[-1]["best_objective"] == float(archive["objective"][top])
    assert best["weights"] != [0.0] * 109  # CMA-ME moved away from its initial point


def test_elites_on_request_and_the_report(tmp_path, reference):
    """report.strategy_elites=true writes one weights file per cell (a finished run only
    writes its reports again); the report gives strategy runs their own table."""
    done = _run("cluster.n_workers=1", "report.strategy_elites=true", run_dir=reference)
    assert "resuming" in done.stderr
    cells = len(_final(reference).arrays["strategy_archive"]["index"])
    assert len(list((reference / "strategy_elites").glob("cell_*.json"))) == cells
    out = tmp_path / "report"
    subprocess.run([sys.executable, "-m", "pipeline.report", str(reference), "--out", str(out)], cwd=ROOT,
                   check=True, capture_output=True, timeout=120)
    table = (out / "strategy_runs.md").read_text()
    assert str(reference) in table and "54" in table
    assert (out / "strategy_progress.png").is_file() and not (out / "table1.md").exists()


@pytest.mark.parametrize("space", [
    ("archive.measures=[mana_spent_per_turn,cards_drawn_per_turn]", "archive.ranges=[[0,10],[0,5]]"),
    ("archive.measures=[turns,hand_size,mana_spent_per_turn]", "archive.dims=[10,10,10]",
     "archive.ranges=[[5,15],[1,7],[0,10]]", "archive.objective=win_rate"),
], ids=["other-measures", "three-measures"])
def test_a_strategy_run_of_another_space_is_reported_on_its_own_space(tmp_path, space):
    """The strategy search and its report follow archive.*: the run's measures, ranges and
    objective name the table, the best strategies and the heatmap's axes (over the first two
    measures, as the deck search's), not the paper's turns and hand size."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from pipeline.behavior_space import describe
    from pipeline.report.figures import draw_archive
    from pipeline.report.strategy import load_strategy_run
    run_dir = tmp_path / "run"
    _run("cluster.n_workers=1", "algorithm.budget=18", *space, run_dir=run_dir)  # one iteration
    run = load_strategy_run(run_dir)
    measures, objective = run.spec.behavior.measures, run.spec.behavior.objective
    assert len(run.archive["index"]) > 0
    best = (run_dir / "best_strategies.md").read_text().splitlines()[2]
    assert best == (f"| rank | {objective.replace('_', ' ')} | win rate | "
                    + " | ".join(m.replace("_", " ") for m in measures) + " | evaluation | cell |")
    fig, ax = plt.subplots()
    image = draw_archive(ax, run.archive, run.spec)
    assert ax.get_xlabel() == describe(measures[0]) and ax.get_ylabel().startswith(describe(measures[1]))
    assert tuple(image.get_extent()) == (*run.spec.ranges[0], *run.spec.ranges[1])
    assert image.get_clim() == run.spec.objective_range
    plt.close(fig)
    out = tmp_path / "report"
    done = subprocess.run([sys.executable, "-m", "pipeline.report", str(run_dir), "--out", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    table = (out / "strategy_runs.md").read_text()
    lo, hi = run.spec.objective_range
    assert f"objective {describe(objective)} on [{lo:g}, {hi:g}]" in table and f"Best {describe(objective)}" in table
    for m, (a, b) in zip(measures, run.spec.ranges):
        assert f"{describe(m)} on [{a:g}, {b:g}]" in table
    assert (out / "strategy_heatmaps.png").stat().st_size > 1000


def test_the_deck_search_uses_a_trained_weights_file(tmp_path, reference):
    """The same decks played with the trained weights and with the reference weights give
    different results: the file reaches the workers."""
    common = ["experiment=smoke_random", "algorithm=map_elites", "algorithm.budget=10", "algorithm.initial=10",
              "algorithm.batch_size=10", "strategy=beam", "strategy.beam_depth=3", "strategy.beam_width=2",
              "opponents.games=6", "cluster.games_per_task=6", "cluster.n_workers=1", "progress=false"]
    runs = {}
    for name, evaluated in (("trained", str(reference / "best_strategy.json")), ("reference", "nn")):
        run_dir = tmp_path / name
        subprocess.run([sys.executable, "-m", "pipeline", *common, f"strategy.evaluated={evaluated}",
                        f"run_dir={run_dir}"], cwd=ROOT, check=True, capture_output=True, timeout=300)
        runs[name] = ckpt.load(run_dir / ckpt.FILENAME).arrays["evaluations"]
    assert np.array_equal(runs["trained"]["decks"], runs["reference"]["decks"])
    assert not np.array_equal(runs["trained"]["targets"], runs["reference"]["targets"])
    # A report of a deck search and a strategy search keeps them apart.
    out = tmp_path / "report"
    subprocess.run([sys.executable, "-m", "pipeline.report", str(tmp_path / "reference"), str(reference),
                    "--out", str(out)], cwd=ROOT, check=True, capture_output=True, timeout=300)
    table1, strategies = (out / "table1.md").read_text(), (out / "strategy_runs.md").read_text()
    assert "MAP-Elites" in table1 and "cma_me" not in table1 and str(reference) not in table1
    assert str(reference) in strategies and str(tmp_path / "reference") not in strategies
    assert "Strategy searches" in (out / "index.html").read_text()


# --- config errors --------------------------------------------------------------------------------
def _compose(*overrides):
    from hydra import compose, initialize_config_dir
    from pipeline.driver import CONF_DIR
    with initialize_config_dir(config_dir=CONF_DIR, version_base="1.3"):
        return compose("config", overrides=[*SMOKE, *overrides])


def _weights_file(tmp_path, weights, name="w.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"layer_sizes": [15, 5, 4, 1], "weights": weights}).replace("Infinity", "1e999"))
    return str(path)


@pytest.mark.parametrize("overrides, message", [
    (["algorithm.budget=17"], "less than one CMA-ME iteration"),
    (["strategy_search.sigma0=0"], "strategy_search.sigma0"),
    (["strategy_search.emitters=0"], "strategy_search.emitters"),
    (["strategy_search.ranker=best"], "strategy_search.ranker"),
    (["strategy_search.x0=ones"], "strategy_search.x0"),
    (["strategy.player=random"], "strategy.player must be beam"),
    (["engine=sabberstone"], "needs engine=builtin"),
    (["strategy.evaluated=clever"], "strategy.evaluated='clever'"),
])
def test_bad_strategy_settings_are_refused(overrides, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(".", r"\.")):
        validate(_compose(*overrides))


def test_cma_me_needs_its_section():
    with pytest.raises(ConfigError, match="come together"):
        validate(_compose("experiment=smoke", "algorithm=cma_me"))


@pytest.mark.parametrize("weights, message", [
    (None, "does not exist|no such|not found|cannot"),
    ([0.1] * 108, "109 weights, got 108"),
    ([0.1] * 108 + [math.inf], "finite|infinite|number"),
])
def test_bad_weights_files_are_one_line_errors(tmp_path, weights, message):
    """strategy.evaluated (deck search) and strategy_search.x0 name weights files: a missing
    file, a wrong count or a non-finite weight stops the run before anything is written."""
    path = str(tmp_path / "missing.json") if weights is None else _weights_file(tmp_path, weights)
    for override in (f"strategy.evaluated={path}", f"strategy_search.x0={path}"):
        done = _run(override, run_dir=tmp_path / "run", check=False)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "), done.stderr[-2000:]
        assert override.split("=")[0] in lines[0]
        assert re.search(message, lines[0], re.I), lines[0]
        assert not (tmp_path / "run").exists()


def test_a_trained_initial_point_is_used(tmp_path):
    """strategy_search.x0=<weights file>: CMA-ME starts there (its first candidates lie
    around those weights, not around zeros)."""
    from pipeline.search.strategy_search import StrategySearch
    from pipeline.deck_space import DeckSpace
    reference = ROOT / "workers" / "data" / "player_strategy_nn.json"
    x0 = np.array(json.loads(reference.read_text())["weights"])
    cfg = validate(_compose(f"strategy_search.x0={reference}"))
    search = StrategySearch(cfg, tmp_path, DeckSpace.from_pool_file(), None, "")
    asked = search.scheduler.ask()
    assert np.abs(asked.mean(axis=0) - x0).max() < 0.2 and np.abs(x0).max() > 0.5


# --- checkpoint safety ----------------------------------------------------------------------------
class _Evil:
    def __reduce__(self):
        return (os.system, ("echo pwned > /dev/null",))


def test_a_scheduler_blob_that_would_run_code_is_refused(tmp_path):
    from pipeline.search.strategy_search import load_scheduler
    with pytest.raises(CheckpointError, match="os|posix|system"):
        load_scheduler(pickle.dumps(_Evil()), tmp_path / "checkpoint.h5")
    with pytest.raises(CheckpointError, match="cannot be restored"):
        load_scheduler(pickle.dumps(np.save), tmp_path / "checkpoint.h5")


def test_a_checkpoint_with_a_foreign_scheduler_is_refused(tmp_path, reference):
    """A checkpoint rewritten with valid digests but another scheduler blob (or elites that
    disagree with it) is refused with a one-line error, and left as it is."""
    import shutil
    run_dir = tmp_path / "copy"
    shutil.copytree(reference, run_dir)
    saved = _final(run_dir)
    arrays = {g: dict(v) for g, v in saved.arrays.items()}
    arrays["strategy_archive"]["objective"] = arrays["strategy_archive"]["objective"] + 1.0
    ckpt.save(run_dir / ckpt.FILENAME, config_yaml=saved.config_yaml, identity=saved.identity,
              state=saved.state, arrays=arrays, blobs=saved.blobs)
    before = (run_dir / ckpt.FILENAME).read_bytes()
    done = _run("cluster.n_workers=1", run_dir=run_dir, check=False)
    assert done.returncode == 2 and "disagrees with the scheduler's archive" in done.stderr
    assert (run_dir / ckpt.FILENAME).read_bytes() == before
    ckpt.save(run_dir / ckpt.FILENAME, config_yaml=saved.config_yaml, identity=saved.identity,
              state=saved.state, arrays=saved.arrays, blobs={"scheduler": pickle.dumps(_Evil())})
    done = _run("cluster.n_workers=1", run_dir=run_dir, check=False)
    assert done.returncode == 2 and "cannot be restored" in done.stderr


def test_the_unpickler_restores_a_real_scheduler(tmp_path):
    """What the search pickles, the restricted unpickler reads back to the same state."""
    from pipeline.search.archives import ArchiveSpec
    from pipeline.search.strategy_search import load_scheduler, make_scheduler
    cfg = validate(_compose())
    scheduler = make_scheduler(cfg, ArchiveSpec.from_config(cfg.archive), np.zeros(109))
    x = scheduler.ask()
    scheduler.tell(-np.arange(len(x), dtype=float), np.tile([8.0, 4.0], (len(x), 1)) + x[:, :2],
                   eval_id=np.arange(len(x)), targets=np.zeros((len(x), 12)))
    copy = load_scheduler(pickle.dumps(scheduler), tmp_path / "c.h5")
    assert np.array_equal(copy.ask(), scheduler.ask())
