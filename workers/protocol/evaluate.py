"""Evaluating a deck by the paper's protocol on the built-in engine.

The evaluated deck always goes first; game g is played against opponent g mod 6 with a seed
derived from (evaluation seed, g), so any split of the games into chunks (Dask tasks) gives
the same records. A game that raises inside the engine is played again with new seeds (up to
ATTEMPTS tries in all), as the reference evaluator does; every failed try is kept in the
records (and in the evaluation's `errors`), and only a finished game counts. Each worker process
builds the card library once and keeps it.
"""
from __future__ import annotations

import sys
import traceback
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Mapping, Sequence

from .. import DATA
from ..engine.carddb import load_cards
from ..engine.cardspec import CardDef, build_library
from ..engine.class_pools import DECK_SIZE, copy_limit
from ..engine.game import HEROES, new_game
from ..engine.rng import derive
from ..errors import DeckError
from ..inputs import InputError, load_json
from ..players.play import PausedCollector, RandomPlayer, play_game
from ..players.scores import cached_score, check_strategy
from ..players.specs import check_player, make_player
from ..players.game_counters import GameCounters
from .chunk_sums import summed
from .results import EvaluationResult, GameRecord, deck_statistics, summarize

PLAYER_KINDS = ("beam", "random")
# EvoStone2's GameDispatcher restarts a game that threw until it finishes; the reference records
# were played with at most 5 tries, and so is every engine here (a game that fails them all is
# left out of the evaluation and counted in its errors).
ATTEMPTS = 5


def game_seed(seed: int, game_index: int, attempt: int = 0) -> int:
    """The seed of game `game_index` of an evaluation on its `attempt`-th try (0: the first)."""
    return derive(seed, game_index) if attempt == 0 else derive(seed, game_index, attempt)


@dataclass(frozen=True)
class OpponentDeck:
    name: str
    hero_class: str
    strategy: str
    cards: tuple[str, ...]


MAX_OPPONENTS = 100


def load_opponents(path: str | Path | None = None) -> list[OpponentDeck]:
    """The opponent decks (default: the paper's six) in file order, each checked so that its
    games can be played: structure, class, strategy (and its weights file) and cards. Any
    problem is a DeckError naming the file and the opponent."""
    path = Path(path or DATA / "opponents.json")
    spec = load_json(path, "opponents file")
    entries = spec.get("opponents") if isinstance(spec, dict) else None
    if not isinstance(entries, list) or not 1 <= len(entries) <= MAX_OPPONENTS:
        raise InputError(f"opponents file {path} needs an \"opponents\" list of 1 to {MAX_OPPONENTS} decks")
    opponents = [_opponent(path, i, entry) for i, entry in enumerate(entries)]
    for o in opponents:
        validate_deck(o.cards, hero_class=o.hero_class, label=f"opponents file {path}: deck {o.name!r}")
    return opponents


def _opponent(path: Path, index: int, entry) -> OpponentDeck:
    where = f"opponents file {path}: opponent {index}"
    if not isinstance(entry, dict):
        raise InputError(f"{where} is not an object")
    for key in ("name", "hero_class", "strategy", "cards"):
        if key not in entry:
            raise InputError(f"{where} has no {key!r}")
    name, hero_class, strategy = entry["name"], entry["hero_class"], entry["strategy"]
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"{where}: 'name' must be a non-empty string")
    if hero_class not in HEROES:
        raise InputError(f"{where} ({name}): hero_class {hero_class!r} is not one of {', '.join(HEROES)}")
    check_strategy(strategy, f"{where} ({name}): strategy")
    return OpponentDeck(name, hero_class, strategy, card_ids(entry["cards"], f"{where} ({name})"))


def card_ids(cards, where: str) -> tuple[str, ...]:
    """Card ids from a JSON card list: ids, or objects with an "id" (and maybe a name)."""
    if not isinstance(cards, list) or len(cards) > 10 * DECK_SIZE:
        raise InputError(f"{where}: 'cards' must be a list of card ids")
    ids = []
    for i, card in enumerate(cards):
        card_id = card.get("id") if isinstance(card, dict) else card
        if not isinstance(card_id, str):
            raise InputError(f"{where}: card {i} has no string 'id'")
        ids.append(sys.intern(card_id))  # as the library's keys: a lookup then compares no characters
    return tuple(ids)


def load_deck_file(path: str | Path) -> list[str]:
    """A deck JSON file in the reference format ({"cards": [{"id": ...}, ...]}) or a list."""
    spec = load_json(path, "deck file")
    cards = spec.get("cards") if isinstance(spec, dict) else spec
    return list(card_ids(cards, f"deck file {path}"))


def miracle_rogue() -> list[str]:
    return load_deck_file(DATA / "miracle_rogue.json")


@lru_cache(maxsize=8)
def _library(overrides_key: tuple) -> dict[str, CardDef]:
    overrides = {card_id: dict(stats) for card_id, stats in overrides_key}
    return build_library(load_cards(), overrides)


def card_library(stat_overrides: dict | None = None) -> dict[str, CardDef]:
    """The engine's cards with the optional stat overrides (built once per process)."""
    if not stat_overrides:  # the usual case, once per game: no key to build
        return _library(())
    key = tuple(sorted((k, tuple(sorted(v.items()))) for k, v in stat_overrides.items()))
    return _library(key)


def validate_deck(deck: Sequence[str], stat_overrides: dict | None = None, *,
                  hero_class: str = "ROGUE", label: str = "deck") -> None:
    """Refuse a deck the protocol cannot play, naming the offending card."""
    problem = deck_problem(Counter(deck), stat_overrides, hero_class=hero_class)
    if problem:
        raise DeckError(f"{label}: {problem}")


def deck_problem(copies: Mapping[str, int], stat_overrides: dict | None = None, *,
                 hero_class: str = "ROGUE", deck_size: int = DECK_SIZE) -> str | None:
    """What makes a deck ({card id: copies}) unplayable by the protocol, or None: the one
    statement of the deck rules, which the head node's deck space checks too."""
    library = card_library(stat_overrides)
    for card_id, count in copies.items():
        card = library.get(card_id)
        if card is None or not card.collectible:
            return f"unknown card id {card_id!r}"
        if card.card_class not in (hero_class, "NEUTRAL"):
            return f"{card.name} ({card_id}) is a {card.card_class} card, not playable by {hero_class}"
        limit = copy_limit(card.rarity)
        if count > limit:
            return f"{count} copies of {card.name} ({card_id}); at most {limit}"
        if not card.implemented:
            return f"{card.name} ({card_id}) is not implemented by the built-in engine"
    total = sum(copies.values())
    if total != deck_size:
        return f"a deck must have {deck_size} cards, this one has {total}"
    return None


def play_one_game(deck: Sequence[str], opponent: OpponentDeck, game_seed: int, *,
                  player: str = "beam", strategy: str = "nn", stat_overrides: dict | None = None,
                  beam_depth: int = 13, beam_width: int = 4, hero_class: str = "ROGUE",
                  hide_deck_order: bool = False, recorder=None):
    """One game of the protocol; returns the finished GameState (deck's player is 0) and the
    evaluated player's statistics. `recorder`: told each turn's end (see play_game). The
    opponent plays as the evaluated player does when that is "beam" or "random"; against any
    other player (value_beam, mcts) it keeps the protocol's beam search with its own score."""
    library = card_library(stat_overrides)
    g = new_game(library, [list(deck), list(opponent.cards)], [hero_class, opponent.hero_class],
                 game_seed)
    if player == "random":  # make_player's random players, made directly (once per game)
        players = [RandomPlayer(derive(game_seed, 1)), RandomPlayer(derive(game_seed, 2))]
    else:
        players = [make_player(player, strategy, derive(game_seed, 1), beam_depth, beam_width,
                               hide_deck_order=hide_deck_order),
                   make_player(player if player in PLAYER_KINDS else "beam", opponent.strategy,
                               derive(game_seed, 2), beam_depth, beam_width,
                               hide_deck_order=hide_deck_order)]
    players[0].counters = GameCounters(0)
    play_game(g, players, recorder)
    return g, players[0].counters


def play_games(deck: Sequence[str], game_indices: Sequence[int], seed: int, *,
               player: str = "beam", strategy: str = "nn", opponents=None,
               stat_overrides: dict | None = None, beam_depth: int = 13, beam_width: int = 4,
               hero_class: str = "ROGUE", hide_deck_order: bool = False,
               recorder=None) -> list[GameRecord]:
    """Play the protocol's games with these indices; a try that raises inside the engine is
    recorded with its seed and message, and the game played again with the next seed (at most
    ATTEMPTS tries). `hide_deck_order`:
    both beam players plan without knowing their decks' order (see BeamSearchPlayer).
    `recorder` (default none): logs the states at each turn's end (workers.learning.state_log); it is told
    `start_game(game_index, opponent_index)` before each game."""
    validate_deck(deck, stat_overrides, hero_class=hero_class)
    if player not in PLAYER_KINDS:  # a bad spec or model fails here, not as each game's error
        check_player(player)
    opponents = opponents if opponents is not None else default_opponents()
    deck = [sys.intern(card_id) for card_id in deck]  # as the library's keys (build_library)
    own_cards = frozenset(deck)  # deck_plays' filter, made once
    # Random games make no reference cycles, as a beam player's turn makes none (PausedCollector).
    with PausedCollector(player == "random"):
        records = []
        for g_index in game_indices:
            opponent_index = g_index % len(opponents)
            for attempt in range(ATTEMPTS):
                seed_now = game_seed(seed, g_index, attempt)
                if recorder is not None:
                    recorder.start_game(g_index, opponent_index)
                try:
                    g, counters = play_one_game(deck, opponents[opponent_index], seed_now, player=player,
                                                strategy=strategy, stat_overrides=stat_overrides,
                                                beam_depth=beam_depth, beam_width=beam_width,
                                                hero_class=hero_class, hide_deck_order=hide_deck_order,
                                                recorder=recorder)
                except Exception as exc:  # an engine bug: record it so the try can be replayed
                    where = traceback.extract_tb(exc.__traceback__)[-1]
                    records.append(GameRecord(g_index, opponent_index, seed_now, False, 0, 0, 0, 0, 0, 0,
                                              0, 0, error=f"{type(exc).__name__}: {exc} "
                                                          f"({Path(where.filename).name}:{where.lineno})"))
                    continue
                own, enemy = g.players
                records.append(GameRecord(
                    game_index=g_index, opponent_index=opponent_index, seed=seed_now,
                    won=g.winner == 0, own_health=own.hero.health, enemy_health=enemy.hero.health,
                    turns=own.turns, hand_size_sum=counters.hand_size_sum, minion_damage=counters.minion_damage,
                    cards_drawn=counters.cards_drawn, mana_spent=counters.mana_spent,
                    mana_available=counters.mana_available, hand_size_start_sum=counters.hand_size_start_sum,
                    card_plays=_own_plays(counters.card_plays, own_cards)))
                break
        return records


play_sums = summed(play_games)


def deck_plays(plays: Mapping[str, int], deck: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """The plays of the deck's own cards (the reference's card usage), sorted by card id: cards
    given or generated during the game (The Coin, Bananas, ...) are not the deck's."""
    return _own_plays(plays, frozenset(deck))


def _own_plays(plays: Mapping[str, int], own: frozenset) -> tuple[tuple[str, int], ...]:
    return tuple(sorted([(card, n) for card, n in plays.items() if card in own]))


@lru_cache(maxsize=1)
def _default_opponents() -> tuple[OpponentDeck, ...]:
    return tuple(load_opponents())


def default_opponents() -> list[OpponentDeck]:
    return list(_default_opponents())


def deck_stats(deck: Sequence[str], stat_overrides: dict | None = None) -> dict[str, float]:
    library = card_library(stat_overrides)
    return deck_statistics([library[c].cost for c in deck], [library[c].type for c in deck])


def evaluate_deck(deck: Sequence[str], opponents=None, games: int = 200, seed: int = 0, *,
                  player: str = "beam", strategy: str = "nn", stat_overrides: dict | None = None,
                  beam_depth: int = 13, beam_width: int = 4,
                  hide_deck_order: bool = False, recorder=None) -> EvaluationResult:
    """The protocol's evaluation of one deck: objective, measures, ancillaries, breakdown.
    `recorder`: logs the states at each turn's end (see play_games)."""
    opponents = opponents if opponents is not None else default_opponents()
    records = play_games(deck, range(games), seed, player=player, strategy=strategy,
                         opponents=opponents, stat_overrides=stat_overrides,
                         beam_depth=beam_depth, beam_width=beam_width,
                         hide_deck_order=hide_deck_order, recorder=recorder)
    return summarize(records, deck_stats(deck, stat_overrides), [o.name for o in opponents])


def warm_up(stat_overrides: dict | None = None) -> None:
    """Load everything a worker needs (card data, library, opponents, scores) once."""
    card_library(stat_overrides)
    default_opponents()
    cached_score("nn")
