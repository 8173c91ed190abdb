"""Which cards make up each class's deck space, by the rule that gives the paper's Rogue pool.

The reference implementation's Rogue pool is every collectible Basic (CORE) and Classic (EXPERT1)
card of the class and the neutrals, in card id order, followed by two Hall of Fame cards it
added by hand (Azure Drake and Conceal). Applied to ROGUE, the rule rebuilds the built-in pool
file exactly (tests/pipeline/test_class_pools.py); applied to another class it gives that class's
own Basic and Classic cards, the same neutrals, and Azure Drake.
"""
from __future__ import annotations

from .engine.carddb import load_cards
from .engine.game import HEROES

HERO_CLASSES = tuple(sorted(HEROES))
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
