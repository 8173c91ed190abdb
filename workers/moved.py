"""Module paths that moved when the packages were laid out by concern (November 2026), or were
renamed since: an old path (`python -m workers.tournament`, `import workers.evaluate`) fails with
one line naming the new one instead of a bare "No module named"."""
from __future__ import annotations

import sys
from importlib.abc import MetaPathFinder

MOVED = {
    "workers.tally": "workers.players.game_counters", "workers.scores": "workers.players.scores",
    "workers.mcts": "workers.players.mcts", "workers.value_player": "workers.players.value_beam",
    "workers.player_specs": "workers.players.specs", "workers.encoders": "workers.players.encoders",
    "workers.values": "workers.learning.value_training (network: workers.players.value_model; "
                      "command: python -m tools.values)",
    "workers.states": "workers.learning.state_log (command: python -m tools.states)",
    "workers.gym_env": "workers.learning.gym_env", "workers.evaluate": "workers.protocol.evaluate",
    "workers.results": "workers.protocol.results", "workers.class_pools": "workers.engine.class_pools",
    "workers.bench": "tools.bench", "workers.fidelity": "tools.fidelity",
    "workers.compare_engines": "tools.compare_engines", "workers.soak": "tools.soak",
    "workers.invariants": "tools.invariants", "workers.tournament": "tools.tournament",
    "pipeline.training": "workers.learning.training", "pipeline.class_pools": "workers.engine.class_pools",
    "pipeline.bench": "tools.bench", "pipeline.fuzz_inputs": "tools.fuzz_inputs",
    "pipeline.evaluation": "pipeline.cluster.evaluation", "pipeline.worker_tasks": "pipeline.cluster.worker_tasks",
    "pipeline.config": "pipeline.state.config", "pipeline.checkpoint": "pipeline.state.checkpoint",
    "pipeline.run_dir": "pipeline.state.run_dir", "pipeline.strategy_search": "pipeline.search.strategy_search",
    "pipeline.archives": "pipeline.search.archives", "pipeline.emitters": "pipeline.search.emitters",
    "pipeline.inner_loop": "pipeline.search.inner_loop", "pipeline.inner_kernel": "pipeline.search.inner_kernel",
    "pipeline.surrogate": "pipeline.search.surrogate", "pipeline.reports": "pipeline.search.run_files",
    "pipeline.analysis": "pipeline.report.analysis",
    # renamed so that no two modules share a file name (the players' and learning's own)
    "workers.players.tally": "workers.players.game_counters",
    "workers.players.ppo": "workers.players.ppo_player (training: python -m workers.learning.ppo)",
    "workers.learning.states": "workers.learning.state_log (command: python -m tools.states)",
    "workers.learning.values": "workers.learning.value_training (command: python -m tools.values)",
    "workers.protocol.tally": "workers.protocol.chunk_sums", "pipeline.errors": "pipeline.run_errors",
    "tools.bench.engine": "tools.bench.engine_costs",
}


class MovedModuleFinder(MetaPathFinder):
    """Asked only after the real finders found nothing (it is last on sys.meta_path)."""

    def find_spec(self, name, path=None, target=None):
        new = MOVED.get(name)
        if new is None:
            return None
        raise ModuleNotFoundError(f"{name} has moved to {new}", name=name)


def install() -> None:
    if not any(isinstance(f, MovedModuleFinder) for f in sys.meta_path):
        sys.meta_path.append(MovedModuleFinder())
