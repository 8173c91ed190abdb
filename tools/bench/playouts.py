"""Playout speed (part of `make bench`): random legal games, MCTS iterations with random
playouts and Gymnasium environment steps with random valid actions, per second on one core,
and the CPU time of one protocol game (beam search, depth 13, width 4), optionally A/B against
another checkout of this repository.

    python -m tools.bench.playouts [--baseline DIR] [--repeats 3] [--core 1]

Each figure is measured in a fresh process pinned to one core, on the CPU time of that process
(time.process_time), so that other work on the machine slows neither side's figure. With `--baseline DIR` (a
checkout, e.g. `git worktree add /tmp/base c30c748`) the same measurement runs there too,
alternating baseline and this tree `--repeats` times; the lines give both medians and their
ratio. Only the in-run ratio compares: absolute figures differ about 3x between machines of
one kind. The same seeds play the same games on both sides, and each measurement prints a
digest of what it played, so a ratio between trees that play differently is flagged.

The measured code is looked up under both package layouts (workers/protocol/... since the
layout change of issue 26, workers/... before), so this file runs against older checkouts.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ("random_games_per_s", "mcts_iterations_per_s", "env_steps_per_s", "protocol_game_ms")
LOWER_IS_BETTER = ("protocol_game_ms",)  # its ratio is the baseline's over this tree's: x cheaper


def _module(new: str, old: str):
    """`new` where the measured tree has the new layout, else `old` (asked of the tree's own
    folders: an editable install of another checkout would answer an import of `new`)."""
    import importlib
    import workers
    first = new.split(".")[1]
    has_new = (Path(workers.__file__).parent / first).is_dir() or first == "engine"
    return importlib.import_module(new if has_new else old)


def random_games() -> tuple[float, str]:
    """Miracle Rogue against the six opponent decks, both sides random."""
    evaluate = _module("workers.protocol.evaluate", "workers.evaluate")
    evaluate.warm_up()
    games = 2000
    start = time.process_time()
    records = evaluate.play_games(evaluate.miracle_rogue(), range(games), 7, player="random")
    rate = games / (time.process_time() - start)
    return rate, repr([(r.won, r.turns, r.own_health, r.enemy_health, r.hand_size_sum, r.minion_damage,
                         r.mana_spent) for r in records])


def mcts_iterations() -> tuple[float, str]:
    """Whole games of MCTS (100 iterations per action, random playouts) against the random
    player, Miracle Rogue against each opponent deck; iterations per second of the games."""
    evaluate = _module("workers.protocol.evaluate", "workers.evaluate")
    mcts = _module("workers.players.mcts", "workers.mcts")
    play = _module("workers.players.play", "workers.players")
    game = _module("workers.engine.game", "workers.engine.game")
    evaluate.warm_up()
    library, deck = evaluate.card_library(), evaluate.miracle_rogue()
    iterations, digest, elapsed = 0, [], 0.0
    for i, opponent in enumerate(evaluate.default_opponents()):
        g = game.new_game(library, [deck, list(opponent.cards)], ["ROGUE", opponent.hero_class], 100 + i)
        players = [mcts.MCTSPlayer(i, iterations=100), play.RandomPlayer(i)]
        start = time.process_time()
        while not g.done and g.turn < 30:
            players[g.current].take_turn(g)
        elapsed += time.process_time() - start
        iterations += players[0].iterations_run
        digest.append((g.winner, g.turn, players[0].iterations_run))
    return iterations / elapsed, repr(digest)


def protocol_games() -> tuple[float, str]:
    """Miracle Rogue by the protocol (both sides beam search, depth 13, width 4), games 0-59 of
    seed 11 (ten against each opponent): milliseconds of CPU time per game."""
    evaluate = _module("workers.protocol.evaluate", "workers.evaluate")
    evaluate.warm_up()
    games = 60
    start = time.process_time()
    records = evaluate.play_games(evaluate.miracle_rogue(), range(games), 11)
    cost = (time.process_time() - start) / games * 1000
    return cost, repr([(r.won, r.turns, r.own_health, r.enemy_health, r.hand_size_sum, r.minion_damage,
                         r.cards_drawn, r.mana_spent, r.mana_available) for r in records])


def env_steps() -> tuple[float, str]:
    """The Gymnasium environment against the random opponent, random valid actions."""
    import numpy as np
    gym_env = _module("workers.learning.gym_env", "workers.gym_env")
    env = gym_env.HearthstoneEnv(opponent="random")
    rng = random.Random(0)
    steps, episodes, rewards = 0, 0, 0.0
    _, info = env.reset(seed=0)
    start = time.process_time()
    while steps < 20000:
        # The environment, not this loop, is what is measured: the int8 mask is read as bool
        # (numpy finds the ones in a bool array several times faster) and the choice is the
        # standard library's (numpy's Generator costs more per single draw than a step).
        legal = np.flatnonzero(info["action_mask"].view(np.bool_))
        _, reward, terminated, truncated, info = env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
        rewards += reward
        if terminated or truncated:
            episodes += 1
            _, info = env.reset(seed=episodes)
    return steps / (time.process_time() - start), repr((episodes, rewards))


NOTES = {  # each figure's goal as a ratio to an earlier version's, measured on one core, back to back
    "random_games_per_s": "goal 3x c30c748's; there c30c748 played 1,063 and SabberStone 1,528",
    "mcts_iterations_per_s": "goal 2x c30c748's (random playouts, 100 iterations per action)",
    "env_steps_per_s": "goal 2x c30c748's (random opponent, random valid actions)",
    "protocol_game_ms": "goal 1.5x cheaper than 66486f0's 14.2 ms; SabberStone 585",
}
MEASURES = {"random_games_per_s": random_games, "mcts_iterations_per_s": mcts_iterations,
            "env_steps_per_s": env_steps, "protocol_game_ms": protocol_games}


def baseline_problem(tree: Path) -> str | None:
    """Why `tree` cannot serve as --baseline, or None."""
    if not (tree / "workers" / "engine" / "state.py").is_file():
        return f"--baseline {tree}: not a checkout of this repository (no workers/engine/state.py)"
    return None


def measure_in(tree: Path, figure: str, core: int) -> tuple[float, str]:
    """One measurement in a fresh process of `tree`, pinned to `core`: (rate, digest)."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
    code = (f"import os, sys, json; os.sched_setaffinity(0, {{{core}}}); sys.path.insert(0, {str(ROOT)!r});"
            f"from tools.bench.playouts import MEASURES; sys.path.pop(0);"
            f"rate, played = MEASURES[{figure!r}](); print(json.dumps([rate, played]))")
    # The measured code must come from `tree`, not from this checkout: tools.bench.playouts is
    # imported from here, then this checkout leaves the path before anything under workers/
    # is imported (PYTHONPATH puts `tree` first).
    out = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True,
                         text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"{figure} in {tree} failed:\n{out.stderr.strip()[-2000:]}")
    rate, played = json.loads(out.stdout.strip().splitlines()[-1])
    return rate, hashlib.sha256(played.encode()).hexdigest()[:12]


def prepare(tree: Path) -> None:
    """Build `tree`'s compiled engine if it is not built from its current sources."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, "-m", "workers.engine.native_build"], cwd=tree, env=env,
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"the compiled engine of {tree} could not be built:\n{out.stderr.strip()[-2000:]}")


def compare(trees: list[Path], figures: list[str], repeats: int, core: int, with_baseline: bool):
    """One line per figure: this tree's median, and with a baseline (trees[0]) its median and
    the ratio."""
    for tree in trees:
        prepare(tree)
    for figure in figures:
        rates: dict[Path, list[float]] = {tree: [] for tree in trees}
        played: dict[Path, set[str]] = {tree: set() for tree in trees}
        for _ in range(repeats):
            for tree in trees:  # alternating, so a slower spell of the machine hits both
                rate, digest = measure_in(tree, figure, core)
                rates[tree].append(rate)
                played[tree].add(digest)
        here = statistics.median(rates[ROOT])
        line = f"{figure}: {here:.4g}"
        if not with_baseline:
            line += f"  ({NOTES[figure]})"
        else:
            base = statistics.median(rates[trees[0]])
            same = played[trees[0]] == played[ROOT] and len(played[ROOT]) == 1
            ratio = base / here if figure in LOWER_IS_BETTER else here / base
            what = "x cheaper" if figure in LOWER_IS_BETTER else "x"
            line += (f"  (baseline {base:.4g}, ratio {ratio:.2f}{what}; medians of {repeats}, "
                     f"core {core}; {'same games' if same else 'DIFFERENT games'})")
        yield line


def main(argv=None) -> int:
    from workers.inputs import ArgumentParser, int_in
    parser = ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", type=Path, help="another checkout of this repository to compare with")
    parser.add_argument("--repeats", type=int_in(1, 100), default=3, help="measurements per side (median)")
    parser.add_argument("--core", type=int_in(0, 4095), default=min(1, (os.cpu_count() or 1) - 1),
                        help="the core every measurement is pinned to")
    parser.add_argument("--figures", nargs="+", choices=FIGURES, default=list(FIGURES))
    args = parser.parse_args(argv)
    if args.baseline is not None and (problem := baseline_problem(args.baseline)):
        parser.error(problem)
    trees = [ROOT] if args.baseline is None else [args.baseline.resolve(), ROOT]
    try:
        for line in compare(trees, args.figures, args.repeats, args.core, args.baseline is not None):
            print(line, flush=True)
    except RuntimeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
