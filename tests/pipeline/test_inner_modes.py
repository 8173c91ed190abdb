"""The batched inner loop (algorithm.inner.mode=batched) against the paper's serial chain."""
import numpy as np
import pytest

from pipeline.run_errors import ConfigError
from pipeline.search.archives import ArchiveSpec, SurrogateGrid
from pipeline.search.batched_kernel import _elu, _mutate, first_layers
from pipeline.search.inner_kernel import MAX_CHANGE, mutate_one
from pipeline.search.inner_loop import run_inner_loop
from pipeline.search.surrogate import Surrogate
from pipeline.state.config import identity, validate

from .helpers import compose
from .test_surrogate import _data


@pytest.fixture(scope="module")
def model(space):
    x, y = _data(space)
    model = Surrogate("mlp", 180, 3, device="cpu", seed=3)
    model.fit(x, y, np.random.default_rng(0), epochs=5)
    return model


def _batched(space, model, threads, seed=5, predictions=40_000):
    grid = SurrogateGrid(ArchiveSpec(), 180, 3)
    rng = np.random.default_rng(seed)
    made = run_inner_loop(space, model.kernel_weights(), grid, rng, predictions // 10, 10, 100,
                          mode="batched", step_decks=500, threads=threads)
    return grid, made, rng


def test_batched_mode_gives_the_same_archive_on_any_thread_count(space, model):
    one, made, rng_one = _batched(space, model, threads=1)
    assert made == 40_000
    a = one.elites()
    assert len(a["index"]) > 10
    for threads in (2, None):  # None: the count is chosen by timing, call by call
        other, _, rng_other = _batched(space, model, threads=threads)
        b = other.elites()
        for key in ("index", "solution", "objective", "measures", "targets"):
            assert np.array_equal(a[key], b[key]), (threads, key)
        assert rng_one.bit_generator.state == rng_other.bit_generator.state  # moved on by the same draws
    other, _, _ = _batched(space, model, threads=2, seed=6)
    assert not np.array_equal(other.elites()["solution"], a["solution"])  # the seed matters


def test_batched_mode_keeps_legal_decks_and_the_models_predictions(space, model):
    grid, _, _ = _batched(space, model, threads=None)
    elites = grid.elites()
    assert (elites["solution"].sum(axis=1) == 30).all() and (elites["solution"] <= space.limits).all()
    # the incremental first layer and the polynomial ELU stay within float32 noise of torch
    predicted = model.predict(elites["solution"])
    assert np.allclose(predicted, elites["targets"], atol=1e-3)
    assert np.allclose(predicted[:, 0], elites["objective"], atol=1e-3)


def test_batched_and_serial_modes_find_archives_of_like_quality(space, model):
    serial = SurrogateGrid(ArchiveSpec(), 180, 3)
    run_inner_loop(space, model.kernel_weights(), serial, np.random.default_rng(5), 4000, 10, 100)
    batched, _, _ = _batched(space, model, threads=None)
    s, b = serial.elites(), batched.elites()
    assert 0.8 < len(b["index"]) / len(s["index"]) < 1.25
    assert abs(b["objective"].mean() - s["objective"].mean()) < 0.5 * s["objective"].std()


def test_the_batched_mutation_follows_the_protocols_rule(space, model):
    """K copies out, K copies in, drawn as mutate_one draws them: the same distribution of the
    change's size, legal children, and the child's first layer equal to one computed afresh."""
    rng = np.random.default_rng(1)
    w0, b0 = model.kernel_weights()[:2]
    parents = space.random_decks(rng, 4000)
    cards = np.zeros((len(parents), 30), np.int64)
    hidden = np.zeros((len(parents), len(b0)), np.float32)
    first_layers(parents, np.arange(len(parents)), w0, b0, cards, hidden)
    ours, theirs = [], []
    child_cards, child_hidden = np.zeros(30, np.int64), np.zeros(len(b0), np.float32)
    fresh_cards, fresh_hidden = np.zeros((1, 30), np.int64), np.zeros((1, len(b0)), np.float32)
    for i, parent in enumerate(parents):
        child = np.zeros_like(parent)
        _mutate(parent, cards[i], hidden[i], space.limits, w0, np.uint64(rng.integers(2 ** 63)),
                child_cards, child, child_hidden)
        assert child.sum() == 30 and (child <= space.limits).all()
        assert np.array_equal(np.bincount(child_cards, minlength=180), child)
        if i < 200:
            first_layers(child[None], np.array([0]), w0, b0, fresh_cards, fresh_hidden)
            assert np.allclose(child_hidden, fresh_hidden[0], atol=1e-4)
        ours.append(np.maximum(parent - child, 0).sum())
        k = min(rng.geometric(0.5), MAX_CHANGE)
        serial_child = np.zeros_like(parent)
        mutate_one(parent, space.limits, k, rng.random(MAX_CHANGE), rng.random(MAX_CHANGE), 30, serial_child)
        theirs.append(np.maximum(parent - serial_child, 0).sum())
    ours, theirs = np.bincount(ours, minlength=12)[:12], np.bincount(theirs, minlength=12)[:12]
    # the two histograms of cards changed agree within sampling noise (4,000 mutations each)
    assert np.abs(ours - theirs).max() < 5 * np.sqrt(np.maximum(theirs, 25)).max()
    assert ours[0] < 0.05 * len(parents)  # a mutation nearly always changes the deck


def test_the_polynomial_elu_matches_expm1():
    x = np.concatenate([np.linspace(-30, 5, 20001), [-1e-7, 0.0, 1e-7]]).astype(np.float32)
    ours = np.array([_elu(v) for v in x], dtype=np.float32)
    exact = np.where(x > 0, x, np.expm1(x.astype(np.float64))).astype(np.float32)
    assert np.abs(ours - exact).max() <= 2e-7


def test_the_modes_config():
    from omegaconf import OmegaConf

    serial = compose()
    batched = compose("algorithm.inner.mode=batched")
    assert validate(serial).algorithm.inner.mode == "serial"
    assert identity(validate(serial)) != identity(validate(batched))
    # the thread count changes no result, so a run may resume with another
    threads = compose("algorithm.inner.mode=batched", "algorithm.inner.threads=1")
    assert identity(validate(threads)) == identity(validate(batched))
    # the serial chain's runs keep the identity they had before the modes
    plain = OmegaConf.to_container(serial)
    del plain["algorithm"]["inner"]["mode"], plain["algorithm"]["inner"]["step_decks"]
    del plain["algorithm"]["inner"]["threads"]
    assert identity(validate(OmegaConf.create(plain))) == identity(validate(serial))
    with pytest.raises(ConfigError, match="algorithm.inner.mode"):
        validate(compose("algorithm.inner.mode=parallel"))
    with pytest.raises(ConfigError, match="algorithm.inner.threads"):
        validate(compose("algorithm.inner.threads=0"))
