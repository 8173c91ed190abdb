"""The workers of a scheduler the pipeline did not start (cluster.kind=address), watched: in the
single-allocation script (slurm/dsa_me_srun.sbatch) these are the srun tasks of the allocation,
which nothing starts again when their node goes down. WorkerWatch says which node lost how many
workers, and at the end how many were lost in the run; their tasks already run again on the
others (the scheduler reschedules them, the evaluation client resubmits a task that failed)."""
from __future__ import annotations

import contextlib
import functools
import socket
import time

from .events import say
from .periodic import PeriodicCheck
from .stops import stop_run


def scheduler_workers(client) -> dict:
    """Worker address -> its info, as the scheduler has them now. Asked of the scheduler itself,
    not through `client.scheduler_info()`: that returns the client's shared cached copy, which its
    own periodic refresh (every 2 s) overwrites with an identity that lists no worker; a look that
    crossed such a refresh saw every worker gone (the srun test said a live worker lost)."""
    return client.sync(client.scheduler.identity, n_workers=-1)["workers"]


@functools.lru_cache(maxsize=1024)
def node_name(host: str) -> str:
    """The name of the host at address `host` (the cluster's hosts file or DNS), else the address."""
    with contextlib.suppress(OSError, UnicodeError):
        return socket.gethostbyaddr(host)[0]
    return host


class WorkerWatch(PeriodicCheck):
    """Every `every` seconds, the scheduler's workers compared with the last look: the workers
    that left are said, one line per node. When every worker has left and none has come back
    for `lost_after` seconds, the run is stopped (`give_up`: a last checkpoint, one error line)
    rather than waiting on an empty scheduler until the allocation's time limit. Runs in a thread
    of the driver; `workers`, `node_of`, `clock`, `emit` and `give_up` are what it asks the
    scheduler, names a host with, reads the time from, says with and stops the run with (a test
    passes its own)."""

    def __init__(self, workers, *, every: float, lost_after: float, node_of=node_name, clock=time.monotonic,
                 emit=say, give_up=stop_run):
        super().__init__("worker watch", every)
        self.workers, self.lost_after = workers, lost_after
        self.node_of, self.clock, self.emit, self.give_up = node_of, clock, emit, give_up
        self.seen: dict[str, str] = {}  # worker address -> its node
        self.lost = 0
        self.empty_since: float | None = None  # when the last worker left

    def summary(self) -> None:
        if self.lost:
            self.emit(f"{self.lost} worker(s) lost in this run")

    def check(self) -> None:
        if self.stopped:
            return
        now = self.clock()
        current = dict(self.workers())
        for address, info in current.items():
            if address not in self.seen:
                self.seen[address] = self.node_of(str(info.get("host") or address))
        gone: dict[str, list[str]] = {}
        for address in [a for a in self.seen if a not in current]:
            gone.setdefault(self.seen.pop(address), []).append(address)
        for node, addresses in gone.items():
            self.lost += len(addresses)
            left_there = sum(n == node for n in self.seen.values())
            self.emit(f"lost {len(addresses)} worker(s) on {node} ({', '.join(sorted(addresses))}), "
                      f"{left_there or 'none'} left there; their tasks run again on the {len(current)} worker(s) "
                      "left, and nothing starts them again in this allocation")
        if current or not self.lost:
            self.empty_since = None
        elif self.empty_since is None:
            self.empty_since = now
        if self.empty_since is not None and now - self.empty_since >= self.lost_after:
            self.end()
            self.give_up(f"every worker of the scheduler has left ({self.lost} lost) and none has come back for "
                         f"{now - self.empty_since:.0f} s")
