"""A Gymnasium environment of the built-in engine: one agent's view of a game against a fixed
opponent player.

    env = HearthstoneEnv(opponent="beam")           # the agent plays Miracle Rogue, first
    obs, info = env.reset(seed=0)                    # info["action_mask"]: the legal actions
    obs, reward, terminated, truncated, info = env.step(action)

- Observation: one encoder of workers.players.encoders (default "rich") of the state from the
  agent's view, float32 of fixed size (a Box of +-1000).
- Actions: `Discrete(ACTION_SIZE)`; every legal move of the engine has one index, relative to
  the agent (the map is workers.players.action_space, which a trained policy plays through),
  and `info["action_mask"]` (also `env.action_masks()`) marks the legal ones.

- Reward: +1 when the agent wins, -1 when it loses, 0 otherwise (a draw, or the game going
  on); the episode terminates with the game. The opponent plays its turns inside `step`.
- An action outside the mask is played as END_TURN with `info["illegal"] = True` (so that
  unmasked samplers and Gymnasium's checker can step), or raises with
  `illegal_action="raise"`.

Decks: the agent's deck (default Miracle Rogue) against the protocol's opponents (episode k
meets opponent k mod 6 unless `opponent_index` is fixed), each opponent playing with the
player spec `opponent` (default "beam": the protocol's beam search with the opponent deck's
own score; "random", or any spec of workers.players.specs). With `mirror=True` the agent plays
the opponent's own deck (a mirror match, as tools.tournament plays by default). Given the seed
of `reset`, an episode's games are reproducible.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..engine.actions import END_TURN
from ..engine.rng import derive
from ..engine.state import GameState
from ..players.action_space import (ACTION_SIZE, action_index, action_mask, describe_action,  # noqa: F401
                                    legal_action_map, mask_of)
from ..players.encoders import get_encoder

try:  # a real Gymnasium environment when gymnasium is installed (a dependency)
    import gymnasium as gym
    from gymnasium import spaces
except ImportError:  # pragma: no cover - the same API without the base class
    gym = None
    spaces = None

OBS_BOUND = 1000.0

_Base = gym.Env if gym is not None else object


class HearthstoneEnv(_Base):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, deck: Sequence[str] | None = None, hero_class: str = "ROGUE",
                 opponent: str = "beam", opponents=None, opponent_index: int | None = None,
                 encoder: str = "rich", seat: int = 0, illegal_action: str = "end_turn",
                 render_mode: str | None = None, mirror: bool = False):
        from ..players.specs import parse_player
        from ..protocol.evaluate import default_opponents, miracle_rogue, validate_deck
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 (first) or 1, got {seat!r}")
        if illegal_action not in ("end_turn", "raise"):
            raise ValueError(f"illegal_action must be end_turn or raise, got {illegal_action!r}")
        self.deck = list(deck) if deck is not None else miracle_rogue()
        self.hero_class = hero_class
        validate_deck(self.deck, hero_class=hero_class)
        self.opponents = list(opponents) if opponents is not None else default_opponents()
        self.opponent_index = opponent_index
        self.mirror = bool(mirror)
        self.opponent_spec = opponent
        parse_player(opponent)  # a bad spec fails here, not in the first episode
        self.encoder = get_encoder(encoder)
        self.seat, self.illegal_action, self.render_mode = seat, illegal_action, render_mode
        self.action_space = spaces.Discrete(ACTION_SIZE) if spaces else None
        # Encoders give counts, healths, attacks, costs: far inside +-1000.
        self.observation_space = (spaces.Box(-OBS_BOUND, OBS_BOUND, (self.encoder.size,), np.float32)
                                  if spaces else None)
        self.game: GameState | None = None
        self._opponent = None
        self._episode = 0
        self._seed = 0
        self._legal: dict = {}

    # ------------------------------------------------------------------ API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        from ..engine.game import new_game
        from ..protocol.evaluate import card_library
        if gym is not None:
            super().reset(seed=seed)
        if seed is not None:
            self._seed, self._episode = int(seed), 0
        episode_seed = derive(self._seed, 0x6E76, self._episode)
        k = self.opponent_index if self.opponent_index is not None else self._episode % len(self.opponents)
        self._episode += 1
        opp = self.opponents[k]
        decks = [list(opp.cards if self.mirror else self.deck), list(opp.cards)]
        classes = [opp.hero_class if self.mirror else self.hero_class, opp.hero_class]
        if self.seat == 1:
            decks.reverse()
            classes.reverse()
        self.game = new_game(card_library(), decks, classes, episode_seed)
        self._opponent = self.make_opponent(derive(episode_seed, 2), opp.strategy)
        self._play_opponent()
        return self._observe(), self._info(opponent=opp.name)

    def step(self, action):
        g = self.game
        if g is None or g.done:
            raise RuntimeError("step() on a finished episode: call reset()")
        a = int(action)
        move = self._legal.get(a)
        illegal = move is None
        if illegal:
            if self.illegal_action == "raise":
                raise ValueError(f"action {a} ({describe_action(a) if 0 <= a < ACTION_SIZE else 'out of range'}) "
                                 "is not legal now (see info['action_mask'])")
            move = (END_TURN, -1, -1, -1)
        g.apply(move, check=False)
        self._play_opponent()
        reward = float(g.result(self.seat)) if g.done else 0.0
        return self._observe(), reward, bool(g.done), False, self._info(illegal=illegal)

    def action_masks(self) -> np.ndarray:
        """The legal actions now (the name sb3-contrib's MaskablePPO asks for)."""
        return mask_of(self._legal)

    def render(self):
        g = self.game
        if g is None:
            return ""
        lines = [f"turn {g.turn}, player {g.current} to act{' (game over)' if g.done else ''}"]
        for p in g.players:
            lines.append(f"player {p.index}: hero {p.hero.health}, hand {len(p.hand)}, deck {len(p.deck)}, "
                         f"board {[f'{m.cdef.name} {m.atk}/{m.health}' for m in p.board]}")
        return "\n".join(lines)

    # ------------------------------------------------------------------ inside
    def make_opponent(self, seed: int, strategy: str):
        """The opponent of a new episode (a subclass may play another kind: self-play,
        workers.learning.selfplay)."""
        from ..players.specs import build_player
        return build_player(self.opponent_spec, seed, strategy=strategy)

    def _play_opponent(self) -> None:
        g = self.game
        while not g.done and g.current != self.seat:
            self._opponent.take_turn(g)
        self._legal = legal_action_map(g) if not g.done else {}

    def _observe(self) -> np.ndarray:
        return self.encoder.fn(self.game, self.seat).astype(np.float32, copy=False)

    def _info(self, **extra) -> dict:
        return {"action_mask": self.action_masks(), "turn": self.game.turn, **extra}
