"""A watchdog no test outlives, loaded early (`-p tests.watchdog` in pyproject.toml's addopts).

pytest-timeout's signal ends a test stuck in Python code (after `timeout` seconds, or its
timeout mark), but no signal handler and no Python thread runs while C code holds the
interpreter: HDF5 looping on a damaged file once held a test for 45 minutes. faulthandler's
watchdog is a C thread: a minute past the test's limit it writes every thread's stack (the
stuck test's frame among them) to the real stderr and ends the process. Under xdist the run
then reports "worker crashed while running <test>" and goes on with a fresh worker."""
import faulthandler
import os

import pytest

# Seconds past pytest-timeout's own limit, which reports better where it can.
WATCHDOG_MARGIN = float(os.environ.get("DSAME_WATCHDOG_MARGIN", 60))
# Taken at import, before pytest's capture replaces file descriptor 2 (what is written there
# while a test runs is lost when the process ends).
_STDERR = os.fdopen(os.dup(2), "w")


def _limit(item) -> float:
    mark = item.get_closest_marker("timeout")
    if mark is not None and (mark.args or "timeout" in mark.kwargs):
        return float(mark.args[0] if mark.args else mark.kwargs["timeout"])
    return float(item.config.getini("timeout") or 0)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    limit = _limit(item)
    if limit > 0:
        faulthandler.dump_traceback_later(limit + WATCHDOG_MARGIN, exit=True, file=_STDERR)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
