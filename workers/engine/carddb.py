"""Card data from HearthSim's `hearthstone-data` package, cached as a small JSON file.

Parsing the 22 MB CardDefs.xml takes seconds, so the first process to need the cards writes
the Basic, Classic and Hall of Fame subset the engine uses to a cache file keyed by the data version; every
later worker only reads that file. The file carries the data version and a SHA-256 digest of its
content, checked on every read: a damaged or edited cache is rebuilt, never played with.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from ..errors import CacheDirError, CardDataError
from .cardspec import CardData

# hearthstone.enums.CardSet values of Basic, Classic and the Hall of Fame (Classic cards
# retired there before December 2019, e.g. Doomguard).
CORE_SET, EXPERT1_SET, HALL_OF_FAME_SET = 2, 3, 4
SET_NAMES = {CORE_SET: "CORE", EXPERT1_SET: "EXPERT1", HALL_OF_FAME_SET: "HOF"}

CARD_TYPES = {3: "HERO", 4: "MINION", 5: "SPELL", 7: "WEAPON", 10: "HERO_POWER", 6: "ENCHANTMENT"}
RARITIES = {0: "INVALID", 1: "COMMON", 2: "FREE", 3: "RARE", 4: "EPIC", 5: "LEGENDARY"}
CLASSES = {2: "DRUID", 3: "HUNTER", 4: "MAGE", 5: "PALADIN", 6: "PRIEST", 7: "ROGUE",
           8: "SHAMAN", 9: "WARLOCK", 10: "WARRIOR", 12: "NEUTRAL"}
RACES = {0: None, 14: "MURLOC", 15: "DEMON", 17: "MECHANICAL", 18: "ELEMENTAL", 20: "BEAST",
         21: "TOTEM", 23: "PIRATE", 24: "DRAGON", 26: "ALL"}
# GameTag values of the keywords the engine reads from the data.
KEYWORD_TAGS = {
    190: "TAUNT", 197: "CHARGE", 194: "DIVINE_SHIELD", 191: "STEALTH", 189: "WINDFURY",
    212: "ENRAGED", 217: "DEATHRATTLE", 218: "BATTLECRY", 220: "COMBO", 219: "SECRET",
    208: "FREEZE", 227: "CANT_ATTACK", 311: "CANT_BE_TARGETED_BY_SPELLS",
    332: "CANT_BE_TARGETED_BY_HERO_POWERS", 114: "ELITE", 362: "AURA", 363: "POISONOUS",
}
SPELLPOWER_TAG = 192
OVERLOAD_TAG = 215
# Cards of other sets that Classic cards create: Baku the Mooneater's upgraded hero powers.
EXTRA_CARDS = frozenset({f"AT_132_{c}" for c in ("WARRIOR", "SHAMAN", "ROGUE", "PALADIN", "HUNTER",
                                                 "DRUID", "WARLOCK", "MAGE", "PRIEST")} | {"AT_132_ROGUEt"})


def data_version() -> str:
    try:
        return metadata.version("hearthstone-data")
    except metadata.PackageNotFoundError as exc:
        raise CardDataError("the card data package 'hearthstone-data' is not installed") from exc


def cache_root() -> Path:
    """The folder of the card caches and the SabberStone bridge: $DSAME_CACHE_DIR or ~/.cache/dsame."""
    return Path(os.environ.get("DSAME_CACHE_DIR") or Path.home() / ".cache" / "dsame")


def cache_path() -> Path:
    return cache_root() / f"cards-{data_version()}-v8.json"


def private_dir(folder: Path, what: str) -> Path:
    """`folder`, created 0700 if missing; refused (CacheDirError) when another user owns it, made
    0700 with a note when it is ours but open to others. Its files' digests are plain SHA-256,
    which catch accidents only: no one else may read or write there."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = folder.stat()
    if info.st_uid != os.geteuid():
        raise CacheDirError(f"{what} {folder} belongs to user id {info.st_uid}, not to you: set "
                            "DSAME_CACHE_DIR to a folder of your own")
    if info.st_mode & 0o077:
        folder.chmod(0o700)
        print(f"note: {what} {folder} was open to other users (mode {info.st_mode & 0o777:o}); "
              "made it private (0700)", file=sys.stderr)
    return folder


def _parse_package() -> list[dict]:
    """Read the Basic and Classic cards out of CardDefs.xml (slow: seconds)."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # hearthstone-data imports pkg_resources
        from hearthstone import cardxml
        db, _ = cardxml.load()
    rows = []
    for card in db.values():
        if int(card.card_set) not in (CORE_SET, EXPERT1_SET, HALL_OF_FAME_SET) and \
                card.id not in EXTRA_CARDS:
            continue
        tags = {int(tag): value for tag, value in card.tags.items()}
        rows.append({
            "id": card.id, "dbf_id": card.dbf_id, "name": card.name,
            "type": CARD_TYPES.get(int(card.type), str(card.type)),
            "card_class": CLASSES.get(int(card.card_class), "NEUTRAL"),
            "rarity": RARITIES.get(int(card.rarity), "INVALID"),
            "cost": card.cost, "atk": card.atk, "health": card.health,
            "durability": card.durability, "race": RACES.get(int(card.race)),
            "spell_damage": tags.get(SPELLPOWER_TAG, 0),
            "keywords": sorted(name for tag, name in KEYWORD_TAGS.items() if tags.get(tag)),
            "collectible": bool(card.collectible), "text": card.description or "",
            "card_set": SET_NAMES.get(int(card.card_set), getattr(card.card_set, "name", "OTHER")),
            "overload": tags.get(OVERLOAD_TAG, 0),
        })
    return rows


CACHE_FORMAT = "dsame-card-cache"


def write_checked_cache(path: Path, version: str, payload) -> None:
    """One header line (format, data version, SHA-256 of the rest), then the payload as JSON;
    written to a private temporary file and renamed, so a reader sees all of it or none."""
    body = json.dumps(payload, sort_keys=True).encode()
    header = json.dumps({"format": CACHE_FORMAT, "data_version": version,
                         "sha256": hashlib.sha256(body).hexdigest()}).encode()
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(header + b"\n" + body)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_checked_cache(path: Path, version: str):
    """(payload, problem): the payload when the file is this user's, names `version` and matches
    its digest; otherwise None and what is wrong (problem None: there is no cache yet)."""
    try:
        with open(path, "rb") as handle:
            info = os.fstat(handle.fileno())
            raw = handle.read()
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror})"
    if info.st_uid != os.geteuid() or info.st_mode & 0o022:
        return None, "may be written by another user"
    head, _, body = raw.partition(b"\n")
    try:
        header = json.loads(head)
        if header.get("format") != CACHE_FORMAT or header.get("data_version") != version:
            return None, "is not a card cache of this data version"
        if header.get("sha256") != hashlib.sha256(body).hexdigest():
            return None, "does not match its digest (damaged or edited)"
        return json.loads(body), None
    except (ValueError, AttributeError):
        return None, "is not a card cache (unreadable header or content)"


def warn_rebuilt(path: Path, problem: str) -> None:
    print(f"warning: card cache {path} {problem}; rebuilding it from hearthstone-data", file=sys.stderr)


@lru_cache(maxsize=1)
def load_cards() -> dict[str, CardData]:
    """All Basic and Classic cards by id, from the cache (written on first use, rebuilt when it
    fails its checks)."""
    path, version = cache_path(), data_version()
    rows, problem = read_checked_cache(path, version)
    if not isinstance(rows, list):
        if problem:
            warn_rebuilt(path, problem)
        rows = _parse_package()
        try:
            write_checked_cache(path, version, rows)
        except OSError:
            pass  # an unwritable cache only costs the parse again in the next process
    return {row["id"]: CardData(**{**row, "keywords": frozenset(row["keywords"])}) for row in rows}
