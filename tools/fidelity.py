"""How closely the built-in engine reproduces SabberStone: protocol statistics side by side.

    python -m tools.fidelity [--runs NAME ...] [--games 200] [--seed 0] [--workers N] [--json OUT]
                               [--hide-deck-order]

For every reference run in `workers/data/sabberstone/runs/` (measured on SabberStone, see the
README there) the same deck is played with the same stat-override setting on the built-in
engine, and per opponent and overall each statistic is printed as built-in mean +- SE,
reference mean +- SE and z = (builtin - reference) / sqrt(se1^2 + se2^2). Per-game statistics
(win rate, health difference, own turns) use SE = sample sd / sqrt(n); per-turn statistics
(sum over games / sum of own turns) use the ratio estimator's delta-method SE. SabberStone's
seeds cannot be replayed here, so the comparison is in distribution only; every run gets its
own seed from `--seed` and its name, as the reference runs are independent samples. A card-usage table
follows each run; the summary counts the per-opponent win rate, health difference, turns and
hand size within 2 SE and gives each statistic's mean z over the runs. Games that raised in
the engine are listed with their seeds and left out of the statistics. `--hide-deck-order`
plays the built-in games with beam players that plan on reshuffled decks (not knowing the next
card drawn, which SabberStone's planner does know), to measure what that knowledge is worth.
"""
from __future__ import annotations

import json
import math
import os
import sys
import time
import zlib
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Sequence

from workers import DATA
from workers.inputs import ArgumentParser, int_in

from .compare_engines import mean_se

REFERENCE = DATA / "sabberstone"

# (name, kind): "game" statistics are per-game means, "turn" statistics sum over games / sum of turns.
STATISTICS: tuple[tuple[str, str], ...] = (
    ("win_rate", "game"),
    ("health_difference", "game"),
    ("turns", "game"),
    ("hand_size", "turn"),
    ("hand_size_start", "turn"),
    ("cards_drawn_per_turn", "turn"),
    ("damage_per_turn", "turn"),
    ("mana_spent_per_turn", "turn"),
    ("mana_wasted_per_turn", "turn"),
)
# The statistics counted per opponent in `fidelity_within_2se`.
CHECKED = ("win_rate", "health_difference", "turns", "hand_size")


# --- statistics (pure) --------------------------------------------------------------------
def ratio_se(xs: Sequence[float], ts: Sequence[float]) -> tuple[float, float]:
    """R = sum(x) / sum(t) and its delta-method SE, sqrt(sum((x - R t)^2) / (n (n - 1))) / mean(t)."""
    n, total = len(xs), sum(ts)
    if n == 0 or total == 0:
        return math.nan, math.nan
    r = sum(xs) / total
    if n == 1:
        return r, math.nan
    residual = sum((x - r * t) ** 2 for x, t in zip(xs, ts))
    return r, math.sqrt(residual / (n * (n - 1))) / (total / n)


def z_score(a: tuple[float, float], b: tuple[float, float]) -> float:
    """(mean_a - mean_b) / sqrt(se_a^2 + se_b^2); equal means with zero SEs give 0."""
    (ma, sa), (mb, sb) = a, b
    se = math.sqrt(sa ** 2 + sb ** 2)
    if math.isnan(se) or math.isnan(ma - mb):
        return math.nan
    if se == 0:
        return 0.0 if ma == mb else math.copysign(math.inf, ma - mb)
    return (ma - mb) / se


def statistics(games: Sequence[dict]) -> dict[str, tuple[float, float]]:
    """(mean, se) of every statistic over per-game rows (see builtin_row / reference_row)."""
    turns = [g["turns"] for g in games]
    out = {}
    for name, kind in STATISTICS:
        values = [g[name] for g in games]
        out[name] = mean_se(values) if kind == "game" else ratio_se(values, turns)
    return out


def compare_run(builtin: Sequence[dict], reference: Sequence[dict], opponents: Sequence[str]) -> dict:
    """Per opponent and "all": games and, per statistic, builtin and reference (mean, se) and z."""
    groups = {name: i for i, name in enumerate(opponents)}
    out = {}
    for name, index in list(groups.items()) + [("all", None)]:
        pick = [[g for g in rows if index is None or g["opponent"] == index] for rows in (builtin, reference)]
        stats = [statistics(rows) for rows in pick]
        out[name] = {"games": [len(rows) for rows in pick],
                     **{s: {"builtin": stats[0][s], "reference": stats[1][s],
                            "z": z_score(stats[0][s], stats[1][s])} for s, _ in STATISTICS}}
    return out


def card_usage(deck: Sequence[str], names: Sequence[str], builtin: Counter, builtin_games: int,
               reference: dict, reference_games: int) -> list[dict]:
    """Per distinct card of the deck: plays and plays per game on each engine, largest gap first."""
    rows = []
    for card_id, name in dict(zip(deck, names)).items():
        b, r = builtin.get(card_id, 0), reference.get(card_id, 0)
        per_b, per_r = b / max(builtin_games, 1), r / max(reference_games, 1)
        rows.append({"card": card_id, "name": name, "builtin": b, "reference": r,
                     "builtin_per_game": per_b, "reference_per_game": per_r, "difference": per_b - per_r})
    return sorted(rows, key=lambda row: (-abs(row["difference"]), row["card"]))


def summary(runs: dict[str, dict]) -> dict:
    """Per-opponent checked statistics within 2 SE, and each statistic's mean overall z."""
    zs = [cell[s]["z"] for run in runs.values() for opp, cell in run["statistics"].items()
          if opp != "all" for s in CHECKED]
    mean_z = {}
    for s, _ in STATISTICS:
        finite = [run["statistics"]["all"][s]["z"] for run in runs.values()]
        finite = [z for z in finite if math.isfinite(z)]
        mean_z[s] = sum(finite) / len(finite) if finite else math.nan
    return {"within_2se": sum(abs(z) <= 2 for z in zs), "checked": len(zs), "mean_z": mean_z}


# --- rows from both sources -----------------------------------------------------------------
def builtin_row(r) -> dict:
    """One built-in GameRecord as a per-game row."""
    return {"opponent": r.opponent_index, "win_rate": float(r.won),
            "health_difference": float(r.own_health - r.enemy_health), "turns": float(r.turns),
            "hand_size": float(r.hand_size_sum), "hand_size_start": float(r.hand_size_start_sum),
            "cards_drawn_per_turn": float(r.cards_drawn), "damage_per_turn": float(r.minion_damage),
            "mana_spent_per_turn": float(r.mana_spent),
            "mana_wasted_per_turn": float(r.mana_available - r.mana_spent)}


def reference_row(g: dict) -> dict:
    """One reference game record as a per-game row."""
    return {"opponent": g["opponent"], "win_rate": float(g["won"]),
            "health_difference": float(g["health_diff"]), "turns": float(g["num_turns"]),
            "hand_size": float(g["hand_size"]), "hand_size_start": float(g["hand_size_start"]),
            "cards_drawn_per_turn": float(g["cards_drawn"]), "damage_per_turn": float(g["damage_done"]),
            "mana_spent_per_turn": float(g["mana_spent"]), "mana_wasted_per_turn": float(g["mana_wasted"])}


# --- I/O --------------------------------------------------------------------------------------
def available_runs() -> list[str]:
    return sorted(p.stem for p in (REFERENCE / "runs").glob("*.json"))


def load_run(name: str) -> dict:
    return json.loads((REFERENCE / "runs" / f"{name}.json").read_text())


def run_seed(seed: int, name: str) -> int:
    """Each run's own seed: the reference runs are independent samples (a deck with and without
    the overrides was played with other SabberStone seeds), so the built-in runs are too, and
    a run's games depend only on (seed, run name), whichever runs are selected."""
    from workers.engine.rng import derive
    return derive(seed, zlib.crc32(name.encode()))


def _play_chunk(deck: list[str], indices: list[int], seed: int, overrides: dict | None,
                hide_deck_order: bool = False) -> list:
    from workers.protocol.evaluate import play_games
    return play_games(deck, indices, seed, stat_overrides=overrides, hide_deck_order=hide_deck_order)


def play_runs(runs: dict[str, dict], games: int, seed: int, workers: int,
              overrides: dict | None, hide_deck_order: bool = False) -> dict[str, list]:
    """Built-in GameRecords of every run, games split into chunks over worker processes."""
    size = max(1, math.ceil(games / (4 * workers)))
    chunks = [(name, list(range(start, min(start + size, games)))) for name in runs
              for start in range(0, games, size)]

    def args(name, indices):
        ref = runs[name]
        return (ref["deck"], indices, run_seed(seed, name), overrides if ref["nerfs"] != "none" else None,
                hide_deck_order)

    started = time.perf_counter()
    if workers == 1:
        results = [_play_chunk(*args(name, idx)) for name, idx in chunks]
    else:
        with ProcessPoolExecutor(workers) as pool:
            futures = [pool.submit(_play_chunk, *args(name, idx)) for name, idx in chunks]
            results = [f.result() for f in futures]
    print(f"played {len(runs)} run(s) x {games} games on {workers} process(es) in "
          f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
    records = {name: [] for name in runs}
    for (name, _), chunk in zip(chunks, results):
        records[name].extend(chunk)
    return records


def evaluate_runs(names: Sequence[str], games: int, seed: int, workers: int,
                  hide_deck_order: bool = False) -> dict:
    from pipeline.deck_space import DeckSpace
    from workers.protocol.evaluate import default_opponents
    refs = {name: load_run(name) for name in names}
    opponents = [o["name"] for o in next(iter(refs.values()))["opponents"]]
    builtin_names = [o.name for o in default_opponents()]
    if builtin_names != opponents:
        raise ValueError(f"opponents differ: built-in {builtin_names}, reference {opponents}")
    overrides = DeckSpace.from_pool_file(use_stat_overrides=True).stat_overrides
    records = play_runs(refs, games, seed, workers, overrides, hide_deck_order)
    out = {}
    for name, ref in refs.items():
        good = [r for r in records[name] if r.error is None]
        plays = Counter()
        for r in good:
            for card_id, count in r.card_plays:
                plays[card_id] += count
        card_names = ref["deck_properties"].get("names", ref["deck"])
        out[name] = {
            "overrides": ref["nerfs"] != "none",
            "opponents": opponents,
            "errors": [{"game": r.game_index, "seed": r.seed, "error": r.error} for r in records[name] if r.error],
            "statistics": compare_run([builtin_row(r) for r in good],
                                      [reference_row(g) for g in ref["games"]], opponents),
            "card_usage": card_usage(ref["deck"], card_names, plays, len(good), ref["card_usage"], len(ref["games"])),
        }
    return out


def _cell(ms: tuple[float, float]) -> str:
    return f"{ms[0]:9.3f} ± {ms[1]:<6.3f}"


def _games(group: dict) -> str:
    return "/".join(str(n) for n in group["games"])


def format_report(runs: dict[str, dict], seed: int) -> str:
    lines = []
    for name, run in runs.items():
        stats = run["statistics"]
        b, r = stats["all"]["games"]
        lines.append(f"== {name} ({'classic stat overrides' if run['overrides'] else 'no stat overrides'}): "
                     f"built-in {b} games (seed {run_seed(seed, name)}), reference {r} games")
        lines.append(f"{'opponent (games)':<26} {'statistic':<21}{'built-in':>18}{'reference':>19}{'z':>8}")
        for opp in run["opponents"] + ["all"]:
            for i, (s, _) in enumerate(STATISTICS):
                cell = stats[opp][s]
                label = f"{opp} ({_games(stats[opp])})" if i == 0 else ""
                lines.append(f"{label:<26} {s:<21}{_cell(cell['builtin'])}{_cell(cell['reference'])}"
                             f"{cell['z']:>8.2f}")
        if run["errors"]:
            lines.append(f"built-in: {len(run['errors'])} game(s) raised (left out):")
            lines += [f"  game {e['game']} seed {e['seed']}: {e['error']}" for e in run["errors"]]
        lines.append("card usage, plays per game (built-in total / reference total):")
        lines.append(f"  {'card':<9} {'name':<24}{'built-in':>10}{'reference':>10}{'difference':>11}")
        for row in run["card_usage"]:
            lines.append(f"  {row['card']:<9} {row['name'][:23]:<24}{row['builtin_per_game']:>10.2f}"
                         f"{row['reference_per_game']:>10.2f}{row['difference']:>+11.2f}"
                         f"   ({row['builtin']}/{row['reference']})")
        lines.append("")
    s = summary(runs)
    errors = sum(len(run["errors"]) for run in runs.values())
    lines.append(f"games_raised: {errors}")
    lines.append(f"fidelity_within_2se: {s['within_2se']}/{s['checked']}")
    lines += [f"mean_z {name}: {z:.2f}" for name, z in s["mean_z"].items()]
    if "miracle_rogue" in runs:
        hand = runs["miracle_rogue"]["statistics"]["all"]["hand_size"]
        lines.append(f"miracle_rogue hand_size: builtin {hand['builtin'][0]:.3f} "
                     f"vs reference {hand['reference'][0]:.3f}")
    return "\n".join(lines)


def _plain(value):
    """JSON-safe copy: tuples become lists, NaN and infinities become null."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def main(argv: list[str] | None = None) -> int:
    parser = ArgumentParser(prog="python -m tools.fidelity", description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", nargs="+", metavar="NAME", help="reference runs (default: all)")
    parser.add_argument("--games", type=int_in(1, 10 ** 6), default=200, help="built-in games per run (default 200)")
    parser.add_argument("--seed", type=int_in(0, 2 ** 64 - 1), default=0)
    parser.add_argument("--workers", type=int_in(1, 1024), default=os.cpu_count() or 1,
                        help="processes (default: all CPUs)")
    parser.add_argument("--json", metavar="OUT", help="also write every number to this JSON file")
    parser.add_argument("--hide-deck-order", action="store_true",
                        help="beam players plan on reshuffled decks, not knowing the next draw")
    args = parser.parse_args(argv)
    if args.json and (Path(args.json).is_dir() or not Path(args.json).parent.is_dir()):
        parser.error(f"--json {args.json}: not a file in an existing folder")
    names = available_runs()
    unknown = [n for n in args.runs or [] if n not in names]
    if unknown:
        print(f"error: unknown run(s) {', '.join(unknown)}; available: {', '.join(names)}", file=sys.stderr)
        return 2
    from workers.errors import DeckError
    try:
        runs = evaluate_runs(dict.fromkeys(args.runs or names), args.games, args.seed, args.workers,
                             args.hide_deck_order)
    except DeckError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.hide_deck_order:
        print("built-in planner: deck order hidden (--hide-deck-order)")
    print(format_report(runs, args.seed))
    if args.json:
        s = summary(runs)
        try:
            Path(args.json).write_text(json.dumps(_plain({"games": args.games, "seed": args.seed,
                                                          "hide_deck_order": args.hide_deck_order, "runs": runs,
                                                          "summary": s}), indent=1))
        except OSError as exc:
            print(f"error: cannot write {args.json}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
