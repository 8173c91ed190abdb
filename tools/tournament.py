"""A round-robin tournament of players on the built-in engine.

    python -m tools.tournament --players random beam_nn beam_aggro \
        value_beam:results/values/rich_win.pt mcts:50 mcts:200 --games 60 \
        [--decks opponents | miracle | DECK.json ...] [--cross] [--workers 2] [--seed 0] \
        [--out results/tournament/tournament.json]

Players are specs of workers.players.specs ("beam" is the protocol's beam search with the nn
score). Every pair of players plays `--games` games (an even number): game 2k and 2k+1 are
one *deal* (the same seed, so the same deck order and the same random stream to start),
played once with each player in each seat, each seat keeping its deck. Deal k uses the
matchup k mod M: with `--decks opponents` (the default) the protocol's six opponent decks,
each player with the same deck (mirror matches); `--cross` uses every ordered pair of two
different decks instead. Every pair of players sees the same deals (common random numbers).

With `--workers K` > 1 the games run on a local Dask cluster of K single-threaded worker
processes (tools.local_dask, the pipeline's LocalCluster); each game depends only on its seed,
so the records and the table are the same for any number of workers (timings aside; a player
with a time budget, mcts:0.5s, is not reproducible). A game the engine fails is recorded with
its error and left out of the table.

The output: a win-rate table (row player's share of points against the column player, a draw
counting half, with its binomial standard error and 95% Wilson interval), each player's score
over all its games, a Bradley-Terry rating on the Elo scale (400 log10 odds; mean 0; a weak
Gaussian prior keeps an unbeaten or winless player finite) with standard errors and 95%
intervals (rating +- 1.96 SE), and each player's time per decision (one turn) and per action.
The JSON file (`--out`) holds the same and every game's record; beside it the same name with
.md holds the tables in Markdown and with .png a plot of the ratings and their intervals.
"""
from __future__ import annotations

import json
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

from workers.engine.rng import derive
from workers.inputs import ArgumentParser
from workers.learning.intervals import Z95, wilson_interval

RESULTS = Path("results/tournament")
ELO = 400.0 / math.log(10.0)
PRIOR_VAR = 10.0  # of the log-strengths (sd ~ 550 Elo): only an all-won or all-lost record feels it


# ------------------------------------------------------------------------------ decks
def parse_decks(specs) -> list[dict]:
    """[{name, hero_class, cards}] from 'opponents' (the protocol's six), 'miracle' or deck
    files (a "hero_class" key in the file, else ROGUE)."""
    from workers.inputs import load_json
    from workers.protocol.evaluate import default_opponents, load_deck_file, miracle_rogue, validate_deck
    decks = []
    for spec in specs:
        if spec == "opponents":
            decks += [{"name": o.name, "hero_class": o.hero_class, "cards": list(o.cards)}
                      for o in default_opponents()]
        elif spec == "miracle":
            decks.append({"name": "Miracle Rogue", "hero_class": "ROGUE", "cards": miracle_rogue()})
        elif Path(spec).is_file():
            data = load_json(spec, "deck file")
            cls = data.get("hero_class", "ROGUE") if isinstance(data, dict) else "ROGUE"
            decks.append({"name": Path(spec).stem, "hero_class": cls, "cards": load_deck_file(spec)})
        else:
            raise ValueError(f"deck {spec!r} is not 'opponents', 'miracle' or a deck file")
    for d in decks:
        validate_deck(d["cards"], hero_class=d["hero_class"], label=f"deck {d['name']!r}")
    return decks


def matchups(decks: list, cross: bool) -> list[tuple[int, int]]:
    n = len(decks)
    if cross:
        if n < 2:
            raise ValueError("--cross needs at least two decks")
        return [(i, j) for i in range(n) for j in range(n) if i != j]
    return [(i, i) for i in range(n)]


# ------------------------------------------------------------------------------ games
def play_one(task: dict) -> dict:
    """One game: task holds the two seats' player specs and decks, the game seed and ids."""
    from workers.engine.game import new_game
    from workers.players.specs import build_player
    from workers.protocol.evaluate import card_library
    seats = task["seats"]
    g = new_game(card_library(), [s["cards"] for s in seats], [s["hero_class"] for s in seats],
                 task["seed"])
    players, spent, turns, actions = [], [0.0, 0.0], [0, 0], [0, 0]
    for seat, s in enumerate(seats):
        p = build_player(s["player"], derive(task["seed"], 1 + seat), strategy="nn")
        p.observer = _counter(actions, seat)
        players.append(p)
    record = {"pair": task["pair"], "game": task["game"], "deal": task["deal"],
              "decks": [s["deck"] for s in seats], "seats": [s["player"] for s in seats]}
    try:
        while not g.done:
            me = g.current
            start = time.perf_counter()
            players[me].take_turn(g)
            spent[me] += time.perf_counter() - start
            turns[me] += 1
    except Exception as exc:  # an engine or player bug: recorded, left out of the table
        record["error"] = f"{type(exc).__name__}: {exc}"
        return record
    record.update(winner=g.winner, turns=g.turn, seconds=[round(x, 6) for x in spent],
                  decisions=turns, actions=actions)
    return record


def _counter(actions: list, seat: int):
    def count(_g):
        actions[seat] += 1
    return count


def run_chunk(tasks: list) -> list:
    return [play_one(t) for t in tasks]


def schedule(players: list, decks: list, pairs_of_decks: list, games: int, seed: int) -> list:
    """Every game's task, deal by deal across all pairs of players (so that a partial run is
    balanced)."""
    tasks = []
    pairs = [(a, b) for a in range(len(players)) for b in range(a + 1, len(players))]
    for k in range(games):
        deal = k // 2
        i, j = pairs_of_decks[deal % len(pairs_of_decks)]
        game_seed = derive(seed, 0x70A1, deal)
        for pair, (a, b) in enumerate(pairs):
            first, second = (a, b) if k % 2 == 0 else (b, a)
            tasks.append({"pair": pair, "game": k, "deal": deal, "seed": game_seed, "seats": [
                dict(player=players[first], deck=decks[i]["name"], hero_class=decks[i]["hero_class"],
                     cards=decks[i]["cards"]),
                dict(player=players[second], deck=decks[j]["name"], hero_class=decks[j]["hero_class"],
                     cards=decks[j]["cards"])]})
    return tasks


# ------------------------------------------------------------------------------ tables
def summarize(players: list, records: list) -> dict:
    n = len(players)
    points, games = np.zeros((n, n)), np.zeros((n, n))
    second_points, second_games = np.zeros((n, n)), np.zeros((n, n))  # the row player seated second
    spent, decisions, actions = np.zeros(n), np.zeros(n), np.zeros(n)
    index = {p: i for i, p in enumerate(players)}
    for r in records:
        if "error" in r:
            continue
        s0, s1 = index[r["seats"][0]], index[r["seats"][1]]
        for seat, me, other in ((0, s0, s1), (1, s1, s0)):
            games[me, other] += 1
            won = 1.0 if r["winner"] == seat else 0.5 if r["winner"] == -1 else 0.0
            points[me, other] += won
            if seat == 1:
                second_games[me, other] += 1
                second_points[me, other] += won
            spent[me] += r["seconds"][seat]
            decisions[me] += r["decisions"][seat]
            actions[me] += r["actions"][seat]
    elo, elo_se = bradley_terry(points, games)
    out = {"players": players, "win_rate": {}, "as_second": {}, "score": {}, "elo": {}, "timing": {}}
    for i, p in enumerate(players):
        out["win_rate"][p] = {q: _cell(points[i, j], games[i, j]) for j, q in enumerate(players) if j != i}
        out["as_second"][p] = {q: _cell(second_points[i, j], second_games[i, j])
                               for j, q in enumerate(players) if j != i}
        out["score"][p] = _cell(points[i].sum(), games[i].sum())
        out["elo"][p] = {"elo": round(float(elo[i]), 1), "se": round(float(elo_se[i]), 1),
                         "lo": round(float(elo[i] - Z95 * elo_se[i]), 1),
                         "hi": round(float(elo[i] + Z95 * elo_se[i]), 1)}
        out["timing"][p] = {"ms_per_decision": _num(1000 * spent[i] / decisions[i] if decisions[i] else float("nan")),
                            "ms_per_action": _num(1000 * spent[i] / actions[i] if actions[i] else float("nan")),
                            "decisions": int(decisions[i]), "actions": int(actions[i]),
                            "seconds": round(float(spent[i]), 3)}
    return out


def _cell(points: float, games: float) -> dict:
    """A share of points with its binomial standard error and 95% Wilson interval."""
    if not games:
        return {"rate": None, "se": None, "lo": None, "hi": None, "games": 0}
    rate = points / games
    lo, hi = wilson_interval(points, games)
    return {"rate": _num(rate), "se": _num(math.sqrt(rate * (1 - rate) / games)), "lo": _num(lo), "hi": _num(hi),
            "games": int(games)}


def _num(x: float):
    return None if x is None or not math.isfinite(x) else round(float(x), 4)


def bradley_terry(points: np.ndarray, games: np.ndarray, prior_var: float = PRIOR_VAR):
    """Elo-scale ratings (mean 0) and standard errors of the Bradley-Terry model
    P(i beats j) = 1 / (1 + exp(t_j - t_i)), fitted by Newton's method on the log-likelihood
    (draws as half a win each way) plus a Gaussian prior N(0, prior_var) on each t."""
    n = len(points)
    t = np.zeros(n)
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(t[None, :] - t[:, None]))  # p[i, j] = P(i beats j)
        grad = (points - games * p).sum(axis=1) - t / prior_var
        w = games * p * (1 - p)
        hess = np.diag(-w.sum(axis=1) - 1.0 / prior_var) + w
        step = np.linalg.solve(hess, grad)
        t -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    p = 1.0 / (1.0 + np.exp(t[None, :] - t[:, None]))
    w = games * p * (1 - p)
    hess = np.diag(-w.sum(axis=1) - 1.0 / prior_var) + w
    cov = np.linalg.inv(-hess)
    center = np.full(n, 1.0 / n)  # the ratings are reported relative to their mean
    shift = np.eye(n) - center[None, :]
    cov_c = shift @ cov @ shift.T
    return ELO * (t - t.mean()), ELO * np.sqrt(np.maximum(np.diag(cov_c), 0.0))


def format_table(summary: dict) -> str:
    """Rows: players (numbered); columns: the same players by number."""
    players = summary["players"]
    names = [f"{k + 1} {_short(p)}" for k, p in enumerate(players)]
    width = max(len(s) for s in names)
    head = f"{'':{width}}  " + "  ".join(f"{k + 1:>9}" for k in range(len(players))) + \
        f"  {'score':>9}  {'Elo':>9}  {'Elo 95%':>11}  {'ms/turn':>8}  {'ms/action':>9}"
    lines = [head]
    for p, name in zip(players, names):
        cells = []
        for q in players:
            if q == p:
                cells.append(f"{'-':>9}")
            else:
                c = summary["win_rate"][p][q]
                cells.append(f"{_pm(c['rate'], c['se']):>9}")
        s, e, t = summary["score"][p], summary["elo"][p], summary["timing"][p]
        lines.append(f"{name:{width}}  " + "  ".join(cells) + f"  {_pm(s['rate'], s['se']):>9}  "
                     f"{e['elo']:>4.0f}±{e['se']:<4.0f}  {e['lo']:>5.0f}..{e['hi']:<4.0f}  "
                     f"{_ms(t['ms_per_decision']):>8}  {_ms(t['ms_per_action']):>9}")
    lines.append("cells: the row player's share of points against the column player ± standard error "
                 "(a draw is half; 95% Wilson intervals in the JSON and .md); Elo: Bradley-Terry, mean 0, "
                 "± standard error, 95% interval; ms per turn and per action")
    return "\n".join(lines)


def format_markdown(summary: dict) -> str:
    """The pairwise table with 95% Wilson intervals and the ratings with 95% intervals."""
    players = summary["players"]
    lines = _pair_table(summary, "win_rate", "row vs column", with_score=True)
    lines += ["", "The row player seated second (the column player moves first):", ""]
    lines += _pair_table(summary, "as_second", "row (second) vs column (first)", with_score=False)
    lines += ["", "| player | Elo | 95% interval | SE | score | games | ms/turn | ms/action |", "|---|---|---|---|---|---|---|---|"]
    for p in sorted(players, key=lambda q: -summary["elo"][q]["elo"]):
        e, s, t = summary["elo"][p], summary["score"][p], summary["timing"][p]
        lines.append(f"| {_short(p)} | {e['elo']:.0f} | {e['lo']:.0f} .. {e['hi']:.0f} | {e['se']:.0f} | "
                     f"{_interval(s)} | {s['games']} | {_ms(t['ms_per_decision'])} | {_ms(t['ms_per_action'])} |")
    games = summary.get("settings", {}).get("games_per_pair")
    lines += ["", "Cells: the row player's share of points against the column player (a draw is half) "
              f"and its 95% Wilson interval{f', {games} games per pair' if games else ''}. Elo: "
              "Bradley-Terry on the Elo scale, mean 0, 95% interval = rating ± 1.96 SE."]
    return "\n".join(lines) + "\n"


def _pair_table(summary: dict, key: str, corner: str, with_score: bool) -> list[str]:
    """Markdown rows of summary[key][row][column] with intervals; players numbered."""
    players = summary["players"]
    score = " score |" if with_score else ""
    lines = [f"| {corner} | " + " | ".join(f"{k + 1}" for k in range(len(players))) + f" |{score}",
             "|---" * (len(players) + 1 + with_score) + "|"]
    for i, p in enumerate(players):
        cells = ["-" if q == p else _interval(summary[key][p][q]) for q in players]
        total = f" {_interval(summary['score'][p])} |" if with_score else ""
        lines.append(f"| {i + 1} {_short(p)} | " + " | ".join(cells) + f" |{total}")
    return lines


def _interval(cell: dict) -> str:
    if cell["rate"] is None:
        return "n/a"
    return f"{cell['rate']:.3f} [{cell['lo']:.3f}, {cell['hi']:.3f}]"


def plot_ratings(summary: dict, path: Path) -> None:
    """The Bradley-Terry ratings with their 95% intervals, best at the top."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    players = sorted(summary["players"], key=lambda q: summary["elo"][q]["elo"])
    elo = [summary["elo"][p]["elo"] for p in players]
    err = [[summary["elo"][p]["elo"] - summary["elo"][p]["lo"] for p in players],
           [summary["elo"][p]["hi"] - summary["elo"][p]["elo"] for p in players]]
    longest = max(len(_short(p)) for p in players)  # room for the labels, then the plot
    fig, ax = plt.subplots(figsize=(5.0 + 0.075 * longest, 0.5 * len(players) + 1.4))
    ax.errorbar(elo, range(len(players)), xerr=err, fmt="o", capsize=4)
    ax.set_yticks(range(len(players)), [_short(p) for p in players])
    ax.axvline(0, color="grey", lw=0.8, ls="--")
    games = summary.get("settings", {}).get("games_per_pair")
    ax.set_xlabel("Bradley-Terry rating (Elo scale, mean 0), 95% interval")
    ax.set_title(f"Ratings{f', {games} games per pair' if games else ''}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _short(spec: str) -> str:
    """A spec without the folders of its model path."""
    kind, _, rest = spec.partition(":")
    parts = [Path(x).name if ("/" in x and "=" not in x) else
             (x.split("=")[0] + "=" + Path(x.split("=", 1)[1]).name if "/" in x else x)
             for x in rest.split(",")] if rest else []
    return kind + (":" + ",".join(parts) if parts else "")


def _pm(rate, se) -> str:
    if rate is None:
        return "n/a"
    return f"{rate:.2f}±{se:.2f}" if se is not None else f"{rate:.2f}"


def _ms(x) -> str:
    return "n/a" if x is None else f"{x:.1f}"


# ------------------------------------------------------------------------------ running
def run_tournament(players: list, games: int = 20, decks=("opponents",), cross: bool = False,
                   workers: int = 1, seed: int = 0, chunk: int = 2, log=None) -> dict:
    """Play the tournament; the summary (see summarize) with the records and settings."""
    from workers.players.specs import check_player
    if len(players) < 2 or len(set(players)) != len(players):
        raise ValueError("a tournament needs at least two different players")
    if games < 2 or games % 2:
        raise ValueError(f"--games must be a positive even number (each deal is played from both seats), got {games}")
    for p in players:
        check_player(p)
    deck_list = parse_decks(decks)
    tasks = schedule(list(players), deck_list, matchups(deck_list, cross), games, seed)
    chunks = [tasks[i:i + chunk] for i in range(0, len(tasks), chunk)]
    start = time.perf_counter()
    records = []
    if workers <= 1:
        for c in chunks:
            records += run_chunk(c)
            _progress(log, len(records), len(tasks), start)
    else:
        from tools.local_dask import run_on_local_cluster
        for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ.setdefault(var, "1")  # each worker is one core's worth of work (torch too)
        for _, part in run_on_local_cluster(run_chunk, dict(enumerate(chunks)), workers):
            records += part
            _progress(log, len(records), len(tasks), start)
    records.sort(key=lambda r: (r["pair"], r["game"]))
    summary = summarize(list(players), records)
    summary.update(settings={"games_per_pair": games, "decks": [d["name"] for d in deck_list],
                             "cross": cross, "seed": seed, "workers": workers},
                   elapsed_s=round(time.perf_counter() - start, 1),
                   errors=[r for r in records if "error" in r], games=records)
    return summary


def _progress(log, done: int, total: int, start: float) -> None:
    if log is None:
        return
    step = max(1, total // 20)
    if done % step < 2 or done == total:
        log(f"[tournament] {done}/{total} games, {time.perf_counter() - start:.0f}s")


def main(argv=None) -> int:
    parser = ArgumentParser(prog="python -m tools.tournament",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", nargs="+", required=True,
                        help="player specs: random, beam_nn, beam_aggro, value_beam:MODEL, mcts:200, ...")
    parser.add_argument("--games", type=int, default=20, help="games per pair of players (even)")
    parser.add_argument("--decks", nargs="+", default=["opponents"],
                        help="opponents (the protocol's six), miracle, or deck JSON files")
    parser.add_argument("--cross", action="store_true", help="every ordered pair of two decks, not mirrors")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1),
                        help="worker processes; more than 1: a local Dask cluster")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--chunk", type=int, default=2, help="games per task")
    parser.add_argument("--out", default=str(RESULTS / "tournament.json"))
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    if args.workers < 1 or args.chunk < 1:
        parser.error("--workers and --chunk must be at least 1")
    say = None if args.quiet else (lambda text: print(text, file=sys.stderr, flush=True))
    try:
        result = run_tournament(args.players, args.games, args.decks, args.cross, args.workers,
                                args.seed, args.chunk, say)
    except (ValueError, OSError) as exc:  # a bad spec, model, deck or setting: one line
        print(f"error: {exc}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(out.suffix + ".tmp")
    tmp.write_text(json.dumps(result, indent=1))
    os.replace(tmp, out)
    out.with_suffix(".md").write_text(format_markdown(result))
    plot_ratings(result, out.with_suffix(".png"))
    print(format_table(result))
    errors = len(result["errors"])
    print(f"{len(result['games']) - errors} games in {result['elapsed_s']}s on {args.workers} "
          f"worker(s){' (a local Dask cluster)' if args.workers > 1 else ''}"
          f"{f', {errors} failed (see the JSON)' if errors else ''}; results in {out} "
          f"({out.with_suffix('.md').name}, {out.with_suffix('.png').name})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
