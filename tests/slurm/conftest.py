"""A real one-node SLURM on this machine (slurm/local_slurm.sh), shared by the tests of this
folder and by both pytest-xdist workers: the first user starts it, the last one stops what the
tests started (munged, slurmctld, slurmd; never a daemon that was running before). When no
teardown runs (SIGTERM, a killed worker, kill -9), a detached reaper stops them."""
import contextlib
import fcntl
import functools
import getpass
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests import machine

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "slurm" / "local_slurm.sh"
STATE_DIR = Path(os.environ.get("SLURM_LOCAL_DIR", "/tmp/dsame-slurm"))
USERS = STATE_DIR.parent / (STATE_DIR.name + ".users")  # pids of the test processes using it
STARTED = STATE_DIR.parent / (STATE_DIR.name + ".started")  # "name pid" of each daemon the tests started
# This cluster's daemons, in the order they are stopped, and their pid files (munged's is the
# machine's): a pid file names the daemon a start made, where another cluster's may start too.
DAEMONS = {"slurmd": STATE_DIR / "slurmd.pid", "slurmctld": STATE_DIR / "slurmctld.pid",
           "munged": Path("/run/munge/munged.pid")}
REAPER = []  # the reaper started by this process (kept: it outlives the session on purpose)


@contextlib.contextmanager
def _exclusive():
    with open(str(STATE_DIR) + ".lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def _users() -> set[int]:
    try:
        pids = {int(p) for p in USERS.read_text().split()}
    except (OSError, ValueError):
        return set()
    return {p for p in pids if Path(f"/proc/{p}").exists()}


def _started() -> set[tuple[str, int]]:
    """The daemons the tests started, a session killed before its teardown included."""
    try:
        return {(name, int(pid)) for name, pid in (line.split() for line in STARTED.read_text().splitlines())}
    except (OSError, ValueError):
        return set()


def _running() -> set[tuple[str, int]]:
    found = set()
    for name, pid_file in DAEMONS.items():
        with contextlib.suppress(OSError, ValueError):
            found |= {(name, int(pid_file.read_text()))} & machine.running({name})
    return found


def _start(request, root: list[str]) -> str:
    """Runs local_slurm.sh start, its lines (each change it makes to the machine, before it
    makes it) shown as they come; returns why it failed, or ''."""
    env = [f"{k}={v}" for k, v in os.environ.items() if k.startswith("SLURM_LOCAL_")]  # past sudo
    proc = subprocess.Popen([*root, "env", *env, "bash", str(SCRIPT), "start", str(STATE_DIR)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    timer = threading.Timer(900, proc.kill)
    timer.start()
    lines = []
    for line in proc.stdout:
        lines.append(line.rstrip())
        if line.startswith("local_slurm: "):
            change = line.rstrip().removeprefix("local_slurm: ")
            end = " (stopped when the session ends)" if change.startswith("starting") else ""
            machine.announce(request, f"SLURM tests: {change}{end}")
    timer.cancel()
    return "" if proc.wait() == 0 else "\n".join(lines)[-500:] or f"exit {proc.returncode}"


def _release(pid: int | None, root: list[str]) -> None:
    """Process `pid` stops using the cluster; once no test process uses it, the daemons the
    tests started are stopped."""
    with _exclusive():
        left = _users() - {pid}
        USERS.write_text(" ".join(map(str, left)))
        started = _started()
        if left or not started:
            return
        if any(name == "slurmctld" for name, _ in started):  # the tests' jobs end with their cluster
            subprocess.run(["scancel", "--full", f"--user={getpass.getuser()}"], capture_output=True,
                           timeout=60, env={**os.environ, "SLURM_CONF": str(STATE_DIR / "slurm.conf")})
        for name in DAEMONS:
            machine.stop({d for d in started if d[0] == name}, root)
        STARTED.unlink()


def reap() -> None:
    """Runs detached from the session that started daemons, and stops them once no test process
    is left, however the session ended (SIGTERM, a killed pytest-xdist worker, kill -9)."""
    root = machine.as_root()
    while STARTED.exists():
        _release(None, root)
        time.sleep(1)


@pytest.fixture(scope="session")
def slurm(request):
    """SLURM_CONF of the running local cluster; skips (fails in CI) when it cannot start."""
    root = machine.as_root()
    if root is None:
        machine.unavailable("the SLURM tests start munged, slurmctld and slurmd as root (and install "
                            "them when missing): run them as root or with passwordless sudo")
    with _exclusive():
        USERS.write_text(" ".join(str(p) for p in _users() | {os.getpid()}))
        request.addfinalizer(functools.partial(_release, os.getpid(), root))
        before = _running()
        try:
            failed = _start(request, root)
        finally:
            new = _running() - before
            if new:
                STARTED.write_text("".join(f"{name} {pid}\n" for name, pid in _started() | new))
                REAPER.append(subprocess.Popen(
                    [sys.executable, "-c", "from tests.slurm.conftest import reap; reap()"], cwd=ROOT,
                    env={**os.environ, "PYTHONPATH": str(ROOT), "SLURM_LOCAL_DIR": str(STATE_DIR)},
                    start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL))
    if failed:
        machine.unavailable(f"cannot start a local SLURM: {failed}")
    conf = str(STATE_DIR / "slurm.conf")
    os.environ["SLURM_CONF"] = conf
    return conf
