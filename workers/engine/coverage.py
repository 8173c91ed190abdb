"""Which cards can enter a game of the built-in engine, and whether each is implemented and tested.

A card can enter a game when it is collectible (every class's deck space and any opponent file
may hold it), is a hero power or The Coin, is named in a card script (tokens, equipped weapons,
fixed lists to pick from), or is in a pool a random effect draws from (`cardspec.RANDOM_POOLS`,
the same functions the scripts call). "Implemented": the card has a script, or an explicit
`define` stating it has no text beyond its keywords. "Tested": a test under tests/engine/ carries
`@covers("ID")`, and that mark is checked when the test runs (tests/engine/scenario.py): the
test fails unless the card enters play in it.
"""
from __future__ import annotations

import re
from pathlib import Path

from .carddb import load_cards
from .cardspec import RANDOM_POOLS, build_library
from .game import HEROES, THE_COIN

TESTS = Path(__file__).resolve().parents[2] / "tests" / "engine"
SCRIPTS = Path(__file__).parent / "cards"
COVERS = re.compile(r"@covers\(([^)]*)\)")
CARD_ID = re.compile(r"[\"']([A-Za-z0-9_]+)[\"']")


def tested_cards(test_root: Path = TESTS) -> set[str]:
    tested = set()
    for path in test_root.rglob("test_*.py"):
        for args in COVERS.findall(path.read_text()):
            tested.update(CARD_ID.findall(args))
    return tested


def named_in_scripts(library) -> set[str]:
    """Card ids written anywhere in the card scripts."""
    names = set()
    for path in SCRIPTS.glob("*.py"):
        names.update(i for i in CARD_ID.findall(path.read_text()) if i in library)
    return names


def random_pool_cards(library) -> dict[str, str]:
    """id -> the first random pool (by name) that can create it."""
    found = {}
    for name, pool in sorted(RANDOM_POOLS.items()):
        ids = pool(library)
        for group in (ids.values() if isinstance(ids, dict) else [ids]):
            for card_id in group:
                found.setdefault(card_id, f"pool {name}")
    return found


def cards_entering_games(library) -> dict[str, str]:
    """id -> how it can enter a game: collectible, game (hero powers, The Coin), script, pool."""
    sources = {c.id: "collectible" for c in library.values() if c.collectible}
    for card_id in [power for _, power in HEROES.values()] + [THE_COIN]:
        sources.setdefault(card_id, "game")
    for card_id in sorted(named_in_scripts(library)):
        sources.setdefault(card_id, "script")
    for card_id, pool in random_pool_cards(library).items():
        sources.setdefault(card_id, pool)
    return sources


def report() -> tuple[list[str], int, int]:
    """(one line per card, how many are implemented and tested, how many can enter a game)."""
    library = build_library(load_cards())
    tested = tested_cards()
    sources = cards_entering_games(library)
    lines, done = [], 0
    for card_id, source in sorted(sources.items(), key=lambda kv: (library[kv[0]].card_class,
                                                                   library[kv[0]].name, kv[0])):
        card = library[card_id]
        ok = card.implemented and card_id in tested
        done += ok
        status = ("implemented" if card.implemented else "MISSING") + \
                 (", tested" if card_id in tested else ", UNTESTED")
        lines.append(f"{card_id:16s} {card.name:28s} {card.card_class:8s} {source:24s} {status}")
    collectible = [i for i, s in sources.items() if s == "collectible"]
    lines.append(f"collectible_cards: {sum(library[i].implemented and i in tested for i in collectible)}"
                 f"/{len(collectible)} implemented and tested")
    generated = [i for i, s in sources.items() if s != "collectible"]
    lines.append(f"generated_cards: {sum(library[i].implemented and i in tested for i in generated)}"
                 f"/{len(generated)} implemented and tested")
    return lines, done, len(sources)


def main() -> int:
    lines, done, total = report()
    print("\n".join(lines))
    print(f"cards_implemented_and_tested: {done}/{total}")
    return 0 if done == total else 1
