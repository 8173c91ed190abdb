"""Player specs: one string names a player and its settings, the same in the config
(`strategy.player`), the tournament's `--players` and the Gymnasium environment's opponent.

    random                      uniformly random legal actions
    beam | beam_nn | beam_aggro | beam_control | beam:WEIGHTS.json
                                the protocol's beam search with that score ("beam": the
                                score the caller names, the config's strategy.evaluated)
    value_beam:MODEL            the same beam search scored by a value network (workers.players.value_model)
    mcts:200 | mcts:0.5s        ISMCTS (workers.players.mcts) with 200 iterations / 0.5 s per action
    ppo:POLICY.zip              a MaskablePPO policy (workers.players.ppo_player; trained by
                                python -m workers.learning.ppo train-ppo)
    osl | osl:never             one-step lookahead, gym-locm's greedy agent (workers.players.osl)
    trade                       Hearthbreaker's trading agent (workers.players.trade)

Settings follow as key=value after a comma, e.g.
`mcts:400,c=0.5,leaf=cutoff,cutoff=6,model=results/values/rich_win.pt` or
`value_beam:results/values/rich_win.pt,max_states=2000,encoder=rich`.

- beam and value_beam: depth, width (default: the caller's beam_depth / beam_width, 13 and 4
  in the protocol), hide (true: plan on reshuffled decks); value_beam also encoder (refuse a
  model of another encoder), max_states (at most this many states scored by the network
  per planning round; later ones score -inf and are never chosen) and prune (nn, aggro or
  control: states within the turn ranked by that protocol score, only turn-ending candidates
  by the network; workers.players.value_beam), replies and samples (the `replies` best
  turn-ending lines are valued once more after the opponent's reply, played `samples` times
  by the protocol's beam player on a copy with the hidden cards dealt again;
  workers.players.reply_beam).
- mcts: iterations, seconds (either or both; the first positional value is one of them:
  `200` iterations, `0.5s` seconds), c (UCB exploration, default 0.7), leaf (playout,
  value, cutoff; default playout, or cutoff when a model is given), cutoff (random moves
  before the network, default 8), model, encoder, positions (right or all), reuse (true),
  horizon (game: the tree spans the game; turn: only the own turn; default turn for value
  leaves, game otherwise).
- osl: stop (score: end the turn when no action scores above ending it, the default; never:
  as gym-locm, act while anything but ending the turn is legal).
- ppo: model (the positional value), deterministic (true: the most probable action, the
  default; false: sampled on the player's seeded stream).

`parse_player` checks a spec without reading files; `check_player` also loads its model;
`build_player` makes the player. Every problem is a PlayerSpecError (a ValueError) naming it.
"""
from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

SCORES = ("nn", "aggro", "control")
KINDS = ("random", "beam", "value_beam", "mcts", "ppo", "osl", "trade")
_OPTIONS = {
    "random": (),
    "beam": ("score", "depth", "width", "hide"),
    "value_beam": ("model", "depth", "width", "hide", "encoder", "max_states", "prune", "replies", "samples"),
    "mcts": ("iterations", "seconds", "c", "leaf", "cutoff", "model", "encoder", "positions", "reuse",
             "horizon"),
    "ppo": ("model", "deterministic"),
    "osl": ("stop",),
    "trade": (),
}


class PlayerSpecError(ValueError):
    pass


def parse_player(spec: str) -> tuple[str, dict]:
    """(kind, settings) of a player spec, every value converted and range-checked."""
    if not isinstance(spec, str) or not spec.strip():
        raise PlayerSpecError(f"player spec {spec!r} is empty: expected one of {', '.join(KINDS)} "
                              "(see workers/players/specs.py)")
    head, _, rest = spec.strip().partition(":")
    items = [part.strip() for part in rest.split(",")] if rest else []
    kind, opts = head, {}
    if head.startswith("beam_") and head[5:] in SCORES:
        kind, opts["score"] = "beam", head[5:]
    if kind not in KINDS:
        raise PlayerSpecError(f"player spec {spec!r}: unknown player {head!r}; expected one of "
                              f"{', '.join(KINDS)}, beam_nn, beam_aggro or beam_control")
    for n, item in enumerate(items):
        if not item:
            raise PlayerSpecError(f"player spec {spec!r} has an empty setting")
        key, eq, value = item.partition("=")
        if not eq:  # the positional value: the first item only
            if n > 0:
                raise PlayerSpecError(f"player spec {spec!r}: {item!r} needs key=value "
                                      "(only the first setting may be a bare value)")
            key, value = _positional(kind, item, spec)
        key = key.strip()
        if key not in _OPTIONS[kind]:
            raise PlayerSpecError(f"player spec {spec!r}: {kind} has no setting {key!r}; its settings: "
                                  f"{', '.join(_OPTIONS[kind]) or 'none'}")
        if key in opts:
            raise PlayerSpecError(f"player spec {spec!r} sets {key!r} twice")
        opts[key] = _convert(kind, key, value.strip(), spec)
    if kind == "value_beam" and "model" not in opts:
        raise PlayerSpecError(f"player spec {spec!r}: value_beam needs a model (value_beam:PATH.pt)")
    if kind == "value_beam" and "max_states" in opts and ("replies" in opts or "samples" in opts):
        raise PlayerSpecError(f"player spec {spec!r}: max_states does not combine with replies or samples")
    if kind == "ppo" and "model" not in opts:
        raise PlayerSpecError(f"player spec {spec!r}: ppo needs a policy (ppo:PATH.zip)")
    if kind == "mcts":
        if "iterations" not in opts and "seconds" not in opts:
            opts["iterations"] = 200
        leaf = opts.setdefault("leaf", "cutoff" if "model" in opts else "playout")
        if leaf != "playout" and "model" not in opts:
            raise PlayerSpecError(f"player spec {spec!r}: leaf={leaf} needs model=PATH.pt")
    return kind, opts


def _positional(kind: str, item: str, spec: str) -> tuple[str, str]:
    if kind == "beam":
        return "score", item
    if kind in ("value_beam", "ppo"):
        return "model", item
    if kind == "osl":
        return "stop", item
    if kind == "mcts":
        return ("seconds", item[:-1]) if item.endswith("s") else ("iterations", item)
    raise PlayerSpecError(f"player spec {spec!r}: {kind} takes no settings")


def _choices(key: str):
    """The allowed values of a setting that names one of a fixed set (imported late: those
    modules import torch or the engine, which parsing a spec need not load)."""
    from . import encoders, mcts
    return {"leaf": mcts.LEAVES, "horizon": mcts.HORIZONS, "positions": mcts.POSITIONS,
            "encoder": encoders.ENCODERS}[key]


def _convert(kind: str, key: str, value: str, spec: str):
    where = f"player spec {spec!r}: {key}"
    if key in ("depth", "width", "iterations", "cutoff", "max_states", "replies", "samples"):
        try:
            number = int(value)
        except ValueError:
            raise PlayerSpecError(f"{where} must be a whole number, got {value!r}") from None
        low, high = (0, 1000) if key == "cutoff" else (1, 100 if key in ("depth", "width") else 10 ** 8)
        if not low <= number <= high:
            raise PlayerSpecError(f"{where} must be from {low} to {high}, got {number}")
        return number
    if key in ("seconds", "c"):
        try:
            number = float(value)
        except ValueError:
            raise PlayerSpecError(f"{where} must be a number, got {value!r}") from None
        ok = 0 < number <= 3600 if key == "seconds" else 0 <= number <= 100
        if not math.isfinite(number) or not ok:
            raise PlayerSpecError(f"{where} must be {'in (0, 3600]' if key == 'seconds' else 'in [0, 100]'}, "
                                  f"got {value!r}")
        return number
    if key in ("hide", "reuse", "deterministic"):
        if value.lower() in ("true", "1", "yes"):
            return True
        if value.lower() in ("false", "0", "no"):
            return False
        raise PlayerSpecError(f"{where} must be true or false, got {value!r}")
    if key in ("leaf", "horizon", "positions", "encoder"):
        choices = _choices(key)
        if value not in choices:
            raise PlayerSpecError(f"{where} must be one of {', '.join(choices)}, got {value!r}")
    if key == "stop":
        from .osl import STOPS
        if value not in STOPS:
            raise PlayerSpecError(f"{where} must be one of {', '.join(STOPS)}, got {value!r}")
    if key == "prune" and value not in SCORES:
        raise PlayerSpecError(f"{where} must be nn, aggro or control, got {value!r}")
    if key == "score" and value not in SCORES and not value.endswith(".json"):
        raise PlayerSpecError(f"{where} must be nn, aggro, control or a weights .json file, got {value!r}")
    if key == "model" and not value:
        raise PlayerSpecError(f"{where} is empty")
    return value


@lru_cache(maxsize=8)
def load_value_model(path: str, encoder: str | None = None):
    """A value network (workers.players.value_model.ValueModel), loaded once per process; a missing file or
    a model of another encoder (or encoder version) is one PlayerSpecError."""
    from .value_model import ModelError, load_model
    if not Path(path).is_file():
        raise PlayerSpecError(f"value model {path} does not exist (train one with "
                              "python -m tools.values train --data FILE.h5)")
    try:
        return load_model(path, encoder)
    except ModelError as exc:
        raise PlayerSpecError(str(exc)) from None


@lru_cache(maxsize=8)
def load_policy(path: str):
    """A MaskablePPO policy (workers.players.ppo_player.Policy), loaded once per process; a missing or
    foreign file is one PlayerSpecError."""
    from .ppo_player import PolicyError, load_policy as load
    try:
        return load(path)
    except PolicyError as exc:
        raise PlayerSpecError(str(exc)) from None


def check_player(spec: str) -> tuple[str, dict]:
    """parse_player, and load the model it names (and the score's weights file)."""
    kind, opts = parse_player(spec)
    if kind == "ppo":
        load_policy(opts["model"])
    elif "model" in opts:
        load_value_model(opts["model"], opts.get("encoder"))
    if kind == "beam" and str(opts.get("score", "")).endswith(".json"):
        from .scores import check_strategy
        check_strategy(opts["score"], f"player spec {spec!r}: score")
    return kind, opts


def build_player(spec: str, seed: int, *, strategy: str = "nn", depth: int = 13, width: int = 4,
                 hide_deck_order: bool = False):
    """The player a spec names. `strategy`: the score of a plain "beam"; `depth`, `width`,
    `hide_deck_order`: the beam settings a spec does not set itself."""
    from .play import BeamSearchPlayer, RandomPlayer
    kind, opts = parse_player(spec)
    if kind == "random":
        return RandomPlayer(seed)
    if kind == "osl":
        from .osl import OSLPlayer
        return OSLPlayer(seed, stop=opts.get("stop", "score"))
    if kind == "trade":
        from .trade import TradePlayer
        return TradePlayer(seed)
    if kind == "beam":
        from .scores import cached_score
        return BeamSearchPlayer(cached_score(opts.get("score", strategy)), seed, opts.get("depth", depth),
                                opts.get("width", width), hide_deck_order=opts.get("hide", hide_deck_order))
    if kind == "ppo":
        from .ppo_player import PPOPlayer
        return PPOPlayer(load_policy(opts["model"]), seed, deterministic=opts.get("deterministic", True))
    model = load_value_model(opts["model"], opts.get("encoder")) if "model" in opts else None
    if kind == "value_beam":
        from .value_beam import ValueBeamPlayer
        prune = None
        if "prune" in opts:
            from .scores import cached_score
            prune = cached_score(opts["prune"])
        if "replies" in opts or "samples" in opts:
            from .reply_beam import ReplyBeamPlayer
            return ReplyBeamPlayer(model, seed, opts.get("depth", depth), opts.get("width", width),
                                   hide_deck_order=opts.get("hide", hide_deck_order), prune=prune,
                                   replies=opts.get("replies", 4), samples=opts.get("samples", 1))
        return ValueBeamPlayer(model, seed, opts.get("depth", depth), opts.get("width", width),
                               hide_deck_order=opts.get("hide", hide_deck_order),
                               max_states=opts.get("max_states"), prune=prune)
    from .mcts import MCTSPlayer
    return MCTSPlayer(seed, iterations=opts.get("iterations"), seconds=opts.get("seconds"),
                      c=opts.get("c", 0.7), leaf=opts["leaf"], value=model,
                      cutoff=opts.get("cutoff", 8), positions=opts.get("positions", "right"),
                      reuse=opts.get("reuse", True), horizon=opts.get("horizon"))


def make_player(kind: str, strategy: str, seed: int, depth: int, width: int, *,
                hide_deck_order: bool = False):
    """build_player with the protocol's settings in order: `kind` is "random", "beam" (scored by
    `strategy`) or any other spec. `hide_deck_order`: the beam player plans on copies with
    reshuffled decks, so it cannot know the next card drawn (the random player ignores it)."""
    if kind == "random":  # what build_player makes of it, without parsing the spec per game
        from .play import RandomPlayer
        return RandomPlayer(seed)
    return build_player(kind, seed, strategy=strategy, depth=depth, width=width,
                        hide_deck_order=hide_deck_order)
