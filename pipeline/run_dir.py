"""The run directory: its default name from the config, and the guard against mixing configs."""
from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

import yaml
from omegaconf import OmegaConf

from . import checkpoint as ckpt
from .config import differences, identity, identity_hash
from .errors import RunDirError

CONFIG_FILE = "config.yaml"


def resolve_run_dir(cfg) -> Path:
    if cfg.run_dir:
        return Path(cfg.run_dir)
    return Path("results") / f"{cfg.name}-{cfg.algorithm.name}-seed{cfg.seed}-{identity_hash(cfg)}"


def open_run_dir(run_dir: Path, cfg) -> ckpt.Checkpoint | None:
    """Checks that `run_dir` holds nothing or a run of this same config, before anything is
    written. Returns its checkpoint to resume from, if there is one."""
    run_dir = Path(run_dir)
    if run_dir.exists() and not run_dir.is_dir():
        raise RunDirError(f"run directory {run_dir} exists and is not a directory")
    mine = identity(cfg)
    config_path = run_dir / CONFIG_FILE
    if config_path.exists():
        try:
            theirs = identity_from_plain(yaml.safe_load(config_path.read_text()))
        except (OSError, yaml.YAMLError, ValueError, AttributeError) as exc:
            raise RunDirError(f"{config_path} is unreadable ({exc}); not touching {run_dir}") from None
        diff = differences(theirs, mine)
        if diff:
            raise RunDirError(f"{run_dir} holds a run of another config ({'; '.join(diff[:3])}"
                              f"{'; ...' if len(diff) > 3 else ''}); choose another run_dir")
    path = run_dir / ckpt.FILENAME
    if run_dir.is_dir() and any(p.name != ".lock" for p in run_dir.iterdir()) \
            and not config_path.exists() and not path.exists():
        raise RunDirError(f"run directory {run_dir} is not empty and holds no run; choose another run_dir")
    if path.exists():
        saved = ckpt.load(path)
        if saved.identity != identity_hash(cfg):
            raise RunDirError(f"{path} was written by another config; choose another run_dir")
        return saved
    return None


def identity_from_plain(plain: dict) -> dict:
    return identity(OmegaConf.create(plain))


def write_config(run_dir: Path, cfg) -> None:
    run_dir.mkdir(parents=True, exist_ok=True)
    path = run_dir / CONFIG_FILE
    if not path.exists():
        path.write_text(OmegaConf.to_yaml(cfg, resolve=True))


@contextlib.contextmanager
def locked(run_dir: Path):
    """Hold the run directory for this process: a second run on it stops with an error
    instead of interleaving checkpoints. Temporary files of a killed writer are removed."""
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(run_dir / ".lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunDirError(f"run directory {run_dir} is in use by another running process") from None
        for stale in run_dir.glob(".*.tmp-*"):
            stale.unlink(missing_ok=True)
        yield run_dir
    finally:
        os.close(fd)
