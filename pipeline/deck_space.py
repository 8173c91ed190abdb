"""A class's deck space (the paper's Rogue one by default): the card pool, the bag-of-cards encoding, random decks and mutation.

A deck is held as a vector of copy counts over the pool in its `index` order (the surrogate's
input), so batches of decks are (n, pool size) integer arrays and ribs archives can store them.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from workers import DATA
from workers.engine.class_pools import DECK_SIZE, HERO_CLASSES, class_pool, copy_limit, hero_dbf_id

from .card_data import card_facts, hero_class_of
from .run_errors import ConfigError, DeckSpaceError
from .stat_overrides import ENGINE_FIELDS, MAX_STAT, merged, resolve

BUILTIN_POOL = DATA / "rogue_pool.json"


def check_class(hero_class: str) -> str:
    if hero_class not in HERO_CLASSES:
        raise ConfigError(f"unknown hero class {hero_class!r}; one of {', '.join(HERO_CLASSES)}")
    return hero_class


@dataclass(frozen=True)
class PoolCard:
    """A card of the deck space's pool as the head node knows it (the engine's card in play is
    workers.engine.entities.Card)."""

    index: int
    id: str
    name: str
    type: str
    rarity: str
    limit: int  # copies allowed in one deck
    cost: int  # the cost the engine plays (after stat overrides, if enabled)
    dbf_id: int


class DeckSpace:
    def __init__(self, cards: Sequence[PoolCard], deck_size: int = DECK_SIZE,
                 stat_overrides: dict[str, dict] | None = None, hero_class: str = "ROGUE"):
        self.cards = list(cards)
        self.hero_class = hero_class
        self.deck_size = deck_size
        self.stat_overrides = stat_overrides  # handed to the engine as is; None = card data
        self.size = len(self.cards)
        self.ids = [c.id for c in self.cards]
        self.names = [c.name for c in self.cards]
        self.limits = np.array([c.limit for c in self.cards], dtype=np.int16)
        self.costs = np.array([c.cost for c in self.cards], dtype=np.int64)
        self._by_id = {c.id: c.index for c in self.cards}
        self._by_name = {c.name.lower(): c.index for c in self.cards}
        # The multiset of every allowed copy, from which random decks are drawn.
        self._copies = np.repeat(np.arange(self.size), self.limits)
        if self.limits.sum() < deck_size:
            raise DeckSpaceError(f"the pool allows only {self.limits.sum()} copies, fewer than {deck_size}")

    @classmethod
    def from_config(cls, section: Mapping) -> "DeckSpace":
        """The deck space of a config's `deck_space` section (a run's saved config of before a
        key existed reads that key's default)."""
        return cls.from_pool_file(section.get("pool"), bool(section.get("use_stat_overrides", False)),
                                  int(section.get("deck_size", DECK_SIZE)), section.get("hero_class", "ROGUE"),
                                  stat_overrides=section.get("stat_overrides") or ())

    @classmethod
    def from_pool_file(cls, path: str | Path | None = None, use_stat_overrides: bool = False,
                       deck_size: int = DECK_SIZE, hero_class: str = "ROGUE",
                       stat_overrides: Sequence[Mapping] = ()) -> "DeckSpace":
        """The pool file at `path`; without one, the class's built-in pool (the paper's file
        for ROGUE, the same rule applied to the card data for the others). The engine plays the
        pool file's stat_overrides when `use_stat_overrides`, with the `stat_overrides` entries
        (deck_space.stat_overrides, pipeline/stat_overrides.py) on top."""
        check_class(hero_class)
        if path:
            path = Path(path)
            pool = _read_json(path, "card pool")
        elif hero_class == "ROGUE":
            path, pool = BUILTIN_POOL, _read_json(BUILTIN_POOL, "card pool")
        else:
            path, pool = f"(built-in {hero_class} pool)", class_pool(hero_class)
        entries = _pool_entries(path, pool, hero_class)
        overrides = _stat_overrides(path, pool.get("stat_overrides")) if use_stat_overrides else None
        if stat_overrides:
            from workers.protocol.evaluate import card_library
            overrides = merged(overrides, resolve(stat_overrides, card_library()))
        facts = card_facts(c["id"] for c in entries)
        cards = []
        for c in entries:
            cost = facts[c["id"]]["cost"]
            if overrides and c["id"] in overrides and "cost" in overrides[c["id"]]:
                cost = int(overrides[c["id"]]["cost"])
            cards.append(PoolCard(index=c["index"], id=c["id"], name=c["name"], type=c["type"],
                              rarity=c["rarity"], limit=copy_limit(c["rarity"]),
                              cost=cost, dbf_id=facts[c["id"]]["dbf_id"]))
        return cls(cards, deck_size=deck_size, stat_overrides=overrides, hero_class=hero_class)

    # --- encoding -------------------------------------------------------------------------
    def encode(self, cards: Sequence[str]) -> np.ndarray:
        """Card ids or names -> copy-count vector; raises DeckSpaceError naming the bad card."""
        counts: Counter[int] = Counter()
        for card in cards:
            index = self._by_id.get(card, self._by_name.get(str(card).lower()))
            if index is None:
                raise DeckSpaceError(f"card {card!r} is not in the {self.size}-card pool")
            counts[index] += 1
        return self._checked_vector(counts)

    def _checked_vector(self, counts: Mapping[int, int]) -> np.ndarray:
        """Copy counts by pool index, summed as Python integers and checked by the deck rules
        before they become the int16 vector: 65,538 lines of one card must be refused, not
        wrap around to 2 copies."""
        self._check_copies({self.ids[i]: n for i, n in counts.items() if n})
        deck = np.zeros(self.size, dtype=np.int16)
        deck[list(counts)] = list(counts.values())
        return deck

    def decode(self, deck: np.ndarray) -> list[str]:
        """Copy-count vector -> card ids, in pool order (the engine shuffles anyway)."""
        return [self.ids[i] for i in np.repeat(np.arange(self.size), np.asarray(deck, dtype=np.int64))]

    def validate(self, deck: np.ndarray) -> None:
        """A count vector of this pool that holds a deck the protocol can play (its rules are
        workers.protocol.evaluate.deck_problem's)."""
        deck = np.asarray(deck)
        if deck.shape != (self.size,):
            raise DeckSpaceError(f"a deck vector must have {self.size} counts, got shape {deck.shape}")
        if (deck < 0).any():
            raise DeckSpaceError(f"negative count for {self.names[int(np.argmax(deck < 0))]}")
        self._check_copies({self.ids[i]: int(deck[i]) for i in np.flatnonzero(deck)})

    def _check_copies(self, copies: dict[str, int]) -> None:
        from workers.protocol.evaluate import deck_problem
        problem = deck_problem(copies, self.stat_overrides, hero_class=self.hero_class,
                               deck_size=self.deck_size)
        if problem:
            raise DeckSpaceError(problem)

    # --- variation ------------------------------------------------------------------------
    def random_decks(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """n decks, each the first deck_size copies of a shuffled copy multiset."""
        keys = rng.random((n, self._copies.size))
        picks = np.argpartition(keys, self.deck_size - 1, axis=1)[:, :self.deck_size]
        return self._count_rows(self._copies[picks])

    def mutate(self, rng: np.random.Generator, parents: np.ndarray) -> np.ndarray:
        """The protocol's mutation on a batch: remove K ~ P(K=k) = 0.5^k copies, refill.

        Removal is uniform over the deck's copies. Refilling adds one copy at a time of a card
        drawn uniformly among those still under their limit (a removed card may come back).
        The refill is done by rejection sampling, which is exact and needs no Python loop:
        candidates are drawn uniformly from the whole pool, and a candidate is accepted iff
        its card, counting the candidates of that card before it, is still under its limit.
        """
        counts = np.asarray(parents, dtype=np.int16).copy()
        batch, size, deck = len(counts), self.size, self.deck_size
        rows = np.arange(batch)
        k = np.minimum(rng.geometric(0.5, size=batch), deck)
        # Remove: the k copies with the smallest random keys.
        slots = np.repeat(np.tile(np.arange(size), batch), counts.ravel()).reshape(batch, deck)
        rank = np.argsort(np.argsort(rng.random((batch, deck)), axis=1), axis=1)
        removed = rows[:, None] * size + slots
        counts -= np.bincount(removed[rank < k[:, None]], minlength=batch * size
                              ).reshape(batch, size).astype(np.int16)
        # Refill by rejection sampling (see above); redraw in the rare case of too few accepts.
        missing = k.copy()
        while missing.any():
            m = int(missing.max()) + 8
            cand = rng.integers(0, size, size=(batch, m))
            same_before = np.tril(cand[:, :, None] == cand[:, None, :], -1).sum(axis=2)
            free = (self.limits[cand] - counts[rows[:, None], cand])
            ok = same_before < free
            ok &= np.cumsum(ok, axis=1) <= missing[:, None]
            np.add.at(counts, (np.broadcast_to(rows[:, None], cand.shape)[ok], cand[ok]), 1)
            missing -= ok.sum(axis=1)
        return counts

    def _count_rows(self, card_indices: np.ndarray) -> np.ndarray:
        n = len(card_indices)
        flat = (card_indices + self.size * np.arange(n)[:, None]).ravel()
        return np.bincount(flat, minlength=n * self.size).reshape(n, self.size).astype(np.int16)

    # --- what the engine and users see ----------------------------------------------------
    def deck_statistics(self, deck: np.ndarray) -> dict[str, float]:
        from workers.protocol.results import deck_statistics  # the engine's definition of the stats
        deck = np.asarray(deck, dtype=np.int64)
        idx = np.repeat(np.arange(self.size), deck)
        return deck_statistics([int(self.costs[i]) for i in idx], [self.cards[i].type for i in idx])

    def deck_code(self, deck: np.ndarray) -> str:
        """A Hearthstone deck code (Wild format, the class's Basic hero) a player can paste into
        the game."""
        from hearthstone import deckstrings
        from hearthstone.enums import FormatType
        cards = [(self.cards[i].dbf_id, int(deck[i])) for i in np.flatnonzero(deck)]
        hero = hero_dbf_id(check_class(self.hero_class))
        return deckstrings.write_deckstring(cards, [hero], FormatType.FT_WILD)

    def from_deck_code(self, code: str) -> np.ndarray:
        from hearthstone import deckstrings
        try:
            cards, heroes, _ = deckstrings.parse_deckstring(code)[:3]
        except Exception as exc:  # the library raises several types on malformed codes
            raise DeckSpaceError(f"not a valid deck code: {exc}") from None
        classes = {hero_class_of(dbf) for dbf in heroes}
        if classes != {self.hero_class}:  # else its cards would be played by this space's hero
            known = sorted(c for c in classes if c)
            what = f"a {' and a '.join(known)} hero" if known else "no known hero"
            hint = f" or set deck_space.hero_class={known[0]}" if known != [self.hero_class] and len(known) == 1 else ""
            raise DeckSpaceError(f"the deck code names {what} (hero dbf ids {list(heroes)}), but this deck "
                            f"space is {self.hero_class}'s: use a {self.hero_class} deck code{hint}")
        by_dbf = {c.dbf_id: c.index for c in self.cards}
        counts: Counter[int] = Counter()
        for dbf, n in cards:
            if dbf not in by_dbf:
                raise DeckSpaceError(f"card with dbf id {dbf} in the deck code is not in the pool")
            counts[by_dbf[dbf]] += n
        return self._checked_vector(counts)

    def describe(self, deck: np.ndarray) -> list[str]:
        return [f"{int(deck[i])}x {self.names[i]}" for i in np.flatnonzero(deck)]

    def load_deck_file(self, path: str | Path) -> np.ndarray:
        """A deck file: JSON ({"cards": [...]} or a list of ids/names), a deck code, or one
        card id or name per line. Raises DeckSpaceError naming the file and the problem."""
        path = Path(path)
        text = _read_text(path, "deck file", MAX_DECK_FILE_BYTES).strip()
        try:
            if text.startswith(("{", "[")):
                return self.encode(_json_cards(path, text))
            lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
            if len(lines) == 1 and lines[0].startswith("AAE"):
                return self.from_deck_code(lines[0])
            return self.encode(lines)
        except DeckSpaceError as exc:
            raise DeckSpaceError(f"deck file {path}: {exc}") from None


MAX_DECK_FILE_BYTES = 1 << 20
MAX_POOL_CARDS = 5000
RARITIES = ("free", "common", "rare", "epic", "legendary")


def _read_text(path: Path, what: str, max_bytes: int) -> str:
    from workers.inputs import InputError, read_text
    try:
        return read_text(path, what, max_bytes)
    except InputError as exc:
        raise DeckSpaceError(str(exc)) from None


def _read_json(path: Path, what: str):
    from workers.inputs import InputError, load_json
    try:
        return load_json(path, what)
    except InputError as exc:
        raise DeckSpaceError(str(exc)) from None


def _json_cards(path: Path, text: str) -> list[str]:
    """The card ids or names of a JSON deck: {"cards": [...]} or a list, of strings or of
    objects with an "id"."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise DeckSpaceError(f"deck file {path} is nested too deeply to be a deck") from None
    except ValueError as exc:
        raise DeckSpaceError(f"deck file {path} is not valid JSON: {exc}") from None
    from workers.inputs import InputError
    from workers.protocol.evaluate import card_ids
    try:
        return list(card_ids(data.get("cards") if isinstance(data, dict) else data, f"deck file {path}"))
    except InputError as exc:
        raise DeckSpaceError(str(exc)) from None


def _pool_entries(path: Path, pool, hero_class: str = "ROGUE") -> list[dict]:
    """The pool's cards sorted by index, each checked: fields, types, known ids the class can
    play."""
    from workers.protocol.evaluate import card_library
    cards = pool.get("cards") if isinstance(pool, dict) else None
    if not isinstance(cards, list) or not 1 <= len(cards) <= MAX_POOL_CARDS:
        raise DeckSpaceError(f"card pool {path} needs a \"cards\" list of 1 to {MAX_POOL_CARDS} cards")
    library = card_library()
    for n, c in enumerate(cards):
        fields = {"index": int, "id": str, "name": str, "type": str, "rarity": str}
        if not isinstance(c, dict) or any(not isinstance(c.get(k), t) or isinstance(c.get(k), bool)
                                          for k, t in fields.items()):
            raise DeckSpaceError(f"card pool {path}: entry {n} needs index (integer), id, name, type and rarity")
        if c["rarity"] not in RARITIES:
            raise DeckSpaceError(f"card pool {path}: {c['id']} has rarity {c['rarity']!r}, not one of {', '.join(RARITIES)}")
        if c["id"] not in library or not library[c["id"]].collectible:
            raise DeckSpaceError(f"card pool {path}: unknown card id {c['id']!r}")
        if library[c["id"]].card_class not in (hero_class, "NEUTRAL"):
            raise DeckSpaceError(f"card pool {path}: {c['name']} ({c['id']}) is a "
                            f"{library[c['id']].card_class} card, not playable by {hero_class}")
    entries = sorted(cards, key=lambda c: c["index"])
    if [c["index"] for c in entries] != list(range(len(entries))):
        raise DeckSpaceError(f"card pool {path}: indices must be 0..{len(entries) - 1} without gaps")
    if len({c["id"] for c in entries}) != len(entries):
        raise DeckSpaceError(f"card pool {path}: a card id appears twice")
    return entries


def _stat_overrides(path: Path, overrides) -> dict | None:
    """{card id: {cost, atk, health}} with small non-negative integers, or None."""
    if overrides is None:
        return None
    if not isinstance(overrides, dict):
        raise DeckSpaceError(f"card pool {path}: stat_overrides must map card ids to stats")
    for card_id, stats in overrides.items():
        if not isinstance(stats, dict) or not stats or any(
                k not in ENGINE_FIELDS or isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_STAT
                for k, v in stats.items()):
            raise DeckSpaceError(f"card pool {path}: stat_overrides for {card_id!r} must give "
                            f"{', '.join(ENGINE_FIELDS)} as integers from 0 to {MAX_STAT}")
    return overrides
