"""What runs inside a Dask worker process: the engine, loaded once, playing chunks of games."""
from __future__ import annotations

import importlib
import time
from typing import Sequence

from distributed.diagnostics.plugin import WorkerPlugin

_opponents_by_path: dict = {}

# engine.name -> the module a worker plays with (play_sums, warm_up);
# scale_standin plays no game (workers/protocol/timed_standin.py: `make scale` only)
ENGINES = {"builtin": "workers.protocol.evaluate", "sabberstone": "workers.sabberstone.engine",
           "scale_standin": "workers.protocol.timed_standin"}


# A worker plays one long task after another, and Dask's own timers each take the GIL from its
# games: the sampling profiler every 10 ms, the event loop's tick every 20 ms, the system monitor
# every 0.5 s. At those intervals a protocol game cost 10-20% more CPU in a worker than alone
# (docs/pipeline.md#worker-cpu); nothing here reads the profile, and the tick and monitor only
# need to notice a stuck loop and draw the dashboard's plots.
WORKER_CONFIG = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "1s",
                 "distributed.admin.system-monitor.interval": "5s"}


def worker_config_exports() -> list[str]:
    """WORKER_CONFIG as the shell lines of a worker job's script (Dask reads its config from the
    environment: DASK_ + the key's parts joined by __)."""
    return [f"export DASK_{'__'.join(part.upper().replace('-', '_') for part in key.split('.'))}={value}"
            for key, value in WORKER_CONFIG.items()]


def engine(name: str = "builtin"):
    """The engine module (imported once per process; later calls are a dict lookup)."""
    return importlib.import_module(ENGINES[name])


def opponents(path: str | None):
    """The opponents' decks, read once per process; decks are data, so the built-in engine's
    loader serves every engine."""
    if path not in _opponents_by_path:
        _opponents_by_path[path] = engine().load_opponents(path) if path else engine().default_opponents()
    return _opponents_by_path[path]


def play_chunk(deck: Sequence[str], game_indices: Sequence[int], seed: int, options: dict):
    """Play some of an evaluation's games; returns (their ChunkSums, seconds spent playing)."""
    opp = opponents(options.get("opponents_path"))
    play_sums = engine(options.get("engine", "builtin")).play_sums
    start = time.perf_counter()
    sums = play_sums(deck, game_indices, seed, player=options["player"], strategy=options["strategy"],
                     opponents=opp, stat_overrides=options.get("stat_overrides"),
                     beam_depth=options["beam_depth"], beam_width=options["beam_width"],
                     hide_deck_order=options.get("hide_deck_order", False),
                     hero_class=options.get("hero_class", "ROGUE"),
                     **options.get("engine_options", {}))
    return sums, time.perf_counter() - start


class EngineLoader(WorkerPlugin):
    """Imports and warms the engine in every worker process when it starts."""

    name = "dsame-engine-loader"

    def __init__(self, opponents_path: str | None, stat_overrides: dict | None,
                 engine_name: str = "builtin", engine_options: dict | None = None):
        self.opponents_path = opponents_path
        self.stat_overrides = stat_overrides
        self.engine_name = engine_name
        self.engine_options = engine_options or {}

    def setup(self, worker):
        engine(self.engine_name).warm_up(self.stat_overrides, **self.engine_options)
        opponents(self.opponents_path)
