"""The text the bridge exchanges with Python: one request and one summary per batch."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

from ..results import GameRecord

HEADER = "dsame-bridge 1"
NN_WEIGHTS = Path(__file__).resolve().parent.parent / "data" / "player_strategy_nn.json"


def _clean(text: str) -> str:
    return str(text).replace("\t", " ").replace("\n", " ")


def build_request(deck: Sequence[str], games: Sequence[tuple[int, int, int]], opponents, *,
                  player: str = "beam", strategy: str = "nn", beam_depth: int = 13,
                  beam_width: int = 4, stat_overrides: dict | None = None,
                  hero_class: str = "ROGUE", max_turns: int = 100) -> str:
    """`games`: (game index, opponent index, game seed) triples. `strategy`: the evaluated
    player's score (aggro, control, nn or a neural-net weights .json file)."""
    evaluated = strategy if strategy in ("aggro", "control") else "nn"
    lines = [f"player\t{player}", f"evaluated\t{evaluated}", f"depth\t{int(beam_depth)}", f"width\t{int(beam_width)}",
             f"maxturns\t{int(max_turns)}", f"hero\t{hero_class}", f"deck\t{','.join(deck)}"]
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
    for index, opponent, seed in games:
        lines.append(f"game\t{int(index)}\t{int(opponent)}\t{int(seed)}")
    return "\n".join(lines) + "\n"


def parse_summary(text: str) -> tuple[dict, list[GameRecord]]:
    """The bridge's summary: (header fields, one GameRecord per game, in the order played)."""
    lines = [ln for ln in str(text).splitlines() if ln.strip()]
    if not lines or not lines[0].startswith(HEADER):
        raise ValueError(f"not a bridge summary (expected {HEADER!r} first): {lines[:1]}")
    header = dict(item.split("=", 1) for item in lines[0][len(HEADER):].split() if "=" in item)
    records = []
    for line in lines[1:]:
        fields = line.split("\t")
        if fields[0] == "G" and len(fields) == 13:
            index, opponent, seed, won, *rest = fields[1:]
            records.append(GameRecord(int(index), int(opponent), int(seed), won == "1", *map(int, rest)))
        elif fields[0] == "E" and len(fields) >= 5:
            records.append(GameRecord(int(fields[1]), int(fields[2]), int(fields[3]), False,
                                      0, 0, 0, 0, 0, 0, 0, 0,
                                      error=f"SabberStone: {' '.join(fields[4:])}"))
        else:
            raise ValueError(f"malformed bridge summary line: {line[:120]!r}")
    return header, records
