"""Soak and fuzz runs: many seeded games with invariants checked after every action.

    python -m tools.soak --random-games 2000 --beam-games 100      # the seven fixed decks
    python -m tools.soak --pool --random-games 100000               # random decks of every
                                                                      # class against every class

Every failure prints the seed and decks that replay it; the exit status is non-zero if any game
raised or broke an invariant.
"""
from __future__ import annotations

import argparse
import sys
import time
import traceback
from dataclasses import dataclass, field

from workers.engine.class_pools import HERO_CLASSES, pool_ids, random_pool_deck
from workers.engine.game import new_game
from workers.engine.rng import derive
from workers.inputs import ArgumentParser, int_in
from workers.players.play import play_game
from workers.players.specs import make_player
from workers.protocol.evaluate import card_library, default_opponents, miracle_rogue

from .invariants import check_invariants


@dataclass
class SoakReport:
    games: int = 0
    actions: int = 0
    failures: list = field(default_factory=list)  # (seed, decks, message)


def fixed_decks() -> list[tuple[str, str, list[str]]]:
    """(class, strategy, cards) of Miracle Rogue and the six opponents."""
    decks = [("ROGUE", "nn", miracle_rogue())]
    decks += [(o.hero_class, o.strategy, list(o.cards)) for o in default_opponents()]
    return decks


def soak_game(seed: int, decks, kind: str, report: SoakReport, depth: int = 13, width: int = 4):
    (class0, strat0, cards0), (class1, strat1, cards1) = decks
    actions = 0

    def observe(g):
        nonlocal actions
        actions += 1
        check_invariants(g)

    try:
        g = new_game(card_library(), [cards0, cards1], [class0, class1], seed)
        check_invariants(g)
        players = [make_player(kind, strat0, derive(seed, 1), depth, width),
                   make_player(kind, strat1, derive(seed, 2), depth, width)]
        for p in players:
            p.observer = observe
        play_game(g, players)
    except Exception as exc:
        where = traceback.format_exc(limit=-3)
        report.failures.append((seed, kind, [class0, class1], f"{type(exc).__name__}: {exc}\n{where}"))
    report.games += 1
    report.actions += actions


def run(random_games: int, beam_games: int, pool: bool, seed: int, depth: int, width: int,
        progress: bool = True) -> SoakReport:
    report = SoakReport()
    fixed = fixed_decks()
    pools = {cls: pool_ids(cls) for cls in HERO_CLASSES}
    plan = [("random", i) for i in range(random_games)] + [("beam", i) for i in range(beam_games)]
    start = time.time()
    for n, (kind, i) in enumerate(plan):
        game_seed = derive(seed, i, kind == "beam")
        if pool:  # every ordered pair of classes in turn
            n_classes = len(HERO_CLASSES)
            first, second = HERO_CLASSES[i % n_classes], HERO_CLASSES[i // n_classes % n_classes]
            decks = [(first, "nn", random_pool_deck(derive(game_seed, 1), pools[first])),
                     (second, "aggro", random_pool_deck(derive(game_seed, 2), pools[second]))]
        else:
            a = fixed[i % len(fixed)]
            b = fixed[(i // len(fixed)) % len(fixed)]
            decks = [a, b]
        soak_game(game_seed, decks, kind, report, depth, width)
        if progress and (n + 1) % 1000 == 0:
            print(f"  {n + 1} games, {len(report.failures)} failures, {time.time() - start:.0f} s",
                  file=sys.stderr)
    return report


def main(argv=None) -> int:
    parser = ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--random-games", type=int_in(0, 10 ** 9), default=2000)
    parser.add_argument("--beam-games", type=int_in(0, 10 ** 8), default=100)
    parser.add_argument("--pool", action="store_true",
                        help="random decks of every class's deck space, every class against every class")
    parser.add_argument("--seed", type=int_in(0, 2 ** 64 - 1), default=0)
    parser.add_argument("--depth", type=int_in(1, 100), default=13)
    parser.add_argument("--width", type=int_in(1, 100), default=4)
    args = parser.parse_args(argv)
    if args.random_games + args.beam_games == 0:
        parser.error("--random-games and --beam-games are both 0: nothing to play")
    start = time.time()
    report = run(args.random_games, args.beam_games, args.pool, args.seed, args.depth, args.width)
    for seed, kind, classes, message in report.failures[:20]:
        print(f"FAILED {kind} game seed={seed} classes={classes}: {message}")
    print(f"games: {report.games}")
    print(f"actions_checked: {report.actions}")
    print(f"engine_errors_or_violations: {len(report.failures)}")
    print(f"seconds: {time.time() - start:.1f}")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
