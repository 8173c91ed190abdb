"""Which cards make up each class's deck space, by the rule that gives the paper's Rogue pool,
and the protocol's random deck from such a pool.

The reference implementation's Rogue pool is every collectible Basic (CORE) and Classic (EXPERT1)
card of the class and the neutrals, in card id order, followed by two Hall of Fame cards it
added by hand (Azure Drake and Conceal). Applied to ROGUE, the rule rebuilds the built-in pool
file exactly (tests/pipeline/test_class_pools.py); applied to another class it gives that class's
own Basic and Classic cards, the same neutrals, and Azure Drake.
"""
from __future__ import annotations

from .carddb import load_cards
from .game import HEROES
from .rng import derive

HERO_CLASSES = tuple(sorted(HEROES))
DECK_SIZE = 30
POOL_SETS = ("CORE", "EXPERT1")
# The Hall of Fame cards the reference's pool added after the rule's cards, in its order.
REFERENCE_HOF_ADDITIONS = ("EX1_284", "EX1_128")  # Azure Drake (neutral), Conceal (Rogue)


def pool_ids(hero_class: str) -> list[str]:
    """The card ids of `hero_class`'s deck space, in the surrogate's input order."""
    if hero_class not in HEROES:
        raise ValueError(f"unknown hero class {hero_class!r}; one of {', '.join(HERO_CLASSES)}")
    cards = load_cards()
    allowed = (hero_class, "NEUTRAL")
    ids = sorted(c.id for c in cards.values()
                 if c.collectible and c.type != "HERO" and c.card_class in allowed
                 and c.card_set in POOL_SETS)
    return ids + [i for i in REFERENCE_HOF_ADDITIONS if cards[i].card_class in allowed]


def class_pool(hero_class: str) -> dict:
    """The pool of `hero_class` in the pool file's format ({"description", "cards": [...]})."""
    cards = load_cards()
    entries = [{"index": n, "name": cards[i].name, "id": i, "card_class": cards[i].card_class,
                "type": cards[i].type, "sabberstone_set": cards[i].card_set.lower(),
                "rarity": cards[i].rarity.lower()}
               for n, i in enumerate(pool_ids(hero_class))]
    return {"description": f"{hero_class} deck space: Basic and Classic {hero_class} and neutral "
                           f"cards (workers/engine/class_pools.py)", "cards": entries}


def hero_dbf_id(hero_class: str) -> int:
    """The class's Basic hero, which a deck code names."""
    return load_cards()[HEROES[hero_class][0]].dbf_id


def copy_limit(rarity: str) -> int:
    """How many copies of a card of this rarity a deck may hold."""
    return 1 if rarity.upper() == "LEGENDARY" else 2


def random_pool_deck(seed: int, pool: list[str]) -> list[str]:
    """The protocol's random deck: shuffle the pool's copies (as many as a deck may hold), take
    DECK_SIZE."""
    cards = load_cards()
    copies = [c for c in pool for _ in range(copy_limit(cards[c].rarity))]
    rng = derive(seed, 0xDEC)
    picked = []
    for _ in range(DECK_SIZE):
        rng = derive(rng, 1)
        picked.append(copies.pop(rng % len(copies)))
    return picked
