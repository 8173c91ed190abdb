"""Card facts the head node needs (dbf id, cost, type) for the pool, from hearthstone-data.

Parsing CardDefs.xml takes seconds, so the few facts we need are cached in a small JSON file
keyed by the hearthstone-data version; later runs read only that file. Like the engine's cache it
carries the data version and a digest of its content: a cache that fails either is rebuilt.
"""
from __future__ import annotations

from importlib import metadata
from pathlib import Path
from typing import Iterable

from workers.engine.carddb import (CARD_TYPES, CLASSES, cache_root, load_cards, private_dir, read_checked_cache,
                                   warn_rebuilt, write_checked_cache)
from workers.errors import CacheDirError

from .run_errors import ConfigError


def _data_version() -> str:
    try:
        return metadata.version("hearthstone-data")
    except metadata.PackageNotFoundError:  # pragma: no cover - hearthstone-data is a dependency
        return "unknown"


def card_facts(card_ids: Iterable[str]) -> dict[str, dict]:
    """{card id: {"dbf_id", "cost", "type", "name"}} for the given ids (cached on disk)."""
    ids = sorted(set(card_ids))
    version = _data_version()
    folder = cache_root()  # the engine's cache folder, so one setting moves both
    try:
        private_dir(folder, "the card cache")
    except CacheDirError as exc:
        raise ConfigError(str(exc)) from None
    except OSError:
        pass  # a folder that cannot be made holds no cache: the cards are parsed again
    path = folder / f"head-node-cards-{version}-v2.json"
    cached, problem = read_checked_cache(path, version)
    if not isinstance(cached, dict):
        if problem:
            warn_rebuilt(path, problem)
        cached = {}  # a damaged or edited cache is rebuilt, never trusted
    missing = [cid for cid in ids if cid not in cached]
    if missing:
        cached.update(_parse_card_xml(missing))
        _write(path, version, cached)
    return {cid: cached[cid] for cid in ids}


def hero_class_of(dbf_id: int) -> str | None:
    """The class of the hero card with this dbf id (a Basic hero or one of its skins, as a
    deck code names it); None when no hero card has the id."""
    basic = {c.dbf_id: c.card_class for c in load_cards().values() if c.type == "HERO"}
    if dbf_id in basic:
        return basic[dbf_id]
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # hearthstone-data imports pkg_resources
        from hearthstone import cardxml
        db, _ = cardxml.load_dbf()  # a skin (Maiev for ROGUE...): not in the engine's card set
    card = db.get(dbf_id)
    return CLASSES.get(int(card.card_class)) if card is not None and CARD_TYPES.get(int(card.type)) == "HERO" else None


def _parse_card_xml(card_ids: list[str]) -> dict[str, dict]:
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # hearthstone-data imports pkg_resources
        from hearthstone import cardxml
        db, _ = cardxml.load()
    unknown = [cid for cid in card_ids if cid not in db]
    if unknown:
        from .run_errors import DeckSpaceError
        raise DeckSpaceError(f"card ids not in hearthstone-data {_data_version()}: {', '.join(unknown)}")
    return {cid: {"dbf_id": int(db[cid].dbf_id), "cost": int(db[cid].cost),
                  "type": db[cid].type.name, "name": db[cid].name} for cid in card_ids}


def _write(path: Path, version: str, data: dict) -> None:
    try:
        write_checked_cache(path, version, data)
    except OSError:
        pass  # an unwritable cache only costs the parse time again next run
