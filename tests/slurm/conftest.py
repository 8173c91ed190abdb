"""A real one-node SLURM on this machine (slurm/local_slurm.sh), shared by the tests of this
folder and by both pytest-xdist workers: the first user starts it, the last one stops it."""
import contextlib
import fcntl
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "slurm" / "local_slurm.sh"
STATE_DIR = Path(os.environ.get("SLURM_LOCAL_DIR", "/tmp/dsame-slurm"))
USERS = STATE_DIR.parent / (STATE_DIR.name + ".users")


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


@pytest.fixture(scope="session")
def slurm():
    """SLURM_CONF of the running local cluster; skips (fails in CI) when it cannot start."""
    with _exclusive():
        done = subprocess.run(["bash", str(SCRIPT), "start", str(STATE_DIR)], capture_output=True,
                              text=True, timeout=900)
        if done.returncode != 0:
            reason = f"cannot start a local SLURM: {(done.stderr or done.stdout).strip()[-500:]}"
            if os.environ.get("CI", "").lower() == "true":
                pytest.fail(reason)
            pytest.skip(reason)
        USERS.write_text(" ".join(str(p) for p in _users() | {os.getpid()}))
    conf = str(STATE_DIR / "slurm.conf")
    os.environ["SLURM_CONF"] = conf
    yield conf
    with _exclusive():
        left = _users() - {os.getpid()}
        USERS.write_text(" ".join(map(str, left)))
        if not left:
            subprocess.run(["bash", str(SCRIPT), "stop", str(STATE_DIR)], capture_output=True, timeout=120)
