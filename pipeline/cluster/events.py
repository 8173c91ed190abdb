"""What happens to a run's cluster, said: one line each on stderr and in the run's cluster.log."""
from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

_EVENTS = {"path": None}


def set_event_log(path) -> None:
    """Cluster events (lost workers and jobs, replacements) are also appended to this file (the
    run's cluster.log, private to the user); None: stderr only."""
    _EVENTS["path"] = None if path is None else Path(path)


def say(line: str) -> None:
    """One line about the cluster, on stderr (the driver job's output file under sbatch) and in
    the run's cluster.log, stamped with the UTC time."""
    text = f"cluster {time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime())}: {line}"
    print(text, file=sys.stderr, flush=True)
    path = _EVENTS["path"]
    if path is not None:
        with contextlib.suppress(OSError):
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            with os.fdopen(fd, "a") as f:
                f.write(text + "\n")
