"""Engine benchmarks (the first half of `make bench`): one `name: value` line per figure, with
its target/anchor.

Anchors (one core, same decks): SabberStone with its own planner evaluates Miracle Rogue by the
full protocol in 117 s (585 ms per game; 212-262 s measured earlier on slower machines), plays
about 2,850 random games/s and copies a mid-game state in about 34 us; hearthbreaker plays
about 129 random games/s. Goals: protocol_eval_s <= 6 (20x SabberStone), state_copy_us <= 5.
Random games, MCTS iterations and environment steps per second are playouts.py's figures, and
so is protocol_game_ms, a protocol game's CPU time on one core (the one figure of the protocol
that --baseline measures on another checkout too, with the ratio).
The protocol is timed without a profiler (the median of several evaluations); its profile comes
from a separate evaluation, as a profiler triples the time it measures (and sees only the plain
Python parts of the compiled engine: run with DSAME_NATIVE=0 to profile the rules themselves).
The first line says which engine ran: compiled (make native) or plain Python.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import subprocess
import sys
import time
from pathlib import Path

from workers.engine.class_pools import pool_ids, random_pool_deck
from workers.engine.game import new_game
from workers.engine.native import compiled
from workers.engine.rng import derive
from workers.inputs import ArgumentParser, int_in
from workers.players.play import RandomPlayer
from workers.protocol.evaluate import card_library, default_opponents, evaluate_deck, miracle_rogue, warm_up
from .playouts import baseline_problem

ROOT = Path(__file__).resolve().parents[2]


def line(name: str, value: float, note: str = "") -> None:
    print(f"{name}: {value:.4g}" + (f"  ({note})" if note else ""), flush=True)


def median_of(runs: int, fn) -> float:
    return statistics.median(fn() for _ in range(runs))


def random_pool_games_per_s(games: int) -> float:
    library, pool = card_library(), pool_ids("ROGUE")
    decks = [(random_pool_deck(derive(5, i, 1), pool), random_pool_deck(derive(5, i, 2), pool))
             for i in range(games)]
    start = time.perf_counter()
    for i, (a, b) in enumerate(decks):
        g = new_game(library, [a, b], ["ROGUE", "ROGUE"], i)
        while not g.done:
            RandomPlayer(i).take_turn(g)
    return games / (time.perf_counter() - start)


def mid_game_state():
    """A state after 12 random turns of Miracle Rogue against Control Paladin."""
    opponent = default_opponents()[3]
    for seed in range(100):
        g = new_game(card_library(), [miracle_rogue(), list(opponent.cards)],
                     ["ROGUE", opponent.hero_class], seed)
        players = [RandomPlayer(seed), RandomPlayer(seed + 1)]
        while not g.done and g.turn < 12:
            players[g.current].take_turn(g)
        if not g.done and g.players[0].board and g.players[1].board:
            return g
    raise RuntimeError("no mid-game state with minions on both sides found")


def state_copy_us(copies: int = 20000) -> float:
    g = mid_game_state()
    start = time.perf_counter()
    for _ in range(copies):
        g.copy()
    return (time.perf_counter() - start) / copies * 1e6


def protocol_eval_s(games: int) -> float:
    start = time.perf_counter()
    evaluate_deck(miracle_rogue(), games=games, seed=11)
    return time.perf_counter() - start


def write_protocol_profile(games: int, path: Path) -> None:
    """Profile one evaluation on its own (never the one that is timed)."""
    profiler = cProfile.Profile()
    profiler.enable()
    evaluate_deck(miracle_rogue(), games=games, seed=11)
    profiler.disable()
    stream = io.StringIO()
    pstats.Stats(profiler, stream=stream).sort_stats("tottime").print_stats(25)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(stream.getvalue())


def fresh_worker_figures() -> tuple[float, float]:
    """Seconds until the engine is ready in a fresh process, and that process's peak memory
    after playing a few full-protocol games. The peak is the process's own (VmHWM): ru_maxrss
    would count the bench process it was forked from, whatever that held."""
    code = ("from workers.protocol.evaluate import warm_up, play_games, miracle_rogue;"
            "warm_up(); print('ready', flush=True);"
            "play_games(miracle_rogue(), range(6), 3);"
            "print(next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM')) / 1024)")
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    startup = time.perf_counter() - start
    peak = float(proc.stdout.readline())
    proc.wait()
    return startup, peak


def _creatable(folder: Path) -> bool:
    """A folder that exists and is writable, or could be made under one that is."""
    while not folder.exists():
        folder = folder.parent
    return folder.is_dir() and os.access(folder, os.W_OK)


def main(argv=None) -> int:
    args = parse(argv)
    if args.baseline is not None:
        print("error: --baseline times the playout figures: use python -m tools.bench (or "
              "python -m tools.bench.playouts)", file=sys.stderr)
        return 2
    return run(args)


def parse(argv=None) -> argparse.Namespace:
    """The options of `python -m tools.bench` (this module's, and --baseline for playouts.py)."""
    parser = ArgumentParser(prog="python -m tools.bench", description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int_in(1, 1000), default=3, help="runs per figure (median)")
    parser.add_argument("--protocol-repeats", type=int_in(1, 1000), default=3,
                        help="timed 200-game protocol evaluations (median)")
    parser.add_argument("--protocol-games", type=int_in(1, 100_000), default=200)
    parser.add_argument("--profile", type=Path, default=ROOT / "results" / "bench" / "protocol_profile.txt",
                        help="where a separate, profiled evaluation writes its profile")
    parser.add_argument("--no-profile", action="store_true", help="skip the profiled evaluation")
    parser.add_argument("--baseline", help="another checkout to time the playout figures on too, with "
                                           "the ratio (playouts.py; e.g. `git worktree add /tmp/base c30c748`)")
    args = parser.parse_args(argv)
    if not args.no_profile and (args.profile.is_dir() or not _creatable(args.profile.parent)):
        parser.error(f"--profile {args.profile}: not a file that can be written")
    if args.baseline is not None and (problem := baseline_problem(Path(args.baseline))):
        parser.error(problem)
    return args


def run(args: argparse.Namespace) -> int:
    warm_up()
    print(f"engine: {'compiled (mypyc)' if compiled() else 'plain Python'}", flush=True)
    line("state_copy_us", median_of(args.repeats, state_copy_us), "goal <= 5; SabberStone 34")
    protocol_s = median_of(args.protocol_repeats, lambda: protocol_eval_s(args.protocol_games))
    line("protocol_eval_s", protocol_s * 200 / args.protocol_games,
         f"goal <= 6; SabberStone 117; median of {args.protocol_repeats} x "
         f"{args.protocol_games} games, no profiler")
    if not args.no_profile:
        try:
            write_protocol_profile(args.protocol_games, args.profile)
        except OSError as exc:
            print(f"error: cannot write the profile {args.profile}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        print(f"protocol profile: {args.profile}", flush=True)
    workers = [fresh_worker_figures() for _ in range(args.repeats)]
    startup = statistics.median(w[0] for w in workers)
    peak = max(w[1] for w in workers)
    line("worker_startup_s", startup, "target <= 2")
    line("worker_peak_mib", peak)
    line("random_pool_games_per_s", median_of(args.repeats, lambda: random_pool_games_per_s(300)),
         "random decks from the 180-card pool, both sides")
    line("beam_game_s", protocol_s / args.protocol_games, "SabberStone 0.585")
    return 0


if __name__ == "__main__":
    sys.exit(main())
