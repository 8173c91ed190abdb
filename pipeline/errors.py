"""Errors a user can cause: each one is reported as a single line naming the problem."""
from __future__ import annotations

import errno
import os
from pathlib import Path


class PipelineError(Exception):
    """Base of every error that comes from bad input rather than a bug."""


class ConfigError(PipelineError):
    pass


class DeckError(PipelineError):
    pass


class CheckpointError(PipelineError):
    pass


class RunDirError(PipelineError):
    pass


class EvaluationError(PipelineError):
    """Games failed inside the engine beyond the share a run accepts."""


def write_error(path: Path, exc: OSError) -> RunDirError:
    """A failed write as one line: the file, the reason and, for a full disk, the free space
    left in its folder (what was written before stays as it was)."""
    path = Path(path)
    reason = exc.strerror or str(exc)
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        try:
            stats = os.statvfs(path.parent)
            free = f"{stats.f_bavail * stats.f_frsize / 2 ** 20:.1f} MiB free"
        except OSError:
            free = "free space unknown"
        return RunDirError(f"cannot write {path.name} in {path.parent}: {reason} ({free}); "
                           "the last complete checkpoint is kept")
    return RunDirError(f"cannot write {path}: {reason}")
