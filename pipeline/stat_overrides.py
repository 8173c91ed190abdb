"""`deck_space.stat_overrides`: card changes written as data, the way EvoStone2's `[[Nerfs]]`
list them (a card, its new mana cost, attack and health), made into what both engines apply:
{card id: {"cost": N, "atk": N, "health": N}}, each stat present only when given.

    deck_space:
      stat_overrides:
        - {card: Leeroy Jenkins, cost: 5}      # a name or a card id; each stat optional
        - {card: CS2_073, cost: 1}

The shape and the numbers are checked with the rest of the config (`check_entries`, no card data
read); the cards themselves when the deck space is built (`resolve`): both before anything runs.
"""
from __future__ import annotations

import difflib
from typing import Mapping, Sequence

from .run_errors import ConfigError

KEY = "deck_space.stat_overrides"
FIELDS = {"cost": "cost", "attack": "atk", "health": "health"}  # config name -> engine's card field
ENGINE_FIELDS = tuple(FIELDS.values())  # the stats a change sets, as a pool file's stat_overrides name them
MAX_STAT = 99  # every stat a change sets is a whole number from 0 to this (config and pool file)
# Which card types have each stat (a weapon's attack is its ATK tag in SabberStone too).
TYPES_WITH = {"attack": ("MINION", "WEAPON"), "health": ("MINION",)}


def check_entries(entries) -> None:
    """Each entry a mapping of `card` (a name or id) and at least one of cost, attack, health,
    each a whole number from 0 to MAX_STAT; ConfigError naming the entry otherwise."""
    if not isinstance(entries, Sequence) or isinstance(entries, str):
        raise ConfigError(f"{KEY} must be a list of {{card: NAME, cost: N, attack: N, health: N}}, got {entries!r}")
    for n, entry in enumerate(entries):
        where = f"{KEY}[{n}]"
        if not isinstance(entry, Mapping):
            raise ConfigError(f"{where} must be {{card: NAME, cost: N, attack: N, health: N}}, got {entry!r}")
        unknown = [k for k in entry if k != "card" and k not in FIELDS]
        if unknown:
            raise ConfigError(f"{where} has the unknown field {unknown[0]!r}; "
                              f"an entry has card and any of {', '.join(FIELDS)}")
        card = entry.get("card")
        if not isinstance(card, str) or not card.strip():
            raise ConfigError(f"{where} needs card: a card name or id, got {card!r}")
        if not any(k in FIELDS for k in entry):
            raise ConfigError(f"{where} ({card}) changes nothing: give any of {', '.join(FIELDS)}")
        for name in FIELDS:
            value = entry.get(name)
            if name in entry and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 0 <= value <= MAX_STAT):
                raise ConfigError(f"{where} ({card}): {name} must be a whole number from 0 to "
                                  f"{MAX_STAT}, got {value!r}")


def resolve(entries, library: Mapping) -> dict[str, dict[str, int]]:
    """The checked entries as {card id: {cost, atk, health}}, each card found by id (any card
    the engine knows) or by name (a collectible card); ConfigError for an unknown card, a stat
    the card cannot have (a spell's attack) or a card given twice."""
    check_entries(entries)
    by_name: dict[str, list[str]] = {}
    for card_id, card in library.items():
        if card.collectible:
            by_name.setdefault(card.name.lower(), []).append(card_id)
    resolved: dict[str, dict[str, int]] = {}
    first_entry: dict[str, int] = {}
    for n, entry in enumerate(entries):
        where = f"{KEY}[{n}]"
        card_id = _card_id(str(entry["card"]).strip(), library, by_name, where)
        card = library[card_id]
        for name, types in TYPES_WITH.items():
            if name in entry and card.type not in types:
                raise ConfigError(f"{where}: {card.name} ({card_id}) is a {card.type.lower()}, which has "
                                  f"no {name} (only a {' or a '.join(t.lower() for t in types)} has one)")
        if card_id in first_entry:
            raise ConfigError(f"{where}: {card.name} ({card_id}) already has an entry "
                              f"({KEY}[{first_entry[card_id]}]); give each card once")
        first_entry[card_id] = n
        resolved[card_id] = {FIELDS[k]: int(entry[k]) for k in FIELDS if k in entry}
    return resolved


def _card_id(card: str, library: Mapping, by_name: dict[str, list[str]], where: str) -> str:
    if card in library:
        return card
    ids = by_name.get(card.lower(), [])
    if len(ids) == 1:
        return ids[0]
    if ids:
        raise ConfigError(f"{where}: several cards are named {card!r} ({', '.join(sorted(ids))}); give the card id")
    close = difflib.get_close_matches(card.lower(), by_name, n=1)
    hint = f"; did you mean {library[by_name[close[0]][0]].name}?" if close else ""
    raise ConfigError(f"{where}: no card is named {card!r} or has that id{hint}")


def merged(base: dict[str, dict[str, int]] | None, changes: dict[str, dict[str, int]]) -> dict | None:
    """`base` (the pool file's overrides, with use_stat_overrides) with `changes` on top, stat by
    stat; None when neither changes anything, as the engines read no overrides."""
    out = {card_id: dict(stats) for card_id, stats in (base or {}).items()}
    for card_id, stats in changes.items():
        out.setdefault(card_id, {}).update(stats)
    return out or None
