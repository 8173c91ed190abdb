"""One training routine for the project's torch models: the deck surrogate (pipeline.search.surrogate)
and the value networks (workers.learning.value_training).

Plain minibatch training (a permutation of the rows per epoch, its batches in order, one
optimizer step per batch), made fast on both kinds of device:
- the data set is put on the training device once per fit; a batch is an index slice of the
  epoch's order, which goes to the device once per epoch: no DataLoader, no host copy and no
  host sync per step (losses are summed on the device and read once per epoch);
- CUDA: after a few eager warm-up steps the whole step (gather, forward, loss, backward, fused
  Adam) is captured in a CUDA graph and replayed, one graph per batch size (the last, partial
  batch of an epoch gets its own), so a step costs one copy of its indices and one launch;
  DSAME_CUDA_GRAPHS=0 runs the same steps eagerly;
- CPU: eager steps with foreach Adam, under the thread count the caller asks for.

`choose_device` resolves `device: auto` by measurement: with no GPU visible it is the CPU at no
cost; with one, the first fit of a model at a data size times the routine on both devices (a
few hundred steps, `estimate_fit_seconds`) and the faster one is used. The decision is cached
in the user cache folder (DSAME_CACHE_DIR, default ~/.cache/dsame), keyed by the model, batch
size, data size bucket, GPU and CPU names, CPU threads and torch version; each decision is
logged once per process in one line.
"""
from __future__ import annotations

import contextlib
import copy
import hashlib
import json
import os
import platform
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import torch
from torch import nn

OPTIMIZERS = {"adam": torch.optim.Adam, "adamw": torch.optim.AdamW}
WARMUP_STEPS = 3  # eager steps before a CUDA graph is captured (lazy initialisation, allocator)
CACHE_FILE = "training-devices.json"


# ------------------------------------------------------------------------------ optimizers
def optimizer_flags(device: torch.device) -> dict:
    """The fastest exact implementation on `device`: fused and graph-capturable on CUDA,
    foreach on the CPU (the same arithmetic as the per-tensor loop, fewer dispatches)."""
    if device.type == "cuda":
        return {"foreach": None, "fused": True, "capturable": True}
    if device.type == "cpu":
        return {"foreach": True, "fused": None, "capturable": False}
    return {"foreach": None, "fused": None, "capturable": False}


def make_optimizer(name: str, params, device: torch.device, **hyper) -> torch.optim.Optimizer:
    """Adam or AdamW over `params` (already on `device`) with that device's implementation."""
    flags = optimizer_flags(torch.device(device))
    optimizer = OPTIMIZERS[name](params, **hyper, **flags)
    _quiet_about_eager_steps(optimizer, flags)
    return optimizer


def _quiet_about_eager_steps(optimizer, flags: dict) -> None:
    # A capturable optimizer warns when it steps outside a graph; the warm-up steps before a
    # capture (and DSAME_CUDA_GRAPHS=0) do that on purpose.
    if flags["capturable"]:
        optimizer._warned_capturable_if_run_uncaptured = True


def place(model: nn.Module, optimizer: torch.optim.Optimizer, device: torch.device) -> None:
    """Move a model and its optimizer's state to `device` and give the optimizer that device's
    implementation; also right after optimizer.load_state_dict, which adopts the flags of the
    device the state was saved on."""
    device = torch.device(device)
    model.to(device)
    flags = optimizer_flags(device)
    optimizer.defaults.update(flags)
    for group in optimizer.param_groups:
        group.update(flags)
    _quiet_about_eager_steps(optimizer, flags)
    on_device_step = flags["fused"] or flags["capturable"]
    for state in optimizer.state.values():
        for key, value in list(state.items()):
            if not torch.is_tensor(value):
                continue
            if key == "step":  # a CPU scalar unless fused or capturable (torch's own convention)
                state[key] = value.to(dtype=torch.float32, device=device if on_device_step else "cpu")
            else:
                state[key] = value.to(device)


def prepare_cuda() -> None:
    """Deterministic CUDA kernels for training (a resumed run trains as an uninterrupted one);
    call before the process's first cuBLAS use."""
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    torch.use_deterministic_algorithms(True, warn_only=True)


@contextlib.contextmanager
def cpu_threads(n: int | None):
    """torch's intra-op CPU threads set to `n` inside the block (None: left as they are)."""
    before = torch.get_num_threads()
    if n is None or n == before:
        yield
        return
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def to_device(array, device: torch.device, dtype=torch.float32) -> torch.Tensor:
    """A numpy array (or tensor) as a tensor on `device`, copied at most once."""
    if torch.is_tensor(array):
        return array.to(device=device, dtype=dtype)
    np_dtype = {torch.float32: np.float32, torch.int64: np.int64}[dtype]
    return torch.as_tensor(np.asarray(array, dtype=np_dtype)).to(device)


# ------------------------------------------------------------------------------ the routine
@dataclass
class Trained:
    epochs: int  # epochs run (fewer than asked when on_epoch stopped early)
    loss_sum: float  # the last epoch's losses summed over its steps (float64); nan without epochs
    aux_sum: torch.Tensor | None  # the last epoch's auxiliary sums (loss_fn's second value)
    rows: int  # indices in the last epoch's order


def train_epochs(model: nn.Module, optimizer: torch.optim.Optimizer, loss_fn, x: torch.Tensor,
                 y: torch.Tensor, order: Callable[[int], object], *, batch_size: int, epochs: int,
                 on_epoch: Callable[[int], bool | None] | None = None,
                 cuda_graphs: bool | None = None) -> Trained:
    """Train `model` on rows of `x`, `y` (tensors on the model's device) for up to `epochs`.

    order(epoch) gives the epoch's row indices (numpy or tensor, 1-based epoch), taken in
    slices of `batch_size`, the last one possibly shorter. loss_fn(prediction, target) returns
    (loss, aux): the loss to minimise and a tensor (or None) summed over the epoch for reports.
    on_epoch(epoch) runs after each epoch; a true value stops training."""
    device = x.device
    if cuda_graphs is None:
        cuda_graphs = os.environ.get("DSAME_CUDA_GRAPHS", "1") != "0"
    stepper_cls = _GraphSteps if device.type == "cuda" and cuda_graphs else _EagerSteps
    steps = stepper_cls(model, optimizer, loss_fn, x, y)
    done, rows = 0, 0
    try:
        for epoch in range(1, epochs + 1):
            idx = order(epoch)
            idx = idx.to(device) if torch.is_tensor(idx) else to_device(idx, device, torch.int64)
            rows = len(idx)
            model.train()
            steps.new_epoch()
            for start in range(0, rows, batch_size):
                steps.run(idx[start:start + batch_size])
            done = epoch
            if on_epoch is not None and on_epoch(epoch):
                break
        loss_sum = float(steps.loss_sum) if done else float("nan")
        aux = steps.aux_sum.clone() if done and steps.aux_sum is not None else None
    finally:
        steps.close()
    return Trained(done, loss_sum, aux, rows)


class _EagerSteps:
    def __init__(self, model, optimizer, loss_fn, x, y):
        self.model, self.optimizer, self.loss_fn, self.x, self.y = model, optimizer, loss_fn, x, y
        # float64 sums of float32 losses, as Python floats add them (MPS has no float64)
        self.loss_sum = torch.zeros((), dtype=torch.float32 if x.device.type == "mps" else torch.float64,
                                    device=x.device)
        self.aux_sum = None

    def new_epoch(self) -> None:
        self.loss_sum.zero_()
        if self.aux_sum is not None:
            self.aux_sum.zero_()

    def step(self, idx: torch.Tensor) -> None:
        """One optimizer step on the rows `idx`: in eager mode, or recorded into a CUDA graph."""
        loss, aux = self.loss_fn(self.model(self.x.index_select(0, idx)), self.y.index_select(0, idx))
        if aux is not None:
            if self.aux_sum is None:  # first (eager) step: the buffer exists before any capture
                self.aux_sum = torch.zeros_like(aux, dtype=aux.dtype)
            self.aux_sum.add_(aux.detach())
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        self.optimizer.step()
        self.loss_sum.add_(loss.detach())

    def run(self, idx: torch.Tensor) -> None:
        self.step(idx)

    def close(self) -> None:
        self.optimizer.zero_grad(set_to_none=True)


class _GraphSteps(_EagerSteps):
    """Steps replayed from CUDA graphs, one per batch size, each captured once that size has
    had an eager step and WARMUP_STEPS eager steps have run. Eager steps run on a side stream,
    as torch's capture recipe asks."""

    def __init__(self, *args):
        super().__init__(*args)
        self.graphs: dict[int, tuple[torch.Tensor, torch.cuda.CUDAGraph]] = {}
        self.seen: set[int] = set()
        self.eager = 0
        self.capture_failed = False
        self.side = torch.cuda.Stream(device=self.x.device)

    def run(self, idx: torch.Tensor) -> None:
        size = len(idx)
        entry = self.graphs.get(size)
        if entry is None and size in self.seen and self.eager >= WARMUP_STEPS and not self.capture_failed:
            try:
                entry = self.graphs[size] = self._capture(size)
            except RuntimeError as exc:  # a capture records without running: nothing was trained
                self.capture_failed = True
                first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
                _stderr(f"warning: CUDA graph capture failed ({first[:200]}); training on without graphs")
        if entry is None:
            current = torch.cuda.current_stream(self.x.device)
            self.side.wait_stream(current)
            with torch.cuda.stream(self.side):
                self.step(idx)
            current.wait_stream(self.side)
            self.eager += 1
            self.seen.add(size)
            return
        static_idx, graph = entry
        static_idx.copy_(idx)
        graph.replay()

    def _capture(self, size: int):
        static_idx = torch.zeros(size, dtype=torch.int64, device=self.x.device)
        graph = torch.cuda.CUDAGraph()
        self.optimizer.zero_grad(set_to_none=True)  # backward then allocates grads in the graph's pool
        with torch.cuda.graph(graph):
            self.step(static_idx)  # recorded, not run: the replay runs it
        return static_idx, graph

    def close(self) -> None:
        super().close()
        torch.cuda.current_stream(self.x.device).synchronize()
        self.graphs.clear()


# ------------------------------------------------------------------------------ device choice
@dataclass(frozen=True)
class Gpu:
    device: torch.device
    name: str


def visible_gpu() -> Gpu | None:
    """The GPU torch would train on (CUDA, else Apple MPS), or None."""
    if torch.cuda.is_available():
        index = torch.cuda.current_device()
        return Gpu(torch.device("cuda", index), torch.cuda.get_device_name(index))
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return Gpu(torch.device("mps"), "Apple MPS")
    return None


def resolve_device(name: str) -> torch.device:
    """An explicit device name as a torch.device; ValueError when torch cannot use it."""
    device = torch.device(name)
    if device.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device={name} but torch sees no CUDA device")
    if device.type == "cuda" and device.index is not None and device.index >= torch.cuda.device_count():
        raise ValueError(f"device={name} but torch sees {torch.cuda.device_count()} CUDA device(s)")
    if device.type == "mps" and not (getattr(torch.backends, "mps", None) and torch.backends.mps.is_available()):
        raise ValueError(f"device={name} but torch sees no MPS device")
    return device


def size_bucket(rows: int) -> int:
    """The power of two at or above `rows`: calibration happens once per bucket."""
    return 1 << max(0, int(rows) - 1).bit_length()


def model_signature(model: nn.Module) -> str:
    """The model's layers and sizes, e.g. 'Linear(in_features=180, ...) ELU() ...'."""
    leaves = [m for m in model.modules() if not list(m.children())]
    return " ".join(f"{type(m).__name__}({m.extra_repr()})" for m in leaves)


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "cpu"


def default_cache_path() -> Path:
    root = Path(os.environ.get("DSAME_CACHE_DIR") or Path.home() / ".cache" / "dsame")
    return root / CACHE_FILE


_logged: set[str] = set()


def choose_device(setting: str, *, what: str, model: nn.Module, batch_size: int, rows: int,
                  timer: Callable[[torch.device], float], cache_path: Path | None = None,
                  gpu: Gpu | None | str = "detect", log: Callable[[str], None] | None = None) -> torch.device:
    """The device to train on. An explicit setting is used as it is. `auto`: the CPU when no
    GPU is visible (no calibration); otherwise the device on which timer(device) (an estimate
    of the fit's seconds) is smaller, measured the first time this model, batch size, data
    size bucket and machine are seen, then read from the cache file."""
    if setting != "auto":
        return resolve_device(setting)
    gpu = visible_gpu() if gpu == "detect" else gpu
    cpu = torch.device("cpu")
    if gpu is None:
        return cpu
    signature = model_signature(model)
    key = " | ".join([what, hashlib.sha256(signature.encode()).hexdigest()[:12], f"batch {batch_size}",
                      f"rows <= {size_bucket(rows)}", gpu.name, f"{cpu_name()} x{torch.get_num_threads()}",
                      f"torch {torch.__version__}"])
    path = Path(cache_path) if cache_path is not None else default_cache_path()
    entry = _read_cache(path).get(key)
    how = "cached in"
    if not (isinstance(entry, dict) and entry.get("device") in ("cpu", "gpu")
            and isinstance(entry.get("seconds"), dict)):
        seconds = {"cpu": float(timer(cpu)), "gpu": float(timer(gpu.device))}
        entry = {"device": "gpu" if seconds["gpu"] < seconds["cpu"] else "cpu", "seconds": seconds,
                 "model": signature}
        how = "measured, saved in" if _update_cache(path, key, entry) else "measured; could not save it in"
    chosen = gpu.device if entry["device"] == "gpu" else cpu
    if key not in _logged:
        _logged.add(key)
        s = entry["seconds"]
        (log or _stderr)(f"{what} training on {chosen} ({gpu.name if entry['device'] == 'gpu' else 'CPU'}) "
                         f"for up to {size_bucket(rows):,} rows: about {s['gpu']:.2f} s per fit on the GPU, "
                         f"{s['cpu']:.2f} s on the CPU ({how} {path})")
    return chosen


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _read_cache(path: Path) -> dict:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _update_cache(path: Path, key: str, entry: dict) -> bool:
    """Add one decision to the cache file, written whole to a temporary file and renamed;
    False when it cannot be written (the decision still holds for this process)."""
    try:
        data = _read_cache(path)
        data[key] = entry
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w") as handle:
                json.dump(data, handle, indent=1, sort_keys=True)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return True
    except OSError:
        return False


def estimate_fit_seconds(device: torch.device, *, model: nn.Module, optimizer: tuple[str, dict], loss_fn,
                         x, y, batch_size: int, steps: int, threads: int | None = None,
                         short: int = 32, long: int = 224) -> float:
    """Seconds that a fit of `steps` steps of this model and data would take on `device`: the
    routine timed on a throwaway copy (fresh optimizer, the global random state untouched) for
    `short` and `long` steps after an untimed warm-up, each run including the data upload and
    graph capture; fit = setup + steps * per step."""
    device = torch.device(device)
    n = len(x)
    forked = [device.index or 0] if device.type == "cuda" else []

    def run(k: int) -> float:
        clone = copy.deepcopy(model).to(device)
        opt = make_optimizer(optimizer[0], clone.parameters(), device, **optimizer[1])
        rows = np.resize(np.random.default_rng(k).permutation(n), k * batch_size)
        start = time.perf_counter()
        xt, yt = to_device(x, device), to_device(y, device)
        train_epochs(clone, opt, loss_fn, xt, yt, lambda _: rows, batch_size=batch_size, epochs=1)
        _synchronize(device)
        return time.perf_counter() - start

    with torch.random.fork_rng(devices=forked), cpu_threads(threads):
        run(8)
        t_short, t_long = run(short), run(long)
    per_step = max(t_long - t_short, 0.0) / (long - short)
    setup = max(t_short - short * per_step, 0.0)
    return setup + per_step * max(int(steps), 1)


def _synchronize(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    elif device.type == "mps":
        torch.mps.synchronize()
