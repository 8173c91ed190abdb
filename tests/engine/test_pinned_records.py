"""Pinned game records: the same seeds must give the same games after any change that claims
to be an optimisation. The file holds the full records of a few seeded games per opponent
(beam and random players, the paper's deck with the stat overrides and a random pool deck
without), written by the engine before the speed work of issue 19. A change that alters play
fails here; a change meant to alter play rewrites the file (`python -m tests.engine.test_pinned_records`)
and says why in its commit.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

PINNED = Path(__file__).with_name("data") / "pinned_records.json"
GAMES = range(12)  # two per opponent


def play_pinned() -> dict[str, list[dict]]:
    from pipeline.deck_space import DeckSpace
    from workers.protocol.evaluate import miracle_rogue, play_games
    random_deck = json.loads((Path(__file__).resolve().parents[2] / "workers" / "data" / "sabberstone"
                              / "decks" / "random_0.json").read_text())
    random_deck = random_deck["deck"] if isinstance(random_deck, dict) else random_deck
    overrides = DeckSpace.from_pool_file(use_stat_overrides=True).stat_overrides
    runs = {
        "beam_miracle_rogue_overrides": play_games(miracle_rogue(), GAMES, 41, stat_overrides=overrides),
        "beam_random_0": play_games(random_deck, GAMES, 42),
        "beam_hidden_deck_order": play_games(miracle_rogue(), range(6), 43, hide_deck_order=True),
        "random_miracle_rogue": play_games(miracle_rogue(), range(60), 44, player="random"),
    }
    return {name: [json.loads(json.dumps(r.to_dict())) for r in records] for name, records in runs.items()}


def test_seeded_games_are_the_pinned_ones():
    pinned = json.loads(PINNED.read_text())
    played = play_pinned()
    for name, records in pinned.items():
        for expected, got in zip(records, played[name]):
            assert got == expected, f"{name}, game {expected['game_index']}: play changed"
        assert len(played[name]) == len(records)


if __name__ == "__main__":
    PINNED.parent.mkdir(exist_ok=True)
    PINNED.write_text(json.dumps(play_pinned(), indent=0) + "\n")
    print(f"wrote {PINNED}", file=sys.stderr)
