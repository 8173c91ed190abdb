"""The actions a player can take. Targets and attackers are named by entity uid, which copies of
a state keep, so a line planned on a copy can be played on the real game."""
from __future__ import annotations

from typing import NamedTuple

END_TURN, PLAY, ATTACK, HERO_POWER = 0, 1, 2, 3
KIND_NAMES = {END_TURN: "end_turn", PLAY: "play", ATTACK: "attack", HERO_POWER: "hero_power"}


class Action(NamedTuple):
    kind: int
    index: int = -1  # PLAY: hand index; ATTACK: attacker uid
    target: int = -1  # uid of the target / defender, -1 for none
    position: int = -1  # PLAY of a minion: board position

    def __repr__(self) -> str:
        return f"{KIND_NAMES[self.kind]}({self.index}, {self.target}, {self.position})"


END = Action(END_TURN)
