"""One HDF5 checkpoint per run directory, replaced atomically: complete or absent.

Layout: root attributes (format, version, resolved config, identity hash); /state (counters
and random-generator states as JSON attributes); /real_archive and /surrogate_archive
(elites by cell); /evaluations (every real evaluation, in evaluation-id order); /surrogate
(torch model + Adam state as bytes).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import h5py
import numpy as np

from .errors import CheckpointError

FORMAT = "dsame-hearthstone-checkpoint"
VERSION = 1
FILENAME = "checkpoint.h5"


def save(path: Path, *, config_yaml: str, identity: str, state: dict, arrays: dict[str, dict],
         blobs: dict[str, bytes]) -> None:
    """Write to a temporary file beside `path`, fsync it, rename it over `path`, fsync the dir."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with h5py.File(tmp, "w") as f:
            f.attrs["format"] = FORMAT
            f.attrs["version"] = VERSION
            f.attrs["config"] = config_yaml
            f.attrs["identity"] = identity
            f.create_group("state").attrs["json"] = json.dumps(state, sort_keys=True)
            for group, data in arrays.items():
                g = f.create_group(group)
                for name, value in data.items():
                    g.create_dataset(name, data=np.asarray(value))
            for name, blob in blobs.items():
                f.create_dataset(f"blobs/{name}", data=np.frombuffer(blob, dtype=np.uint8))
            f.flush()
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    finally:
        if tmp.exists():
            tmp.unlink()


class Checkpoint:
    """A loaded checkpoint, fully read into memory (the file is closed at once)."""

    def __init__(self, path: Path, config_yaml: str, identity: str, state: dict,
                 arrays: dict[str, dict[str, np.ndarray]], blobs: dict[str, bytes]):
        self.path, self.config_yaml, self.identity = path, config_yaml, identity
        self.state, self.arrays, self.blobs = state, arrays, blobs


def load(path: Path, required: tuple[str, ...] = ("evaluations", "real_archive")) -> Checkpoint:
    """Read a checkpoint; any problem becomes a CheckpointError naming the file."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"no checkpoint at {path}")
    try:
        with h5py.File(path, "r") as f:
            if f.attrs.get("format") != FORMAT:
                raise CheckpointError(f"{path} is not a DSA-ME checkpoint (no '{FORMAT}' format tag)")
            if int(f.attrs.get("version", -1)) != VERSION:
                raise CheckpointError(f"{path} is checkpoint version {f.attrs.get('version')}, "
                                      f"this pipeline reads version {VERSION}")
            state = json.loads(f["state"].attrs["json"])
            arrays = {name: {k: f[name][k][()] for k in f[name]}
                      for name in f if name not in ("state", "blobs")}
            blobs = {k: f["blobs"][k][()].tobytes() for k in f["blobs"]} if "blobs" in f else {}
            config_yaml, identity = str(f.attrs["config"]), str(f.attrs["identity"])
    except CheckpointError:
        raise
    except (OSError, KeyError, ValueError) as exc:
        raise CheckpointError(f"checkpoint {path} is corrupt or unreadable: {exc}") from None
    missing = [name for name in required if name not in arrays]
    if missing:
        raise CheckpointError(f"checkpoint {path} lacks {', '.join(missing)}")
    return Checkpoint(path, config_yaml, identity, state, arrays, blobs)
