"""The text the bridge exchanges with Python: one request and one summary per batch, and the
seeds of a game. SabberStone takes two: `game_seed` is GameConfig.RandomSeed (the real game's
shuffle, mulligan draws and random effects); `search_seed` seeds Util.ThreadLocalRandom, from
which every Game.Clone() of the planner takes its randomness, the way SabberStone seeds it
itself: its shared generator becomes `new Random(search_seed)` and the playing thread's generator
is created from it on first use, so it is `new Random(new Random(search_seed).Next())`, not
`new Random(search_seed)` (the reference records mean this; Bridge.SeedPlanner does it)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Sequence

from .. import DATA
from ..engine.rng import derive
from ..protocol.results import GameRecord

HEADER = "dsame-bridge 3"
NN_WEIGHTS = DATA / "player_strategy_nn.json"
SEARCH_STREAM = 0x5EA4C4  # the planner's seed is derived from the game's on its own stream


def search_seed(game_seed: int) -> int:
    """A game's `search_seed` (an int, as System.Random's seed; see the module's docstring)."""
    return derive(game_seed, SEARCH_STREAM) & 0x7FFFFFFF


@dataclass(frozen=True)
class BridgeGame:
    """One game as the bridge reports it: the reference evaluator's statistics under the names of
    the reference records (shared/reference/sabberstone/runs/*.json), or the error it raised (or
    why the bridge's guard stopped it). `card_plays`: player 1's plays of its deck's own cards
    (the records' card_usage); `other_plays`: of cards it was given or generated in the game."""

    game: int
    opponent: int
    game_seed: int
    search_seed: int
    won: int = 0
    tied: int = 0
    p1_hp: int = 0
    p2_hp: int = 0
    num_turns: int = 0
    game_turn: int = 0
    hand_size: int = 0
    hand_size_start: int = 0
    cards_drawn: int = 0
    damage_done: int = 0
    mana_spent: int = 0
    mana_wasted: int = 0
    option_score: int = 0
    p1_turns_counted: int = 0
    searches_p1: int = 0
    searches_p2: int = 0
    card_plays: tuple[tuple[str, int], ...] = field(default=())
    other_plays: tuple[tuple[str, int], ...] = field(default=())
    error: str | None = None

    @property
    def health_diff(self) -> int:
        return self.p1_hp - self.p2_hp

    def record(self) -> GameRecord:
        """The engine-independent GameRecord (seed: the game's seed)."""
        return GameRecord(self.game, self.opponent, self.game_seed, self.won == 1, self.p1_hp, self.p2_hp,
                          self.num_turns, self.hand_size, self.damage_done, self.cards_drawn, self.mana_spent,
                          self.mana_spent + self.mana_wasted, self.error, self.hand_size_start, self.card_plays)


COUNTS = tuple(f.name for f in fields(BridgeGame))[4:-3]  # the integer statistics, in line order
FAILURES = {"E": "SabberStone: ", "S": "stopped by the bridge's guard (no such limit in the reference): "}


def _clean(text: str) -> str:
    return str(text).replace("\t", " ").replace("\n", " ")


def build_request(deck: Sequence[str], games: Sequence[tuple[int, int, int, int]], opponents, *,
                  player: str = "beam", strategy: str = "nn", beam_depth: int = 13,
                  beam_width: int = 4, stat_overrides: dict | None = None,
                  hero_class: str = "ROGUE", history: bool = True, max_turns: int = 200) -> str:
    """`games`: (game index, opponent index, game seed, search seed). `strategy`: the evaluated
    player's score (aggro, control, nn or a neural-net weights .json file). `history`: SabberStone's
    game history (the reference code's default is on; it shows in the states the planner hashes)."""
    evaluated = strategy if strategy in ("aggro", "control") else "nn"
    lines = [f"player\t{player}", f"evaluated\t{evaluated}", f"depth\t{int(beam_depth)}", f"width\t{int(beam_width)}",
             f"maxturns\t{int(max_turns)}", f"history\t{int(bool(history))}", f"hero\t{hero_class}",
             f"deck\t{','.join(deck)}"]
    weights_path = NN_WEIGHTS if strategy == "nn" else Path(strategy)
    if player == "beam" and strategy not in ("aggro", "control"):
        if not weights_path.is_file():
            raise ValueError(f"unknown strategy {strategy!r}: expected aggro, control, nn or a weights .json file")
        weights = json.loads(weights_path.read_text())["weights"]
        lines.append("nn\t" + ",".join(repr(float(w)) for w in weights))
    for o in opponents:
        lines.append(f"opponent\t{_clean(o.name)}\t{o.hero_class}\t{o.strategy}\t{','.join(o.cards)}")
    for card_id, stats in sorted((stat_overrides or {}).items()):
        lines.append(f"override\t{card_id}\t{stats.get('cost', -1)}\t{stats.get('atk', -1)}\t{stats.get('health', -1)}")
    for index, opponent, game_seed, planner_seed in games:
        lines.append(f"game\t{int(index)}\t{int(opponent)}\t{int(game_seed)}\t{int(planner_seed)}")
    return "\n".join(lines) + "\n"


def _card_plays(text: str) -> tuple[tuple[str, int], ...]:
    if text == "-":
        return ()
    return tuple((card, int(n)) for card, _, n in (item.rpartition(":") for item in text.split(",")))


def _unsigned(text: str) -> int:
    return int(text) % (1 << 64)  # the bridge prints RandomSeed as the signed long it became


def parse_summary(text: str) -> tuple[dict, list[BridgeGame]]:
    """The bridge's summary: (header fields, one BridgeGame per game, in the order played)."""
    lines = [ln for ln in str(text).splitlines() if ln.strip()]
    if not lines or not lines[0].startswith(HEADER):
        raise ValueError(f"not a bridge summary (expected {HEADER!r} first): {lines[:1]}")
    header = dict(item.split("=", 1) for item in lines[0][len(HEADER):].split() if "=" in item)
    games = []
    for line in lines[1:]:
        f = line.split("\t")
        try:
            if f[0] == "G" and len(f) == 7 + len(COUNTS):
                games.append(BridgeGame(int(f[1]), int(f[2]), _unsigned(f[3]), int(f[4]),
                                        *map(int, f[5:-2]), card_plays=_card_plays(f[-2]),
                                        other_plays=_card_plays(f[-1])))
                continue
            if f[0] in FAILURES and len(f) >= 6:
                games.append(BridgeGame(int(f[1]), int(f[2]), _unsigned(f[3]), int(f[4]),
                                        error=FAILURES[f[0]] + " ".join(f[5:])))
                continue
        except ValueError:
            pass
        raise ValueError(f"malformed bridge summary line: {line[:120]!r}")
    return header, games
