"""Side-by-side comparison of two engines on the same decks and seeds.

    python -m workers.compare_engines [--deck FILE] [--games 60] [--seed 0] [--player beam]
                                      [--sabberstone-dir DIR] [--engines builtin sabberstone]
                                      [--hide-deck-order]

Game g of the evaluation is played against opponent g mod 6 with seed derive(seed, g) on every
engine, exactly as the pipeline plays it; the table gives per opponent the mean and standard
error (sample standard deviation / sqrt(games)) of the win rate, the health difference, the
own turns and the hand size (per game: hand-size sum / own turns), for each engine and their
difference. Games that raised inside an engine are counted and listed with their seeds.
`--hide-deck-order` makes the beam players plan on reshuffled decks (built-in engine only).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Sequence

from .results import GameRecord

METRICS = ("win_rate", "health_difference", "turns", "hand_size")


def game_values(r: GameRecord) -> dict[str, float]:
    return {"win_rate": float(r.won), "health_difference": float(r.own_health - r.enemy_health),
            "turns": float(r.turns), "hand_size": r.hand_size_sum / max(r.turns, 1)}


def mean_se(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    mean = sum(values) / n
    if n == 1:
        return mean, math.nan
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def compare(records: dict[str, list[GameRecord]], opponent_names: Sequence[str]) -> dict:
    """Per engine and opponent (and "all"): games, errors, and (mean, se) of every metric."""
    out = {}
    for engine, recs in records.items():
        rows = {}
        groups = [(name, [r for r in recs if r.opponent_index == i]) for i, name in enumerate(opponent_names)]
        for name, group in groups + [("all", list(recs))]:
            good = [game_values(r) for r in group if r.error is None]
            rows[name] = {"games": len(good), "errors": sum(r.error is not None for r in group),
                          **{m: mean_se([v[m] for v in good]) for m in METRICS}}
        out[engine] = {"rows": rows, "failed": [(r.game_index, r.seed, r.error) for r in recs if r.error]}
    return out


def format_table(result: dict, opponent_names: Sequence[str]) -> str:
    engines = list(result)
    lines = []
    header = f"{'opponent':<18} {'metric':<18}" + "".join(f"{e:>22}" for e in engines)
    if len(engines) == 2:
        header += f"{'difference':>22}"
    lines.append(header)
    for name in list(opponent_names) + ["all"]:
        games = "/".join(str(result[e]["rows"][name]["games"]) for e in engines)
        lines.append(f"{name:<18} {'games':<18}{games:>22}")
        for m in METRICS:
            cells = [result[e]["rows"][name][m] for e in engines]
            row = f"{'':<18} {m:<18}" + "".join(f"{mu:>12.3f} +- {se:<6.3f}" for mu, se in cells)
            if len(cells) == 2:
                (a, sa), (b, sb) = cells
                row += f"{b - a:>12.3f} +- {math.sqrt(sa ** 2 + sb ** 2):<6.3f}"
            lines.append(row)
    for e in engines:
        failed = result[e]["failed"]
        if failed:
            lines.append(f"{e}: {len(failed)} game(s) raised: " +
                         "; ".join(f"game {g} seed {s}: {msg}" for g, s, msg in failed[:10]))
    return "\n".join(lines)


def _engine(name: str):
    if name == "builtin":
        from . import evaluate
        return evaluate, {}
    if name == "sabberstone":
        from .sabberstone import engine
        return engine, {}
    raise ValueError(f"unknown engine {name!r}: expected builtin or sabberstone")


def run(args) -> str:
    from . import evaluate
    from .errors import DeckError
    deck = evaluate.load_deck_file(args.deck) if args.deck else evaluate.miracle_rogue()
    opponents = evaluate.load_opponents(args.opponents) if args.opponents else evaluate.default_opponents()
    names = [o.name for o in opponents]
    records = {}
    for label in args.engines:
        module, extra = _engine(label)
        if label == "sabberstone":
            from .sabberstone.checks import check
            extra = {"path": check(args.sabberstone_dir)["folder"]}
        key = label if label not in records else f"{label}#2"
        try:
            records[key] = module.play_games(deck, range(args.games), args.seed, player=args.player,
                                             strategy=args.strategy, opponents=opponents,
                                             beam_depth=args.beam_depth, beam_width=args.beam_width,
                                             hide_deck_order=args.hide_deck_order, **extra)
        except ValueError as exc:
            raise DeckError(str(exc)) from None
    result = compare(records, names)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    return format_table(result, names)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m workers.compare_engines", description=__doc__.split("\n\n")[0])
    parser.add_argument("--deck", help="deck JSON file (default: Miracle Rogue)")
    parser.add_argument("--opponents", help="opponents JSON file (default: the paper's six)")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--player", choices=("beam", "random"), default="beam")
    parser.add_argument("--strategy", default="nn")
    parser.add_argument("--beam-depth", type=int, default=13)
    parser.add_argument("--beam-width", type=int, default=4)
    parser.add_argument("--engines", nargs=2, default=["builtin", "sabberstone"], choices=("builtin", "sabberstone"))
    parser.add_argument("--sabberstone-dir", help="folder holding SabberStoneCore.dll (default: $SABBERSTONE_DIR)")
    parser.add_argument("--json", help="also write the numbers to this JSON file")
    parser.add_argument("--hide-deck-order", action="store_true",
                        help="beam players plan on reshuffled decks (builtin engine only)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be positive")
    if args.hide_deck_order and "sabberstone" in args.engines:
        parser.error("--hide-deck-order needs --engines builtin builtin: SabberStone's planner "
                     "always knows the deck order")
    from .errors import DeckError
    from .sabberstone import SabberStoneSetupError
    try:
        print(run(args))
    except (SabberStoneSetupError, DeckError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (OSError, KeyError, ValueError) as exc:
        print(f"error: cannot read {args.deck or args.opponents}: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
