"""The clusters' fixtures (conftest.py), run by a second pytest session with a cluster of its
own: the session stops the daemons it started (and removes the network namespaces of a
multi-node cluster) when it passes or fails, its reaper when it is killed, and what was running
before it (this session's clusters and munged) stays."""
import contextlib
import os
import signal
import socket
import subprocess
import shutil
import sys
import tempfile
import uuid
from pathlib import Path

import pytest

from tests import machine
from tests.pipeline.helpers import wait_for

from .conftest import DAEMONS, NETNS, NODE_DAEMONS, NODES_DIR, ROOT, STATE_DIR

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


def child_session(tmp_path: Path, child_test: str, env: dict, started):
    """Runs `child_test` in a second pytest session until it is ready, calls `started()` (what the
    session started), then ends it by env["END"]: passing, failing or a signal. Returns what
    started() gave, the session's return code and its output."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_child.py").write_text(child_test)
    ready, end = Path(env["READY"]), env["END"]
    child = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                             cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for(lambda: ready.exists() or child.poll() is not None, timeout=120)
        assert ready.exists(), child.communicate(timeout=60)[0] if child.poll() is not None else "no start in 120 s"
        theirs = started()
        if end.startswith("SIG"):
            child.send_signal(signal.Signals[end])
        else:
            Path(env["GO"]).touch()
        out = child.communicate(timeout=120)[0]
    finally:
        if child.poll() is None:
            child.kill()
    return theirs, child.returncode, out


@pytest.mark.parametrize("end", ["passes", "fails", "SIGTERM", "SIGKILL"])
def test_a_session_stops_the_daemons_it_started_and_only_those(slurm, tmp_path, end):
    folder = tmp_path / "slurm"
    port = free_port_pair()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SLURM_LOCAL_DIR": str(folder), "SLURM_LOCAL_PORT": str(port),
           "READY": str(tmp_path / "ready"), "GO": str(tmp_path / "go"), "END": end}
    ours, munged = pids(STATE_DIR), machine.running({"munged"})

    def started():
        theirs = pids(folder)
        assert machine.running({"slurmctld", "slurmd"}) >= theirs
        return theirs

    theirs, code, out = child_session(tmp_path, CHILD, env, started)
    assert code == {"passes": 0, "fails": 1, "SIGTERM": -15, "SIGKILL": -9}[end], out
    assert "SLURM tests: starting slurmctld and slurmd" in out and "starting munged" not in out  # announced
    def gone():
        return not theirs & machine.running({"slurmctld", "slurmd"})

    if end.startswith("SIG"):  # no teardown ran: the reaper stops them within a few seconds
        assert wait_for(gone, timeout=30), "the killed session's daemons were left running"
    assert gone(), "the child session left its daemons running"
    assert ours | munged <= machine.running(set(DAEMONS)), "the child session stopped daemons it had not started"


CHILD_NODES = CHILD.replace("import slurm ", "import slurm_nodes ").replace("test_child(slurm)",
                                                                          "test_child(slurm_nodes)")


def node_pids(folder: Path, name: str) -> set[tuple[str, int]]:
    files = [folder / f"slurmd-{name}-n1.pid", folder / f"slurmd-{name}-n2.pid", folder / "slurmctld.pid"]
    assert wait_for(lambda: all(f.is_file() and f.read_text().strip() for f in files), timeout=30), files
    return {(f.stem.split("-")[0], int(f.read_text())) for f in files}


@pytest.mark.parametrize("end", ["passes", "SIGKILL"])
def test_a_session_removes_the_hosts_and_daemons_of_its_multinode_cluster(slurm_nodes, tmp_path, end):
    name = f"t{uuid.uuid4().hex[:6]}"  # its hosts and namespaces; its network is a world of its own
    folder = Path(tempfile.mkdtemp(dir=NODES_DIR.parent, prefix="dsame-child-"))  # not under /tmp
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SLURM_LOCAL_DIR": str(tmp_path / "local"),
           "SLURM_NODES_DIR": str(folder), "SLURM_NODES_NAME": name, "READY": str(tmp_path / "ready"),
           "GO": str(tmp_path / "go"), "END": end}
    daemons = {name for name, _ in NODE_DAEMONS}
    ours = {(n, int(f.read_text())) for n, f in NODE_DAEMONS} & machine.running(daemons)
    assert len(ours) >= 3 and set(NETNS) <= machine.netns()  # this session's slurmctld and slurmds
    theirs_netns = {f"{name}-{host}" for host in ("net", "ctl", "n1", "n2")}

    def started():
        theirs = node_pids(folder, name)
        assert machine.running({"slurmctld", "slurmd"}) >= theirs and theirs_netns <= machine.netns()
        return theirs

    try:
        theirs, code, out = child_session(tmp_path, CHILD_NODES, env, started)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert code == {"passes": 0, "SIGKILL": -9}[end], out
    assert "SLURM tests: creating network namespaces" in out and "starting munged" not in out  # announced

    def gone():
        return not theirs & machine.running({"slurmctld", "slurmd"}) and not theirs_netns & machine.netns()

    if end.startswith("SIG"):  # no teardown ran: the reaper stops them within a few seconds
        assert wait_for(gone, timeout=30), "the killed session's daemons or namespaces were left"
    assert gone(), "the child session left its daemons or namespaces"
    assert ours <= machine.running(daemons) and set(NETNS) <= machine.netns(), \
        "the child session stopped what it had not started"
