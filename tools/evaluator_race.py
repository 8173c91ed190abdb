"""EvoStone2's evaluator race, emulated: what does it do to a deck's games?
`python -m tools.evaluator_race RUN [--elites 16] [--random 12] [--rates 0 0.03 0.1 0.3]
[--games 200] [--jobs 2] [--out DIR]`.

EvoStone2's DeckEvaluator plays a deck's 200 games 8 at a time (`Parallel.For`,
`MaxDegreeOfParallelism = 8`) and gives every game the same scoring object for the evaluated
player. Each search node sets that object's `Controller` to its own game's player and then
calls `Rate()`, which reads the controller afresh for each of its 17 reads (the two win guards,
then the network's 15 inputs). When another game's thread sets `Controller` in between, the
reads from then on come from that game's state. The opponents' scoring objects are made per game
and do not race.

Here a node's score races with probability `rate`: a read k in 0..16 is drawn uniformly and
reads k on come from another game of the same deck, a state drawn from those the player scored
in the deck's earlier games (a reservoir; the first game never races). Everything else is the
protocol's game, so rate 0 plays exactly the protocol's games (a test checks it). The race's
real rate hangs on the worker's cores and on how long `Rate()` takes against the rest of a node
(a clone, the action, a hash), which nobody measured; hence several rates.

Decks: `--elites` drawn at random from RUN's archive and `--random` of its first 100
evaluations (the random decks that begin a run), from its `decks.npz`. Each (deck, rate) is
played once with the same game seeds and kept as JSON in --out (default: a temporary folder);
runs already there are read, not played again. Prints, per group and rate, the mean change
against rate 0 of health difference, win rate, turns and hand size, and the slope of each
measure at that rate on its value at rate 0 across the group's decks (below 1: the race pulls
the decks' measures together, so they would fill fewer cells).
"""
from __future__ import annotations

import csv
import json
import random
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Sequence

import numpy as np

from pipeline.search import run_files
from workers.engine.game import new_game
from workers.engine.rng import derive
from workers.inputs import ArgumentParser
from workers.players.game_counters import GameCounters
from workers.players.play import play_game
from workers.players.scores import NeuralNetScore, cached_score, state_features
from workers.players.specs import make_player
from workers.protocol.evaluate import card_library, default_opponents, game_seed, validate_deck

READS = 17  # Rate()'s reads of the controller: OpHeroHp and HeroHp (the guards), then 15 inputs
RESERVOIR = 4096  # foreign states kept per deck
KEEP_EVERY = 16  # of a game's scored states, every 16th joins the reservoir


class RacedScore:
    """The evaluated player's network score as EvoStone2's shared scoring object gives it."""

    def __init__(self, net: NeuralNetScore, rate: float, seed: int):
        self.net = net
        self.rate = rate
        self.random = random.Random(seed)
        self.foreign: list[tuple[int, ...]] = []  # reads of states of the deck's earlier games
        self.this_game: list[tuple[int, ...]] = []
        self.scored = 0
        self.raced = 0

    def __call__(self, g, me: int) -> float:
        own, enemy = g.players[me], g.players[1 - me]
        reads = (enemy.hero.health, own.hero.health) + state_features(g, me)
        self.scored += 1
        if self.scored % KEEP_EVERY == 0:
            self.this_game.append(reads)
        if self.foreign and self.random.random() < self.rate:
            self.raced += 1
            split = self.random.randrange(READS)
            other = self.foreign[self.random.randrange(len(self.foreign))]
            reads = reads[:split] + other[split:]
        return self.rate_reads(reads)

    def rate_reads(self, reads: tuple[int, ...]) -> float:
        """NeuralNetScore.Rate() on these reads: the guards, then the network x 1e6, cast."""
        if reads[0] < 1:
            return float("inf")
        if reads[1] < 1:
            return float("-inf")
        return float(int(self.net.forward(reads[2:]) * 1e6))

    def end_game(self) -> None:
        """The game's kept states become foreign states for the deck's next games."""
        for reads in self.this_game:
            if len(self.foreign) < RESERVOIR:
                self.foreign.append(reads)
            else:
                self.foreign[self.random.randrange(RESERVOIR)] = reads
        self.this_game = []


def play_deck(deck: Sequence[str], rate: float, games: int, seed: int) -> dict:
    """The protocol's `games` games of `deck` (seeded as evaluate_deck with `seed`) with the
    evaluated player's score raced at `rate`: its statistics and how many scores raced."""
    validate_deck(deck)
    library, opponents = card_library(), default_opponents()
    score = RacedScore(cached_score("nn"), rate, derive(seed, 0x52414345))
    health = turns = hand_sum = wins = 0
    for index in range(games):
        opponent = opponents[index % len(opponents)]
        seed_now = game_seed(seed, index)
        g = new_game(library, [list(deck), list(opponent.cards)], ["ROGUE", opponent.hero_class], seed_now)
        players = [make_player("beam", "nn", derive(seed_now, 1), 13, 4),
                   make_player("beam", opponent.strategy, derive(seed_now, 2), 13, 4)]
        players[0].score = score
        players[0].counters = counters = GameCounters(0)
        play_game(g, players)
        score.end_game()
        own, enemy = g.players
        health += own.hero.health - enemy.hero.health
        turns += own.turns
        hand_sum += counters.hand_size_sum
        wins += g.winner == 0
    return {"health_difference": health / games, "win_rate": wins / games, "turns": turns / games,
            "hand_size": hand_sum / max(turns, 1), "scores": score.scored, "raced": score.raced}


def chosen_decks(run: Path, elites: int, randoms: int, seed: int = 0) -> dict[str, list[tuple[int, list[str]]]]:
    """(eval id, card ids) of `elites` archive elites and `randoms` of the first 100
    evaluations, drawn with `seed`."""
    decks = run_files.read_run_decks(run)
    with open(run / "archive.csv", newline="") as f:
        elite_ids = sorted(int(row["eval_id"]) for row in csv.DictReader(f))
    draw = np.random.default_rng(seed)
    # a permutation's first n: more decks keep the ones drawn before
    groups = {"elites": sorted(draw.permutation(elite_ids)[:elites].tolist()),
              "random": sorted(draw.permutation(min(100, len(decks)))[:randoms].tolist())}
    return {name: [(i, space.decode(decks[i])) for i in ids] for name, ids in groups.items()}


def _played(task: tuple) -> dict:
    deck, rate, games, seed = task
    return play_deck(deck, rate, games, seed)


def slope(x: Sequence[float], y: Sequence[float]) -> tuple[float, float]:
    """Least-squares slope of y on x and its standard error."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    sxx = np.sum((x - x.mean()) ** 2)
    b = np.sum((x - x.mean()) * (y - y.mean())) / sxx
    residual = y - y.mean() - b * (x - x.mean())
    return float(b), float(np.sqrt(np.sum(residual ** 2) / (len(x) - 2) / sxx))


def report(results: dict, rates: Sequence[float]) -> str:
    """Per group and rate: mean change (+- SE) against rate 0 and the measures' slopes."""
    lines = ["| decks | rate | scores raced | health diff change | win rate change | turns change | "
             "hand size change | slope turns | slope hand size |", "|---|---|---|---|---|---|---|---|---|"]
    for group, decks in results.items():
        base = [d[str(rates[0])] for d in decks.values()]
        for rate in rates[1:]:
            now = [d[str(rate)] for d in decks.values()]
            cells = [group, f"{rate:g}", f"{np.mean([n['raced'] / n['scores'] for n in now]):.3f}"]
            for key in ("health_difference", "win_rate", "turns", "hand_size"):
                change = np.array([n[key] - b[key] for n, b in zip(now, base)])
                cells.append(f"{change.mean():+.3f} +- {change.std(ddof=1) / np.sqrt(len(change)):.3f}")
            for key in ("turns", "hand_size"):
                cells.append("{:.3f} +- {:.3f}".format(*slope([b[key] for b in base], [n[key] for n in now])))
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = ArgumentParser(prog="python -m tools.evaluator_race", description=__doc__.split("\n")[0])
    parser.add_argument("run", type=Path, help="a run folder with decks.npz, config.yaml and archive.csv")
    parser.add_argument("--elites", type=int, default=16)
    parser.add_argument("--random", type=int, default=12)
    parser.add_argument("--rates", type=float, nargs="+", default=[0.0, 0.03, 0.1, 0.3])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1, help="the evaluations' game seed")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    for name in (run_files.DECKS_FILE, "config.yaml", "archive.csv"):
        if not (args.run / name).is_file():
            parser.error(f"{args.run} has no {name}")
    if args.rates[0] != 0 or any(not 0 <= r <= 1 for r in args.rates):
        parser.error("--rates must start with 0 and lie in [0, 1]")
    out = args.out or Path(tempfile.mkdtemp(prefix="evaluator_race-"))
    out.mkdir(parents=True, exist_ok=True)
    groups = chosen_decks(args.run, args.elites, args.random)
    todo = {(group, eval_id, rate): deck for group, decks in groups.items() for eval_id, deck in decks
            for rate in args.rates if not _file(out, eval_id, rate, args).exists()}
    with ProcessPoolExecutor(args.jobs) as pool:
        tasks = [(deck, rate, args.games, args.seed) for (_, _, rate), deck in todo.items()]
        for (group, eval_id, rate), result in zip(todo, pool.map(_played, tasks)):
            _file(out, eval_id, rate, args).write_text(json.dumps(result))
            print(f"{group} deck {eval_id} rate {rate:g}: {result}", flush=True)
    results = {group: {eval_id: {str(rate): json.loads(_file(out, eval_id, rate, args).read_text())
                                 for rate in args.rates} for eval_id, _ in decks}
               for group, decks in groups.items()}
    print(f"{args.games} games a deck, seed {args.seed}, results in {out}")
    print(report(results, args.rates))
    return 0


def _file(out: Path, eval_id: int, rate: float, args) -> Path:
    return out / f"{args.run.name}-deck{eval_id}-rate{rate:g}-games{args.games}-seed{args.seed}.json"


if __name__ == "__main__":
    raise SystemExit(main())
