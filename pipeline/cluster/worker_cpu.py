"""The CPU the worker processes spend, all of it (the games, their records, task set-up, Dask's own
work in the worker), set against the games they handed back: what a run's games cost as a whole,
beside what playing them alone costs (tools/run_overhead.py)."""
from __future__ import annotations

import time


class WorkerCPU:
    """`spent(client)`: the CPU seconds every worker process used since the last call, summed; a
    worker seen for the first time counts from its start (its engine's loading is the run's too).
    A worker lost between two calls takes its last stretch with it."""

    def __init__(self):
        self.seen: dict[str, float] = {}

    def spent(self, dask_client) -> float | None:
        """None when the workers could not be asked (one leaving as it is asked): a measurement
        never stops a run."""
        try:
            now = dask_client.run(time.process_time)
        except Exception:  # a worker lost mid-call raises whatever its comm raised
            return None
        spent = sum(cpu - self.seen.get(address, 0.0) for address, cpu in now.items())
        self.seen = now
        return spent
