"""The deck space of any class, built from the card data by the rule that gives the paper's pool.

The reference implementation's Rogue pool is every collectible Basic (CORE) and Classic (EXPERT1)
card of the class and the neutrals, in card id order, followed by two Hall of Fame cards it
added by hand (Azure Drake and Conceal). Applied to ROGUE, this rule rebuilds the built-in pool
file exactly (tests/pipeline/test_class_pools.py); applied to another class it gives that class's
space: its own Basic and Classic cards, the same neutrals, and Azure Drake.
"""
from __future__ import annotations

from workers.engine.carddb import load_cards

HERO_CLASSES = ("DRUID", "HUNTER", "MAGE", "PALADIN", "PRIEST", "ROGUE", "SHAMAN", "WARLOCK",
                "WARRIOR")
POOL_SETS = ("CORE", "EXPERT1")
# The Hall of Fame cards the reference's pool added after the rule's cards, in its order.
REFERENCE_HOF_ADDITIONS = ("EX1_284", "EX1_128")  # Azure Drake (neutral), Conceal (Rogue)
HERO_CARDS = {"WARRIOR": "HERO_01", "SHAMAN": "HERO_02", "ROGUE": "HERO_03",
              "PALADIN": "HERO_04", "HUNTER": "HERO_05", "DRUID": "HERO_06",
              "WARLOCK": "HERO_07", "MAGE": "HERO_08", "PRIEST": "HERO_09"}


def check_class(hero_class: str) -> str:
    if hero_class not in HERO_CLASSES:
        from .errors import ConfigError
        raise ConfigError(f"unknown hero class {hero_class!r}; one of {', '.join(HERO_CLASSES)}")
    return hero_class


def class_pool(hero_class: str) -> dict:
    """The pool of `hero_class` in the pool file's format ({"description", "cards": [...]})."""
    cards = load_cards()
    allowed = (check_class(hero_class), "NEUTRAL")
    ids = sorted(c.id for c in cards.values()
                 if c.collectible and c.type != "HERO" and c.card_class in allowed
                 and c.card_set in POOL_SETS)
    ids += [i for i in REFERENCE_HOF_ADDITIONS if cards[i].card_class in allowed]
    entries = [{"index": n, "name": cards[i].name, "id": i, "card_class": cards[i].card_class,
                "type": cards[i].type, "sabberstone_set": cards[i].card_set.lower(),
                "rarity": cards[i].rarity.lower()} for n, i in enumerate(ids)]
    return {"description": f"{hero_class} deck space: Basic and Classic {hero_class} and neutral "
                           f"cards, built by pipeline.class_pools", "cards": entries}


def hero_dbf_id(hero_class: str) -> int:
    """The class's Basic hero, which a deck code names."""
    return load_cards()[HERO_CARDS[check_class(hero_class)]].dbf_id
