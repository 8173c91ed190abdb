"""The stream arithmetic on 32-bit halves (workers/engine/rng.py) gives exactly SplitMix64's
64-bit numbers: mix, mix % n, and a step of the stream, on edge values and random ones."""
import random

from workers.engine.rng import GOLDEN, MASK64, advance, below_halves, join, mix, mix_below, split


def splitmix64_mix(z: int) -> int:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & MASK64
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & MASK64
    return z ^ (z >> 31)


def test_the_halves_give_splitmix64s_numbers():
    draw = random.Random(20261126)
    values = [0, 1, 2**31, 2**32 - 1, 2**32, 2**63 - 1, 2**63, MASK64 - GOLDEN, MASK64]
    values += [draw.getrandbits(64) for _ in range(20000)]
    for z in values:
        n = draw.choice((1, 2, 7, 60, 2**31 - 1, draw.randint(1, 2**31 - 1)))
        h, l = split(z)
        assert join(h, l) == z
        assert mix(z) == splitmix64_mix(z)
        assert mix_below(z, n) == below_halves(h, l, n) == splitmix64_mix(z) % n
        assert join(*advance(h, l)) == (z + GOLDEN) & MASK64


def test_derive_on_halves_gives_the_64_bit_formulas_seeds():
    """derive works on the state's halves; its seeds are the 64-bit formula's, negative and
    over-wide parts included (each part is taken mod 2**64)."""
    from workers.engine.rng import derive

    def derive_64(*parts: int) -> int:
        state = 0x243F6A8885A308D3
        for part in parts:
            state = splitmix64_mix((state + GOLDEN + (part & MASK64)) & MASK64)
        return state

    draw = random.Random(48)
    edges = [0, 1, -1, 2**63, MASK64, 2**64, -2**70, 2**80 + 5, 0x6A4E, 0x52414E44]
    for _ in range(5000):
        parts = [draw.choice((draw.choice(edges), draw.getrandbits(64), draw.randint(-10**6, 10**6),
                              draw.getrandbits(100) - 2**99)) for _ in range(draw.randint(0, 4))]
        assert derive(*parts) == derive_64(*parts), parts
