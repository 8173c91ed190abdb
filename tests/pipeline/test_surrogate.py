import numpy as np
import pytest
import torch

from pipeline.search.archives import ArchiveSpec, SurrogateGrid
from pipeline.run_errors import ConfigError
from pipeline.search.inner_kernel import predict_batch
from pipeline.search.inner_loop import run_inner_loop
from pipeline.search.surrogate import Surrogate


def _data(space, n=600, seed=0):
    rng = np.random.default_rng(seed)
    x = space.random_decks(rng, n)
    w = rng.normal(size=(180, 12))
    y = x @ w * 0.5 + rng.normal(size=(n, 12)) * 0.1
    y[:, 1] = 10 + y[:, 1] * 0.1  # keep measures in their ranges so cells fill
    y[:, 2] = 4 + y[:, 2] * 0.1
    return x, y


def test_mlp_and_linear_shapes():
    mlp = Surrogate("mlp", 180, 3, device="cpu")
    n_params = sum(p.numel() for p in mlp.model.parameters())
    assert n_params == 180 * 128 + 128 + 128 * 32 + 32 + 32 * 16 + 16 + 16 * 3 + 3
    assert sum(isinstance(m, torch.nn.ELU) for m in mlp.model) == 3
    linear = Surrogate("linear", 180, 12, device="cpu")
    assert sum(p.numel() for p in linear.model.parameters()) == 180 * 12 + 12
    with pytest.raises(ConfigError):
        Surrogate("transformer", 180, 3)


@pytest.mark.parametrize("kind", ["mlp", "linear"])
def test_training_learns_and_the_kernel_predicts_like_torch(space, kind):
    x, y = _data(space)
    model = Surrogate(kind, 180, 12, device="cpu", seed=1)
    before = model.mse(x, y)
    stats = model.fit(x, y, np.random.default_rng(0))
    assert model.mse(x, y) < before / 5
    assert stats["val_mse"] > 0
    kernel = predict_batch(x[:200], model.kernel_weights())
    assert np.allclose(kernel, model.predict(x[:200]), rtol=1e-4, atol=1e-3)


def test_model_and_adam_state_carry_over_exactly(space):
    x, y = _data(space)
    a = Surrogate("mlp", 180, 3, device="cpu", seed=2)
    a.fit(x, y, np.random.default_rng(0), epochs=2)
    b = Surrogate("mlp", 180, 3, device="cpu", seed=99)
    b.load_state_bytes(a.state_bytes())
    a.fit(x, y, np.random.default_rng(1), epochs=2)
    b.fit(x, y, np.random.default_rng(1), epochs=2)
    assert np.array_equal(a.predict(x), b.predict(x))
    with pytest.raises(ConfigError, match="saved surrogate is a mlp"):
        Surrogate("linear", 180, 3, device="cpu").load_state_bytes(a.state_bytes())


def test_inner_loop_is_deterministic_and_fills_the_grid_with_legal_decks(space):
    x, y = _data(space)
    model = Surrogate("mlp", 180, 3, device="cpu", seed=3)
    model.fit(x, y, np.random.default_rng(0), epochs=5)
    grids = []
    for _ in range(2):
        grid = SurrogateGrid(ArchiveSpec(), 180, 3)
        made = run_inner_loop(space, model.kernel_weights(), grid, np.random.default_rng(5), 2000, 10, 100)
        grids.append(grid)
    assert made == 20000
    a, b = grids[0].elites(), grids[1].elites()
    assert len(a["index"]) > 10
    assert np.array_equal(a["solution"], b["solution"]) and np.array_equal(a["objective"], b["objective"])
    assert (a["solution"].sum(axis=1) == 30).all() and (a["solution"] <= space.limits).all()
    # The elites' stored predictions are what the model says about them.
    assert np.allclose(model.predict(a["solution"])[:, 0], a["objective"], atol=1e-3)
