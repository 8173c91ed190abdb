"""The score network's forward pass in C (workers/players/mlp_forward.c, built with the compiled
engine) gives the same bits as the Python one it replaces, so the same scores and games."""
from __future__ import annotations

import random

import pytest

from workers.players import scores
from workers.players.scores import NeuralNetScore

pytestmark = pytest.mark.skipif(scores.c_forward is None, reason="no compiled engine here (make native)")


def _features(rng: random.Random) -> tuple[int, ...]:
    return tuple(rng.randint(-3, 40) for _ in range(15))


def test_the_c_forward_pass_gives_python_s_bits():
    rng = random.Random(5)
    nets = [NeuralNetScore.from_file()] + [
        NeuralNetScore([rng.uniform(-4, 4) for _ in range(109)]) for _ in range(20)]
    for net in nets:
        assert net.in_c
        for _ in range(2000):
            x = _features(rng)
            assert net.forward(x).hex() == net.forward_in_python(x).hex()


def test_other_layer_sizes_and_bad_arguments():
    rng = random.Random(6)
    sizes = (15, 8, 3, 1)
    net = NeuralNetScore([rng.uniform(-2, 2) for _ in range(15 * 8 + 8 * 3 + 3 + 8 + 3 + 1)], sizes)
    for _ in range(500):
        x = _features(rng)
        assert net.forward(x).hex() == net.forward_in_python(x).hex()
    wide = NeuralNetScore([0.01] * (15 * 65 + 65 + 65 + 1), (15, 65, 1))
    x = _features(rng)
    assert not wide.in_c and wide.forward(x) == wide.forward_in_python(x)  # too wide for C: Python
    with pytest.raises(ValueError):
        scores.c_forward(net.sizes, net.params, (1, 2, 3))
    with pytest.raises(ValueError):
        scores.c_forward(net.sizes, net.params[:-8], _features(rng))
    with pytest.raises(TypeError):
        scores.c_forward(net.sizes, list(net.params), _features(rng))


def test_the_memoized_c_score_is_the_python_score():
    """scores.c_score (NeuralNetScore's memoized score in C) gives float(int(forward * 1e6)),
    the Python path's value, bit for bit: found in the memo or not, with the memo grown and
    emptied, and for features beyond 64 bits (scored without the memo)."""
    rng = random.Random(7)
    net = NeuralNetScore([rng.uniform(-4, 4) for _ in range(109)])
    memo = scores.c_new_memo(15)
    known = [_features(rng) for _ in range(300)]

    def python_score(x):
        return float(int(net.forward_in_python(x) * 1e6))

    for _ in range(4000):
        x = rng.choice(known) if rng.random() < 0.5 else _features(rng)
        assert scores.c_score(net.sizes, net.params, x, memo).hex() == python_score(x).hex()
    for k in range(70_000):  # past the memo's 65,536 entries: emptied once
        x = (k,) + known[k % 300][1:]
        value = scores.c_score(net.sizes, net.params, x, memo)
        if k % 997 == 0:
            assert value.hex() == python_score(x).hex()
    for x in known:
        assert scores.c_score(net.sizes, net.params, x, memo).hex() == python_score(x).hex()
    huge = (2 ** 70,) + known[0][1:]
    assert scores.c_score(net.sizes, net.params, huge, memo).hex() == python_score(huge).hex()
    with pytest.raises(ValueError):
        scores.c_score(net.sizes, net.params, (1, 2, 3), memo)
    with pytest.raises(ValueError):
        scores.c_new_memo(0)
