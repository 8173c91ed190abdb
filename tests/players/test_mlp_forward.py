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
