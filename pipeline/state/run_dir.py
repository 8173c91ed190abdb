"""The run directory: its default name from the config, the lock that gives it to one driver,
and the guard against mixing configs."""
from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import sys
from pathlib import Path

import yaml
from omegaconf import OmegaConf

from ..run_errors import RunDirError
from . import checkpoint as ckpt
from .config import differences, identity, identity_hash

CONFIG_FILE = "config.yaml"
LOCK_FILE = ".lock"


def resolve_run_dir(cfg) -> Path:
    if cfg.run_dir:
        return Path(cfg.run_dir)
    return Path("results") / f"{cfg.name}-{cfg.algorithm.name}-seed{cfg.seed}-{identity_hash(cfg)}"


def open_run_dir(run_dir: Path, cfg) -> ckpt.Checkpoint | None:
    """Checks that `run_dir` holds nothing or a run of this same config, before anything is
    written; call it holding the lock (`locked`), so that what it reads cannot change. Returns
    the checkpoint to resume from, if there is one. The checkpoint's config is the run's:
    config.yaml is a copy of it for people to read, and one that disagrees is refused."""
    run_dir = Path(run_dir)
    config_path = run_dir / CONFIG_FILE
    theirs = read_config(config_path)
    path = run_dir / ckpt.FILENAME
    if run_dir.is_dir() and any(p.name != LOCK_FILE for p in run_dir.iterdir()) \
            and not config_path.exists() and not path.exists():
        raise RunDirError(f"run directory {run_dir} is not empty and holds no run; choose another run_dir")
    ours = identity(cfg)
    if not (path.exists() or path.is_symlink()):
        refuse_finished_summaries(run_dir)
        if theirs is not None and differences(theirs, ours):
            raise RunDirError(f"{run_dir} holds a run of another config ({_listed(differences(theirs, ours))}); "
                              "choose another run_dir")
        return None
    saved = ckpt.load(path, required=checkpoint_groups(cfg))
    kept = _identity_of(saved)
    if theirs is not None and kept is not None and differences(theirs, kept):  # config.yaml was edited
        again = ("run the same command again" if not differences(kept, ours) else
                 "run the checkpoint's config again (this command's differs); for another config, choose "
                 "another run_dir")
        raise RunDirError(
            f"{config_path} disagrees with the checkpoint beside it (config.yaml vs checkpoint: "
            f"{_listed(differences(theirs, kept))}); the checkpoint's config is the run's: to resume it, "
            f"rm {config_path} (it is rewritten from the checkpoint) and {again}")
    if saved.identity != identity_hash(cfg):
        diff = f" ({_listed(differences(kept, ours))})" if kept is not None else ""
        raise RunDirError(f"{run_dir} holds a run of another config{diff}; choose another run_dir")
    return saved


# What a run writes after its first checkpoint (pipeline/search/run_files.py's names: a layer above)
SUMMARIES = ("metrics.jsonl", "evaluations.csv", "archive.csv")


def refuse_finished_summaries(run_dir: Path) -> None:
    """A folder with a run's summaries and no checkpoint holds results (a finished run whose
    checkpoint was removed, as the committed ones in results/paper/): a new run would write over
    them, so it is refused and nothing in the folder changes."""
    kept = [name for name in SUMMARIES if (Path(run_dir) / name).is_file() and (Path(run_dir) / name).stat().st_size]
    if kept:
        raise RunDirError(
            f"{run_dir} holds a finished run's summaries ({', '.join(kept)}) and no checkpoint to resume; "
            "nothing in it is changed: its files are the run's results (make paper-table reports those in "
            "results/paper); to run again, choose another run_dir")


def loop_begun_in(run_dir: Path) -> tuple | None:
    """(algorithm.lag, algorithm.min_batch) as the config.yaml of the run whose checkpoint lies in
    `run_dir` says them (numbers, or `auto` for a run begun before runs wrote the numbers; its
    checkpoint keeps the lag used); None where no checkpoint lies."""
    run_dir = Path(run_dir)
    if not (run_dir / ckpt.FILENAME).exists():
        return None
    algo = (read_config(run_dir / CONFIG_FILE) or {}).get("algorithm") or {}
    return (algo.get("lag", "auto"), algo.get("min_batch", "auto")) if algo else None


def _identity_of(saved: ckpt.Checkpoint) -> dict | None:
    """The identity part of the config a checkpoint holds; None if it cannot be read (a file of
    version 1, unchecked)."""
    try:
        plain = yaml.safe_load(saved.config_yaml)
        return identity_from_plain(plain) if isinstance(plain, dict) else None
    except Exception:  # OmegaConf and yaml raise several types on text that is not a config
        return None


def _listed(diff: list[str]) -> str:
    return "; ".join(diff[:3]) + ("; ..." if len(diff) > 3 else "")


def checkpoint_groups(cfg) -> tuple[str, ...]:
    """The groups a checkpoint of this config must hold (a strategy run has its own)."""
    return ckpt.STRATEGY_GROUPS if cfg.algorithm.kind == "cma_me" else ckpt.DECK_SEARCH_GROUPS


def read_config(path: Path) -> dict | None:
    """The identity part of a run folder's config.yaml; None when the file is absent, empty or
    not a YAML mapping (a damaged file, rewritten by `write_config`)."""
    if not path.exists():
        return None
    if not path.is_file():  # a pipe could block the read for ever
        raise RunDirError(f"{path} is not a regular file; not touching {path.parent}")
    try:
        plain = yaml.safe_load(path.read_bytes().decode("utf-8"))
    except OSError as exc:
        raise RunDirError(f"{path} is unreadable ({exc.strerror}); not touching {path.parent}") from None
    except (yaml.YAMLError, UnicodeDecodeError, RecursionError):
        return None
    if not isinstance(plain, dict) or not plain:
        return None
    try:
        return identity_from_plain(plain)
    except Exception:  # OmegaConf raises several types on mappings that are not a config
        return None


def identity_from_plain(plain: dict) -> dict:
    return identity(OmegaConf.create(plain))


def write_config(run_dir: Path, cfg, saved: ckpt.Checkpoint | None = None) -> None:
    """Write config.yaml atomically where it is missing or damaged: from the checkpoint's own
    config when resuming (its digest vouches for it and its identity matched this config),
    else from this config (a folder without a checkpoint holds no results to protect)."""
    make_private(run_dir)
    path = run_dir / CONFIG_FILE
    if read_config(path) is not None:
        return
    if path.exists():
        print(f"note: {path} was damaged; rewritten from "
              f"{'the checkpoint' if saved is not None else 'this config'}", file=sys.stderr)
    text = saved.config_yaml if saved is not None else OmegaConf.to_yaml(cfg, resolve=True)
    ckpt.replace_file(path, text.encode("utf-8"))


def make_private(run_dir: Path) -> None:
    """The run folder, its subfolders and files made this user's alone (0700, 0600): a run
    folder of an older version was 0755 with 0644 files."""
    for folder, _, files in os.walk(run_dir):
        for path, mode in [(Path(folder), ckpt.DIR_MODE), *((Path(folder, f), ckpt.FILE_MODE) for f in files)]:
            try:
                if not path.is_symlink():
                    path.chmod(mode)
            except OSError as exc:
                raise RunDirError(f"cannot make {path} private to you: {exc.strerror}") from None


@contextlib.contextmanager
def locked(run_dir: Path):
    """Hold the run directory for this process, before anything in it is read: a second run
    on it stops with an error instead of interleaving checkpoints or resuming from a state read
    before the first run finished. Temporary files of a killed writer are removed. A folder
    made here is removed again when the run fails before writing anything into it."""
    run_dir = Path(run_dir)
    made = _make_dirs(run_dir)
    try:
        fd, new_lock = _open_lock(run_dir / LOCK_FILE)
    except OSError as exc:
        _remove_if_unused(made)
        raise RunDirError(f"run directory {run_dir} is not writable: {exc.strerror}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            new_lock = False  # the other process's
            raise RunDirError(f"run directory {run_dir} is in use by another running process") from None
        for stale in run_dir.glob(".*.tmp-*"):
            stale.unlink(missing_ok=True)
        _write_probe(run_dir)
        yield run_dir
    except BaseException:
        if new_lock:
            (run_dir / LOCK_FILE).unlink(missing_ok=True)
        _remove_if_unused(made)
        raise
    finally:
        os.close(fd)


def _write_probe(run_dir: Path) -> None:
    """Write and remove a small file: a folder that takes no new file (read-only, full, another
    user's with a lock file left writable) fails now, not at the first checkpoint."""
    probe = run_dir / f".write-probe.tmp-{os.getpid()}"
    try:
        fd = ckpt.new_private_file(probe)
        try:
            os.write(fd, b"probe\n")
        finally:
            os.close(fd)
            probe.unlink()
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise ckpt.write_error(probe, exc, what="a test file") from None
        raise RunDirError(f"run directory {run_dir} is not writable: {exc.strerror}") from None


def _open_lock(path: Path) -> tuple[int, bool]:
    """The lock file's descriptor, and whether this call created the file."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, ckpt.FILE_MODE)
        os.fchmod(fd, ckpt.FILE_MODE)
        return fd, True
    except FileExistsError:
        return os.open(path, os.O_RDWR), False


def _make_dirs(run_dir: Path) -> list[Path]:
    """Create `run_dir` and its missing parents, each private to this user; returns those
    created, deepest first."""
    if run_dir.exists() and not run_dir.is_dir():
        raise RunDirError(f"run directory {run_dir} exists and is not a directory")
    missing = [p for p in [run_dir, *run_dir.parents] if not p.exists()]
    try:
        for folder in reversed(missing):
            ckpt.make_private_dir(folder)
    except OSError as exc:
        raise RunDirError(f"cannot create run directory {run_dir}: {exc.strerror}") from None
    return missing


def _remove_if_unused(made: list[Path]) -> None:
    """Remove the folders this process created, if they are empty."""
    for folder in made:
        with contextlib.suppress(OSError):
            folder.rmdir()
