"""MaskablePPO by self-play, as e Silva Vieira et al. 2023 (seed 004) train their battle agent
(gym-locm 1.4.0's `SelfPlay` session), and its curve measured as they measure it.

    python -m workers.learning.ppo self-play [--episodes 100000] [--out results/ppo_selfplay]
        [--envs 8] [--processes 1] [--switch-every 100] [--eval-every 1000] [--eval-games 250]
        [--eval-against osl random beam_nn] [--eval-processes 1] [--max-minutes M] [--seed 0]
    python -m workers.learning.ppo evaluate --policy P.zip --against osl --games 1000 --seed 7

Training: every environment plays mirror matches on the protocol's six opponent decks
(episode k of an environment meets deck k mod 6), environment i in seat i mod 2, against a
frozen copy of the policy that samples its actions; every `--switch-every` episodes (all
environments together) the copy is replaced by the current policy (gym-locm's
`switch_frequency`). The defaults are seed 004's optimised settings (SEED004): one hidden layer
of 501 ReLU units (separate policy and value networks), 4,096 steps per update (all
environments together) in one mini-batch of 4,096, 2 epochs, learning rate 5.84e-3, entropy
coefficient 5e-3, gamma 0.99, clip 0.2, value coefficient 1; each can be set.

The curve: every `--eval-every` episodes the policy is saved as a checkpoint
(`checkpoints/episodes_N.zip`) and plays greedily `--eval-games` games against each of
`--eval-against` (mirror matches on the six decks, both seats, the same deals at every
checkpoint, so checkpoints are compared on equal luck); `curve.csv` and `curve.png` get the win
rates with 95% Wilson intervals, `summary.json` per opponent the best checkpoint, the mean over
all checkpoints and over the last 10. The best checkpoint is chosen on those same deals, so its
rate is optimistic: `evaluate` confirms it on fresh deals (another seed).
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

from ..engine.rng import derive
from ..players.encoders import ENCODERS
from ..players.ppo_player import PPOPlayer, load_policy, symlog
from .gym_env import HearthstoneEnv
from .intervals import wilson_interval

RESULTS = Path("results/ppo_selfplay")
SEED004 = {"hidden": [501], "rollout": 4096, "batch": 4096, "epochs": 2, "lr": 5.84e-3,
           "ent_coef": 5e-3, "gamma": 0.99, "clip": 0.2, "vf_coef": 1.0}
_FROZEN: dict = {}  # (path, version) -> Policy: one load per process and switch


def frozen_policy(path: str, version: int):
    key = (path, version)
    if key not in _FROZEN:
        _FROZEN.clear()
        _FROZEN[key] = load_policy(path)
    return _FROZEN[key]


class SelfPlayEnv(HearthstoneEnv):
    """Mirror matches against a frozen copy of the policy, set by `set_opponent`; until the
    first copy, the random player (what an untrained policy's near-uniform choice amounts to)."""

    def __init__(self, seat: int, encoder: str):
        super().__init__(opponent="random", encoder=encoder, seat=seat, mirror=True)
        self.frozen = None
        self.version = 0

    def set_opponent(self, path: str, version: int) -> None:
        """From the next episode on, the opponent is the policy saved at `path` (sampling)."""
        self.frozen, self.version = frozen_policy(path, version), version

    def make_opponent(self, seed: int, strategy: str):
        if self.frozen is None:
            return super().make_opponent(seed, strategy)
        return PPOPlayer(self.frozen, seed, deterministic=False)


def make_env(index: int, encoder: str, seed: int):
    def thunk():
        import gymnasium as gym
        _one_thread()  # in a subprocess: the frozen policy's forward passes, one thread per env
        env = SelfPlayEnv(seat=index % 2, encoder=encoder)
        env = gym.wrappers.TransformObservation(env, symlog, env.observation_space)
        env.reset(seed=derive(seed, 0x5E1F, index))
        return env
    return thunk


def _one_thread() -> None:
    """One torch thread: with an environment or evaluation worker per core, torch's default (a
    thread per core in every process) oversubscribes the machine many times over."""
    import torch
    torch.set_num_threads(1)


def play_games(policy_path: str, opponent: str, seed: int, ks) -> float:
    """Points of the greedy policy in games `ks` of a match (workers.learning.ppo.play_match's
    deals: game k is deal k // 2 on deck k // 2 mod 6, seat k mod 2)."""
    from ..engine.game import new_game
    from ..players.play import play_game
    from ..players.specs import build_player
    from ..protocol.evaluate import card_library, default_opponents
    policy = load_policy(policy_path)
    decks = default_opponents()
    points = 0.0
    for k in ks:
        deck = decks[(k // 2) % len(decks)]
        seat = k % 2
        g = new_game(card_library(), [list(deck.cards)] * 2, [deck.hero_class] * 2, derive(seed, 0xE7A1, k // 2))
        players = [None, None]
        players[seat] = PPOPlayer(policy, derive(seed, 1, k))
        players[1 - seat] = build_player(opponent, derive(seed, 2, k), strategy="nn")
        play_game(g, players)
        points += 1.0 if g.winner == seat else 0.5 if g.winner == -1 else 0.0
    return points


class Evaluator:
    """Matches of a saved policy against player specs, in `processes` worker processes."""

    def __init__(self, processes: int):
        self.pool = None
        if processes > 1:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor
            self.pool = ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("forkserver"),
                                            initializer=_one_thread)
        self.processes = processes

    def points(self, policy_path: str, opponent: str, games: int, seed: int) -> float:
        if self.pool is None:
            return play_games(policy_path, opponent, seed, range(games))
        chunks = [range(i, games, self.processes) for i in range(self.processes)]
        return sum(self.pool.map(play_games, [policy_path] * len(chunks), [opponent] * len(chunks),
                                 [seed] * len(chunks), chunks))

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()


def summarize(rows: list, against: list) -> dict:
    """Per opponent: the best checkpoint, the mean over all checkpoints and the last 10."""
    out = {"checkpoints": len(rows), "episodes": rows[-1]["episodes"] if rows else 0}
    for name in against:
        rates = [r[f"{name}_rate"] for r in rows]
        if not rates:
            continue
        best = max(range(len(rows)), key=lambda i: (rates[i], -i))
        out[name] = {"best_episodes": rows[best]["episodes"], "best_rate": rates[best],
                     "best_interval": [rows[best][f"{name}_lo"], rows[best][f"{name}_hi"]],
                     "best_checkpoint": rows[best]["checkpoint"],
                     "mean": round(float(np.mean(rates)), 4), "mean_last10": round(float(np.mean(rates[-10:])), 4)}
    return out


def _callback_class():
    from stable_baselines3.common.callbacks import BaseCallback
    from .ppo_files import add_rates, rates_text, save_policy, say

    class SelfPlayCallback(BaseCallback):
        """Counts episodes; replaces the frozen opponent every `switch_every`; saves and evaluates
        a checkpoint every `eval_every`; stops at `episodes` or the clock."""

        def __init__(self, args, curve, evaluator: Evaluator, start: float):
            super().__init__()
            self.args, self.curve, self.evaluator, self.start = args, curve, evaluator, start
            self.episodes, self.switches = 0, 0
            self.next_switch, self.next_eval = args.switch_every, args.eval_every
            self.eval_seconds = 0.0

        def _on_step(self) -> bool:
            self.episodes += int(np.sum(self.locals.get("dones", 0)))
            if self.episodes >= self.next_switch:
                while self.next_switch <= self.episodes:
                    self.next_switch += self.args.switch_every
                self.switch()
            if self.episodes >= self.next_eval:
                while self.next_eval <= self.episodes:
                    self.next_eval += self.args.eval_every
                self.evaluate()
            return (self.episodes < self.args.episodes
                    and time.perf_counter() - self.start < self.args.max_minutes * 60)

        def switch(self) -> None:
            self.switches += 1
            path = self.args.out / "opponent.zip"
            save_policy(self.model, path, self.args.encoder)
            self.training_env.env_method("set_opponent", str(path), self.switches)
            if self.switches % 10 == 0:  # progress between checkpoints
                train_s = time.perf_counter() - self.start - self.eval_seconds
                say(f"[self-play] {self.episodes:,} episodes, {self.num_timesteps:,} steps, "
                    f"{self.num_timesteps / max(train_s, 1e-9):.0f} steps/s, "
                    f"{self.episodes / max(train_s, 1e-9):.2f} episodes/s (training time {train_s:.0f}s)")

        def evaluate(self) -> None:
            args = self.args
            t0 = time.perf_counter()
            path = args.out / "checkpoints" / f"episodes_{self.episodes}.zip"
            save_policy(self.model, path, args.encoder)
            save_policy(self.model, args.out / "policy.zip", args.encoder)
            row = {"episodes": self.episodes, "steps": self.num_timesteps, "switches": self.switches,
                   "checkpoint": str(path)}
            add_rates(row, args.eval_against,
                      lambda name: self.evaluator.points(str(path), name, args.eval_games, args.seed + 1),
                      args.eval_games)
            self.eval_seconds += time.perf_counter() - t0
            train_s = time.perf_counter() - self.start - self.eval_seconds
            row.update(seconds=round(time.perf_counter() - self.start, 1), train_seconds=round(train_s, 1),
                       eval_seconds=round(time.perf_counter() - t0, 1),
                       steps_per_s=round(self.num_timesteps / max(train_s, 1e-9), 1),
                       episodes_per_s=round(self.episodes / max(train_s, 1e-9), 2))
            self.curve.add(row)
            summary = summarize(self.curve.rows, args.eval_against)
            (args.out / "summary.json").write_text(json.dumps(summary, indent=1))
            say(f"[self-play] {self.episodes:,} episodes, {self.num_timesteps:,} steps, {row['seconds']:.0f}s, "
                f"{row['steps_per_s']:.0f} steps/s, {row['episodes_per_s']:.2f} episodes/s; "
                + rates_text(row, args.eval_against, 3))

    return SelfPlayCallback


def train_selfplay(args) -> Path:
    """Train as the module's docstring says; the path of the last policy."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv
    from .ppo_files import Curve, say

    torch.set_num_threads(args.threads)
    (args.out / "checkpoints").mkdir(parents=True, exist_ok=True)
    n_steps = max(16, args.rollout // args.envs)
    thunks = [make_env(i, args.encoder, args.seed) for i in range(args.envs)]
    venv = SubprocVecEnv(thunks, start_method="forkserver") if args.processes > 1 else DummyVecEnv(thunks)
    model = MaskablePPO("MlpPolicy", venv, n_steps=n_steps, batch_size=args.batch, n_epochs=args.epochs,
                        learning_rate=args.lr, gamma=args.gamma, ent_coef=args.ent_coef, clip_range=args.clip,
                        vf_coef=args.vf_coef, seed=args.seed, device=args.device, verbose=0,
                        policy_kwargs={"net_arch": {"pi": list(args.hidden), "vf": list(args.hidden)},
                                       "activation_fn": torch.nn.ReLU})
    # sb3 reseeds the environments with seed + index, so runs of neighbouring seeds would share
    # deals; a hashed base keeps every run's deals its own.
    venv.seed(derive(args.seed, 0x5E1F) % 2 ** 31)
    evaluator = Evaluator(args.eval_processes)
    curve = Curve(args.out, args.eval_against, x="episodes",
                  title="Self-play MaskablePPO: greedy checkpoints, mirror matches on the six decks")
    start = time.perf_counter()
    callback = _callback_class()(args, curve, evaluator, start)
    say(f"[self-play] {args.envs} envs ({args.processes} process{'es' if args.processes > 1 else ''}), "
        f"rollout {n_steps * args.envs}, batch {args.batch}, {args.epochs} epochs, lr {args.lr:g}, "
        f"hidden {args.hidden}; opponent switched every {args.switch_every} episodes; up to "
        f"{args.episodes:,} episodes or {args.max_minutes:g} min; writing {args.out}")
    try:
        model.learn(total_timesteps=10 ** 12, callback=callback)
        if not curve.rows or curve.rows[-1]["episodes"] != callback.episodes:
            callback.evaluate()  # the final policy's row
    finally:
        venv.close()
        evaluator.close()
    return args.out / "policy.zip"


def add_parsers(sub) -> None:
    """The `self-play` and `evaluate` subcommands of python -m workers.learning.ppo."""
    t = sub.add_parser("self-play", help="train MaskablePPO by self-play (seed 004's settings)")
    t.add_argument("--episodes", type=int, default=100000)
    t.add_argument("--out", type=Path, default=RESULTS)
    t.add_argument("--envs", type=int, default=8)
    t.add_argument("--processes", type=int, default=1, help="> 1: the envs in subprocesses")
    t.add_argument("--switch-every", type=int, default=100, help="episodes between opponent updates")
    t.add_argument("--eval-every", type=int, default=1000, help="episodes between checkpoints")
    t.add_argument("--eval-games", type=int, default=250, help="games per opponent and checkpoint (even)")
    t.add_argument("--eval-against", nargs="+", default=["osl", "random", "beam_nn"])
    t.add_argument("--eval-processes", type=int, default=1)
    t.add_argument("--max-minutes", type=float, default=float("inf"))
    t.add_argument("--encoder", default="rich", choices=list(ENCODERS))
    t.add_argument("--rollout", type=int, default=SEED004["rollout"], help="steps per update, all envs together")
    t.add_argument("--batch", type=int, default=SEED004["batch"])
    t.add_argument("--epochs", type=int, default=SEED004["epochs"])
    t.add_argument("--lr", type=float, default=SEED004["lr"])
    t.add_argument("--gamma", type=float, default=SEED004["gamma"])
    t.add_argument("--ent-coef", type=float, default=SEED004["ent_coef"])
    t.add_argument("--clip", type=float, default=SEED004["clip"])
    t.add_argument("--vf-coef", type=float, default=SEED004["vf_coef"])
    t.add_argument("--hidden", type=int, nargs="+", default=SEED004["hidden"])
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    t.add_argument("--device", default="cpu")
    e = sub.add_parser("evaluate", help="a saved policy's greedy win rate against player specs")
    e.add_argument("--policy", required=True)
    e.add_argument("--against", nargs="+", default=["osl"])
    e.add_argument("--games", type=int, default=1000)
    e.add_argument("--seed", type=int, default=7, help="the deals (training evaluated on seed + 1)")
    e.add_argument("--processes", type=int, default=1)


def check_args(parser, args) -> None:
    names = (("episodes", "envs", "processes", "switch_every", "eval_every", "eval_games", "eval_processes",
              "rollout", "batch", "epochs", "threads") if args.command == "self-play" else ("games", "processes"))
    for name in names:
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    games = args.eval_games if args.command == "self-play" else args.games
    if games % 2:
        parser.error("the number of games must be even (each deal is played from both seats)")
    if args.command == "self-play":
        if not (args.max_minutes > 0):
            parser.error("--max-minutes must be positive")
        for name in ("lr", "clip", "vf_coef"):
            if not (getattr(args, name) > 0):
                parser.error(f"--{name.replace('_', '-')} must be positive")
        if not (0 < args.gamma <= 1) or args.ent_coef < 0:
            parser.error("--gamma must be in (0, 1] and --ent-coef at least 0")


def evaluate(args) -> dict:
    """`evaluate`: the policy's points against each spec, with 95% Wilson intervals, printed."""
    from ..players.specs import load_policy as check_policy
    check_policy(args.policy)  # a bad file: one PlayerSpecError
    _one_thread()  # one small forward pass per action: more threads only cost (65 ms an action on 2 busy cores)
    evaluator = Evaluator(args.processes)
    out = {}
    try:
        for name in args.against:
            t0 = time.perf_counter()
            points = evaluator.points(args.policy, name, args.games, args.seed)
            lo, hi = wilson_interval(points, args.games)
            out[name] = {"games": args.games, "rate": round(points / args.games, 4), "lo": round(lo, 4),
                         "hi": round(hi, 4), "seconds": round(time.perf_counter() - t0, 1)}
            print(json.dumps({"against": name, **out[name]}), flush=True)
    finally:
        evaluator.close()
    return out


if __name__ == "__main__":  # pragma: no cover
    sys.exit("use python -m workers.learning.ppo self-play | evaluate")
