"""MaskablePPO (sb3-contrib) on the Gymnasium environment (workers.learning.gym_env), with a
learning curve against fixed players.

    python -m workers.learning.ppo train-ppo --steps 200000 [--out results/ppo] [--envs 8]
        [--processes 1] [--opponents random beam_nn] [--eval-every 20000] [--eval-games 60]
        [--max-minutes M] [--encoder rich] [--seed 0] [--threads 1] [--device cpu]

Training: `--envs` environments, mirror matches on the protocol's six opponent decks (episode k
of an environment meets deck k mod 6), environment i in seat i mod 2 against the player spec
`--opponents[i // 2 mod len]`; reward +1 win, -1 loss. Observations are the encoder's vector
through symlog (workers.players.ppo_player), actions are masked to the legal ones. `--processes` > 1
runs the environments in that many subprocesses (sb3's SubprocVecEnv).

The curve: every `--eval-every` steps (and at the end) the current policy, playing its most
probable legal action, meets each player of `--eval-against` (default random and beam_nn, the
protocol's beam search with the protocol's score) in `--eval-games` games: mirror matches on
the six decks, both seats, the same deals at every evaluation. Written to OUT: `curve.csv`
(steps, episodes, seconds, env steps/s, and per opponent the win rate with its 95% Wilson
interval), `curve.png`, and `policy.zip` (after every evaluation, so a stopped run keeps its
last policy); it is a player spec as `ppo:OUT/policy.zip`.

`self-play` trains by self-play with seed 004's settings and `evaluate` measures a saved policy
(workers.learning.selfplay).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from ..engine.rng import derive
from ..players.encoders import ENCODERS
from ..players.ppo_player import Policy, PPOPlayer, symlog
from ..players.specs import PlayerSpecError, build_player, check_player
from .gym_env import HearthstoneEnv
from .ppo_files import Curve, add_rates, rates_text, save_policy, say

RESULTS = Path("results/ppo")


def make_env(index: int, opponents: list, encoder: str, seed: int):
    """A thunk for sb3's vector envs: environment `index`, observations through symlog."""
    def thunk():
        import gymnasium as gym
        env = HearthstoneEnv(opponent=opponents[(index // 2) % len(opponents)], encoder=encoder,
                             seat=index % 2, mirror=True)
        env = gym.wrappers.TransformObservation(env, symlog, env.observation_space)
        env.reset(seed=derive(seed, 0xE17, index))
        return env
    return thunk


def play_match(player_factory, opponent: str, games: int, seed: int) -> float:
    """Points (a draw is half) of the player that `player_factory(seed)` makes against the
    player spec `opponent` over `games` mirror games: deal k // 2 on the six decks in turn,
    seats alternating."""
    from ..engine.game import new_game
    from ..players.play import play_game
    from ..protocol.evaluate import card_library, default_opponents
    decks = default_opponents()
    points = 0.0
    for k in range(games):
        deck = decks[(k // 2) % len(decks)]
        seat = k % 2
        g = new_game(card_library(), [list(deck.cards)] * 2, [deck.hero_class] * 2, derive(seed, 0xE7A1, k // 2))
        players = [None, None]
        players[seat] = player_factory(derive(seed, 1, k))
        players[1 - seat] = build_player(opponent, derive(seed, 2, k), strategy="nn")
        play_game(g, players)
        points += 1.0 if g.winner == seat else 0.5 if g.winner == -1 else 0.0
    return points


def _callback_class():
    from stable_baselines3.common.callbacks import BaseCallback

    class EvaluateAndSave(BaseCallback):
        """Every `every` steps: save the policy, evaluate it, add a row to the curve; stop after
        `max_seconds` of wall clock."""

        def __init__(self, args, curve: Curve, start: float):
            super().__init__()
            self.args, self.curve, self.start = args, curve, start
            self.next_eval = args.eval_every
            self.episodes = 0
            self.eval_seconds = 0.0

        def _on_step(self) -> bool:
            self.episodes += int(np.sum(self.locals.get("dones", 0)))
            if self.num_timesteps >= self.next_eval:
                self.next_eval += self.args.eval_every
                self.evaluate()
            return time.perf_counter() - self.start < self.args.max_minutes * 60

        def evaluate(self) -> None:
            args, model = self.args, self.model
            t0 = time.perf_counter()
            save_policy(model, args.out / "policy.zip", args.encoder)
            policy = Policy(model, args.encoder)
            row = {"steps": self.num_timesteps, "episodes": self.episodes}
            add_rates(row, args.eval_against,
                      lambda name: play_match(lambda s: PPOPlayer(policy, s), name, args.eval_games, args.seed + 1),
                      args.eval_games)
            self.eval_seconds += time.perf_counter() - t0
            train_s = time.perf_counter() - self.start - self.eval_seconds
            row.update(seconds=round(time.perf_counter() - self.start, 1), train_seconds=round(train_s, 1),
                       steps_per_s=round(self.num_timesteps / max(train_s, 1e-9), 1))
            self.curve.add(row)
            say(f"[ppo] {self.num_timesteps:,} steps, {self.episodes:,} episodes, {row['seconds']:.0f}s, "
                f"{row['steps_per_s']:.0f} steps/s; " + rates_text(row, args.eval_against, 2))

    return EvaluateAndSave


def train_ppo(args) -> Path:
    """Train as the module's docstring says; the path of the saved policy."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    torch.set_num_threads(args.threads)
    args.out.mkdir(parents=True, exist_ok=True)
    thunks = [make_env(i, args.opponents, args.encoder, args.seed) for i in range(args.envs)]
    venv = (SubprocVecEnv(thunks, start_method="forkserver") if args.processes > 1 else DummyVecEnv(thunks))
    n_steps = max(16, args.rollout // args.envs)
    model = MaskablePPO("MlpPolicy", venv, n_steps=n_steps, batch_size=args.batch, n_epochs=args.epochs,
                        learning_rate=args.lr, gamma=args.gamma, ent_coef=args.ent_coef, seed=args.seed,
                        policy_kwargs={"net_arch": list(args.hidden)}, device=args.device, verbose=0)
    start = time.perf_counter()
    callback = _callback_class()(args, Curve(args.out, args.eval_against), start)
    say(f"[ppo] {args.envs} envs ({args.processes} process{'es' if args.processes > 1 else ''}), "
        f"opponents {', '.join(args.opponents)}, rollout {n_steps * args.envs}, up to {args.steps:,} steps "
        f"or {args.max_minutes:g} min; writing {args.out}")
    try:
        model.learn(total_timesteps=args.steps, callback=callback)
        if callback.num_timesteps != (callback.curve.rows[-1]["steps"] if callback.curve.rows else -1):
            callback.evaluate()  # the final policy's row
    finally:
        venv.close()
    return args.out / "policy.zip"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m workers.learning.ppo", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train-ppo", help="train a MaskablePPO policy and write its learning curve")
    t.add_argument("--steps", type=int, required=True, help="environment steps (the agent's actions)")
    t.add_argument("--out", type=Path, default=RESULTS)
    t.add_argument("--envs", type=int, default=8)
    t.add_argument("--processes", type=int, default=1, help="> 1: the envs in subprocesses")
    t.add_argument("--opponents", nargs="+", default=["random", "beam_nn"], help="training opponents (player specs)")
    t.add_argument("--eval-against", nargs="+", default=["random", "beam_nn"])
    t.add_argument("--eval-every", type=int, default=20000)
    t.add_argument("--eval-games", type=int, default=60, help="games per opponent and evaluation (even)")
    t.add_argument("--max-minutes", type=float, default=float("inf"))
    t.add_argument("--encoder", default="rich", choices=list(ENCODERS))
    t.add_argument("--rollout", type=int, default=2048, help="steps per update, all envs together")
    t.add_argument("--batch", type=int, default=256)
    t.add_argument("--epochs", type=int, default=10)
    t.add_argument("--lr", type=float, default=3e-4)
    t.add_argument("--gamma", type=float, default=0.99)
    t.add_argument("--ent-coef", type=float, default=0.01)
    t.add_argument("--hidden", type=int, nargs="+", default=[256, 256])
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    t.add_argument("--device", default="cpu")
    from . import selfplay
    selfplay.add_parsers(sub)
    args = parser.parse_args(argv)
    if args.command != "train-ppo":
        return _selfplay_main(parser, args)
    for name in ("steps", "envs", "processes", "eval_every", "eval_games", "rollout", "batch", "epochs", "threads"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.eval_games % 2:
        parser.error("--eval-games must be even (each deal is played from both seats)")
    if not (args.max_minutes > 0):
        parser.error("--max-minutes must be positive")
    try:
        for spec in args.opponents + args.eval_against:  # a bad spec: one line, before any training
            check_player(spec)
        path = train_ppo(args)
    except (PlayerSpecError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    say(f"[ppo] policy {path}; curve {args.out / 'curve.csv'} and {args.out / 'curve.png'}")
    return 0


def _selfplay_main(parser, args) -> int:
    """The `self-play` and `evaluate` subcommands (workers.learning.selfplay)."""
    from . import selfplay
    selfplay.check_args(parser, args)
    try:
        for spec in (args.eval_against if args.command == "self-play" else args.against):
            check_player(spec)
        if args.command == "evaluate":
            selfplay.evaluate(args)
            return 0
        path = selfplay.train_selfplay(args)
    except (PlayerSpecError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    say(f"[self-play] policy {path}; curve {args.out / 'curve.csv'}, {args.out / 'curve.png'}, "
        f"summary {args.out / 'summary.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
