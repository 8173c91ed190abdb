"""The training routine (workers.learning.training): the same numbers as a plain minibatch loop on the
CPU, the device choice for `auto` (with a test double for the timer), and the GPU path where a
GPU is visible."""
import json
import math

import numpy as np
import pytest
import torch

from workers.learning import training
from pipeline.run_errors import ConfigError
from pipeline.search.surrogate import Surrogate, build_model, summed_squares

CPU = torch.device("cpu")
FAKE_GPU = training.Gpu(torch.device("cuda"), "Fake GPU 80GB")  # never touched: the timer is a double


def _data(n=300, k=3, seed=0):
    rng = np.random.default_rng(seed)
    x = (rng.random((n, 180)) < 0.15).astype(np.float32)
    y = (x @ rng.normal(size=(180, k))).astype(np.float32)
    return x, y


def _plain_loop(model, optimizer, x, y, orders, batch_size):
    """The surrogate's training loop as it was before workers.learning.training (the reference)."""
    xt, yt = torch.as_tensor(x), torch.as_tensor(y)
    total = 0.0
    for order in orders:
        total, per_target = 0.0, torch.zeros(y.shape[1])
        for start in range(0, len(order), batch_size):
            batch = torch.as_tensor(order[start:start + batch_size])
            squared = (model(xt[batch]) - yt[batch]) ** 2
            loss = squared.sum()
            per_target += squared.detach().sum(dim=0)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
    return total, per_target


def test_routine_gives_the_plain_loops_numbers_on_the_cpu():
    x, y = _data(301)  # 301 rows: the last batch of an epoch is partial
    orders = [np.random.default_rng(e).permutation(301) for e in range(3)]
    torch.manual_seed(0)
    a = build_model("mlp", 180, 3, [128, 32, 16])
    b = build_model("mlp", 180, 3, [128, 32, 16])
    b.load_state_dict(a.state_dict())
    total, per_target = _plain_loop(a, torch.optim.Adam(a.parameters(), lr=0.01), x, y, orders, 64)
    opt = training.make_optimizer("adam", b.parameters(), CPU, lr=0.01)
    assert opt.param_groups[0]["foreach"] is True
    done = training.train_epochs(b, opt, summed_squares, torch.as_tensor(x), torch.as_tensor(y),
                                 lambda epoch: orders[epoch - 1], batch_size=64, epochs=3)
    assert (done.epochs, done.rows) == (3, 301)
    # The same steps: the same weights, bit for bit.
    for p, q in zip(a.parameters(), b.parameters()):
        assert torch.equal(p, q)
    # The reported sums add float32 squares, which another machine's kernels (vector width,
    # threads) may add in another order: a float32 sum of n positive terms is within n * 2**-24
    # of the exact sum in any order, so the two loops' sums agree to 2 n 2**-24 relative, n the
    # epoch's 301 x 3 squares (1.1e-4; one row more or less moves them by about 1/301).
    rtol = 2 * 301 * 3 * 2.0 ** -24
    assert done.loss_sum == pytest.approx(total, rel=rtol, abs=0)
    torch.testing.assert_close(done.aux_sum, per_target, rtol=rtol, atol=0)


def test_on_epoch_stops_early_and_no_epochs_is_nan():
    x, y = _data(100)
    model = build_model("linear", 180, 3, [])
    opt = training.make_optimizer("adam", model.parameters(), CPU, lr=0.01)
    seen = []
    done = training.train_epochs(model, opt, summed_squares, torch.as_tensor(x), torch.as_tensor(y),
                                 lambda e: np.arange(100), batch_size=32, epochs=10,
                                 on_epoch=lambda e: seen.append(e) or e == 2)
    assert done.epochs == 2 and seen == [1, 2]
    none = training.train_epochs(model, opt, summed_squares, torch.as_tensor(x), torch.as_tensor(y),
                                 lambda e: np.arange(100), batch_size=32, epochs=0)
    assert none.epochs == 0 and math.isnan(none.loss_sum) and none.aux_sum is None


def test_place_gives_a_loaded_optimizer_this_devices_implementation():
    """A state saved on a GPU (fused, capturable, step on the device) carries those flags into
    load_state_dict; place() puts back the CPU's foreach implementation and a CPU step."""
    x, y = _data(128)
    model = build_model("mlp", 180, 3, [16])
    opt = training.make_optimizer("adam", model.parameters(), CPU, lr=0.01)
    training.train_epochs(model, opt, summed_squares, torch.as_tensor(x), torch.as_tensor(y),
                          lambda e: np.arange(128), batch_size=64, epochs=1)
    saved = opt.state_dict()
    for group in saved["param_groups"]:
        group.update(fused=True, capturable=True, foreach=None)
    other = training.make_optimizer("adam", model.parameters(), CPU, lr=0.01)
    other.load_state_dict(saved)
    assert other.param_groups[0]["fused"] is True
    training.place(model, other, CPU)
    group = other.param_groups[0]
    assert (group["foreach"], group["fused"], group["capturable"]) == (True, None, False)
    for state in other.state.values():
        assert state["step"].device == CPU and state["step"].dtype == torch.float32
    training.train_epochs(model, other, summed_squares, torch.as_tensor(x), torch.as_tensor(y),
                          lambda e: np.arange(128), batch_size=64, epochs=1)  # steps as before


def test_cpu_threads_is_restored():
    before = torch.get_num_threads()
    with training.cpu_threads(1):
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before
    with training.cpu_threads(None):
        assert torch.get_num_threads() == before


def test_surrogate_numbers_do_not_depend_on_the_process_threads():
    """The surrogate trains with one thread whatever torch was set to (the old loop's numbers
    depended on the core count)."""
    x, y = _data(400)
    results = []
    before = torch.get_num_threads()
    try:
        for threads in (1, 2):
            torch.set_num_threads(threads)
            model = Surrogate("mlp", 180, 3, device="cpu", seed=5)
            stats = model.fit(x, y, np.random.default_rng(2), epochs=2)
            results.append((stats, model.predict(x[:20])))
    finally:
        torch.set_num_threads(before)
    assert results[0][0] == results[1][0]
    assert np.array_equal(results[0][1], results[1][1])


# ------------------------------------------------------------------------------ device choice
class TimerTestDouble:
    """A test double for the calibration timer: fixed seconds per device type, calls counted."""

    def __init__(self, cpu: float, gpu: float):
        self.seconds = {"cpu": cpu, "cuda": gpu}
        self.calls = []

    def __call__(self, device: torch.device) -> float:
        self.calls.append(device.type)
        return self.seconds[device.type]


def _choose(timer, tmp_path, lines, *, rows=5000, model=None, gpu=FAKE_GPU):
    model = model or build_model("mlp", 180, 3, [128, 32, 16])
    return training.choose_device("auto", what="surrogate (mlp)", model=model, batch_size=64, rows=rows,
                                  timer=timer, cache_path=tmp_path / "devices.json", gpu=gpu, log=lines.append)


@pytest.fixture(autouse=True)
def fresh_log(monkeypatch):
    monkeypatch.setattr(training, "_logged", set())


def test_auto_without_a_gpu_is_the_cpu_with_no_calibration(tmp_path):
    timer, lines = TimerTestDouble(1.0, 0.1), []
    assert _choose(timer, tmp_path, lines, gpu=None) == CPU
    assert timer.calls == [] and lines == [] and not (tmp_path / "devices.json").exists()


def test_auto_measures_once_per_bucket_caches_and_logs_once(tmp_path):
    timer, lines = TimerTestDouble(cpu=4.0, gpu=0.5), []
    assert _choose(timer, tmp_path, lines, rows=5000) == torch.device("cuda")
    assert sorted(timer.calls) == ["cpu", "cuda"]
    assert len(lines) == 1 and "on cuda" in lines[0] and "Fake GPU" in lines[0] and "measured" in lines[0]
    cache = json.loads((tmp_path / "devices.json").read_text())
    (key, entry), = cache.items()
    assert "rows <= 8192" in key and "Fake GPU 80GB" in key and f"torch {torch.__version__}" in key
    assert entry["device"] == "gpu" and entry["seconds"] == {"cpu": 4.0, "gpu": 0.5}
    # Same bucket (5,000 and 8,000 rows both <= 8,192): read from the cache, not logged again.
    assert _choose(TimerTestDouble(0.1, 9.0), tmp_path, lines, rows=8000) == torch.device("cuda")
    assert len(lines) == 1
    # A new process reads the cached decision and logs it once.
    training._logged.clear()
    never = TimerTestDouble(0.1, 9.0)
    assert _choose(never, tmp_path, lines, rows=5000) == torch.device("cuda")
    assert never.calls == [] and len(lines) == 2 and "cached in" in lines[1]


def test_auto_picks_the_cpu_when_it_measures_faster_and_each_shape_and_size_is_measured(tmp_path):
    lines = []
    small = TimerTestDouble(cpu=0.2, gpu=0.9)
    assert _choose(small, tmp_path, lines, rows=90) == CPU
    big = TimerTestDouble(cpu=4.0, gpu=0.5)
    assert _choose(big, tmp_path, lines, rows=9000) == torch.device("cuda")
    linear = TimerTestDouble(cpu=0.3, gpu=0.6)
    assert _choose(linear, tmp_path, lines, rows=9000, model=build_model("linear", 180, 3, [])) == CPU
    assert all(len(t.calls) == 2 for t in (small, big, linear))
    assert len(json.loads((tmp_path / "devices.json").read_text())) == 3
    assert len(lines) == 3


def test_a_damaged_or_unwritable_cache_means_measuring_again(tmp_path):
    (tmp_path / "devices.json").write_text("{not json")
    timer, lines = TimerTestDouble(cpu=1.0, gpu=0.1), []
    assert _choose(timer, tmp_path, lines) == torch.device("cuda")
    assert len(json.loads((tmp_path / "devices.json").read_text())) == 1
    blocked = tmp_path / "file"
    blocked.write_text("")
    lines.clear()
    training._logged.clear()
    assert training.choose_device("auto", what="x", model=build_model("linear", 180, 3, []), batch_size=64,
                                  rows=10, timer=TimerTestDouble(1.0, 0.1), cache_path=blocked / "devices.json",
                                  gpu=FAKE_GPU, log=lines.append) == torch.device("cuda")
    assert "could not save" in lines[0]


def test_explicit_devices_skip_the_measurement():
    timer = TimerTestDouble(1.0, 0.1)
    assert training.choose_device("cpu", what="x", model=build_model("linear", 180, 3, []), batch_size=64,
                                  rows=10, timer=timer, gpu=FAKE_GPU) == CPU
    assert timer.calls == []
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="device=cuda but torch sees no CUDA device"):
            training.resolve_device("cuda")
        with pytest.raises(ConfigError, match="surrogate.device=cuda:1 but torch sees no CUDA"):
            Surrogate("mlp", 180, 3, device="cuda:1")


def test_the_real_timer_on_the_cpu_leaves_model_and_random_state_alone():
    x, y = _data(200)
    model = build_model("mlp", 180, 3, [128, 32, 16])
    weights = [p.detach().clone() for p in model.parameters()]
    torch.manual_seed(7)
    state = torch.get_rng_state()
    seconds = training.estimate_fit_seconds(CPU, model=model, optimizer=("adam", {"lr": 0.01}),
                                            loss_fn=summed_squares, x=x, y=y, batch_size=64, steps=60,
                                            threads=1, short=4, long=12)
    assert 0 < seconds < 60
    assert torch.equal(torch.get_rng_state(), state)
    assert all(torch.equal(p, w) for p, w in zip(model.parameters(), weights))


@pytest.mark.skipif(training.visible_gpu() is not None, reason="a GPU is visible: auto measures")
def test_surrogate_auto_without_a_gpu_trains_on_the_cpu_and_writes_no_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DSAME_CACHE_DIR", str(tmp_path))
    x, y = _data(200)
    model = Surrogate("mlp", 180, 3, device="auto")
    model.fit(x, y, np.random.default_rng(0), epochs=1)
    assert model.device == CPU and list(tmp_path.iterdir()) == []


def test_bench_figure_runs_on_the_cpu():
    from tools.bench.head_node import time_surrogate_training
    assert time_surrogate_training("cpu", n=300, epochs=1) > 0


# ------------------------------------------------------------------------------ on a GPU
@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_cuda_graph_steps_give_the_eager_steps_numbers():
    x, y = _data(1000)
    dev = torch.device("cuda")
    training.prepare_cuda()
    runs = []
    for graphs in (False, True):
        torch.manual_seed(0)
        model = build_model("mlp", 180, 3, [128, 32, 16]).to(dev)
        opt = training.make_optimizer("adam", model.parameters(), dev, lr=0.01)
        orders = [np.random.default_rng(e).permutation(1000) for e in range(4)]
        done = training.train_epochs(model, opt, summed_squares, training.to_device(x, dev),
                                     training.to_device(y, dev), lambda e: orders[e - 1], batch_size=64,
                                     epochs=4, cuda_graphs=graphs)
        runs.append((done, [p.detach().cpu() for p in model.parameters()]))
    (eager, w_eager), (graphed, w_graphed) = runs
    assert graphed.loss_sum == pytest.approx(eager.loss_sum, rel=1e-5)
    assert torch.allclose(graphed.aux_sum.cpu(), eager.aux_sum.cpu(), rtol=1e-5)
    for p, q in zip(w_eager, w_graphed):
        assert torch.allclose(p, q, rtol=1e-5, atol=1e-6)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_surrogate_moves_between_devices_and_resumes_on_either():
    x, y = _data(600)
    gpu = Surrogate("mlp", 180, 3, device="cuda", seed=1)
    gpu.fit(x, y, np.random.default_rng(0), epochs=2)
    cpu = Surrogate("mlp", 180, 3, device="cpu", seed=9)
    cpu.load_state_bytes(gpu.state_bytes())
    assert cpu.optimizer.param_groups[0]["foreach"] is True
    cpu.fit(x, y, np.random.default_rng(1), epochs=1)
    back = Surrogate("mlp", 180, 3, device="cuda", seed=9)
    back.load_state_bytes(cpu.state_bytes())
    assert back.optimizer.param_groups[0]["fused"] is True
    stats = back.fit(x, y, np.random.default_rng(1), epochs=1)
    assert np.isfinite(stats["train_sse_per_example"])
