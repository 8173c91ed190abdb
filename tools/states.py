"""Logged game states from the command line (workers.learning.state_log does the work; see its
docstring for what a row holds and how a collection resumes).

    python -m tools.states collect --out results/states.h5                  # the defaults below
    python -m tools.states collect --decks miracle pool:59 --games 200 --out FILE.h5 \\
        [--seed S] [--workers K] [--player beam] [--encoders protocol15 teo60 rich]
    python -m tools.states bench [--games 60]          # what recording costs a game
    python -m tools.states info FILE.h5

With --workers K > 1 the tasks run on a Dask LocalCluster of K processes, as the pipeline's.
"""
from __future__ import annotations

import json
import sys

from tools.local_dask import run_on_local_cluster
from workers.errors import DeckError
from workers.inputs import ArgumentParser
from workers.learning.state_log import DEFAULT_DECKS, DEFAULT_ENCODERS, bench, collect, h5_file, parse_decks
from workers.players.encoders import ENCODERS
from workers.players.scores import check_strategy
from workers.players.specs import PlayerSpecError, check_player
from workers.protocol.evaluate import load_opponents


def main(argv=None) -> int:
    parser = ArgumentParser(prog="python -m tools.states", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play games and log their states to an HDF5 file")
    c.add_argument("--decks", nargs="+", default=list(DEFAULT_DECKS),
                   help="miracle, pool:K or deck JSON files (default: miracle pool:59)")
    c.add_argument("--games", type=int, default=200, help="games per deck (default 200)")
    c.add_argument("--out", required=True, help="the HDF5 file to write")
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    c.add_argument("--encoders", nargs="+", default=list(DEFAULT_ENCODERS), choices=list(ENCODERS))
    c.add_argument("--player", default="beam",
                   help="the evaluated deck's player: beam, random or any player spec (workers.players.specs)")
    c.add_argument("--strategy", default="nn", help="the evaluated deck's score (default nn)")
    c.add_argument("--beam-depth", type=int, default=13)
    c.add_argument("--beam-width", type=int, default=4)
    c.add_argument("--games-per-task", type=int, default=20)
    c.add_argument("--opponents", default=None, help="opponents JSON file (default: the paper's six)")
    b = sub.add_parser("bench", help="what recording costs a game")
    b.add_argument("--games", type=int, default=60)
    b.add_argument("--repeats", type=int, default=3)
    b.add_argument("--seed", type=int, default=0)
    i = sub.add_parser("info", help="describe a collected file")
    i.add_argument("file")
    args = parser.parse_args(argv)
    if args.command == "collect":
        for name in ("games", "workers", "games_per_task", "beam_depth", "beam_width"):
            if getattr(args, name) < 1:
                parser.error(f"--{name.replace('_', '-')} must be at least 1")
        try:  # bad input: one line naming it, before any game is played
            check_strategy(args.strategy, "--strategy")
            if args.player not in ("beam", "random"):
                check_player(args.player)
            if args.opponents:
                load_opponents(args.opponents)
            decks = parse_decks(args.decks, args.seed)
        except (DeckError, PlayerSpecError) as exc:  # InputError included
            print(f"error: {exc}", file=sys.stderr)
            return 2
        collect(decks, args.games, args.out, seed=args.seed, workers=args.workers,
                encoders=args.encoders, player=args.player, strategy=args.strategy,
                beam_depth=args.beam_depth, beam_width=args.beam_width,
                games_per_task=args.games_per_task, opponents=args.opponents,
                run_parallel=run_on_local_cluster)
    elif args.command == "bench":
        r = bench(args.games, args.seed, args.repeats)
        print(f"{r['games']} games, {r['rows']} rows: {r['plain_s'] / r['games'] * 1e3:.1f} ms CPU a game "
              f"without recording, {r['recorded_s'] / r['games'] * 1e3:.1f} ms with "
              f"({r['overhead'] * 100:+.1f}%); inside the recorder {r['recorder_s'] / r['rows'] * 1e6:.0f} us "
              f"a row, {r['recorder_share'] * 100:.2f}% of a game's time")
    else:
        try:
            with h5_file(args.file, "r") as f:
                m = json.loads(f.attrs["manifest"])
                print(f"{args.file}: {f.attrs['rows']:,} rows, {f.attrs['games_played']:,} games "
                      f"({f.attrs['games_failed']} failed), {len(m['decks'])} decks x {m['games']} games, "
                      f"seed {m['seed']}, player {m['player']}/{m['strategy']}")
                for name in f["x"]:
                    print(f"  x/{name}: {f['x'][name].shape[1]} values, v{f['x'][name].attrs['version']}")
        except (OSError, KeyError, ValueError, TypeError) as exc:  # missing, not HDF5, not collected states
            print(f"error: {args.file}: not a readable states file ({type(exc).__name__}: "
                  f"{str(exc).splitlines()[0] if str(exc) else ''})", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
