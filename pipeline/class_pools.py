"""The deck space of any class as a pool (the pool file's format), from workers.class_pools."""
from __future__ import annotations

from workers.class_pools import HERO_CLASSES, pool_ids
from workers.engine.carddb import load_cards
from workers.engine.game import HEROES


def check_class(hero_class: str) -> str:
    if hero_class not in HERO_CLASSES:
        from .errors import ConfigError
        raise ConfigError(f"unknown hero class {hero_class!r}; one of {', '.join(HERO_CLASSES)}")
    return hero_class


def class_pool(hero_class: str) -> dict:
    """The pool of `hero_class` in the pool file's format ({"description", "cards": [...]})."""
    cards = load_cards()
    entries = [{"index": n, "name": cards[i].name, "id": i, "card_class": cards[i].card_class,
                "type": cards[i].type, "sabberstone_set": cards[i].card_set.lower(),
                "rarity": cards[i].rarity.lower()}
               for n, i in enumerate(pool_ids(check_class(hero_class)))]
    return {"description": f"{hero_class} deck space: Basic and Classic {hero_class} and neutral "
                           f"cards (workers/class_pools.py)", "cards": entries}


def hero_dbf_id(hero_class: str) -> int:
    """The class's Basic hero, which a deck code names."""
    return load_cards()[HEROES[check_class(hero_class)][0]].dbf_id
