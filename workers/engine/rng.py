"""A tiny counter-based PRNG (SplitMix64) whose whole state is one int.

The game state carries its randomness as a plain int, so copying a state copies its random
stream for free, and a planner can swap in a different stream by setting one attribute.

The arithmetic works on the 64-bit value as two 32-bit halves held in native 64-bit integers
(i64 when compiled), each product split so that no intermediate reaches 2**63: compiled, a draw
is a few machine instructions where 64-bit Python ints would allocate an object per operation;
in plain Python the same arithmetic gives the same values. A loop that draws many numbers keeps
its stream as halves (`split`, then `advance` and `below_halves` per draw, `join` at the end).
"""
from __future__ import annotations

from typing import Final

from mypy_extensions import i64

MASK64: Final = (1 << 64) - 1
GOLDEN: Final = 0x9E3779B97F4A7C15  # the stream's increment
MIX_1: Final = 0xBF58476D1CE4E5B9  # the output function's two multipliers
MIX_2: Final = 0x94D049BB133111EB
_LOW32: Final = 0xFFFFFFFF
_LOW16: Final = 0xFFFF
_GOLDEN_HIGH: Final = GOLDEN >> 32
_GOLDEN_LOW: Final = GOLDEN & _LOW32
_MIX_1_HIGH: Final = MIX_1 >> 32
_MIX_1_LOW: Final = MIX_1 & _LOW32
_MIX_2_HIGH: Final = MIX_2 >> 32
_MIX_2_LOW: Final = MIX_2 & _LOW32


def _mul_halves(h: i64, l: i64, c_hi: i64, c_lo: i64) -> tuple[i64, i64]:
    """(high, low) 32-bit halves of (h * 2**32 + l) * (c_hi * 2**32 + c_lo) mod 2**64."""
    a, b = c_lo >> 16, c_lo & _LOW16  # c_lo = a * 2**16 + b: every product below is < 2**48
    la = l * a
    low = l * b + ((la & _LOW16) << 16)
    carry = (low >> 32) + (la >> 16)  # the high half of l * c_lo
    ha = h * a
    h_c_lo = h * b + ((ha & _LOW16) << 16)  # (h * c_lo) mod 2**32, before the mask
    a, b = c_hi >> 16, c_hi & _LOW16
    la = l * a
    l_c_hi = l * b + ((la & _LOW16) << 16)  # (l * c_hi) mod 2**32, before the mask
    return (carry + h_c_lo + l_c_hi) & _LOW32, low & _LOW32


def _xor_shift(h: i64, l: i64, n: i64) -> tuple[i64, i64]:
    """(high, low) of z ^ (z >> n) for 0 < n < 32."""
    return h ^ (h >> n), l ^ (((h << (32 - n)) | (l >> n)) & _LOW32)


def split(z: int) -> tuple[i64, i64]:
    """The (high, low) 32-bit halves of a 64-bit stream value."""
    h: i64 = z >> 32
    l: i64 = z & _LOW32
    return h, l


def join(h: i64, l: i64) -> int:
    return (int(h) << 32) | int(l)


def advance(h: i64, l: i64) -> tuple[i64, i64]:
    """The halves of (z + GOLDEN) mod 2**64: one step of the stream, on the halves."""
    l += _GOLDEN_LOW
    h = (h + _GOLDEN_HIGH + (l >> 32)) & _LOW32
    return h, l & _LOW32


def below_halves(h: i64, l: i64, n: int) -> int:
    """mix(join(h, l)) % n for 0 < n < 2**31, without building a 64-bit int."""
    h, l = _mix_of(h, l)
    m: i64 = n
    return int(((h % m) * ((1 << 32) % m) + l) % m)


def _mix_of(h: i64, l: i64) -> tuple[i64, i64]:
    h, l = _xor_shift(h, l, 30)
    h, l = _mul_halves(h, l, _MIX_1_HIGH, _MIX_1_LOW)
    h, l = _xor_shift(h, l, 27)
    h, l = _mul_halves(h, l, _MIX_2_HIGH, _MIX_2_LOW)
    return _xor_shift(h, l, 31)


def mix(z: int) -> int:
    h, l = split(z)
    h, l = _mix_of(h, l)
    return join(h, l)


def mix_below(z: int, n: int) -> int:
    """mix(z) % n for 0 < n < 2**31, from the halves: no 64-bit int is built."""
    h, l = split(z)
    return below_halves(h, l, n)


def derive(*parts: int) -> int:
    """A 64-bit seed derived from integers (run seed, evaluation id, game index, ...):
    state = mix((state + GOLDEN + (part mod 2**64)) mod 2**64) per part, from 0x243F6A8885A308D3,
    worked on the state's halves (one 64-bit int built at the end, not several per part)."""
    h: i64 = 0x243F6A88
    l: i64 = 0x85A308D3
    for part in parts:
        part_h, part_l = split(int(part) & MASK64)
        l += _GOLDEN_LOW + part_l  # below 3 * 2**32: the carry is l >> 32
        h = (h + _GOLDEN_HIGH + part_h + (l >> 32)) & _LOW32
        h, l = _mix_of(h, l & _LOW32)
    return join(h, l)
