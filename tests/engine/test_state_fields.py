"""GameState's fields are declared once (workers/engine/zones.py: STATE_FIELDS, the slots, with
their types beside them); `copy` and `fresh` must take every one of them, or a copy or a new
game would lack a field (an AttributeError at best, a stale value shared between copies at worst)."""
import ast
from pathlib import Path

from workers.engine.game import new_game
from workers.engine.state import STATE_FIELDS, GameState
from workers.players.play import RandomPlayer
from workers.protocol.evaluate import card_library, default_opponents, miracle_rogue

ROOT = Path(__file__).resolve().parents[2]
NOT_COPIED = ("proposed_defender",)  # set during an attack only


def test_the_types_are_declared_for_exactly_the_slots():
    tree = ast.parse((ROOT / "workers/engine/zones.py").read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Zones")
    annotated = tuple(n.target.id for n in cls.body if isinstance(n, ast.AnnAssign))
    assert annotated == STATE_FIELDS


def test_fresh_and_copy_take_every_field():
    for field in STATE_FIELDS:
        if field not in NOT_COPIED:
            assert hasattr(GameState.fresh({}, 1), field), f"GameState.fresh leaves {field} unset"
    opponent = default_opponents()[0]
    g = new_game(card_library(), [miracle_rogue(), list(opponent.cards)], ["ROGUE", opponent.hero_class], 3)
    players = [RandomPlayer(1), RandomPlayer(2)]
    for _ in range(30):
        if g.done:
            break
        g.apply(players[g.current].choose(g), False)
    copied = g.copy()
    for field in STATE_FIELDS:
        if field not in NOT_COPIED:
            assert hasattr(copied, field), f"GameState.copy leaves {field} unset"
            assert getattr(copied, field) == getattr(g, field) or field == "players", field
