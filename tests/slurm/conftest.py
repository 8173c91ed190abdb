"""Real SLURM clusters on this machine, shared by the tests of this folder and by both
pytest-xdist workers: a one-node cluster on localhost (slurm/local_slurm.sh, fixture `slurm`) and a
controller with two compute nodes, each in its own network namespace (slurm/nodes_slurm.sh,
fixture `slurm_nodes`). The first user starts one, the last one stops what the tests started
(munged, slurmctld, slurmd, the namespaces; never a daemon that was running before). When no
teardown runs (SIGTERM, a killed worker, kill -9), a detached reaper stops them."""
import contextlib
import fcntl
import functools
import getpass
import os
import shutil
import subprocess
import sys
import threading
import time
import uuid
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
# The multi-node cluster: its folder is outside /tmp, which its compute nodes do not share.
NODES_SCRIPT = ROOT / "slurm" / "nodes_slurm.sh"
NODES_DIR = Path(os.environ.get("SLURM_NODES_DIR", "/var/tmp/dsame-slurm-nodes"))
NAME = os.environ.get("SLURM_NODES_NAME", "dsame")  # hosts and network namespaces: NAME-ctl, ...
CTL, NODES = f"{NAME}-ctl", (f"{NAME}-n1", f"{NAME}-n2")
NETNS = (f"{NAME}-net", CTL, *NODES)  # its network namespaces, removed after its daemons
NODE_DAEMONS = [("slurmd", NODES_DIR / f"slurmd-{node}.pid") for node in NODES] + [
    ("slurmctld", NODES_DIR / "slurmctld.pid"), ("munged", DAEMONS["munged"])]
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


def _started() -> set[tuple[str, str]]:
    """What the tests started, a session killed before its teardown included: (daemon name,
    pid) and ("netns", namespace name)."""
    try:
        return {(kind, value) for kind, value in (line.split() for line in STARTED.read_text().splitlines())}
    except (OSError, ValueError):
        return set()


def _pid(pid_file: Path) -> str:
    with contextlib.suppress(OSError):
        return pid_file.read_text().strip()
    return ""


def _running(pid_files) -> set[tuple[str, str]]:
    """(name, pid) of the daemons that these (name, pid file) pairs name and that run."""
    found = set()
    for name, pid_file in pid_files:
        with contextlib.suppress(OSError, ValueError):
            found |= {(name, int(pid_file.read_text()))} & machine.running({name})
    return {(name, str(pid)) for name, pid in found}


def _start(request, root: list[str], script: Path, folder: Path, env_prefix: str) -> str:
    """Runs `script start folder`, its lines (each change it makes to the machine, before it
    makes it) shown as they come; returns why it failed, or ''."""
    env = [f"{k}={v}" for k, v in os.environ.items() if k.startswith(env_prefix)]  # past sudo
    proc = subprocess.Popen([*root, "env", *env, "bash", str(script), "start", str(folder)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    timer = threading.Timer(900, proc.kill)
    timer.start()
    lines = []
    for line in proc.stdout:
        lines.append(line.rstrip())
        if line.startswith("local_slurm: "):
            change = line.rstrip().removeprefix("local_slurm: ")
            end = {"starting": " (stopped when the session ends)",
                   "creating": " (removed when the session ends)"}.get(change.split(" ")[0], "")
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
        user = f"--user={getpass.getuser()}"
        if ("slurmctld", _pid(DAEMONS["slurmctld"])) in started:  # the tests' jobs end with their cluster
            subprocess.run(["scancel", "--full", user], capture_output=True,
                           timeout=60, env={**os.environ, "SLURM_CONF": str(STATE_DIR / "slurm.conf")})
        if ("netns", CTL) in started:
            subprocess.run(on_ctl("scancel", "--full", user, root=root), capture_output=True, timeout=60)
        for name in DAEMONS:
            machine.stop({(n, int(pid)) for n, pid in started if n == name}, root)
        machine.remove_netns([ns for ns in NETNS if ("netns", ns) in started], root)
        STARTED.unlink()


def reap() -> None:
    """Runs detached from the session that started daemons, and stops them once no test process
    is left, however the session ended (SIGTERM, a killed pytest-xdist worker, kill -9)."""
    root = machine.as_root()
    while STARTED.exists():
        _release(None, root)
        time.sleep(1)


def _bring_up(request, root, script: Path, folder: Path, env_prefix: str, pid_files, netns=()) -> str:
    """Starts a cluster (or finds it running), recording what this start made (daemons, the
    network namespaces named in `netns`) for the last user to stop; returns why it failed, or ''."""
    with _exclusive():
        USERS.write_text(" ".join(str(p) for p in _users() | {os.getpid()}))
        request.addfinalizer(functools.partial(_release, os.getpid(), root))
        before, namespaces = _running(pid_files), machine.netns()
        try:
            return _start(request, root, script, folder, env_prefix)
        finally:
            new = _running(pid_files) - before
            new |= {("netns", ns) for ns in machine.netns() - namespaces if ns in netns}
            if new:
                STARTED.write_text("".join(f"{kind} {value}\n" for kind, value in _started() | new))
                REAPER.append(subprocess.Popen(
                    [sys.executable, "-c", "from tests.slurm.conftest import reap; reap()"], cwd=ROOT,
                    env={**os.environ, "PYTHONPATH": str(ROOT), "SLURM_LOCAL_DIR": str(STATE_DIR),
                         "SLURM_NODES_DIR": str(NODES_DIR)},
                    start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL))


@pytest.fixture(scope="session")
def slurm(request):
    """SLURM_CONF of the running local cluster; skips (fails in CI) when it cannot start."""
    root = machine.as_root()
    if root is None:
        machine.unavailable("the SLURM tests start munged, slurmctld and slurmd as root (and install "
                            "them when missing): run them as root or with passwordless sudo")
    failed = _bring_up(request, root, SCRIPT, STATE_DIR, "SLURM_LOCAL_", DAEMONS.items())
    if failed:
        machine.unavailable(f"cannot start a local SLURM: {failed}")
    conf = str(STATE_DIR / "slurm.conf")
    os.environ["SLURM_CONF"] = conf
    return conf


def on_ctl(*command, root=()) -> list[str]:
    """`command` run on the multi-node cluster's controller, dsame-ctl (its network, hostname,
    /etc/hosts, SLURM_CONF): where the tests start runs and call sbatch, squeue and scancel."""
    env = [f"{k}={v}" for k, v in os.environ.items() if k.startswith("SLURM_NODES_")]
    return [*root, "env", *env, f"SLURM_NODES_DIR={NODES_DIR}", "bash", str(NODES_SCRIPT), "on", CTL,
            *map(str, command)]


@pytest.fixture(scope="session")
def slurm_nodes(request):
    """A controller (dsame-ctl) and two compute nodes (dsame-n1, dsame-n2), each in its own
    network namespace (slurm/nodes_slurm.sh); returns its folder. Skips (fails in CI) when it
    cannot start."""
    if os.geteuid() != 0:  # the tests run the driver inside the controller's namespaces
        machine.unavailable("the multi-node SLURM tests make network namespaces and run the driver in "
                            "them: run them as root")
    missing = [tool for tool in ("ip", "nsenter", "unshare") if not shutil.which(tool)]
    if missing:
        machine.unavailable(f"the multi-node SLURM tests need {', '.join(missing)} (iproute2, util-linux)")
    # Not while another test uses it: one may have taken a node down, and a start that then finds
    # the cluster not whole would build it again under that test.
    with _nodes_in_use_by_us():
        failed = _bring_up(request, [], NODES_SCRIPT, NODES_DIR, "SLURM_NODES_", NODE_DAEMONS, NETNS)
    if failed:
        machine.unavailable(f"cannot start the multi-node SLURM: {failed}")
    return NODES_DIR


@contextlib.contextmanager
def _nodes_in_use_by_us():
    NODES_DIR.mkdir(parents=True, exist_ok=True)
    with open(NODES_DIR / "use.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


@pytest.fixture
def nodes_to_ourselves(slurm_nodes):
    """One test at a time on the multi-node cluster (its two one-CPU nodes fit one run's
    worker jobs), whichever pytest-xdist worker runs it."""
    with _nodes_in_use_by_us():
        yield slurm_nodes


@pytest.fixture
def shared(nodes_to_ourselves):
    """A folder every host sees (the cluster's "shared file system"; /tmp is each node's own),
    removed after the test."""
    folder = NODES_DIR / "shared" / uuid.uuid4().hex[:8]
    folder.mkdir(parents=True)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def reference(tmp_path_factory):
    """The undisturbed run, on a LocalCluster (the archive does not depend on the cluster)."""
    from tests.pipeline.helpers import final_state, run_pipeline
    run_dir = tmp_path_factory.mktemp("slurm-reference") / "run"
    run_pipeline(run_dir=run_dir)
    return final_state(run_dir)
