"""Replay a file of reference records on SabberStone and say, game by game, whether every
statistic comes out the same.

    python -m workers.sabberstone.replay RECORDS.json [RECORDS.json ...] [--path DIR]
                                         [--games N] [--workers N] [--json OUT]

A record file (workers/data/sabberstone/runs/*.json, the format of shared/reference/sabberstone)
holds the evaluated deck, the stat overrides it applied, whether SabberStone's game history was
on, the planner's depth and width, and per game its opponent and SabberStone's two seeds
(`game_seed`: GameConfig.RandomSeed; `search_seed`: the seed of Util.ThreadLocalRandom's shared
generator, from which the playing thread's generator is created on first use, i.e.
`new Random(new Random(search_seed).Next())`; see workers.sabberstone.protocol). Each game is
played again with those seeds by the reference evaluator's rules (engine=sabberstone), one line
per game as it finishes, and every statistic the record holds is compared; once a whole file is
replayed, so is its card usage (plays of the deck's own cards). A record is the try that
finished: its seeds are replayed once, never retried. Exit status: 0 when every game and the
card usage agree, 1 when anything differs, 2 when the file or the SabberStone build cannot be used.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Iterator, Sequence

from . import SabberStoneSetupError
from .protocol import BridgeGame

# What a reference record and the bridge both report, compared game by game.
STATISTICS = ("won", "tied", "health_diff", "p1_hp", "p2_hp", "num_turns", "game_turn", "hand_size",
              "hand_size_start", "cards_drawn", "damage_done", "mana_spent", "mana_wasted",
              "option_score", "p1_turns_counted", "searches_p1", "searches_p2")
GAME_KEYS = ("game", "opponent", "game_seed", "search_seed")
# "Cold Blood(CS2_073) 2:0/0 -> 1:0/0": a card's cost:attack/health before and after.
OVERRIDE = re.compile(r"\((\w+)\) (\d+):(\d+)/(\d+) -> (\d+):(\d+)/(\d+)")


class RecordFileError(ValueError):
    """A record file that cannot be replayed; the message names the file and what is wrong."""


def stat_overrides(run: dict) -> dict[str, dict[str, int]] | None:
    """The overrides a run applied, read from its own account of them (`nerfs_applied`)."""
    if run.get("nerfs", "none") == "none":
        return None
    overrides = {}
    for card, *values in OVERRIDE.findall(str(run.get("nerfs_applied", ""))):
        before, after = list(map(int, values[:3])), list(map(int, values[3:]))
        changed = {k: a for k, b, a in zip(("cost", "atk", "health"), before, after) if a != b}
        if changed:
            overrides[card] = changed
    if not overrides:
        raise RecordFileError(f"nerfs is {run.get('nerfs')!r} but nerfs_applied names no override")
    return overrides


def load_records(path: Path) -> dict:
    """The run in `path`, checked to hold what a replay needs."""
    try:
        run = json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise RecordFileError(f"{path}: cannot read a JSON record file ({type(exc).__name__}: {exc})") from None
    if not isinstance(run, dict):
        raise RecordFileError(f"{path}: not a record file (a JSON object with deck, opponents and games)")
    missing = [k for k in ("deck", "opponents", "games") if k not in run]
    if missing:
        raise RecordFileError(f"{path}: no {', '.join(missing)}")
    deck = run["deck"]
    if not isinstance(deck, list) or len(deck) != 30 or not all(isinstance(c, str) and c for c in deck):
        raise RecordFileError(f"{path}: deck is not a list of 30 card ids")
    games = run["games"]
    if not isinstance(games, list) or not games:
        raise RecordFileError(f"{path}: games is not a non-empty list")
    for g in games:
        absent = [k for k in GAME_KEYS if not isinstance(g, dict) or not isinstance(g.get(k), int)]
        if absent:
            raise RecordFileError(f"{path}: a game record has no integer {', '.join(absent)}")
    try:
        stat_overrides(run)
    except RecordFileError as exc:
        raise RecordFileError(f"{path}: {exc}") from None
    return run


def opponents_of(run: dict, path: Path):
    """The built-in opponent decks under the run's names, checked to be the same players."""
    from ..protocol.evaluate import default_opponents
    ours = {o.name: o for o in default_opponents()}
    chosen = []
    for o in run["opponents"]:
        mine = ours.get(o.get("name")) if isinstance(o, dict) else None
        if mine is None or mine.hero_class != o.get("class") or mine.strategy.lower() != str(o.get("strategy", "")).lower():
            raise RecordFileError(f"{path}: opponent {o!r} is none of the protocol's six ({', '.join(ours)})")
        chosen.append(mine)
    return chosen


def _play(deck: list[str], seeds: list[tuple], opponents, settings: dict, path: str | None) -> list[BridgeGame]:
    from .engine import play_seeded
    return play_seeded(deck, seeds, opponents, path=path, **settings)


def replay(run: dict, run_path: Path, games: int | None = None, workers: int = 1,
           path: str | None = None) -> Iterator[BridgeGame]:
    """The first `games` games of a loaded record file (all by default), played again one per
    bridge call in `workers` processes, yielded in game order as soon as each is done."""
    opponents = opponents_of(run, run_path)
    settings = {"stat_overrides": stat_overrides(run), "beam_depth": int(run.get("depth", 13)),
                "beam_width": int(run.get("width", 4)),
                "history": bool(run.get("game_logging_history", True))}
    seeds = [tuple(g[k] for k in GAME_KEYS) for g in run["games"][:games]]
    if workers == 1:
        for one in seeds:
            yield from _play(run["deck"], [one], opponents, settings, path)
        return
    with ProcessPoolExecutor(workers) as pool:
        futures = [pool.submit(_play, run["deck"], [one], opponents, settings, path) for one in seeds]
        for future in futures:
            yield from future.result()


def differences(reference: dict, played: BridgeGame) -> list[str]:
    """What differs between a reference game record and its replay ("statistic ref -> replay")."""
    if played.error:
        return [f"error {played.error}"]
    out = []
    for name in STATISTICS:
        if name in reference and int(reference[name]) != int(getattr(played, name)):
            out.append(f"{name} {int(reference[name])} -> {int(getattr(played, name))}")
    return out


def compare_game(run: dict, reference: dict, played: BridgeGame) -> dict:
    return {"game": reference["game"], "opponent": run["opponents"][reference["opponent"]]["name"],
            "differences": differences(reference, played)}


def card_usage_differences(run: dict, played: Sequence[BridgeGame]) -> list[str] | None:
    """How the replay's plays of the deck's own cards differ from the record's card_usage ([]:
    identical); None when they cannot be compared (not every game replayed, or no card_usage)."""
    if len(played) != len(run["games"]) or not isinstance(run.get("card_usage"), dict):
        return None
    plays = Counter()
    for game in played:
        plays.update(dict(game.card_plays))
    usage = {k: int(v) for k, v in run["card_usage"].items()}
    return [f"{card} {usage.get(card, 0)} -> {plays.get(card, 0)}" for card in sorted(set(usage) | set(plays))
            if usage.get(card, 0) != plays.get(card, 0)]


def result_of(rows: list[dict], usage: list[str] | None) -> dict:
    """Per game the differences, the count of games that agree, and the card usage check."""
    result = {"games": len(rows), "agree": sum(not r["differences"] for r in rows), "rows": rows}
    if usage is not None:
        result["card_usage_agrees"], result["card_usage_differences"] = not usage, usage
    return result


def format_row(row: dict, agree: int, done: int) -> str:
    said = "agrees" if not row["differences"] else "differs: " + ", ".join(row["differences"])
    return f"game {row['game']:>3} ({row['opponent']}): {said}   [{agree}/{done} agree so far]"


def format_summary(name: str, result: dict) -> str:
    if "card_usage_agrees" in result:
        usage = result["card_usage_differences"]
        usage = "card usage agrees" if not usage else "card usage differs: " + ", ".join(usage)
    else:
        usage = "card usage not compared (not every game replayed, or the file has no card_usage)"
    return f"{name}: {result['agree']}/{result['games']} games agree on every statistic; {usage}"


def replay_file(path: Path, run: dict, games: int | None, workers: int, build: str | None) -> dict:
    """Replays one record file, printing each game's line as it finishes, then the summary."""
    print(f"== {path.name}", flush=True)
    rows, played, agree = [], [], 0
    for reference, game in zip(run["games"], replay(run, path, games, workers, build)):
        played.append(game)
        rows.append(compare_game(run, reference, game))
        agree += not rows[-1]["differences"]
        print(format_row(rows[-1], agree, len(rows)), flush=True)
    result = result_of(rows, card_usage_differences(run, played))
    print(format_summary(path.name, result), flush=True)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m workers.sabberstone.replay", description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", type=Path, help="reference record files (runs/*.json)")
    parser.add_argument("--path", default=None, help="the SabberStone build's folder (default: $SABBERSTONE_DIR)")
    parser.add_argument("--games", type=int, default=None, help="replay only the first N games of each file")
    parser.add_argument("--workers", type=int, default=1, help="processes playing games in parallel")
    parser.add_argument("--json", type=Path, default=None, help="also write the comparison as JSON here")
    args = parser.parse_args(argv)
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    results, all_agree = {}, True
    try:
        runs = {p: load_records(p) for p in args.records}
        for p, run in runs.items():
            opponents_of(run, p)
        from .locate import sabberstone_dir
        sabberstone_dir(args.path, source="--path")
        for p, run in runs.items():
            result = results[str(p)] = replay_file(p, run, args.games, args.workers, args.path)
            all_agree &= result["agree"] == result["games"] and result.get("card_usage_agrees", True)
    except (RecordFileError, SabberStoneSetupError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0 if all_agree else 1


if __name__ == "__main__":
    sys.exit(main())
