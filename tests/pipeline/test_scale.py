"""`make scale` on a small N: real driver, scheduler and head-node work, STAND-IN game tasks
(workers/protocol/timed_standin.py) calibrated from real games; and the stand-in itself."""
from __future__ import annotations

import re
import subprocess
import sys
import time

import numpy as np

from workers.protocol import timed_standin
from workers.protocol.chunk_sums import ChunkSums

from .helpers import ROOT

LINE = re.compile(r"^scale N=(\d+) overlap=(on|off): busy_share ([\d.]+), evaluations_per_hour (\d+), "
                  r"head_s_per_iteration ([\d.]+), scheduler_ms_per_task ([\d.]+), head_cpu_ms_per_task ([\d.]+), "
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
        assert 0 < float(m.group(3)) <= 1.0 and int(m.group(4)) > 0 and float(m.group(5)) > 0
    for mode in ("off", "on"):  # real runs: a checkpoint holding every evaluation
        assert (tmp_path / "runs" / f"N6-overlap-{mode}" / "checkpoint.h5").is_file()


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
