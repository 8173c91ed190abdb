"""A tiny counter-based PRNG (SplitMix64) whose whole state is one int.

The game state carries its randomness as a plain int, so copying a state copies its random
stream for free, and a planner can swap in a different stream by setting one attribute.
"""
from __future__ import annotations

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix(z: int) -> int:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & MASK64
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & MASK64
    return z ^ (z >> 31)


def derive(*parts: int) -> int:
    """A 64-bit seed derived from integers (run seed, evaluation id, game index, ...)."""
    state = 0x243F6A8885A308D3
    for part in parts:
        state = mix((state + GOLDEN + (int(part) & MASK64)) & MASK64)
    return state
