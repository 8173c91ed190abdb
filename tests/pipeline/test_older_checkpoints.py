"""Checkpoints of older pipelines (versions 1 and 2, no verified header) never reach HDF5 in
the driver, every load of one ends, and a flip in a verified (version-3) file reaches the check
that covers its byte: single-byte flips of fixed files, each load under a watchdog that turns a
hang into a failure naming the offset.

The fixtures in data/ were written once, by the writers of versions 1 and 2
(test_integrity's `_write_version_1` and `_as_version_2`), from a 40-evaluation DSA-ME smoke run
(seed 7, `surrogate.hidden=[8]`, so the files are small); being fixed bytes, every flip gives
the same outcome on every machine. `v1_hang_damaged.h5` is a damaged version-1 file on which
HDF5 loops for ever (a flip at byte 3640 of a 120-evaluation run's file)."""
import multiprocessing
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from pipeline.run_errors import CheckpointError
from pipeline.state import checkpoint as ckpt
from pipeline.state.legacy import OlderCheckpointReader

from .helpers import ROOT

DATA = Path(__file__).parent / "data"
OLDER = {1: DATA / "checkpoint_v1.h5", 2: DATA / "checkpoint_v2.h5"}
HANGS = DATA / "v1_hang_damaged.h5"
HEAD = 8192  # every byte of the first 8 KiB: our header's place, HDF5's superblock, object headers, heaps
SPREAD = 1000  # and this many offsets evenly over the rest
WATCHDOG_SECONDS = 30  # one default load is refused in well under a millisecond
# The upgrade's reader over a flip takes about 40 ms, so the suite samples the head; set
# DSAME_FLIPS_EVERY=1 to read every offset of it (about 10 minutes).
READER_STEP = 16


def _offsets(size: int, head_step: int = 1, spread: int = SPREAD) -> list[int]:
    return list(range(0, HEAD, head_step)) + [int(x) for x in np.linspace(HEAD, size - 1, spread)]


def _flipped(original: bytes, at: int) -> bytes:
    return original[:at] + bytes([original[at] ^ 0xFF]) + original[at + 1:]


def _each_flip(original: bytes, damaged: Path, offsets: list[int]):
    """Yields (offset, the flipped bytes) while `damaged` holds them: one byte written in place
    and put back after, not a whole file per flip."""
    damaged.write_bytes(original)
    with open(damaged, "r+b", buffering=0) as f:
        for at in offsets:
            data = _flipped(original, at)
            os.pwrite(f.fileno(), data[at:at + 1], at)
            yield at, data
            os.pwrite(f.fileno(), original[at:at + 1], at)


def _load_each_flip(conn, source: str, scratch: str, offsets: list[int]) -> None:
    """In a child process: each flip of `source` written to `scratch` and loaded by default;
    says which offset it starts before each load, so a hang names it."""
    damaged = Path(scratch)
    for at, data in _each_flip(Path(source).read_bytes(), damaged, offsets):
        conn.send(at)
        try:
            ckpt.load(damaged, required=())
            outcome = "accepted"
        except CheckpointError as exc:
            outcome = str(exc)
        conn.send((outcome, damaged.read_bytes() == data))
    conn.send(None)


def _watched_default_loads(source: Path, scratch: Path, offsets: list[int]) -> list[tuple[int, str, bool]]:
    """(offset, outcome, file unchanged) of every load; a load that does not end within
    WATCHDOG_SECONDS, or ends its process, fails the test with its offset."""
    ours, theirs = multiprocessing.Pipe()
    child = multiprocessing.get_context("spawn").Process(target=_load_each_flip,
                                                         args=(theirs, str(source), str(scratch), offsets))
    child.start()
    theirs.close()
    results, at = [], None
    try:
        while True:
            if not ours.poll(WATCHDOG_SECONDS):
                pytest.fail(f"{source.name}: the load of the flip at byte {at} did not end within "
                            f"{WATCHDOG_SECONDS} s" if at is not None else f"the loads of {source.name} did not start")
            try:
                message = ours.recv()
            except EOFError:
                child.join()
                pytest.fail(f"{source.name}: the load of the flip at byte {at} ended its process "
                            f"(exit code {child.exitcode})")
            if message is None:
                return results
            if isinstance(message, int):
                at = message
            else:
                results.append((at, *message))
    finally:
        child.kill()
        child.join()


def _classified(results) -> Counter:
    """The one-line refusals by the check that made them; any other outcome as it is."""
    return Counter("older or damaged (no verified header)" if "has no verified header" in outcome else
                   "not a checkpoint (HDF5's signature damaged)" if "neither a checkpoint header" in outcome else
                   "header damaged" if "its header is damaged" in outcome else
                   "fails the header's checksum" if "the file fails its checksum" in outcome else
                   outcome for _, outcome, _ in results)


def _one_line_refusals(results, scratch: Path, offsets: list[int]) -> None:
    assert [at for at, _, _ in results] == offsets
    for at, outcome, unchanged in results:
        assert outcome.startswith(f"checkpoint {scratch} ") and "\n" not in outcome, (at, outcome)
        assert unchanged, f"the load of the flip at byte {at} changed the file"


@pytest.mark.parametrize("version", sorted(OLDER))
def test_no_flip_of_an_older_checkpoint_reaches_hdf5_in_a_default_load(version, tmp_path):
    """What this sweep proves, and what not: a default load decides an older file from its first
    8 bytes (HDF5's signature) without handing any byte to HDF5, so a flip at 0-7 is refused as a
    foreign file and a flip anywhere else by the same line as the intact file. The thousands of
    offsets do not test thousands of code paths; they show, cheaply (well under a millisecond a
    load), that no flipped byte anywhere makes a load hang, crash, accept or write the file. That
    a flip past the start reaches a check that reads it is the version-3 test below."""
    source, scratch = OLDER[version], tmp_path / "damaged.h5"
    offsets = _offsets(source.stat().st_size)
    start = time.monotonic()
    results = _watched_default_loads(source, scratch, offsets)
    took = time.monotonic() - start
    print(f"\nversion-{version} flips, loaded by default: {len(results)} in {took:.1f} s; "
          f"{dict(_classified(results))}")
    _one_line_refusals(results, scratch, offsets)
    # HDF5's signature intact: refused as an older file, naming the upgrade; damaged there: as foreign
    assert all(("has no verified header" in o and ckpt.UPGRADE_COMMAND in o) == (at >= len(ckpt.HDF5_SIGNATURE))
               for at, o, _ in results)


def test_a_flip_past_the_start_of_a_version_3_checkpoint_fails_the_check_that_covers_it(tmp_path):
    """The same sweep over a verified file (the version-2 fixture as the upgrade rewrites it):
    a flip in the format tag is refused as foreign, one in the rest of the header (version,
    digest, padding) as a damaged header, and every flip after the header by the SHA-256 that
    the header holds of those bytes: each part reaches the check that reads it, and fails there."""
    with OlderCheckpointReader() as reader:
        _, image = reader.read(OLDER[2])
    source, scratch = tmp_path / "version3.h5", tmp_path / "damaged.h5"
    source.write_bytes(image)
    assert ckpt.load(source, required=()).version == ckpt.VERSION  # intact, it loads
    offsets = _offsets(len(image))
    results = _watched_default_loads(source, scratch, offsets)
    print(f"\nversion-3 flips, loaded by default: {len(results)}; {dict(_classified(results))}")
    _one_line_refusals(results, scratch, offsets)
    tag = len(ckpt.FORMAT)
    for at, outcome, _ in results:
        expected = ("neither a checkpoint header nor HDF5's signature" if at < tag else
                    "its header is damaged" if at < ckpt.HEADER_SIZE else "the file fails its checksum")
        assert expected in outcome, (at, outcome)


@pytest.mark.parametrize("version", sorted(OLDER))
def test_the_upgrades_reader_ends_every_read_of_a_flipped_older_checkpoint(version, tmp_path):
    """What the upgrade reads, it reads in its child process: each flip is refused in one line
    (also when HDF5 loops, by the time limit, or crashes) or read with its data, which for a
    version-2 file is the original data (its digests); never a hang of the caller."""
    step = int(os.environ.get("DSAME_FLIPS_EVERY", READER_STEP))
    original = OLDER[version].read_bytes()
    damaged = tmp_path / "damaged.h5"
    counts: Counter = Counter()
    slowest = 0.0
    with OlderCheckpointReader() as reader:
        _, reference = reader.read(OLDER[version])
        for at, data in _each_flip(original, damaged, _offsets(len(original), step, SPREAD // 5)):
            start = time.monotonic()
            try:
                _, image = reader.read(damaged)
                counts["read, same data" if image == reference else "read, changed data"] += 1
            except CheckpointError as exc:
                line = str(exc)
                assert line.startswith(f"checkpoint {damaged} ") and "\n" not in line, (at, line)
                counts["stopped at the time limit" if "could not be read within" in line else
                       "ended the reader" if "ended the reader" in line else "refused"] += 1
            slowest = max(slowest, time.monotonic() - start)
            assert damaged.read_bytes() == data
    print(f"\nversion-{version} flips read by the upgrade's reader (every {step} bytes of the head): "
          f"{dict(sorted(counts.items()))}; slowest {slowest:.2f} s")
    assert slowest < reader.seconds + 5  # a read stopped at the limit, and a fresh child started
    if version == 2:
        assert counts["read, changed data"] == 0


def test_a_read_past_the_time_limit_stops_the_child_and_the_next_read_gets_a_fresh_one(tmp_path):
    with OlderCheckpointReader(seconds=0.001) as reader:  # no read is that fast
        for _ in range(2):
            with pytest.raises(CheckpointError, match=r"could not be read within 0.001 s .*; it was left as it is"):
                reader.read(OLDER[1])
    with OlderCheckpointReader() as reader:
        assert reader.read(OLDER[1])[0] == 1


def _timed(args, cwd=ROOT):
    start = time.monotonic()
    done = subprocess.run([sys.executable, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=120)
    return done, time.monotonic() - start


def _one_line(done, *needles):
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "), done.stderr[-2000:]
    for needle in needles:
        assert needle in lines[0], lines[0]


def test_the_file_hdf5_loops_on_is_refused_by_load_upgrade_resume_and_report_within_seconds(tmp_path):
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    path = run_dir / ckpt.FILENAME
    path.write_bytes(HANGS.read_bytes())
    before = path.read_bytes()
    start = time.monotonic()
    with pytest.raises(CheckpointError, match="has no verified header"):
        ckpt.load(path)
    assert time.monotonic() - start < 1
    upgrade, took = _timed(["-m", "pipeline.state.upgrade", run_dir])
    _one_line(upgrade, f"checkpoint {path} is damaged: it could not be read within")
    assert took < 10, took
    resume, took = _timed(["-m", "pipeline", "experiment=smoke_random", "seed=2", "algorithm.budget=120",
                           f"run_dir={run_dir}"])
    _one_line(resume, "has no verified header", ckpt.UPGRADE_COMMAND)
    assert took < 10, took
    report, took = _timed(["-m", "pipeline.report", run_dir, "--out", tmp_path / "report"])
    _one_line(report, "has no verified header")
    assert took < 10, took
    assert path.read_bytes() == before and not (tmp_path / "report").exists()
    assert [p.name for p in run_dir.iterdir()] == [ckpt.FILENAME]  # nothing written beside it
