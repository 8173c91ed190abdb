"""Side-by-side comparison of two engines on the same decks and seeds.

    python -m tools.compare_engines [--deck FILE] [--games 60] [--seed 0] [--player beam]
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

import json
import math
import sys
from pathlib import Path
from typing import Sequence

from workers.inputs import ArgumentParser, InputError, int_in
from workers.protocol.results import GameRecord

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
        from workers.protocol import evaluate
        return evaluate, {}
    if name == "sabberstone":
        from workers.sabberstone import engine
        return engine, {}
    raise ValueError(f"unknown engine {name!r}: expected builtin or sabberstone")


def read_deck(path: str) -> list[str]:
    """A deck file in any format the pipeline reads: JSON (ids or names, {"cards": [...]} or
    a list), a deck code, or one card per line."""
    from pipeline.deck_space import DeckSpace
    from pipeline.run_errors import DeckSpaceError
    try:
        space = DeckSpace.from_pool_file()
        return space.decode(space.load_deck_file(path))
    except DeckSpaceError as exc:
        raise InputError(str(exc)) from None


def run(args) -> str:
    from workers.errors import DeckError
    from workers.protocol import evaluate
    deck = read_deck(args.deck) if args.deck else evaluate.miracle_rogue()
    opponents = evaluate.load_opponents(args.opponents) if args.opponents else evaluate.default_opponents()
    evaluate.validate_deck(deck, label=f"deck {args.deck or 'Miracle Rogue'}")
    names = [o.name for o in opponents]
    engines = [(label, *_engine(label)) for label in args.engines]
    if "sabberstone" in args.engines:  # set up (or refused) before any game is played
        from workers.sabberstone.checks import check
        path = check(args.sabberstone_dir, source="--sabberstone-dir")["folder"]
        engines = [(label, module, {"path": path} if label == "sabberstone" else extra)
                   for label, module, extra in engines]
    records = {}
    for label, module, extra in engines:
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
        try:
            Path(args.json).write_text(json.dumps(result, indent=1))
        except OSError as exc:
            raise InputError(f"cannot write {args.json}: {exc.strerror or exc}") from None
    return format_table(result, names)


def main(argv: list[str] | None = None) -> int:
    parser = ArgumentParser(prog="python -m tools.compare_engines", description=__doc__.split("\n\n")[0])
    parser.add_argument("--deck", help="deck file: JSON, deck code or card list (default: Miracle Rogue)")
    parser.add_argument("--opponents", help="opponents JSON file (default: the paper's six)")
    parser.add_argument("--games", type=int_in(1, 10 ** 6), default=60)
    parser.add_argument("--seed", type=int_in(0, 2 ** 64 - 1), default=0)
    parser.add_argument("--player", choices=("beam", "random"), default="beam")
    parser.add_argument("--strategy", default="nn", help="aggro, control, nn or a weights .json file")
    parser.add_argument("--beam-depth", type=int_in(1, 100), default=13)
    parser.add_argument("--beam-width", type=int_in(1, 100), default=4)
    parser.add_argument("--engines", nargs=2, default=["builtin", "sabberstone"], choices=("builtin", "sabberstone"))
    parser.add_argument("--sabberstone-dir", help="folder holding SabberStoneCore.dll (default: $SABBERSTONE_DIR)")
    parser.add_argument("--json", help="also write the numbers to this JSON file")
    parser.add_argument("--hide-deck-order", action="store_true",
                        help="beam players plan on reshuffled decks (builtin engine only)")
    args = parser.parse_args(argv)
    if args.json and (Path(args.json).is_dir() or not Path(args.json).parent.is_dir()):
        parser.error(f"--json {args.json}: not a file in an existing folder")
    if args.hide_deck_order and "sabberstone" in args.engines:
        parser.error("--hide-deck-order needs --engines builtin builtin: SabberStone's planner "
                     "always knows the deck order")
    from workers.errors import DeckError
    from workers.players.scores import check_strategy
    from workers.sabberstone import SabberStoneSetupError
    try:
        check_strategy(args.strategy, "--strategy")
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
