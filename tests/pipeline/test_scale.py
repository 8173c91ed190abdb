"""`make scale` on a small N: real driver, scheduler and head-node work, STAND-IN game tasks
(workers/protocol/timed_standin.py) calibrated from real games; and the stand-in itself."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import numpy as np

from workers.protocol import timed_standin
from workers.protocol.chunk_sums import ChunkSums

from .helpers import ROOT, wait_for

LINE = re.compile(r"^scale N=(\d+) steady_state=(on|off): busy_share ([\d.]+), lag (\d+), "
                  r"evaluations_per_hour (\d+), head_s_per_iteration ([\d.]+), scheduler_ms_per_task ([\d.]+), head_cpu_ms_per_task ([\d.]+), "
                  r"head_cpu_s_per_iteration ([\d.]+), driver_peak_mib (\d+), "
                  r"paper_trial_h ([\d.]+)$")


def test_make_scale_on_a_small_n_prints_a_line_per_mode(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "tools.scale", "--slots", "6", "--processes", "2", "--budget", "40",
         "--table", str(tmp_path / "table.npz"), "--runs-dir", str(tmp_path / "runs"),
         "--calibration-decks", "3", "--calibration-games", "6", "--overhead-tasks", "100",
         "opponents.games=24", "algorithm.initial=20", "algorithm.inner.iterations=100", "surrogate.epochs=2"],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "calibrated: 3 decks x 6 real games" in done.stdout
    lines = [LINE.match(ln) for ln in done.stdout.splitlines() if ln.startswith("scale ")]
    assert [(m.group(1), m.group(2)) for m in lines if m] == [("6", "off"), ("6", "on")], done.stdout
    for m in lines:
        assert 0 < float(m.group(3)) <= 1.0 and int(m.group(5)) > 0 and float(m.group(6)) > 0
    # the default lag: 3 per slot (18), at most 30% of the budget (12); none without the steady state
    assert [int(m.group(4)) for m in lines] == [0, 12]
    for mode in ("off", "on"):  # real runs: a checkpoint holding every evaluation
        assert (tmp_path / "runs" / f"N6-steady_state-{mode}" / "checkpoint.h5").is_file()


def _table(tmp_path):
    ids = np.array(["A", "B", "C"])
    decks = np.array([[2, 0, 0], [0, 1, 1]], dtype=np.int16)
    records = np.arange(2 * 12 * len(timed_standin.RECORD_FIELDS)).reshape(2, 12, -1) % 7
    path = tmp_path / "table.npz"
    np.savez(path, card_ids=ids, decks=decks, records=records, seconds_per_game=np.array([0.01, 0.02]))
    return path


def test_the_stand_in_returns_the_nearest_decks_records_after_sleeping(tmp_path):
    path = str(_table(tmp_path))
    start = time.perf_counter()
    got = timed_standin.play_games(["B", "C", "C"], [1, 13], 5, table_path=path)
    assert time.perf_counter() - start >= 2 * 0.01
    table = timed_standin.table(path)
    assert table.nearest(["B", "C", "C"]) == 1 and table.nearest(["A"]) == 0
    assert [r.won for r in got] == [bool(table.records[1, 1, 0])] * 2  # game 13 -> table game 1
    assert got[0].own_health == table.records[1, 1, 1] and got[1].game_index == 13
    assert got == timed_standin.play_games(["B", "C", "C"], [1, 13], 5, table_path=path)  # deterministic


def test_the_stand_ins_tally_is_the_tally_of_its_records(tmp_path):
    path = str(_table(tmp_path))
    games = [0, 1, 5, 6, 13, 23]
    records = timed_standin.play_games(["B", "C", "C"], games, 5, table_path=path)
    tally = timed_standin.play_sums(["B", "C", "C"], games, 5, table_path=path)
    expected = ChunkSums.of(records, 6)
    assert np.array_equal(tally.sums, expected.sums) and tally.sums.any()
    assert (tally.tried, tally.errors, tally.lost) == (expected.tried, [], [])


def _daemon() -> int:
    """A process that is not ours (its parent exits at once), as munged is not the tool's child."""
    done = subprocess.run(["sh", "-c", "sleep 300 >/dev/null 2>&1 & echo $!"], capture_output=True, text=True,
                          check=True)
    return int(done.stdout)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


def test_scale_slurm_stops_the_munged_its_cluster_start_started(tmp_path, monkeypatch):
    """`tools.scale --slurm` with no three-host cluster up starts one (slurm/nodes_slurm.sh
    start, which also starts munged when none runs) and stops it at the end; its stop leaves
    munged, so the tool stops the munged that its start started, and only that one. Here the
    start and stop are stand-ins and munged a process with its pid file."""
    from tools import scale
    pid_file = tmp_path / "munged.pid"
    monkeypatch.setattr(scale, "MUNGED_PID", pid_file)
    started = []
    real_run = subprocess.run

    def fake_run(command, **kwargs):
        if command[:3] == ["ip", "netns", "list"]:
            return subprocess.CompletedProcess(command, 0, "", "")
        if command[-1] == "start" and not scale._running_pid(pid_file):  # munged started with the cluster
            started.append(_daemon())
            pid_file.write_text(f"{started[-1]}\n")
        if command[-1] in ("start", "stop"):
            return subprocess.CompletedProcess(command, 0, "", "")
        return real_run(command, **kwargs)

    monkeypatch.setattr(subprocess, "run", fake_run)
    with scale.nodes_cluster():
        assert started and _alive(started[0])
    assert wait_for(lambda: not _alive(started[0]), timeout=15)  # stopped with the cluster
    # a munged that ran before (the SLURM tests', another user's) is left running
    before = _daemon()
    pid_file.write_text(f"{before}\n")
    try:
        with scale.nodes_cluster():
            pass
        assert _alive(before) and len(started) == 1
    finally:
        os.kill(before, 9)


def test_a_bad_setting_is_one_line_before_anything_runs(tmp_path):
    """--budget under the preset's algorithm.initial used to end in the child run's traceback,
    after the calibration games; now it is the pipeline's own line, and nothing is written."""
    for args, said in ((["--budget", "20"], "error: algorithm.initial=100 exceeds algorithm.budget=20"),
                       (["algorithm.bogus=1"], "error: bad config override: Could not override 'algorithm.bogus'")):
        done = subprocess.run([sys.executable, "-m", "tools.scale", "--slots", "4", "--table", str(tmp_path / "t.npz"),
                               "--runs-dir", str(tmp_path / "runs"), *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=120)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith(said), done.stderr[-2000:]
    assert not list(tmp_path.iterdir())
