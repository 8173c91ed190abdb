"""The scores' board sums write a minion's Attack and Health out (workers/players/scores.py,
_board_sums: compiled, each property was a call); they must stay what Minion.atk and
Minion.health say, debuffs below zero Attack and damage included."""
from __future__ import annotations

import random

from workers.engine.entities import Minion
from workers.players.scores import _board_sums
from workers.protocol.evaluate import card_library


def test_board_sums_follow_the_minions_attack_and_health():
    rng = random.Random(3)
    cards = [c for c in card_library().values() if c.type == "MINION"]
    assert len(cards) > 100
    for _ in range(300):
        board = []
        for uid in range(rng.randint(0, 7)):
            m = Minion.new(uid, rng.choice(cards), 0, uid)
            m.atk_bonus, m.turn_atk, m.aura_atk = rng.randint(-6, 3), rng.randint(0, 4), rng.randint(-1, 2)
            m.health_bonus, m.aura_health, m.damage = rng.randint(0, 3), rng.randint(0, 2), rng.randint(0, 5)
            m.taunt = rng.random() < 0.4
            board.append(m)
        expected = (sum(m.atk for m in board), sum(m.health for m in board),
                    sum(m.health for m in board if m.taunt))
        assert _board_sums(board) == expected
