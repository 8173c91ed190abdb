"""tests/machine.py: what the tests do to this machine is undone and refused as it says."""
import subprocess

import pytest

from tests import machine


def test_stop_ends_the_recorded_processes_and_no_other():
    ours, other, reused = (subprocess.Popen(["sleep", "60"]) for _ in range(3))
    try:
        # `reused` stands for a recorded daemon's pid that another program now has
        machine.stop({("sleep", ours.pid), ("munged", reused.pid)}, [])
        assert ours.wait(timeout=5) == -15  # SIGTERM
        assert other.poll() is None and reused.poll() is None
        assert machine.running({"sleep"}) >= {("sleep", other.pid), ("sleep", reused.pid)}
    finally:
        for proc in (ours, other, reused):
            proc.kill()
            proc.wait()


def test_unavailable_skips_with_the_reason_outside_ci_and_fails_in_ci(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="needs root"):
        machine.unavailable("needs root")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="needs root"):
        machine.unavailable("needs root")
