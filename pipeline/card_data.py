"""Card facts the head node needs (dbf id, cost, type) for the pool, from hearthstone-data.

Parsing CardDefs.xml takes seconds, so the few facts we need are cached in a small JSON file
keyed by the hearthstone-data version; later runs read only that file.
"""
from __future__ import annotations

import json
import os
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Iterable

# Valeera Sanguinar, the Rogue hero of the Basic set: deck codes need a hero.
ROGUE_HERO_DBF_ID = 930


def _cache_dir() -> Path:
    """The engine's cache folder (workers/engine/carddb.py), so one setting moves both."""
    return Path(os.environ.get("DSAME_CACHE_DIR") or Path.home() / ".cache" / "dsame")


def _data_version() -> str:
    try:
        return metadata.version("hearthstone-data")
    except metadata.PackageNotFoundError:  # pragma: no cover - hearthstone-data is a dependency
        return "unknown"


def card_facts(card_ids: Iterable[str]) -> dict[str, dict]:
    """{card id: {"dbf_id", "cost", "type", "name"}} for the given ids (cached on disk)."""
    ids = sorted(set(card_ids))
    path = _cache_dir() / f"head-node-cards-{_data_version()}.json"
    cached: dict[str, dict] = {}
    if path.exists():
        try:
            cached = json.loads(path.read_text())
        except (OSError, ValueError):
            cached = {}  # a damaged cache is rebuilt, never trusted
    missing = [cid for cid in ids if cid not in cached]
    if missing:
        cached.update(_parse_card_xml(missing))
        _write_atomically(path, cached)
    return {cid: cached[cid] for cid in ids}


def _parse_card_xml(card_ids: list[str]) -> dict[str, dict]:
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # hearthstone-data imports pkg_resources
        from hearthstone import cardxml
        db, _ = cardxml.load()
    unknown = [cid for cid in card_ids if cid not in db]
    if unknown:
        from .errors import DeckError
        raise DeckError(f"card ids not in hearthstone-data {_data_version()}: {', '.join(unknown)}")
    return {cid: {"dbf_id": int(db[cid].dbf_id), "cost": int(db[cid].cost),
                  "type": db[cid].type.name, "name": db[cid].name} for cid in card_ids}


def _write_atomically(path: Path, data: dict) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, sort_keys=True)
        os.replace(tmp, path)
    except OSError:
        pass  # an unwritable cache only costs the parse time again next run
