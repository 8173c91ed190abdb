"""The config's schema: every key and its type, the allowed values, and the identity of a run.

Hydra already refuses `key=value` for a key that does not exist; this schema also catches
added keys (`+algorithm.foo=1`), wrong types and values out of range, each as one line that
names the key.
"""
from __future__ import annotations

import hashlib
import math
import re
import socket
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException

from workers.engine.class_pools import DECK_SIZE, HERO_CLASSES  # both engines play 30-card decks

from ..behavior_space import (DEFAULT_DIMS, DEFAULT_MEASURES, DEFAULT_OBJECTIVE, DEFAULT_RANGES,
                               KNOWN_OBJECTIVE_RANGES, STATISTICS)
from ..cluster.local import usable_cores
from ..run_errors import ConfigError
from ..stat_overrides import check_entries

SCORE_NAMES = ("nn", "aggro", "control")


@dataclass
class OfflineCfg:
    source: str = "none"
    path: Optional[str] = None
    epochs: int = 20


@dataclass
class InnerCfg:
    iterations: int = 100000
    batch_size: int = 10
    initial: int = 100
    mode: str = "serial"  # serial: the paper's chain | batched: steps of step_decks on every core
    step_decks: int = 1000
    threads: Optional[int] = None  # the batched mode's threads; null: chosen by timing (no result depends on it)


@dataclass
class AlgorithmCfg:
    name: str = "dsa_me"
    kind: str = "surrogate"
    budget: int = 10000
    initial: int = 100
    batch_size: int = 100
    checkpoint_every: int = 100
    model: str = "mlp"
    targets: int = 3
    reset: bool = True
    skip_evaluated: bool = False
    train_online: bool = True
    steady_state: bool = False  # surrogate kinds: the steady-state loop (the workers' queue never runs dry)
    overlap: Optional[bool] = None  # steady_state's name until 2026-11: still read, with a notice
    lag: Any = "auto"  # steady state: decks in flight beyond each surrogate's data; auto = 3 per worker slot, resolved when a run starts
    min_batch: Any = "auto"  # steady state: decks each outer iteration queues at least (mutants fill up); auto = lag / 2
    offline: OfflineCfg = field(default_factory=OfflineCfg)
    inner: InnerCfg = field(default_factory=InnerCfg)


@dataclass
class SurrogateCfg:
    hidden: list[int] = field(default_factory=lambda: [128, 32, 16])
    lr: float = 0.01
    batch_size: int = 64
    epochs: int = 20
    val_fraction: float = 0.1
    device: str = "auto"


@dataclass
class EngineCfg:
    name: str = "builtin"
    path: Optional[str] = None  # engine=sabberstone: the folder holding SabberStoneCore.dll
    table: Optional[str] = None  # engine=scale_standin (make scale only): its table of real evaluations


@dataclass
class ClusterCfg:
    kind: str = "local"
    n_workers: Optional[int] = None
    games_per_task: Any = "auto"  # or a count; auto: from the worker slots (pipeline/cluster/evaluation.py)
    max_retries: int = 3
    dashboard: bool = False  # the Dask dashboard: off, since every local user could open it
    dashboard_address: Optional[str] = None
    address: Optional[str] = None
    jobs: int = 0
    max_failed_share: float = 0.05  # games of one evaluation that may fail in the engine
    slurm: dict[str, Any] = field(default_factory=dict)


@dataclass
class DeckSpaceCfg:
    hero_class: str = "ROGUE"  # the class whose decks are searched (workers/engine/class_pools.py)
    pool: Optional[str] = None
    use_stat_overrides: bool = False  # the pool file's stat_overrides (Rogue: the four classic values)
    deck_size: int = DECK_SIZE
    # [{card: NAME or ID, cost: N, attack: N, health: N}, ...], on top of the above
    # (pipeline/stat_overrides.py; the preset deck_space=rogue_classic_values)
    stat_overrides: list[Any] = field(default_factory=list)


@dataclass
class OpponentsCfg:
    path: Optional[str] = None
    games: int = 200


@dataclass
class StrategyCfg:
    player: str = "beam"
    evaluated: str = "nn"
    beam_depth: int = 13
    beam_width: int = 4
    hide_deck_order: bool = False  # beam players plan on reshuffled decks (builtin engine only)


@dataclass
class StrategySearchCfg:
    """algorithm.kind=cma_me: CMA-ME over the evaluated player's network weights
    (pipeline/search/strategy_search.py); the deck is fixed, the weights are the solutions."""
    deck: Optional[str] = None  # the fixed deck (a deck file); null: Miracle Rogue
    emitters: int = 15
    batch_size: int = 37        # solutions per emitter and iteration
    sigma0: float = 0.05
    ranker: str = "imp"         # improvement ranking
    es: str = "cma_es"
    x0: str = "zeros"           # the initial point: zeros, or a weights .json file


@dataclass
class ArchiveCfg:
    # The defaults are the paper's space (pipeline/behavior_space.py, DEFAULT_*).
    objective: str = DEFAULT_OBJECTIVE  # a statistic's name (pipeline/behavior_space.py: STATISTICS)
    measures: list[str] = field(default_factory=lambda: list(DEFAULT_MEASURES))  # 1 to 3 names
    objective_range: Optional[list[float]] = None  # for the QD-score; null: known for health_difference, win_rate
    type: str = "grid"  # grid | sliding (Fontaine et al. 2019) | cvt (pyribs' CVTArchive)
    dims: list[int] = field(default_factory=lambda: list(DEFAULT_DIMS))
    ranges: list[list[float]] = field(default_factory=lambda: [list(r) for r in DEFAULT_RANGES])
    start_dims: Optional[list[int]] = None  # sliding: cells per measure at the start (null: dims)
    remap_every: Optional[int] = None  # sliding: evaluations between redraws of the boundaries
    cells: Optional[int] = None  # cvt: centroids


@dataclass
class ReportCfg:
    best_decks: int = 10
    strategy_elites: bool = False  # strategy runs: also one weights file per archive cell


@dataclass
class RootCfg:
    name: str = "default"
    seed: int = 0
    run_dir: Optional[str] = None
    deck_file: Optional[str] = None
    progress: bool = True
    algorithm: AlgorithmCfg = field(default_factory=AlgorithmCfg)
    surrogate: SurrogateCfg = field(default_factory=SurrogateCfg)
    engine: EngineCfg = field(default_factory=EngineCfg)
    cluster: ClusterCfg = field(default_factory=ClusterCfg)
    deck_space: DeckSpaceCfg = field(default_factory=DeckSpaceCfg)
    opponents: OpponentsCfg = field(default_factory=OpponentsCfg)
    strategy: StrategyCfg = field(default_factory=StrategyCfg)
    archive: ArchiveCfg = field(default_factory=ArchiveCfg)
    report: ReportCfg = field(default_factory=ReportCfg)
    strategy_search: Optional[StrategySearchCfg] = None  # set by the strategy_* experiments


CHOICES = {
    "algorithm.kind": ("map_elites", "random_search", "surrogate", "cma_me"),
    "algorithm.model": ("mlp", "linear"),
    "algorithm.targets": (3, 12),
    "algorithm.offline.source": ("none", "data", "model"),
    "algorithm.inner.mode": ("serial", "batched"),
    "engine.name": ("builtin", "sabberstone", "scale_standin"),
    "cluster.kind": ("local", "slurm", "address"),
    "deck_space.hero_class": HERO_CLASSES,
}
STRATEGY_CHOICES = {"strategy_search.ranker": ("imp", "2imp", "rd", "2rd", "obj", "2obj"),
                    "strategy_search.es": ("cma_es", "sep_cma_es", "lm_ma_es", "openai_es")}


@dataclass(frozen=True)
class Range:
    """Allowed numbers: finite, from `low` to `high`, each end included unless open."""
    low: float
    high: float
    low_open: bool = False
    high_open: bool = False

    def __contains__(self, value) -> bool:
        if isinstance(value, float) and not math.isfinite(value):
            return False
        return ((value > self.low if self.low_open else value >= self.low)
                and (value < self.high if self.high_open else value <= self.high))

    def __str__(self) -> str:
        return f"{'(' if self.low_open else '['}{self.low:g}, {self.high:g}{')' if self.high_open else ']'}"


# Every number of the config. The upper ends are far beyond any real run; they stop a typo
# (an extra zero or three) from becoming a run that never ends or exhausts memory.
RANGES = {
    "seed": Range(0, 2 ** 63 - 1),
    "algorithm.budget": Range(1, 10 ** 7),
    "algorithm.initial": Range(0, 10 ** 7),
    "algorithm.batch_size": Range(1, 10 ** 6),
    "algorithm.checkpoint_every": Range(1, 10 ** 7),
    "algorithm.offline.epochs": Range(0, 10 ** 5),
    "algorithm.inner.iterations": Range(0, 10 ** 9),
    "algorithm.inner.batch_size": Range(1, 10 ** 5),
    "algorithm.inner.initial": Range(0, 10 ** 7),
    "algorithm.inner.step_decks": Range(1, 10 ** 6),
    "surrogate.lr": Range(0, 10, low_open=True),
    "surrogate.batch_size": Range(1, 10 ** 6),
    "surrogate.epochs": Range(0, 10 ** 5),
    "surrogate.val_fraction": Range(0, 1, high_open=True),
    "cluster.max_retries": Range(0, 100),
    "cluster.jobs": Range(0, 10 ** 4),
    "cluster.max_failed_share": Range(0, 1),
    "opponents.games": Range(1, 10 ** 6),
    "strategy.beam_depth": Range(1, 100),
    "strategy.beam_width": Range(1, 100),
    "report.best_decks": Range(1, 10 ** 4),
}
STRATEGY_RANGES = {
    "strategy_search.emitters": Range(1, 10 ** 4),
    "strategy_search.batch_size": Range(2, 10 ** 5),
    "strategy_search.sigma0": Range(0, 100, low_open=True),
}
OPTIONAL_RANGES = {"cluster.n_workers": Range(1, 10 ** 4),  # null: one worker per core
                   # absent or null: pipeline/cluster/slurm.py's default
                   "cluster.slurm.max_failed_jobs": Range(1, 10 ** 4),
                   "algorithm.inner.threads": Range(1, 10 ** 4)}
AUTO_RANGES = {"algorithm.lag": Range(0, 10 ** 7), "algorithm.min_batch": Range(0, 10 ** 7),
               "cluster.games_per_task": Range(1, 10 ** 5)}  # or "auto"
# A local cluster beyond this only thrashes: each worker is a process with its own engine.
LOCAL_WORKERS_PER_CORE, MIN_LOCAL_WORKERS = 4, 16
MAX_CELLS = 250_000  # archive cells; each costs about 500 bytes in the surrogate archive
MAX_HIDDEN_LAYERS = 3  # the inner loop's compiled network takes at most 4 linear layers
MAX_WIDTH = 4096
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")  # part of a folder name
DEVICE = re.compile(r"auto|cpu|mps|cuda(:[0-9]{1,2})?")
ADDRESS = re.compile(r"(tcp|tls|ucx|ws|wss)://(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):([0-9]{1,5})")
DASHBOARD = re.compile(r"(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]*):([0-9]{1,5})")
PATHS = ("run_dir", "deck_file", "deck_space.pool", "opponents.path", "algorithm.offline.path",
         "engine.path", "strategy_search.deck")
# Keys added after the first runs (November 2026: behaviour spaces, card changes as data), per
# section with their defaults: at their defaults they leave a run's identity as it was.
KEYS_ADDED = {"archive": {"objective": DEFAULT_OBJECTIVE, "measures": list(DEFAULT_MEASURES),
                          "objective_range": None, "type": "grid", "start_dims": None, "remap_every": None,
                          "cells": None},
              "deck_space": {"stat_overrides": []},
              "algorithm.inner": {"mode": "serial", "step_decks": 1000}}
# Keys that do not change what a run computes: they may differ when a run is resumed.
NOT_IDENTITY = ("cluster", "progress", "run_dir", "report", "hydra")


def validate(cfg: DictConfig) -> DictConfig:
    """The config merged onto the schema (types checked), with every value checked; the first
    problem is a ConfigError naming the key. Reads no file (see check_inputs)."""
    plain = OmegaConf.to_container(cfg, resolve=False)
    plain.pop("hydra", None)
    _read_renamed_keys(plain)
    _check_booleans(plain, RootCfg())
    _ranges_as_floats(plain)
    try:
        checked = OmegaConf.merge(OmegaConf.structured(RootCfg), plain)
        OmegaConf.resolve(checked)
    except OmegaConfBaseException as exc:
        key = getattr(exc, "full_key", None) or ""
        message = str(exc).splitlines()[0]
        raise ConfigError(f"bad config{' key ' + key if key else ''}: {message}") from None
    _check_choices(checked, CHOICES)
    _check_numbers(checked)
    _check_strings(checked)
    _check_evaluated(checked)
    _check_strategy_search(checked)
    _check_archive(checked.archive)
    _check_hidden(checked.surrogate.hidden)
    _check_player(checked)
    _check_combinations(checked)
    check_entries(OmegaConf.to_container(checked.deck_space.stat_overrides))
    return checked


def _read_renamed_keys(plain: dict) -> None:
    """algorithm.overlap, set, is read as algorithm.steady_state (its new name), with a notice."""
    algo = plain.get("algorithm")
    if isinstance(algo, dict) and algo.get("overlap") is not None:
        value = algo.pop("overlap")
        if not isinstance(value, bool):
            raise ConfigError(f"algorithm.overlap (now algorithm.steady_state) must be true or false, got {value!r}")
        print(f"notice: algorithm.overlap is now called algorithm.steady_state; read as "
              f"algorithm.steady_state={str(value).lower()}", file=sys.stderr)
        algo["steady_state"] = value


def _check_booleans(plain: dict, schema, prefix: str = "") -> None:
    """Booleans must be written true or false (not 1, "yes", ...)."""
    for name, default in vars(schema).items():
        value = plain.get(name) if isinstance(plain, dict) else None
        key = f"{prefix}{name}"
        if isinstance(default, bool) and name in (plain or {}):
            if not isinstance(value, bool) and not (isinstance(value, str) and value.startswith("${")):
                raise ConfigError(f"{key} must be true or false, got {value!r}")
        elif hasattr(default, "__dataclass_fields__") and isinstance(value, dict):
            _check_booleans(value, default, key + ".")


def _ranges_as_floats(plain: dict) -> None:
    """archive.ranges=[[5,15],[1,7]] means floats: accept the integers as written."""
    ranges = (plain.get("archive") or {}).get("ranges") if isinstance(plain.get("archive"), dict) else None
    if isinstance(ranges, list):
        plain["archive"]["ranges"] = [
            [float(v) if isinstance(v, int) and not isinstance(v, bool) else v for v in r]
            if isinstance(r, list) else r for r in ranges]


def _check_choices(cfg: DictConfig, choices: dict) -> None:
    for key, allowed in choices.items():
        value = OmegaConf.select(cfg, key)
        if value not in allowed:
            raise ConfigError(f"{key}={value!r} is not one of {', '.join(map(str, allowed))}")


def _check_ranges(cfg: DictConfig, ranges: dict) -> None:
    for key, allowed in ranges.items():
        value = OmegaConf.select(cfg, key)
        if value not in allowed:
            raise ConfigError(f"{key} must be a finite number in {allowed}, got {value}")


def _check_numbers(cfg: DictConfig) -> None:
    _check_ranges(cfg, RANGES)
    for key, allowed in OPTIONAL_RANGES.items():
        value = OmegaConf.select(cfg, key)
        if value is not None and not (isinstance(value, int) and not isinstance(value, bool) and value in allowed):
            raise ConfigError(f"{key} must be null or a whole number in {allowed}, got {value!r}")
    for key, allowed in AUTO_RANGES.items():
        value = OmegaConf.select(cfg, key)
        if value != "auto" and not (isinstance(value, int) and not isinstance(value, bool) and value in allowed):
            raise ConfigError(f"{key} must be auto or a whole number in {allowed}, got {value!r}")
    workers, most = cfg.cluster.n_workers, max(MIN_LOCAL_WORKERS, LOCAL_WORKERS_PER_CORE * usable_cores())
    if cfg.cluster.kind == "local" and workers is not None and workers > most:
        raise ConfigError(f"cluster.n_workers={workers} is more than the {most} worker processes "
                          f"a local cluster may start on this machine ({usable_cores()} cores)")
    if cfg.deck_space.deck_size != DECK_SIZE:
        raise ConfigError(f"deck_space.deck_size must be {DECK_SIZE} (both engines play "
                          f"{DECK_SIZE}-card decks), got {cfg.deck_space.deck_size}")


def _check_strings(cfg: DictConfig) -> None:
    for key in ("name", "algorithm.name"):
        value = OmegaConf.select(cfg, key)
        if not NAME.fullmatch(value):
            raise ConfigError(f"{key}={value!r} must be 1 to 64 letters, digits, '_', '.' or '-' "
                              "(it names the run folder)")
    if not DEVICE.fullmatch(cfg.surrogate.device):
        raise ConfigError(f"surrogate.device={cfg.surrogate.device!r} is not auto, cpu, mps, cuda or cuda:N")
    for key in PATHS:
        value = OmegaConf.select(cfg, key)
        if value is not None and (not value.strip() or "\0" in value or len(value) > 4096):
            raise ConfigError(f"{key}={value!r} is not a usable path")
    address = cfg.cluster.address
    if address is not None and not _port_ok(ADDRESS.fullmatch(address), 3, low=1):
        raise ConfigError(f"cluster.address={address!r} is not a scheduler address like tcp://host:8786")
    if cfg.cluster.kind == "address" and not address:
        raise ConfigError("cluster.kind=address needs cluster.address (tcp://host:port)")
    dashboard = cfg.cluster.dashboard_address
    if dashboard is not None and not _port_ok(DASHBOARD.fullmatch(dashboard), 2, low=0):
        raise ConfigError(f"cluster.dashboard_address={dashboard!r} is not [host]:port")
    for key in ("cluster.dashboard_address", "cluster.slurm.dashboard_address"):
        if OmegaConf.select(cfg, key) is not None and not cfg.cluster.dashboard:
            raise ConfigError(f"{key} is set but the dashboard is off; add cluster.dashboard=true")


def _port_ok(match, group: int, low: int) -> bool:
    return bool(match) and low <= int(match.group(group)) <= 65535


def _is_number(value, kind=(int, float)) -> bool:
    return isinstance(value, kind) and not isinstance(value, bool)


def _check_archive(archive: DictConfig) -> None:
    measures = [str(m) for m in archive.measures]
    for key, value in [("objective", archive.objective), *(("measures", m) for m in measures)]:
        if value not in STATISTICS:
            raise ConfigError(f"archive.{key}: {value!r} is not a statistic an evaluation records; "
                              f"one of {', '.join(STATISTICS)}")
    if not 1 <= len(measures) <= 3:
        raise ConfigError(f"archive.measures={measures} must name 1 to 3 statistics")
    if len(set(measures)) < len(measures) or archive.objective in measures:
        raise ConfigError(f"archive.measures={measures} names a statistic twice (or the objective "
                          f"{archive.objective!r} again)")
    ranges = [list(r) if OmegaConf.is_list(r) else r for r in archive.ranges]
    k = len(measures)
    dims = list(archive.dims) if archive.type != "cvt" else [1] * k  # a CVT archive's cells are archive.cells
    if len(dims) != k or len(ranges) != k or any(not isinstance(r, list) or len(r) != 2 for r in ranges):
        raise ConfigError(f"archive needs one dim and one [low, high] range per measure ({k}: {', '.join(measures)}); "
                          f"got dims={dims}, ranges={ranges}")
    if not all(_is_number(d, int) for d in dims) or not all(_is_number(v) for r in ranges for v in r):
        raise ConfigError(f"archive.dims and archive.ranges must hold numbers, got {dims} and {ranges}")
    if not all(1 <= d <= MAX_CELLS for d in dims) or math.prod(dims) > MAX_CELLS:
        raise ConfigError(f"archive.dims={dims} must be positive sizes of at most {MAX_CELLS} "
                          "cells together")
    if not all(math.isfinite(v) for r in ranges for v in r) or any(lo >= hi for lo, hi in ranges):
        raise ConfigError(f"archive.ranges={ranges} must be finite [low, high] pairs with low < high")
    _check_archive_type(archive, k, dims)
    bounds = archive.objective_range
    if bounds is None and archive.objective not in KNOWN_OBJECTIVE_RANGES:
        raise ConfigError(f"archive.objective={archive.objective} needs archive.objective_range=[low,high]: "
                          "the QD-score counts each elite as (f - low) / (high - low)")
    if bounds is not None and (len(bounds) != 2 or not all(_is_number(v) and math.isfinite(v) for v in bounds)
                               or bounds[0] >= bounds[1]):
        raise ConfigError(f"archive.objective_range={list(bounds)} must be a finite [low, high] with low < high")


def _check_archive_type(archive: DictConfig, k: int, dims: list) -> None:
    kind = archive.type
    if kind not in ("grid", "sliding", "cvt"):
        raise ConfigError(f"archive.type must be grid, sliding or cvt, got {kind!r}")
    sliding = {"start_dims": archive.start_dims, "remap_every": archive.remap_every}
    if kind != "sliding" and any(v is not None for v in sliding.values()):
        given = ", ".join(f"archive.{key}" for key, v in sliding.items() if v is not None)
        raise ConfigError(f"{given} belong to archive.type=sliding (this archive is a {kind})")
    if kind != "cvt" and archive.cells is not None:
        raise ConfigError(f"archive.cells belongs to archive.type=cvt (this archive is a {kind})")
    if kind == "sliding":
        start = list(archive.start_dims) if archive.start_dims is not None else dims
        if len(start) != k or not all(_is_number(d, int) and 1 <= d <= e for d, e in zip(start, dims)):
            raise ConfigError(f"archive.start_dims={start} must hold one size per measure, from 1 to archive.dims={dims}")
        if not (_is_number(archive.remap_every, int) and archive.remap_every >= 2):
            raise ConfigError(f"archive.type=sliding needs archive.remap_every, the evaluations between redraws "
                              f"of its boundaries (2 or more), got {archive.remap_every!r}")
    if kind == "cvt":
        if k < 2:
            raise ConfigError("archive.type=cvt needs 2 or 3 measures (one measure: use a grid)")
        if not (_is_number(archive.cells, int) and 2 <= archive.cells <= 100_000):
            raise ConfigError(f"archive.type=cvt needs archive.cells, its number of centroids (2 to 100000), "
                              f"got {archive.cells!r}")


def _check_hidden(hidden) -> None:
    hidden = list(hidden)
    if len(hidden) > MAX_HIDDEN_LAYERS or not all(_is_number(h, int) and 1 <= h <= MAX_WIDTH for h in hidden):
        raise ConfigError(f"surrogate.hidden={hidden} must be at most {MAX_HIDDEN_LAYERS} layer widths, "
                          f"each from 1 to {MAX_WIDTH}")


def _check_player(checked: DictConfig) -> None:
    """strategy.player: beam, random, or a player spec (value_beam:MODEL, mcts:200, ...) of
    workers.players.specs, checked without reading its model (check_inputs loads it)."""
    from workers.players.specs import PlayerSpecError, parse_player
    player = checked.strategy.player
    try:
        parse_player(player)
    except PlayerSpecError as exc:
        raise ConfigError(f"strategy.player={player!r}: {exc}") from None
    if player not in ("beam", "random") and checked.engine.name == "sabberstone":
        raise ConfigError(f"strategy.player={player!r} needs engine=builtin: SabberStone plays the "
                          "protocol's beam and random players only")


def _check_evaluated(checked: DictConfig) -> None:
    """strategy.evaluated: a score name or a weights .json file (read by check_inputs)."""
    value = checked.strategy.evaluated
    if value not in SCORE_NAMES and not (value.endswith(".json") and value.strip() and "\0" not in value):
        raise ConfigError(f"strategy.evaluated={value!r} is not one of {', '.join(SCORE_NAMES)} "
                          "or a weights .json file (the format of workers/data/player_strategy_nn.json)")


def _check_strategy_search(checked: DictConfig) -> None:
    """algorithm.kind=cma_me and the strategy_search section come together; the section's
    values in range; whole iterations within the budget."""
    search, algo = checked.strategy_search, checked.algorithm
    if (algo.kind == "cma_me") != (search is not None):
        raise ConfigError("algorithm.kind=cma_me and a strategy_search section come together "
                          "(use experiment=strategy_paper or experiment=strategy_smoke)")
    if search is None:
        return
    _check_ranges(checked, STRATEGY_RANGES)
    _check_choices(checked, STRATEGY_CHOICES)
    if search.x0 != "zeros" and not search.x0.endswith(".json"):
        raise ConfigError(f"strategy_search.x0={search.x0!r} is not zeros or a weights .json file")
    per_iteration = search.emitters * search.batch_size
    if algo.budget < per_iteration:
        raise ConfigError(f"algorithm.budget={algo.budget} is less than one CMA-ME iteration "
                          f"(strategy_search.emitters x batch_size = {per_iteration} evaluations)")
    if checked.engine.name != "builtin":
        raise ConfigError("algorithm.kind=cma_me needs engine=builtin (it sends each candidate's "
                          "weights to the workers, which SabberStone cannot take)")
    if checked.strategy.player != "beam":
        raise ConfigError(f"algorithm.kind=cma_me trains the beam player's score: strategy.player must "
                          f"be beam, got {checked.strategy.player!r}")
    if checked.deck_file:
        raise ConfigError("deck_file evaluates one deck; a strategy search sets its deck with "
                          "strategy_search.deck")


def _check_combinations(checked: DictConfig) -> None:
    if checked.strategy.hide_deck_order and checked.engine.name == "sabberstone":
        raise ConfigError("strategy.hide_deck_order=true needs engine=builtin: SabberStone's planner "
                          "always knows the deck order")
    algo = checked.algorithm
    if algo.kind == "surrogate" and algo.offline.source != "none" and not algo.offline.path:
        raise ConfigError(f"algorithm {algo.name} needs algorithm.offline.path=<a run's checkpoint.h5>")
    if algo.kind == "surrogate" and algo.offline.source == "none" and not algo.train_online:
        raise ConfigError("algorithm.train_online=false needs an offline surrogate (algorithm.offline.source)")
    if algo.steady_state and algo.kind != "surrogate":
        raise ConfigError(f"algorithm.steady_state=true needs a surrogate algorithm ({algo.name} is "
                          f"{algo.kind}): only those have head-node work to overlap with the games")
    if algo.kind == "surrogate" and algo.inner.iterations == 0:
        raise ConfigError("algorithm.inner.iterations must be positive for a surrogate algorithm")
    if checked.archive.type == "sliding" and algo.kind == "surrogate" and not algo.reset:
        raise ConfigError(f"algorithm {algo.name} keeps its surrogate archive between outer iterations, "
                          "which a sliding map's moving boundaries cannot (archive.type=sliding needs reset)")
    if checked.archive.type != "grid" and algo.kind == "cma_me":
        raise ConfigError("the strategy search keeps ribs' grid archive: archive.type must be grid")
    if algo.initial > algo.budget:
        raise ConfigError(f"algorithm.initial={algo.initial} exceeds algorithm.budget={algo.budget}")


def check_inputs(cfg: DictConfig, probe_timeout: float = 5.0) -> None:
    """Read and check what the config names outside itself, before anything is written or
    played: the opponents file (structure, classes, strategies and their weights, cards), the
    offline source file's presence, and that a scheduler address answers. ConfigError else."""
    from workers.errors import DeckError
    from workers.protocol.evaluate import load_opponents
    if cfg.strategy.player not in ("beam", "random"):  # its value model: present and matching
        from workers.players.specs import PlayerSpecError, check_player
        try:
            check_player(cfg.strategy.player)
        except (PlayerSpecError, DeckError) as exc:
            raise ConfigError(f"strategy.player: {exc}") from None
    _check_weights_files(cfg)
    if cfg.opponents.path:
        try:
            load_opponents(cfg.opponents.path)
        except DeckError as exc:
            raise ConfigError(f"opponents.path: {exc}") from None
    algo = cfg.algorithm
    if algo.kind == "surrogate" and algo.offline.source != "none" and not Path(algo.offline.path).is_file():
        raise ConfigError(f"algorithm.offline.path={algo.offline.path} is not a file (a run's checkpoint.h5)")
    if cfg.cluster.kind == "address":
        _probe(cfg.cluster.address, probe_timeout)


def _check_weights_files(cfg: DictConfig) -> None:
    """The weights files the config names (strategy.evaluated, strategy_search.x0) and the
    strategy search's deck: present, finite, 109 weights, a playable deck."""
    from workers.errors import DeckError
    from workers.players.scores import check_strategy
    from workers.protocol.evaluate import load_deck_file, validate_deck
    named = [("strategy.evaluated", cfg.strategy.evaluated)]
    if cfg.strategy_search is not None:
        named.append(("strategy_search.x0", cfg.strategy_search.x0))
    for key, value in named:
        if value.endswith(".json"):
            try:
                check_strategy(value, key)
            except DeckError as exc:
                raise ConfigError(f"{key}: {exc}") from None
    if cfg.strategy_search is not None and cfg.strategy_search.deck:
        try:
            validate_deck(load_deck_file(cfg.strategy_search.deck), label=f"strategy_search.deck {cfg.strategy_search.deck}")
        except DeckError as exc:
            raise ConfigError(f"strategy_search.deck: {exc}") from None


def _probe(address: str, timeout: float) -> None:
    """A scheduler that does not answer fails here in seconds, not after dask's long timeout."""
    match = ADDRESS.fullmatch(address)
    host, port = match.group(2).strip("[]"), int(match.group(3))
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as exc:
        raise ConfigError(f"cluster.address={address} does not answer: {exc.strerror or exc}") from None


def _at(tree: dict, dotted: str):
    for key in dotted.split("."):
        tree = tree.get(key) if isinstance(tree, dict) else None
    return tree


def identity(cfg: DictConfig) -> dict:
    """The part of the config that determines a run's results."""
    plain = OmegaConf.to_container(cfg, resolve=True)
    if isinstance(plain.get("engine"), dict):  # where the SabberStone build lies changes no result
        plain["engine"] = {k: v for k, v in plain["engine"].items()
                           if k != "path" and not (k == "table" and v is None)}  # (nor a table unused)
    if plain.get("strategy_search", 0) is None:  # deck searches keep the identity they had
        del plain["strategy_search"]
    for section, added in KEYS_ADDED.items():
        values = _at(plain, section)
        for key, default in added.items() if isinstance(values, dict) else ():
            if values.get(key, default) == default:
                values.pop(key, None)
    (_at(plain, "algorithm.inner") or {}).pop("threads", None)  # the same result on any thread count
    algo = plain.get("algorithm")
    if isinstance(algo, dict):
        if algo.get("overlap") is not None:  # a config written before algorithm.steady_state's rename
            algo["steady_state"] = algo["overlap"]
        algo.pop("overlap", None)
        if algo.get("steady_state") is False:  # synchronous runs keep the identity they had before
            # the steady-state loop; overlap_wait: a key of runs made during its first version
            for key in ("steady_state", "overlap_wait", "lag", "min_batch"):
                algo.pop(key, None)
    return {k: v for k, v in plain.items() if k not in NOT_IDENTITY}


def identity_hash(cfg: DictConfig) -> str:
    """A digest of the identity, with algorithm.steady_state under its first name (overlap), so
    that run folders and checkpoints made before the rename keep their identity."""
    ident = identity(cfg)
    if "steady_state" in ident.get("algorithm", {}):
        ident["algorithm"]["overlap"] = ident["algorithm"].pop("steady_state")
    text = OmegaConf.to_yaml(OmegaConf.create(ident), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def differences(a: dict, b: dict, prefix: str = "") -> list[str]:
    """Dotted keys whose values differ between two plain config dicts."""
    keys = sorted(set(a) | set(b))
    out = []
    for k in keys:
        path = f"{prefix}{k}"
        va, vb = a.get(k, "<absent>"), b.get(k, "<absent>")
        if isinstance(va, dict) and isinstance(vb, dict):
            out += differences(va, vb, path + ".")
        elif va != vb:
            out.append(f"{path}: {va!r} vs {vb!r}")
    return out
