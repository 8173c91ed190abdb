"""What the tests do to this machine, in one place. Some install Debian packages when missing
(Chromium for the report page, Mono for the SabberStone bridge, SLURM and munge for the SLURM
tests) and the SLURM tests start daemons and make network namespaces; each step is announced on
the terminal before it is taken, and the daemons and namespaces a session made are stopped and
removed when it ends. A test that needs root for
this skips with the reason when the user has neither root nor passwordless sudo, and fails in CI
(CI=true), where every test must run."""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


def unavailable(reason: str):
    """Skips the calling test (or fixture) with `reason`; in CI fails it instead."""
    if os.environ.get("CI", "").lower() in ("true", "1"):
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


def as_root() -> list[str] | None:
    """The prefix that runs a command as root: none for root, `sudo -n` with passwordless sudo;
    None when this user has neither."""
    if os.geteuid() == 0:
        return []
    if shutil.which("sudo") and subprocess.run(["sudo", "-n", "true"], capture_output=True,
                                               timeout=60).returncode == 0:
        return ["sudo", "-n"]
    return None


def announce(request, line: str) -> None:
    """Prints `line` on the terminal now, past pytest's capture (a pytest-xdist worker's
    stderr reaches the terminal too)."""
    with request.config.pluginmanager.getplugin("capturemanager").global_and_fixture_disabled():
        print(f"\n{line}", file=sys.stderr, flush=True)


def apt_install(request, packages, purpose: str, *options: str) -> None:
    """apt-get install `packages`, announced first, as root or through `sudo -n`."""
    names = " ".join(packages)
    root = as_root()
    if root is None:
        unavailable(f"not installed: {names}; installing it for {purpose} needs root or passwordless sudo")
    announce(request, f"tests: installing {names} with apt-get{' through sudo -n' if root else ''}, for {purpose}")
    apt = [*root, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "-q", "-o", "DPkg::Lock::Timeout=600"]
    subprocess.run([*apt, "update"], capture_output=True, timeout=600)
    done = subprocess.run([*apt, "install", "-y", *options, *packages], capture_output=True, text=True,
                          timeout=1200)
    if done.returncode != 0:
        unavailable(f"apt-get install {names} failed: {done.stderr.strip()[-300:]}")


# ------------------------------------------------------------------------------ daemons
def running(names) -> set[tuple[str, int]]:
    """(name, pid) of every process now running under one of `names` (not a zombie: a daemon's
    forked parent lingers as one until it is reaped)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()  # "pid (name) state ..."
            except OSError:  # ended meanwhile
                continue
            name, state = stat[stat.index("(") + 1:stat.rindex(")")], stat[stat.rindex(")") + 2]
            if name in names and state != "Z":
                found.add((name, int(entry.name)))
    return found


def stop(processes, root: list[str]) -> None:
    """SIGTERM, then SIGKILL after 10 s, to each (name, pid) still running under its name (a
    pid reused by another program is left alone)."""
    def alive():
        return [pid for name, pid in processes if (name, pid) in running({name})]

    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in alive():
            if root:  # started as root, through sudo
                subprocess.run([*root, "kill", f"-{sig.name[3:]}", str(pid)], capture_output=True, timeout=60)
            else:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, sig)
        end = time.monotonic() + 10
        while alive() and time.monotonic() < end:
            time.sleep(0.1)


# ------------------------------------------------------------------------------ network namespaces
def netns() -> set[str]:
    """The named network namespaces (`ip netns list`)."""
    try:
        return set(os.listdir("/run/netns"))
    except OSError:
        return set()


def remove_netns(names, root: list[str]) -> None:
    """Removes these network namespaces, which the tests made: first what still runs in them
    (a job step of a cancelled job), which only the tests can have started there."""
    for name in names:
        if name not in netns():
            continue
        pids = subprocess.run([*root, "ip", "netns", "pids", name], capture_output=True, text=True,
                              timeout=60).stdout.split()
        for pid in pids:
            subprocess.run([*root, "kill", "-KILL", pid], capture_output=True, timeout=60)
        subprocess.run([*root, "ip", "netns", "del", name], capture_output=True, timeout=60)
