"""The config's schema: every key and its type, the allowed values, and the identity of a run.

Hydra already refuses `key=value` for a key that does not exist; this schema also catches
added keys (`+algorithm.foo=1`), wrong types and values out of range, each as one line that
names the key.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Optional

from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException

from .errors import ConfigError


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


@dataclass
class ClusterCfg:
    kind: str = "local"
    n_workers: Optional[int] = None
    games_per_task: int = 20
    max_retries: int = 3
    dashboard_address: Optional[str] = None
    address: Optional[str] = None
    jobs: int = 0
    slurm: dict[str, Any] = field(default_factory=dict)


@dataclass
class DeckSpaceCfg:
    pool: Optional[str] = None
    use_stat_overrides: bool = False
    deck_size: int = 30


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
class ArchiveCfg:
    dims: list[int] = field(default_factory=lambda: [40, 40])
    ranges: list[list[float]] = field(default_factory=lambda: [[5.0, 15.0], [1.0, 7.0]])


@dataclass
class ReportCfg:
    best_decks: int = 10


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


CHOICES = {
    "algorithm.kind": ("map_elites", "random_search", "surrogate"),
    "algorithm.model": ("mlp", "linear"),
    "algorithm.targets": (3, 12),
    "algorithm.offline.source": ("none", "data", "model"),
    "engine.name": ("builtin", "sabberstone"),
    "cluster.kind": ("local", "slurm", "address"),
    "strategy.player": ("beam", "random"),
    "strategy.evaluated": ("nn", "aggro", "control"),
}
POSITIVE = ("algorithm.budget", "algorithm.batch_size", "algorithm.checkpoint_every",
            "algorithm.inner.batch_size", "surrogate.batch_size", "surrogate.lr", "opponents.games",
            "cluster.games_per_task", "deck_space.deck_size", "strategy.beam_depth",
            "strategy.beam_width", "report.best_decks")
NON_NEGATIVE = ("algorithm.initial", "algorithm.inner.iterations", "algorithm.inner.initial",
                "surrogate.epochs", "algorithm.offline.epochs", "cluster.max_retries", "seed")
# Keys that must be true or false as written (not 1, "yes", ...).
BOOLEAN = ("strategy.hide_deck_order",)
# Keys that do not change what a run computes: they may differ when a run is resumed.
NOT_IDENTITY = ("cluster", "progress", "run_dir", "report", "hydra")


def validate(cfg: DictConfig) -> DictConfig:
    """The config merged onto the schema (types checked), with values checked; ConfigError else."""
    plain = OmegaConf.to_container(cfg, resolve=False)
    plain.pop("hydra", None)
    for key in BOOLEAN:
        section, name = key.split(".")
        value = (plain.get(section) or {}).get(name, False)
        if not isinstance(value, bool) and not (isinstance(value, str) and value.startswith("${")):
            raise ConfigError(f"{key} must be true or false, got {value!r}")
    try:
        checked = OmegaConf.merge(OmegaConf.structured(RootCfg), plain)
        OmegaConf.resolve(checked)
    except OmegaConfBaseException as exc:
        key = getattr(exc, "full_key", None) or ""
        message = str(exc).splitlines()[0]
        raise ConfigError(f"bad config{' key ' + key if key else ''}: {message}") from None
    for key, allowed in CHOICES.items():
        value = OmegaConf.select(checked, key)
        if value not in allowed:
            raise ConfigError(f"{key}={value!r} is not one of {', '.join(map(str, allowed))}")
    for key in POSITIVE:
        if not OmegaConf.select(checked, key) > 0:
            raise ConfigError(f"{key} must be positive, got {OmegaConf.select(checked, key)}")
    for key in NON_NEGATIVE:
        if OmegaConf.select(checked, key) < 0:
            raise ConfigError(f"{key} must not be negative, got {OmegaConf.select(checked, key)}")
    if checked.strategy.hide_deck_order and checked.engine.name == "sabberstone":
        raise ConfigError("strategy.hide_deck_order=true needs engine=builtin: SabberStone's planner "
                          "always knows the deck order")
    if not 0 <= checked.surrogate.val_fraction < 1:
        raise ConfigError(f"surrogate.val_fraction must be in [0, 1), got {checked.surrogate.val_fraction}")
    if len(checked.archive.dims) != 2 or len(checked.archive.ranges) != 2 or any(
            len(r) != 2 or r[0] >= r[1] for r in checked.archive.ranges):
        raise ConfigError("archive needs two dims and two [low, high] ranges with low < high")
    algo = checked.algorithm
    if algo.kind == "surrogate" and algo.offline.source != "none" and not algo.offline.path:
        raise ConfigError(f"algorithm {algo.name} needs algorithm.offline.path=<a run's checkpoint.h5>")
    if algo.kind == "surrogate" and algo.offline.source == "none" and not algo.train_online:
        raise ConfigError("algorithm.train_online=false needs an offline surrogate (algorithm.offline.source)")
    if algo.kind == "surrogate" and algo.inner.iterations == 0:
        raise ConfigError("algorithm.inner.iterations must be positive for a surrogate algorithm")
    if algo.initial > algo.budget:
        raise ConfigError(f"algorithm.initial={algo.initial} exceeds algorithm.budget={algo.budget}")
    return checked


def identity(cfg: DictConfig) -> dict:
    """The part of the config that determines a run's results."""
    plain = OmegaConf.to_container(cfg, resolve=True)
    if isinstance(plain.get("engine"), dict):  # where the SabberStone build lies changes no result
        plain["engine"] = {k: v for k, v in plain["engine"].items() if k != "path"}
    return {k: v for k, v in plain.items() if k not in NOT_IDENTITY}


def identity_hash(cfg: DictConfig) -> str:
    text = OmegaConf.to_yaml(OmegaConf.create(identity(cfg)), sort_keys=True)
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
