"""The actions a player can take. Targets and attackers are named by entity uid, which copies of
a state keep, so a line planned on a copy can be played on the real game."""
from __future__ import annotations

from typing import Final, NamedTuple

# Final: the compiled engine inlines them instead of looking each use up by name.
END_TURN: Final = 0
PLAY: Final = 1
ATTACK: Final = 2
HERO_POWER: Final = 3
# A Choose One card is played with one of its two options (SabberStone's PlayCardTask with
# ChooseOne 1 or 2): its own kind per option, so every other move keeps its plain PLAY tuple.
PLAY_OPTION_1: Final = 4
PLAY_OPTION_2: Final = 5
OPTION_OF_KIND = {PLAY_OPTION_1: 1, PLAY_OPTION_2: 2}
KIND_NAMES = {END_TURN: "end_turn", PLAY: "play", ATTACK: "attack", HERO_POWER: "hero_power",
              PLAY_OPTION_1: "play_option_1", PLAY_OPTION_2: "play_option_2"}


class Action(NamedTuple):
    kind: int
    index: int = -1  # PLAY (and PLAY_OPTION_n): hand index; ATTACK: attacker uid
    target: int = -1  # uid of the target / defender, -1 for none
    position: int = -1  # PLAY of a minion: board position

    def __repr__(self) -> str:
        return f"{KIND_NAMES[self.kind]}({self.index}, {self.target}, {self.position})"


END = Action(END_TURN)
