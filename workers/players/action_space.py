"""The agent's action space over the engine's legal moves: one index per legal move of the player
to act, relative to that player, so that a policy (workers.learning.gym_env,
workers.players.ppo_player) reads the same indices whoever it plays. Slots: target 0 none, 1 own hero, 2 enemy hero, 3-9
own minions (board order), 10-16 enemy minions; attacker 0 own hero, 1-7 own minions; defender
0 enemy hero, 1-7 enemy minions.

    0                          END_TURN
    1 + (hand*17 + target)*8 + position    PLAY hand slot (0-9) at target, board position
                                           (0-7; spells and weapons use 0)
    1361 + attacker*8 + defender           ATTACK
    1425 + target                          HERO_POWER
    1442 + option*1360 + (hand*17 + target)*8 + position
                                           PLAY of a Choose One card with option 0 or 1
"""
from __future__ import annotations

from typing import Final

import numpy as np

from ..engine.actions import ATTACK, END_TURN, HERO_POWER, PLAY, PLAY_OPTION_1, PLAY_OPTION_2
from ..engine.state import GameState

# Final: compiled with the engine (workers/engine/native.py), the map inlines them.
N_HAND: Final = 10
N_TARGET_SLOTS: Final = 17  # a move's target slots (none, 2 heroes, 14 minions), not a surrogate's targets
N_POSITIONS: Final = 8
N_CHARS: Final = 8
PLAY_BASE: Final = 1
ATTACK_BASE: Final = PLAY_BASE + N_HAND * N_TARGET_SLOTS * N_POSITIONS  # 1361
POWER_BASE: Final = ATTACK_BASE + N_CHARS * N_CHARS  # 1425
OPTION_BASE: Final = POWER_BASE + N_TARGET_SLOTS  # 1442
N_PLAYS: Final = N_HAND * N_TARGET_SLOTS * N_POSITIONS  # 1360
ACTION_SIZE: Final = OPTION_BASE + 2 * N_PLAYS  # 4162


def _slot(g: GameState, me: int, uid: int) -> int:
    """The target slot of the character `uid`, relative to `me` (a scan of at most 16
    characters: cheaper than building a uid -> slot table for every state)."""
    own, enemy = g.players[me], g.players[1 - me]
    if uid == own.hero.uid:
        return 1
    if uid == enemy.hero.uid:
        return 2
    for k, m in enumerate(own.board):
        if m.uid == uid:
            return 3 + k
    for k, m in enumerate(enemy.board):
        if m.uid == uid:
            return 10 + k
    raise KeyError(f"no character {uid} in play")


def action_index(g: GameState, move: tuple) -> int:
    """The index of one legal move (kind, index, target, position) of the player to act."""
    kind: int = move[0]
    if kind == END_TURN:
        return 0
    index: int = move[1]
    target: int = move[2]
    me = g.current
    if kind == PLAY or kind == PLAY_OPTION_1 or kind == PLAY_OPTION_2:
        position: int = move[3]
        t = _slot(g, me, target) if target >= 0 else 0
        base = PLAY_BASE if kind == PLAY else OPTION_BASE + (kind - PLAY_OPTION_1) * N_PLAYS
        return base + (index * N_TARGET_SLOTS + t) * N_POSITIONS + (position if position >= 0 else 0)
    if kind == ATTACK:
        attacker, defender = _slot(g, me, index), _slot(g, me, target)
        return ATTACK_BASE + (attacker - 2 if attacker > 1 else 0) * N_CHARS + (
            defender - 9 if defender > 2 else 0)
    if kind == HERO_POWER:
        return POWER_BASE + (_slot(g, me, target) if target >= 0 else 0)
    raise ValueError(f"unknown action kind {kind}")


def legal_action_map(g: GameState) -> dict[int, tuple]:
    """index -> move for every legal move of the player to act (one index per move)."""
    out: dict[int, tuple] = {}
    moves = g.legal_moves()
    for move in moves:
        out[action_index(g, move)] = move
    if len(out) != len(moves):  # the map would not be one-to-one: a bug of this module
        raise AssertionError(f"{len(moves)} legal moves share {len(out)} action indices: {moves}")
    return out


def action_mask(g: GameState) -> np.ndarray:
    return mask_of(legal_action_map(g))


def mask_of(indices) -> np.ndarray:
    """The int8 mask of ACTION_SIZE with ones at `indices` (set in a bytearray: several times
    cheaper than numpy's fancy indexing for the dozen moves of a state)."""
    buf = bytearray(ACTION_SIZE)
    for i in indices:
        buf[i] = 1
    return np.frombuffer(buf, dtype=np.int8)


def _play_slots(offset: int) -> tuple[int, int, int]:
    """(hand, target, position) of a PLAY index's offset within its block of N_PLAYS."""
    hand, rest = divmod(offset, N_TARGET_SLOTS * N_POSITIONS)
    return (hand, *divmod(rest, N_POSITIONS))


def describe_action(i: int) -> str:
    if i == 0:
        return "END_TURN"
    if i < ATTACK_BASE:
        hand, target, position = _play_slots(i - PLAY_BASE)
        return f"PLAY hand {hand} target {target} position {position}"
    if i < POWER_BASE:
        attacker, defender = divmod(i - ATTACK_BASE, N_CHARS)
        return f"ATTACK attacker {attacker} defender {defender}"
    if i < OPTION_BASE:
        return f"HERO_POWER target {i - POWER_BASE}"
    if i < ACTION_SIZE:
        option, offset = divmod(i - OPTION_BASE, N_PLAYS)
        hand, target, position = _play_slots(offset)
        return f"PLAY hand {hand} option {option + 1} target {target} position {position}"
    raise ValueError(f"action {i} is outside [0, {ACTION_SIZE})")
