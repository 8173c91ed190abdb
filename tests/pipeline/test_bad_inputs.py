"""Bad input gets one clear `error:` line before any game is played or anything is written: a
sample of the generated corpus (tools/fuzz_inputs.py, `make fuzz-inputs` runs all of it),
games that fail in the engine beyond the accepted share, and run folders that cannot be written."""
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest
from distributed import Client, LocalCluster

from tools import fuzz_inputs as fuzz
from pipeline.run_errors import EvaluationError
from pipeline.cluster.evaluation import EvaluationClient, check_failures
from workers.protocol.results import GameRecord
from workers.protocol.chunk_sums import ChunkSums

from .helpers import ROOT, command, run_pipeline, tmpfs

SAMPLE = 40  # about 1.5 minutes inside `make test` here; FUZZ_INPUTS_SEED picks another sample


def test_a_sample_of_the_bad_input_corpus_gets_clear_errors():
    seed = int(os.environ.get("FUZZ_INPUTS_SEED", "0"))
    outcomes = fuzz.run_all(fuzz.sample(fuzz.all_cases(), SAMPLE, seed), jobs=2, timeout=90, progress=False)
    assert len(outcomes) == SAMPLE
    wrong = [f"{o.kind}: {o.case}: {o.detail}" for o in outcomes if o.kind != "clear"]
    assert not wrong, "\n".join(wrong)


def test_the_corpus_mutates_every_config_key_and_covers_each_tool():
    names = [c.name for c in fuzz.all_cases()]
    for key in fuzz.schema_keys():
        assert any(n.startswith(f"config {key}=") for n in names), key
    for family in ("deck_file", "opponents", "pool", "offline", "report", "run", "tools.bench", "tools.soak",
                   "tools.compare_engines", "tools.fidelity", "compare_engines", "pipeline.report"):
        assert any(n.split()[0] == family for n in names), family
    assert len(names) == len(set(names)) > 500


def test_the_classification():
    assert fuzz.classify(2, "error: x\n", written=False) == "clear"
    assert fuzz.classify(2, "error: x\n", written=True) == "unclear"
    assert fuzz.classify(2, "warning\nerror: x\n", written=False) == "unclear"
    assert fuzz.classify(0, "", written=False) == "silent"
    assert fuzz.classify(1, "Traceback (most recent call last):\n", written=False) == "traceback"
    assert fuzz.classify(-11, "", written=False) == "traceback"  # a crash


def _records(failed: int, total: int = 20) -> list[ChunkSums]:
    """An evaluation's games as two tasks return them, the first `failed` lost on every try."""
    records = [GameRecord(g, g % 6, 100 + g, True, 30, 0, 8, 30, 10, 8, 20, 25,
                          error="ValueError: boom" if g < failed else None) for g in range(total)]
    return [ChunkSums.of(records[:total // 2], 6), ChunkSums.of(records[total // 2:], 6)]


def test_the_failed_share_is_checked_per_evaluation():
    names = [f"opponent {i}" for i in range(6)]
    check_failures(0, _records(0), 0.05, names)
    check_failures(0, _records(1), 0.05, names)  # 1 of 20 = 5%: accepted
    with pytest.raises(EvaluationError, match="2 of 20 games of evaluation 3 failed .* 'opponent 0', seed 100"):
        check_failures(3, _records(2), 0.05, names)
    with pytest.raises(EvaluationError, match="20 of 20"):
        check_failures(0, _records(20), 1.0, names)  # an evaluation without a game is never accepted


def test_games_that_all_fail_on_the_workers_stop_the_evaluation(space):
    """Real Dask workers, real engine: a score function the engine does not know makes every
    game raise; the evaluation stops with the count and the first message instead of
    returning numbers about nothing."""
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        evaluator = EvaluationClient(client, space, run_seed=0, games=4, games_per_task=2, player="beam",
                                     strategy="no-such-score", beam_depth=2, beam_width=1)
        deck = space.random_decks(np.random.default_rng(0), 1)
        with pytest.raises(EvaluationError, match="4 of 4 games of evaluation 0 failed .*no-such-score"):
            evaluator.evaluate(deck, [0])


@pytest.fixture
def read_only_disk(tmp_path):
    """A 1 MiB tmpfs to be made read-only (root only; CI runs as root)."""
    with tmpfs(tmp_path / "ro", "1M") as mount:
        yield mount


def _remount_read_only(mount):
    subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)


def test_a_read_only_run_folder_is_one_error_line(read_only_disk):
    (read_only_disk / "existing").mkdir()
    _remount_read_only(read_only_disk)
    for run_dir, message in ((read_only_disk / "new", "cannot create run directory"),
                             (read_only_disk / "existing", "is not writable: Read-only file system")):
        done = run_pipeline(run_dir=run_dir, check=False, timeout=120)
        assert done.returncode == 2, done.stderr[-2000:]
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines
    assert [p.name for p in read_only_disk.iterdir()] == ["existing"]


def test_a_finished_run_on_a_read_only_disk_is_refused_untouched(read_only_disk, tmp_path):
    run_dir = tmp_path / "run"
    run_pipeline("algorithm.budget=20", run_dir=run_dir)
    shutil.copytree(run_dir, read_only_disk / "run")
    _remount_read_only(read_only_disk)
    done = run_pipeline("algorithm.budget=20", run_dir=read_only_disk / "run", check=False, timeout=120)
    assert done.returncode == 2 and done.stderr.strip().startswith("error: ")
    assert "Read-only file system" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_run_folder_that_takes_no_file_fails_before_anything_slow():
    """An older run's folder that can be locked (its .lock left writable) but takes no new file:
    refused at once (the audit's run built the search and played for 75 s first). Before the
    inputs too: with a missing opponents file as well, the folder is what is named. As root the
    run is made by user nobody, for whom the folder is read-only."""
    shared = Path(tempfile.mkdtemp(prefix="dsame-unwritable-"))  # not under pytest's 0700 folder
    try:
        shared.chmod(0o755)
        run_dir = shared / "run"
        run_dir.mkdir(mode=0o755)
        (run_dir / ".lock").touch()
        (run_dir / ".lock").chmod(0o666)
        prefix, env = [], dict(os.environ)
        if os.geteuid() == 0:
            prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
            env["DSAME_CACHE_DIR"] = str(shared / "cache")  # nobody has no home
        else:
            run_dir.chmod(0o555)
        done = subprocess.run([*prefix, *command("opponents.path=/nonexistent.json", run_dir=run_dir)], cwd=ROOT,
                              capture_output=True, text=True, timeout=120, env=env)
        assert done.returncode == 2, done.stderr[-2000:]
        assert done.stderr == f"error: run directory {run_dir} is not writable: Permission denied\n"
        assert sorted(p.name for p in run_dir.iterdir()) == [".lock"]
    finally:
        shutil.rmtree(shared)
