"""The local cluster's fixture (conftest.py), run by a second pytest session with a cluster of
its own: the session stops the daemons it started when it passes or fails, its reaper when it is
killed, and what was running before it (this session's cluster and munged) stays."""
import contextlib
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests import machine
from tests.pipeline.helpers import wait_for

from .conftest import DAEMONS, ROOT, STATE_DIR

CHILD = '''
import os
import time

from tests.slurm.conftest import slurm  # noqa: F401  the fixture under test


def test_child(slurm):
    open(os.environ["READY"], "w").close()
    end = time.monotonic() + 120
    while not os.path.exists(os.environ["GO"]) and time.monotonic() < end:  # or the parent kills us
        time.sleep(0.1)
    assert os.environ["END"] == "passes"
'''


def pids(folder: Path) -> set[tuple[str, int]]:
    """slurmctld's and slurmd's pids from their pid files (slurmd may write its own after the
    node is up)."""
    files = [folder / f"{name}.pid" for name in ("slurmctld", "slurmd")]
    assert wait_for(lambda: all(f.is_file() and f.read_text().strip() for f in files), timeout=30), files
    return {(f.stem, int(f.read_text())) for f in files}


def free_port_pair() -> int:
    """A port free with the next one (slurmctld's and slurmd's): a fixed pair would be shared by
    concurrent sessions of this test."""
    while True:
        with socket.socket() as first, socket.socket() as second:
            first.bind(("", 0))
            port = first.getsockname()[1]
            with contextlib.suppress(OSError):
                second.bind(("", port + 1))
                return port


@pytest.mark.parametrize("end", ["passes", "fails", "SIGTERM", "SIGKILL"])
def test_a_session_stops_the_daemons_it_started_and_only_those(slurm, tmp_path, end):
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_child.py").write_text(CHILD)
    ready, go, folder = tmp_path / "ready", tmp_path / "go", tmp_path / "slurm"
    port = free_port_pair()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SLURM_LOCAL_DIR": str(folder), "SLURM_LOCAL_PORT": str(port),
           "READY": str(ready), "GO": str(go), "END": end}
    ours, munged = pids(STATE_DIR), machine.running({"munged"})
    child = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                             cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for(lambda: ready.exists() or child.poll() is not None, timeout=120)
        assert ready.exists(), child.communicate(timeout=60)[0] if child.poll() is not None else "no start in 120 s"
        theirs = pids(folder)
        assert machine.running({"slurmctld", "slurmd"}) >= theirs
        if end.startswith("SIG"):
            child.send_signal(signal.Signals[end])
        else:
            go.touch()
        out = child.communicate(timeout=120)[0]
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == {"passes": 0, "fails": 1, "SIGTERM": -15, "SIGKILL": -9}[end], out
    assert "SLURM tests: starting slurmctld and slurmd" in out and "starting munged" not in out  # announced
    def gone():
        return not theirs & machine.running({"slurmctld", "slurmd"})

    if end.startswith("SIG"):  # no teardown ran: the reaper stops them within a few seconds
        assert wait_for(gone, timeout=30), "the killed session's daemons were left running"
    assert gone(), "the child session left its daemons running"
    assert ours | munged <= machine.running(set(DAEMONS)), "the child session stopped daemons it had not started"
