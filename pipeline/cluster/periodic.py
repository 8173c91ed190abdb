"""What the cluster's watches share: one check at the start, then one every `every` seconds in a
daemon thread of the driver until stopped; a check that fails is logged, not fatal (a watch must
outlive a bad moment)."""
from __future__ import annotations

import logging
import threading

log = logging.getLogger(__name__)


class PeriodicCheck:
    def __init__(self, name: str, every: float):
        self.name, self.every = name, every
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, name=f"dsame-{name.replace(' ', '-')}", daemon=True)

    def start(self) -> None:
        self.check()
        self.thread.start()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def end(self) -> bool:
        """Stop checking from within a check (the run is closing; `stop` joins the thread, which a
        check runs in): True if this call ended the watch, False if it had ended already."""
        if self._stop.is_set():
            return False
        self._stop.set()
        return True

    def stop(self) -> None:
        self._stop.set()
        if self.thread.is_alive():
            self.thread.join(timeout=10)  # a stop's grace period is short; the thread is a daemon
        self.summary()

    def _loop(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.check()
            except Exception as exc:  # noqa: BLE001 - the watch must outlive a bad moment
                log.warning("%s: %s: %s", self.name, type(exc).__name__, exc)

    def check(self) -> None:
        raise NotImplementedError

    def summary(self) -> None:
        """What the watch says when it stops (nothing by default)."""
