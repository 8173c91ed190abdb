"""A damaged run folder is refused, never resumed: checksums of every checkpoint dataset,
plausibility checks of what is loaded, the lock taken before anything is read, config.yaml
written atomically and repaired, and a full disk reported in one line with the last checkpoint
kept. Real runs, real HDF5 files, a real (size-limited tmpfs) full disk."""
import fcntl
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time

import h5py
import numpy as np
import pytest
import yaml

import torch

from pipeline.state import checkpoint as ckpt
from pipeline.state import run_dir as rd
from pipeline.state.legacy import OlderCheckpointReader
from pipeline.state.config import validate
from pipeline.run_errors import CheckpointError, RunDirError

from .helpers import ROOT, assert_same_run, command, compose, final_state, run_pipeline, saved_evaluations, tmpfs, wait_for


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A small finished DSA-ME run (TINY: 60 evaluations)."""
    run_dir = tmp_path_factory.mktemp("finished") / "run"
    run_pipeline(run_dir=run_dir)
    return run_dir


def _copy(run_dir, tmp_path, name="copy"):
    target = tmp_path / name
    shutil.copytree(run_dir, target)
    return target


def _digest(folder):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def _datasets(path):
    """(name, byte offset, byte size) of every dataset that has data in the file."""
    out = []
    with h5py.File(path, "r") as f:
        f.visititems(lambda name, obj: out.append((name, obj.id.get_offset(), obj.id.get_storage_size()))
                     if isinstance(obj, h5py.Dataset) else None)
    return [(n, o, s) for n, o, s in out if o is not None and s > 0]


def _flip(path, offset, count=4):
    data = bytearray(path.read_bytes())
    data[offset:offset + count] = bytes(b ^ 0x5A for b in data[offset:offset + count])
    path.write_bytes(bytes(data))


def _one_error(done, *needles):
    assert done.returncode == 2, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr[-2000:]
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def _report(*args):
    return subprocess.run([sys.executable, "-m", "pipeline.report", *map(str, args), "--transfer", "none"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


# --- checksums ------------------------------------------------------------------------------------
def test_every_dataset_kind_round_trips_with_its_digest(tmp_path):
    path = tmp_path / ckpt.FILENAME
    arrays = {"g": {"scalar": np.float64(2.5), "empty": np.zeros((0, 180), np.int16),
                    "matrix": np.arange(12.0).reshape(3, 4), "flags": np.array([True, False])}}
    ckpt.save(path, config_yaml="a: 1\n", identity="id", state={"n": 1}, arrays=arrays, blobs={"b": b"\x00xyz"})
    saved = ckpt.load(path, required=("g",))
    assert saved.arrays["g"]["scalar"] == 2.5 and saved.arrays["g"]["empty"].shape == (0, 180)
    assert saved.blobs["b"] == b"\x00xyz"
    with h5py.File(path, "r") as f:
        assert all(len(f[f"g/{k}"].attrs["sha256"]) == 64 for k in arrays["g"])
        assert f.attrs["version"] == 3 and len(f.attrs["sha256"]) == 64
    assert path.read_bytes()[:ckpt.HEADER_SIZE] == ckpt.header(3, path.read_bytes()[ckpt.HEADER_SIZE:])


def _as_version_2(source, target):
    """The checkpoint as version 2 wrote it: the same HDF5 layout and digests, without the header."""
    with h5py.File(source, "r") as old, h5py.File(target, "w") as new:
        for name in old:
            old.copy(old[name], new, name)
        attrs = {**old.attrs, "version": 2}
        new.attrs.update(attrs)
        datasets = {}
        old.visititems(lambda name, obj: datasets.__setitem__(name, str(obj.attrs["sha256"]))
                       if isinstance(obj, h5py.Dataset) else None)
        new.attrs["sha256"] = ckpt.root_digest({k: attrs[k] for k in ("format", "version", "config", "identity")},
                                               str(old["state"].attrs["json"]), datasets)
    return target


def _read_older(path) -> ckpt.Checkpoint:
    """An older checkpoint as the upgrade reads it: in the child process, as a version-3 image."""
    with OlderCheckpointReader() as reader:
        _, image = reader.read(path)
    return ckpt.parse(path, image, (ckpt.VERSION,))


def test_flipped_bytes_inside_any_dataset_of_a_real_checkpoint_are_refused(finished, tmp_path):
    """The header's checksum refuses them; in a file of version 2 (no header), which only the
    upgrade's child process reads, each dataset's own digest names it."""
    old = _as_version_2(finished / ckpt.FILENAME, tmp_path / "version2.h5")
    assert _read_older(old).state == ckpt.load(finished / ckpt.FILENAME).state
    with OlderCheckpointReader() as reader:
        for source, message, read in ((finished / ckpt.FILENAME, "the file fails its checksum", ckpt.load),
                                      (old, "dataset /{name} fails its checksum", reader.read)):
            datasets = _datasets(source)
            assert {"evaluations/decks", "evaluations/targets", "real_archive/solution", "blobs/surrogate"} <= {
                n for n, _, _ in datasets}
            for name, offset, size in datasets:
                damaged = tmp_path / f"{name.replace('/', '_')}.h5"
                shutil.copy(source, damaged)
                _flip(damaged, offset + size // 2)
                with pytest.raises(CheckpointError, match=f"{damaged} is damaged: {message.format(name=name)}"):
                    read(damaged)


def _same_checkpoint(a, b) -> bool:
    return ((a.config_yaml, a.identity, a.state, a.blobs) == (b.config_yaml, b.identity, b.state, b.blobs)
            and a.arrays.keys() == b.arrays.keys()
            and all(a.arrays[g].keys() == b.arrays[g].keys() for g in a.arrays)
            and all(a.arrays[g][k].dtype == b.arrays[g][k].dtype and np.array_equal(a.arrays[g][k], b.arrays[g][k])
                    for g in a.arrays for k in a.arrays[g]))


def test_no_damage_anywhere_in_the_file_is_accepted_or_escapes(tmp_path):
    """A byte flipped at every 3rd offset of a whole checkpoint, metadata included (our header,
    HDF5's superblock, object headers, symbol tables and heaps), and the file cut at every 61st
    length: each load gives the original data or says that the file is damaged, never anything
    else (read unchecked, HDF5 raised RuntimeError on some of these and crashed on others)."""
    path = tmp_path / ckpt.FILENAME
    arrays = {"evaluations": {"decks": np.eye(3, 180, dtype=np.int16), "targets": np.linspace(-1, 1, 36).reshape(3, 12),
                              "eval_id": np.arange(3)},
              "real_archive": {"index": np.array([4, 9]), "empty": np.zeros((0, 180), np.int16)}}
    ckpt.save(path, config_yaml="seed: 0\n", identity="0123456789", state={"rng": {"x": 2 ** 70}, "history": [{}]},
              arrays=arrays, blobs={"surrogate": bytes(range(256)) * 4})
    original = path.read_bytes()
    reference = ckpt.load(path, required=())
    damaged = tmp_path / "damaged.h5"
    variants = [(f"byte {at} flipped", original[:at] + bytes([original[at] ^ (0xFF, 0x01, 0x80)[at % 9 // 3]])
                 + original[at + 1:]) for at in range(0, len(original), 3)]
    variants += [(f"cut to {size} bytes", original[:size]) for size in range(0, len(original), 61)]
    refused = 0
    for label, data in variants:
        damaged.write_bytes(data)
        try:
            loaded = ckpt.load(damaged, required=())
        except CheckpointError as exc:
            assert re.fullmatch(rf"checkpoint {re.escape(str(damaged))} is damaged\b.*; it was left as it is",
                                str(exc)), f"{label}: {exc}"
            refused += 1
        else:
            assert _same_checkpoint(loaded, reference), f"{label}: changed data was accepted"
        assert damaged.read_bytes() == data, f"{label}: the file was changed"
    assert refused == len(variants)  # the header's checksum covers every byte


def test_a_damaged_checkpoint_stops_resume_and_report_and_nothing_changes(finished, tmp_path):
    run_dir = _copy(finished, tmp_path)
    name, offset, size = next(d for d in _datasets(run_dir / ckpt.FILENAME) if d[0] == "evaluations/targets")
    _flip(run_dir / ckpt.FILENAME, offset + size // 2)
    before = _digest(run_dir)
    _one_error(run_pipeline(run_dir=run_dir, check=False), str(run_dir / ckpt.FILENAME),
               "is damaged: the file fails its checksum")
    assert _digest(run_dir) == before
    out = tmp_path / "report"
    _one_error(_report(run_dir, "--out", out), "is damaged: the file fails its checksum")
    assert not out.exists()


def test_damaged_attributes_fail_the_root_checksum(finished, tmp_path):
    for path, message, read in (
            (shutil.copy(finished / ckpt.FILENAME, tmp_path / ckpt.FILENAME), "the file fails its checksum", ckpt.load),
            (_as_version_2(finished / ckpt.FILENAME, tmp_path / "version2.h5"), "attributes .* fail their checksum",
             _read_older)):
        data = path.read_bytes()
        at = data.index(b'"outer_iteration": ') + len(b'"outer_iteration": ')
        path.write_bytes(data[:at] + (b"7" if data[at:at + 1] != b"7" else b"8") + data[at + 1:])
        with pytest.raises(CheckpointError, match=message):
            read(path)


# --- plausibility of what is loaded -------------------------------------------------------------------
def _write_version_1(source, target, change):
    """The checkpoint as the previous format wrote it (no digests), with `change` applied to
    its arrays: what a damaged old file looks like."""
    saved = ckpt.load(source)
    change(saved.arrays)
    with h5py.File(target, "w") as f:
        f.attrs.update({"format": ckpt.FORMAT, "version": 1, "config": saved.config_yaml,
                        "identity": saved.identity})
        f.create_group("state").attrs["json"] = json.dumps(saved.state)
        for group, data in saved.arrays.items():
            for key, value in data.items():
                f[f"{group}/{key}"] = value
        for key, blob in saved.blobs.items():
            f[f"blobs/{key}"] = np.frombuffer(blob, np.uint8)


def _write_version_2(source, target, change):
    """The checkpoint as version 2 wrote it (digests, no header), with `change` applied to its
    arrays before the digests were taken."""
    saved = ckpt.load(source)
    change(saved.arrays)
    changed = target.with_name(f".{target.name}.v3")
    ckpt.save(changed, config_yaml=saved.config_yaml, identity=saved.identity, state=saved.state,
              arrays=saved.arrays, blobs=saved.blobs)
    _as_version_2(changed, target)
    changed.unlink()


def _elite_of_20_cards(arrays):
    solution = arrays["real_archive"]["solution"]
    row = solution[0].copy()
    row[np.flatnonzero(row)[:6]] = 0  # 30 - (at most 12) cards
    row[np.flatnonzero(row)[0]] = -2
    solution[0] = row


def _upgrade(path):
    return subprocess.run([sys.executable, "-m", "pipeline.state.upgrade", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_the_upgrade_refuses_an_older_file_read_without_a_group_a_run_needs(finished, tmp_path):
    """A version-1 file carries no digest: HDF5 reads one whose link to /real_archive was lost
    as a file without it. The upgrade looks at what its child read and refuses it, rather than
    vouch for it as version 3."""
    run_dir = _copy(finished, tmp_path)
    _write_version_1(finished / ckpt.FILENAME, run_dir / ckpt.FILENAME, lambda arrays: arrays.pop("real_archive"))
    before = _digest(run_dir)
    line = _one_error(_upgrade(run_dir), f"checkpoint {run_dir / ckpt.FILENAME} is damaged: it lacks the groups "
                                         "a run resumes from (it holds evaluations, ")
    assert "real_archive" not in line
    assert _digest(run_dir) == before


@pytest.mark.parametrize("write_old", ["version 1", "version 2"])
def test_an_old_checkpoint_is_refused_until_upgraded_on_purpose(finished, tmp_path, write_old):
    """Nothing vouches for the bytes of a file of version 1 or 2 (no header): resume and report
    refuse it from its first bytes, in one line that says how to accept it; the upgrade command
    reads it in a child process and rewrites it as version 3 (verified from then on), and its
    contents are still checked when the run resumes."""
    write = _write_version_1 if write_old == "version 1" else _write_version_2
    run_dir = _copy(finished, tmp_path)
    write(finished / ckpt.FILENAME, run_dir / ckpt.FILENAME, _elite_of_20_cards)
    before = _digest(run_dir)
    upgrade = f"run `python -m pipeline.state.upgrade {run_dir / ckpt.FILENAME}`"
    _one_error(run_pipeline(run_dir=run_dir, check=False), "has no verified header", "not read", upgrade)
    _one_error(_report(run_dir, "--out", tmp_path / "report"), "has no verified header", upgrade)
    assert _digest(run_dir) == before and not (tmp_path / "report").exists()
    done = _upgrade(run_dir)  # the run folder, or the file itself
    assert done.returncode == 0 and "rewritten as checkpoint version 3 (60 evaluations)" in done.stdout, done.stderr
    assert ckpt.load(run_dir / ckpt.FILENAME).version == 3
    _one_error(run_pipeline(run_dir=run_dir, check=False), "is damaged: /real_archive/solution row 0")
    good = _copy(finished, tmp_path, "good")
    write(finished / ckpt.FILENAME, good / ckpt.FILENAME, lambda arrays: None)
    done = _upgrade(good / ckpt.FILENAME)
    assert done.returncode == 0, done.stderr
    assert "left as it is" in _upgrade(good).stdout  # once is enough
    upgraded = good / ckpt.FILENAME
    data = upgraded.read_bytes()
    assert data[:ckpt.HEADER_SIZE] == ckpt.header(3, data[ckpt.HEADER_SIZE:])  # verified from now on
    assert _same_checkpoint(ckpt.load(upgraded), ckpt.load(finished / ckpt.FILENAME))  # the same contents
    assert "resuming" in run_pipeline(run_dir=good).stderr  # an intact old file resumes once upgraded
    assert_same_run(final_state(good), final_state(finished))


@pytest.mark.parametrize("layout", ["contiguous", "chunked"])
def test_a_dataset_whose_shape_claims_more_than_the_file_is_refused_before_it_is_read(finished, tmp_path, layout):
    """A version-1 file whose /evaluations/decks claims 2**26 rows (24 GB of int16) with no data
    stored: HDF5 would allocate and fill them, minutes of memory traffic or an out-of-memory
    kill for a file of kilobytes. The load refuses it at once, before a byte is allocated."""
    old = tmp_path / "version1.h5"
    _write_version_1(finished / ckpt.FILENAME, old, lambda arrays: None)
    with h5py.File(old, "r+") as f:
        del f["evaluations/decks"]
        f["evaluations"].create_dataset("decks", shape=(2 ** 26, 180), dtype=np.int16,
                                        chunks=(64, 180) if layout == "chunked" else None)
    said = (r"claims shape \(67108864, 180\) of int16 \(24159191040 bytes\), more than the whole file"
            if layout == "contiguous" else "is not stored as a plain array")
    with pytest.raises(CheckpointError, match=rf"{old} is damaged: dataset /evaluations/decks {said}"):
        _read_older(old)  # within the reader's time limit


def _saved_variant(finished, tmp_path, change):
    saved = ckpt.load(finished / ckpt.FILENAME)
    change(saved)
    path = tmp_path / "variant.h5"
    ckpt.save(path, config_yaml=saved.config_yaml, identity=saved.identity, state=saved.state,
              arrays=saved.arrays, blobs=saved.blobs)
    return ckpt.load(path)


def _set(group, key, index, value):
    def change(saved):
        saved.arrays[group][key][index] = value
    return change


@pytest.mark.parametrize("change, message", [
    (_set("evaluations", "decks", (0, 0), 3), "copies of pool card 0"),
    (_set("evaluations", "decks", (1, 5), -1), "copies of pool card 5"),
    (_set("evaluations", "targets", (2, 0), np.nan), "NaN or infinite"),
    (_set("evaluations", "targets", (2, 3), 3.0), "target 3 is 3"),
    (_set("evaluations", "targets", (2, 1), -1.69), "target 1 is -1.69"),
    (_set("evaluations", "eval_id", 0, 9), "eval_id is not 0, 1, 2"),
    (_set("evaluations", "source", 0, 7), "source holds values"),
    (_set("real_archive", "index", 0, 10 ** 6), "cell numbers outside"),
    (_set("real_archive", "objective", 0, 29.5), "disagree with its targets"),
    (_set("real_archive", "eval_id", 0, 10 ** 6), "evaluations that do not exist"),
    (lambda s: s.state.__setitem__("rng", {"bit_generator": "MT0"}), "state is incomplete or malformed"),
    (lambda s: s.state.__setitem__("evaluations", 3), "counts 3 evaluations"),
])
def test_implausible_contents_are_named(finished, tmp_path, space, change, message):
    """Checksums vouch for the bytes, not for what was written: a file written consistently
    wrong is refused too."""
    saved = _saved_variant(finished, tmp_path, change)
    with pytest.raises(CheckpointError, match=message):
        ckpt.check_contents(saved, limits=space.limits, deck_size=30, cells=1600)


def test_the_real_checkpoint_passes_the_checks(finished, space):
    ckpt.check_contents(ckpt.load(finished / ckpt.FILENAME), limits=space.limits, deck_size=30, cells=1600)


def test_a_surrogate_with_nan_weights_is_refused(finished, tmp_path):
    def poison(saved):
        state = torch.load(io.BytesIO(saved.blobs["surrogate"]), weights_only=True)
        next(iter(state["model"].values()))[0] = float("nan")
        buf = io.BytesIO()
        torch.save(state, buf)
        saved.blobs["surrogate"] = buf.getvalue()
    run_dir = _copy(finished, tmp_path)
    variant = _saved_variant(finished, tmp_path, poison)
    shutil.copy(variant.path, run_dir / ckpt.FILENAME)
    _one_error(run_pipeline(run_dir=run_dir, check=False), "NaN or infinite weights")


# --- the lock comes first -------------------------------------------------------------------------------
def test_the_lock_is_taken_before_the_checkpoint_is_read(finished, tmp_path):
    """While another process holds the folder, a second driver stops at the lock: it never
    reads (here: never gets to notice the damage), so it cannot resume from a stale state."""
    run_dir = _copy(finished, tmp_path)
    name, offset, size = _datasets(run_dir / ckpt.FILENAME)[0]
    _flip(run_dir / ckpt.FILENAME, offset + size // 2)
    fd = os.open(run_dir / ".lock", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        _one_error(run_pipeline(run_dir=run_dir, check=False), "in use by another running process")
    finally:
        os.close(fd)
    _one_error(run_pipeline(run_dir=run_dir, check=False), "fails its checksum")


# --- config.yaml ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("damage", ["deleted", "empty", "garbage"])
def test_a_missing_or_damaged_config_yaml_is_rewritten_from_the_checkpoint(finished, tmp_path, damage):
    run_dir = _copy(finished, tmp_path)
    config = run_dir / "config.yaml"
    if damage == "deleted":
        config.unlink()
    else:
        config.write_bytes(b"" if damage == "empty" else b"algorithm: [unclosed\n\x00")
    checkpoint_before = (run_dir / ckpt.FILENAME).read_bytes()
    done = run_pipeline(run_dir=run_dir)
    assert "resuming" in done.stderr
    assert ("note:" in done.stderr) == (damage != "deleted")
    assert config.read_text() == ckpt.load(run_dir / ckpt.FILENAME).config_yaml
    assert yaml.safe_load(config.read_text())["seed"] == 0
    assert (run_dir / ckpt.FILENAME).read_bytes() == checkpoint_before  # a finished run stays as it was


def test_an_edited_config_yaml_beside_an_intact_checkpoint_says_which_wins_and_how_to_resume(finished, tmp_path):
    run_dir = _copy(finished, tmp_path)
    config = run_dir / "config.yaml"
    plain = yaml.safe_load(config.read_text())
    plain["seed"] = 1
    config.write_text(yaml.safe_dump(plain))
    before = _digest(run_dir)
    said = (f"{config} disagrees with the checkpoint beside it (config.yaml vs checkpoint: seed: 1 vs 0); the "
            f"checkpoint's config is the run's: to resume it, rm {config} (it is rewritten from the checkpoint) and ")
    _one_error(run_pipeline(run_dir=run_dir, check=False), said + "run the same command again")
    _one_error(run_pipeline("seed=1", run_dir=run_dir, check=False),  # the command that follows the edit
               said + "run the checkpoint's config again (this command's differs)")
    assert _digest(run_dir) == before
    config.unlink()  # as the message says
    assert "resuming" in run_pipeline(run_dir=run_dir).stderr
    assert yaml.safe_load(config.read_text())["seed"] == 0


def test_config_yaml_is_written_atomically(tmp_path):
    cfg = validate(compose())
    rd.write_config(tmp_path, cfg)
    assert [p.name for p in tmp_path.iterdir()] == ["config.yaml"]  # no temporary file left
    assert rd.read_config(tmp_path / "config.yaml") is not None


# --- a full disk -------------------------------------------------------------------------------------------
@pytest.fixture
def small_disk(tmp_path):
    """A 3 MiB tmpfs (root only; CI runs as root, so there it always runs)."""
    with tmpfs(tmp_path / "disk", "3M") as mount:
        yield mount


def _fill(folder):
    """Take every free byte of the file system holding `folder`."""
    with open(folder / "filler", "wb") as f:
        try:
            while True:
                f.write(b"\0" * 65536)
                f.flush()
        except OSError:
            pass


def test_a_full_disk_is_one_error_line_and_the_last_checkpoint_stays(small_disk, finished):
    run_dir = small_disk / "run"
    proc = subprocess.Popen(command(run_dir=run_dir), cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        assert wait_for(lambda: saved_evaluations(run_dir) >= 20)
        _fill(small_disk)
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 2
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot write ") and str(run_dir) in lines[0], lines
    assert "No space left on device" in lines[0] and "MiB free" in lines[0]
    assert lines[0].endswith("; the last complete checkpoint is kept; free some space and run the same command "
                             "again to resume")
    assert not list(run_dir.glob(".*.tmp-*"))
    kept = saved_evaluations(run_dir)
    assert 20 <= kept < 60
    (small_disk / "filler").unlink()
    assert "resuming" in run_pipeline(run_dir=run_dir).stderr  # and nothing was lost
    assert_same_run(final_state(run_dir), final_state(finished))


def test_a_full_disk_at_the_start_leaves_no_empty_config(small_disk):
    _fill(small_disk)
    run_dir = small_disk / "run"
    done = run_pipeline(run_dir=run_dir, check=False)
    _one_error(done, f"cannot write a test file in {run_dir}: No space left on device",
               "; no checkpoint was written yet; free some space and run the same command again to start")
    assert not run_dir.exists()  # found before anything was written


def test_a_write_short_of_the_reserve_says_what_it_needs(tmp_path, monkeypatch):
    """A new checkpoint needs its own size and a reserve free; short of that it is not written,
    and the message says so, and whether an older checkpoint is kept."""
    path = tmp_path / ckpt.FILENAME
    arrays = {"evaluations": {"decks": np.zeros((1000, 180), np.int16)}}  # 0.3 MiB
    monkeypatch.setattr(ckpt, "free_bytes", lambda folder: int(1.3 * 2 ** 20))
    needs = (r"No space left on device \(1.3 MiB free, 1.\d MiB needed: 0.\d MiB for the file and 1 MiB the run "
             r"keeps in reserve for the files it writes next\); ")
    with pytest.raises(RunDirError, match=rf"cannot write checkpoint.h5 in {tmp_path}: {needs}no checkpoint was "
                                          "written yet; free some space and run the same command again to start"):
        ckpt.save(path, config_yaml="", identity="", state={}, arrays=arrays, blobs={})
    assert not path.exists()
    monkeypatch.undo()
    ckpt.save(path, config_yaml="", identity="", state={}, arrays={}, blobs={})
    monkeypatch.setattr(ckpt, "free_bytes", lambda folder: int(1.3 * 2 ** 20))
    with pytest.raises(RunDirError, match=rf"{needs}the last complete checkpoint is kept; free some space and run "
                                          "the same command again to resume"):
        ckpt.save(path, config_yaml="", identity="", state={}, arrays=arrays, blobs={})
