"""Fixtures of the SabberStone tests: Mono's compiler and runtime (installed from Debian when
missing, as CI does), and the STAND-IN SabberStoneCore.dll and SabberStoneBasicAI.dll compiled
from SabberStoneCoreStandIn.cs and SabberStoneBasicAIStandIn.cs (the real SabberStone cannot be
built or fetched here)."""
from __future__ import annotations

import fcntl
import shutil
import subprocess
from pathlib import Path

import pytest

from tests import machine

HERE = Path(__file__).resolve().parent
STAND_IN_CORE = HERE / "SabberStoneCoreStandIn.cs"
STAND_IN_AI = HERE / "SabberStoneBasicAIStandIn.cs"
MONO_PACKAGES = ("mono-devel", "libmono-2.0-1")  # mcs, the runtime, netstandard facade, libmonosgen
NETSTANDARD = Path("/usr/lib/mono/4.5/Facades/netstandard.dll")


def _mono_ready() -> bool:
    import ctypes.util
    return bool(shutil.which("mcs") and shutil.which("mono") and NETSTANDARD.is_file()
                and ctypes.util.find_library("monosgen-2.0"))


@pytest.fixture(scope="session")
def mono(request):
    """Mono's mcs and runtime, installed from Debian once per machine if missing (a file lock
    keeps xdist workers in line); in CI a failure fails, elsewhere it skips."""
    with open("/tmp/dsame-mono-install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not _mono_ready():
            machine.apt_install(request, MONO_PACKAGES, "the SabberStone tests", "--no-install-recommends")
    if not _mono_ready():
        machine.unavailable("Mono installed but mcs/mono/netstandard.dll/libmonosgen missing")
    return shutil.which("mcs")


@pytest.fixture(scope="session")
def stand_in_dir(mono, tmp_path_factory) -> Path:
    """A folder holding the STAND-IN SabberStoneCore.dll and SabberStoneBasicAI.dll (not
    SabberStone: a toy game and a toy planner with its API)."""
    folder = tmp_path_factory.mktemp("sabberstone-stand-in")
    core, ai = folder / "SabberStoneCore.dll", folder / "SabberStoneBasicAI.dll"
    for out, source, refs in ((core, STAND_IN_CORE, []), (ai, STAND_IN_AI, [f"-r:{core}"])):
        done = subprocess.run([mono, "-nologo", "-target:library", f"-out:{out}", "-r:System.Core.dll", *refs,
                               str(source)], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
    return folder


@pytest.fixture
def cache_env(tmp_path, monkeypatch):
    """A private bridge cache, so tests never reuse a bridge compiled elsewhere."""
    monkeypatch.setenv("DSAME_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SABBERSTONE_RUNTIME", raising=False)
    return tmp_path / "cache"
