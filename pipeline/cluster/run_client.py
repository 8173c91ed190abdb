"""The evaluation client of a run's config on its Dask cluster: the engine the config names,
checked before anything is played, and the games played as the config says. The driver's runs
and the report's transfer analysis both play through it."""
from __future__ import annotations

import sys
from pathlib import Path

from ..run_errors import ConfigError

_engine_checked: dict = {}


def engine_options(cfg) -> dict:
    """What the workers need to load the configured engine, checked once per process;
    ConfigError naming what is missing (SabberStone build, runtime, compiler) otherwise."""
    if cfg.engine.name == "builtin":
        return {}
    if cfg.engine.name == "scale_standin":
        table = Path(cfg.engine.table or "")
        if not cfg.engine.table or not table.is_file():
            raise ConfigError(f"engine=scale_standin needs engine.table=<a stand-in table>, such as "
                              f"python -m tools.scale writes; got {cfg.engine.table!r}")
        from workers.protocol.timed_standin import Table
        try:
            Table(str(table))
        except (OSError, ValueError, KeyError) as exc:
            raise ConfigError(f"engine.table {table} is not a stand-in table ({str(exc).splitlines()[0]})") from None
        return {"table_path": str(table.resolve())}
    key = (cfg.engine.name, cfg.engine.path)
    if key not in _engine_checked:
        from workers.sabberstone import SabberStoneSetupError
        from workers.sabberstone.checks import check
        try:
            _engine_checked[key] = {"path": check(cfg.engine.path)["folder"]}
        except SabberStoneSetupError as exc:
            raise ConfigError(str(exc)) from None
    return _engine_checked[key]


def game_settings(cfg) -> dict:
    """How a run's games are played, as evaluation.task_options takes it: the evaluated player and
    its settings, the opponents, the engine (checked: engine_options)."""
    return {"player": cfg.strategy.player, "strategy": evaluated_strategy(cfg),
            "beam_depth": int(cfg.strategy.beam_depth), "beam_width": int(cfg.strategy.beam_width),
            "hide_deck_order": bool(cfg.strategy.hide_deck_order), "opponents_path": cfg.opponents.path,
            "engine": cfg.engine.name, "engine_options": engine_options(cfg)}


class cluster_and_client:
    """Context manager: the Dask cluster of the config and an EvaluationClient on it."""

    def __init__(self, cfg, space, client=None):
        self.cfg, self.space, self.client = cfg, space, client

    def __enter__(self):
        import contextlib

        from .clusters import open_cluster, planned_slots
        from .evaluation import EvaluationClient
        self._ctx = open_cluster(self.cfg.cluster) if self.client is None else contextlib.nullcontext(self.client)
        client = self._ctx.__enter__()
        try:
            return EvaluationClient(
                client, self.space, run_seed=int(self.cfg.seed), games=int(self.cfg.opponents.games),
                games_per_task=self.cfg.cluster.games_per_task, **game_settings(self.cfg),
                max_resubmits=int(self.cfg.cluster.max_retries),
                max_failed_share=float(self.cfg.cluster.max_failed_share),
                slots=planned_slots(self.cfg.cluster, started_here=self.client is None))
        except BaseException:
            self._ctx.__exit__(*sys.exc_info())
            raise

    def __exit__(self, *exc):
        return self._ctx.__exit__(*exc)


def evaluated_strategy(cfg) -> str:
    """strategy.evaluated for the workers: a weights file as an absolute path, so a worker
    started in another folder (SLURM) reads the same file."""
    value = cfg.strategy.evaluated
    return str(Path(value).resolve()) if value.endswith(".json") else value
