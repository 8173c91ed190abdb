"""Which cards the built-in engine implements and tests, for the pool, the fixed decks and their
tokens. A card counts as tested when a test under tests/engine/ carries `@covers("ID")`."""
from __future__ import annotations

import json
import re
from pathlib import Path

from .carddb import load_cards
from .cardspec import build_library

DATA = Path(__file__).resolve().parents[1] / "data"
TESTS = Path(__file__).resolve().parents[2] / "tests" / "engine"
COVERS = re.compile(r"@covers\(([^)]*)\)")
CARD_ID = re.compile(r"[\"']([A-Za-z0-9_]+)[\"']")


def required_cards() -> dict[str, str]:
    """id -> where it is required from: the 180-card pool and the seven fixed decks."""
    required = {}
    for card in json.loads((DATA / "rogue_pool.json").read_text())["cards"]:
        required[card["id"]] = "pool"
    decks = json.loads((DATA / "opponents.json").read_text())["opponents"]
    decks.append(json.loads((DATA / "miracle_rogue.json").read_text()))
    for deck in decks:
        for card in deck["cards"]:
            required.setdefault(card["id"], "fixed deck")
    return required


def tested_cards(test_root: Path = TESTS) -> set[str]:
    tested = set()
    for path in test_root.rglob("test_*.py"):
        for args in COVERS.findall(path.read_text()):
            tested.update(CARD_ID.findall(args))
    return tested


def referenced_cards(library) -> set[str]:
    """Card ids named anywhere in the card scripts (tokens, generated cards, equipped weapons)."""
    scripts = Path(__file__).parent / "cards"
    names = set()
    for path in scripts.glob("*.py"):
        names.update(i for i in CARD_ID.findall(path.read_text()) if i in library)
    return names


def non_collectible_implemented(library) -> list[str]:
    """Tokens and generated cards that have a script (what required cards create)."""
    return sorted(c.id for c in library.values() if c.implemented and not c.collectible
                  and c.type in ("MINION", "SPELL", "WEAPON"))


def report() -> tuple[list[str], int, int]:
    library = build_library(load_cards())
    required = required_cards()
    tested = tested_cards()
    lines = []
    done = 0
    for card_id, source in sorted(required.items(), key=lambda kv: library[kv[0]].name):
        card = library[card_id]
        ok = card.implemented and card_id in tested
        done += ok
        status = ("implemented" if card.implemented else "MISSING") + \
                 (", tested" if card_id in tested else ", UNTESTED")
        lines.append(f"{card_id:16s} {card.name:28s} {source:10s} {status}")
    tokens = non_collectible_implemented(library)
    lines.append(f"tokens_and_generated_cards_implemented: {len(tokens)} "
                 f"({sum(t in tested for t in tokens)} with a test of their own)")
    unscripted = sorted(c for c in referenced_cards(library) if not library[c].implemented)
    for card_id in unscripted:
        lines.append(f"{card_id:16s} {library[card_id].name:28s} created by a script  MISSING")
    lines.append(f"created_cards_missing: {len(unscripted)}")
    return lines, done - len(unscripted), len(required)


def main() -> int:
    lines, done, total = report()
    print("\n".join(lines))
    print(f"required_cards_implemented: {done}/{total}")
    return 0 if done == total else 1
