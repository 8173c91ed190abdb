"""The worker-side `sabberstone` engine: the same functions and result type as the built-in
engine's `workers.protocol.evaluate`, with the games played inside .NET by the bridge, one batch per call,
as the paper's reference evaluator plays them (SabberStone's planner and scores, its statistics).

Decks, opponents and card statistics are data (the same December-2019 card set SabberStone
uses), so they come from the built-in engine's loaders; only the games differ.

Each game has SabberStone's two seeds: `game_seed` is GameConfig.RandomSeed; `search_seed` seeds
Util.ThreadLocalRandom, from which every Game.Clone() of the planner takes its randomness, the
way SabberStone seeds it itself: its shared generator becomes `new Random(search_seed)` and the
thread's generator is created from it on first use, `new Random(new Random(search_seed).Next())`.
"""
from __future__ import annotations

from typing import Sequence

from ..protocol import evaluate as builtin
from ..protocol.chunk_sums import summed
from ..protocol.results import EvaluationResult, GameRecord, summarize
from .protocol import BridgeGame, build_request, parse_summary, search_seed
from .runtime import load_bridge

default_opponents = builtin.default_opponents  # the engines share the decks and their statistics
deck_stats = builtin.deck_stats


def play_games(deck: Sequence[str], game_indices: Sequence[int], seed: int, *,
               player: str = "beam", strategy: str = "nn", opponents=None,
               stat_overrides: dict | None = None, beam_depth: int = 13, beam_width: int = 4,
               hero_class: str = "ROGUE", path: str | None = None,
               hide_deck_order: bool = False) -> list[GameRecord]:
    """The protocol's games with these indices, played in one bridge call. Game g: opponent
    g mod 6, game seed as in the built-in engine (`builtin.game_seed`: SabberStone's
    GameConfig.RandomSeed), and search_seed(game seed), which seeds the planner's
    Util.ThreadLocalRandom as the reference records do (see `protocol`). A game that throws inside
    SabberStone, or that the bridge's guard stops, comes back as a record with its seed and
    message, and is played again with its next seeds, as on the built-in engine (at most
    builtin.ATTEMPTS tries, each in one more bridge call).
    `hide_deck_order` is accepted for the built-in engine's interface; True is refused
    (ValueError) before anything is played, as SabberStone's planner cannot hide the order."""
    if hide_deck_order:
        raise ValueError("hide_deck_order=True is not supported by the sabberstone engine: "
                         "SabberStone's planner plans on clones that copy the deck order, so it "
                         "always knows the next card drawn; use the builtin engine to hide it")
    builtin.validate_deck(deck, stat_overrides, hero_class=hero_class)
    opponents = opponents if opponents is not None else default_opponents()
    records, pending = [], list(game_indices)
    for attempt in range(builtin.ATTEMPTS):
        games = []
        for g in pending:
            game_seed = builtin.game_seed(seed, g, attempt)
            games.append((g, g % len(opponents), game_seed, search_seed(game_seed)))
        played = play_seeded(deck, games, opponents, player=player, strategy=strategy,
                             stat_overrides=stat_overrides, beam_depth=beam_depth, beam_width=beam_width,
                             hero_class=hero_class, path=path)
        records += [game.record() for game in played]
        pending = [game.game for game in played if game.error]
        if not pending:
            break
    return sorted(records, key=lambda r: r.game_index)  # stable: a game's failed tries come first


play_sums = summed(play_games)


def play_seeded(deck: Sequence[str], games: Sequence[tuple[int, int, int, int]], opponents, *,
                player: str = "beam", strategy: str = "nn", stat_overrides: dict | None = None,
                beam_depth: int = 13, beam_width: int = 4, hero_class: str = "ROGUE",
                history: bool = True, path: str | None = None) -> list[BridgeGame]:
    """Games given as (index, opponent index, game seed, search seed), in one bridge call, with
    everything the bridge reports of them (the replay of reference records needs all of it)."""
    request = build_request(deck, games, opponents, player=player, strategy=strategy,
                            beam_depth=beam_depth, beam_width=beam_width, stat_overrides=stat_overrides,
                            hero_class=hero_class, history=history)
    return parse_summary(str(load_bridge(path).PlayBatch(request)))[1]


def evaluate_deck(deck: Sequence[str], opponents=None, games: int = 200, seed: int = 0, *,
                  player: str = "beam", strategy: str = "nn", stat_overrides: dict | None = None,
                  beam_depth: int = 13, beam_width: int = 4, path: str | None = None,
                  hide_deck_order: bool = False) -> EvaluationResult:
    opponents = opponents if opponents is not None else default_opponents()
    records = play_games(deck, range(games), seed, player=player, strategy=strategy,
                         opponents=opponents, stat_overrides=stat_overrides,
                         beam_depth=beam_depth, beam_width=beam_width, path=path,
                         hide_deck_order=hide_deck_order)
    return summarize(records, deck_stats(deck, stat_overrides), [o.name for o in opponents])


def warm_up(stat_overrides: dict | None = None, path: str | None = None) -> None:
    """Start .NET and load SabberStone and the bridge once per worker process."""
    builtin.warm_up(stat_overrides)
    load_bridge(path)
