"""SIGINT and SIGTERM as a `Stopped` exit, raised in the main thread, so that `with` blocks close
the cluster on the way out; blocks that must not be left half done defer it to their end."""
from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading


class Stopped(SystemExit):
    """SIGINT or SIGTERM as an exit: a SystemExit, so no `except Exception` on the way swallows
    it and a caller that does not catch it exits quietly with the conventional 128 + signal."""

    def __init__(self, signum: int, reason: str | None = None):
        super().__init__(STOPPED_BY_THE_RUN if reason else 128 + signum)
        self.signum, self.reason = signum, reason  # reason: why the run stopped itself (stop_run)
        self.signal_name = signal.Signals(signum).name


STOPPED_BY_THE_RUN = 2  # the exit status of a run that stopped itself (stop_run), as for an error


# Process-wide, as signal handlers are: read and changed only through the functions below.
_STOP = {"installed": False, "deferring": 0, "pending": None, "stopping": False, "reason": None}


def _on_signal(signum, frame) -> None:
    if _STOP["stopping"] or _STOP["pending"] is not None:
        return  # already on the way out: let closing the cluster finish
    if _STOP["deferring"]:
        _STOP["pending"] = signum
        return
    _STOP["stopping"] = True
    raise Stopped(signum, _STOP["reason"])


@contextlib.contextmanager
def stop_on_signals():
    """SIGINT (Ctrl-C) and SIGTERM (kill, scancel, a batch system's time limit) raise Stopped in
    the main thread, so `with` blocks close the cluster (a SLURM cluster cancels its worker jobs).
    Nested uses and other threads leave the first one in charge."""
    if _STOP["installed"] or threading.current_thread() is not threading.main_thread():
        yield
        return
    _STOP.update(installed=True, deferring=0, pending=None, stopping=False, reason=None)
    previous = {s: signal.signal(s, _on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    previous_hook, sys.unraisablehook = sys.unraisablehook, _stop_again(sys.unraisablehook)
    try:
        yield
    finally:
        sys.unraisablehook = previous_hook
        for s, handler in previous.items():
            # once stopping, a second signal must not cut the exit short (exit code, clean-up)
            signal.signal(s, signal.SIG_IGN if _STOP["stopping"] else handler)
        _STOP["installed"] = False


def _stop_again(hook):
    """Python drops an exception raised where it cannot propagate (a garbage-collector callback,
    a __del__): a Stopped lost there is signalled again a moment later, after this hook has
    returned (and again, should it land in such a place once more)."""
    def unraisable(info):
        if isinstance(info.exc_value, Stopped):
            _STOP["stopping"] = False
            again = threading.Timer(0.1, os.kill, (os.getpid(), info.exc_value.signum))
            again.daemon = True
            again.start()
        else:
            hook(info)
    return unraisable


@contextlib.contextmanager
def stops_deferred():
    """A stop that arrives inside this block takes effect when it ends: a file being written (a
    checkpoint, a report) or a cluster being started is finished, not left half done."""
    _STOP["deferring"] += 1
    try:
        yield
    finally:
        _STOP["deferring"] -= 1
    if not _STOP["deferring"] and stop_pending() and not _STOP["stopping"]:
        raise take_pending_stop()


def stop_pending() -> bool:
    """Whether a stop arrived inside a stops_deferred block and waits for its end."""
    return _STOP["pending"] is not None


def take_pending_stop() -> Stopped:
    """The pending stop as the exception to raise now, the exit marked as under way: for a
    deferring block that must not go on (a retry of what the stop may have broken)."""
    _STOP["stopping"] = True
    return Stopped(_STOP["pending"], _STOP["reason"])


def stop_run(reason: str) -> bool:
    """From any thread: the run stops as on SIGTERM (a stop deferred to the end of a write, a
    last checkpoint, the cluster closed), but says `reason` and exits with STOPPED_BY_THE_RUN: for
    a watch that finds the run cannot go on. False when no stop_on_signals block runs."""
    if not _STOP["installed"]:
        return False
    _STOP["reason"] = reason
    signal.pthread_kill(threading.main_thread().ident, signal.SIGTERM)  # wakes a main thread that waits
    return True


def close_quietly(close) -> None:
    """Calls `close` on the way out: its failure must not hide why the run ends (a Stopped, a
    SystemExit, still goes through)."""
    with contextlib.suppress(Exception):
        close()
