"""Surrogate models of the game outcome: the protocol's MLP and the linear model (LSA-ME).

Trained online: the model and its Adam state persist between outer iterations. Training uses
the project's routine (workers.learning.training): the data on the device once per fit, CUDA graphs on
a GPU, one CPU thread on the CPU; `device: auto` trains where a measurement says it is faster
(the CPU when no GPU is visible). The inner loop predicts batches of 10 decks 100,000 times,
where kernel-launch and framework overheads dominate, so it uses a float32 numpy copy of the
weights.
"""
from __future__ import annotations

import functools
import io
import math

import numpy as np
import torch
from torch import nn

from workers.learning import training

from ..run_errors import ConfigError
from .kernel_data import Network

# The protocol's MLP (27,800 weights, batches of 64) is far too small for more CPU threads to
# pay: one thread trains it fastest (2.1 s against 39 s with two on a loaded 2-core machine)
# and makes the numbers independent of the machine's core count. Predictions take one thread
# too: MKL's COMPATIBLE branch (pipeline/float_paths.py) gives other last bits on two threads,
# STRICT or not.
TRAIN_THREADS = 1


def resolve_device(name: str) -> torch.device:
    """An explicit device; `auto` is the CPU until a fit measures where to train."""
    if name == "auto":
        return torch.device("cpu")
    try:
        return training.resolve_device(name)
    except ValueError as exc:
        raise ConfigError(f"surrogate.{exc}") from None


def build_model(kind: str, n_inputs: int, n_targets: int, hidden: list[int]) -> nn.Module:
    if kind == "linear":
        return nn.Sequential(nn.Linear(n_inputs, n_targets))
    if kind == "mlp":
        layers, width = [], n_inputs
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ELU()]
            width = h
        layers.append(nn.Linear(width, n_targets))
        return nn.Sequential(*layers)
    raise ConfigError(f"surrogate.model must be 'mlp' or 'linear', got {kind!r}")


def summed_squares(pred: torch.Tensor, target: torch.Tensor):
    """The protocol's loss: the minibatch's summed squared error; and its sum per target."""
    squared = (pred - target) ** 2
    return squared.sum(), squared.detach().sum(dim=0)


class Surrogate:
    def __init__(self, kind: str, n_inputs: int, n_targets: int, *, hidden=(128, 32, 16),
                 lr: float = 0.01, batch_size: int = 64, epochs: int = 20,
                 val_fraction: float = 0.1, device: str = "auto", seed: int = 0):
        self.kind, self.n_inputs, self.n_targets = kind, n_inputs, n_targets
        self.lr, self.batch_size, self.epochs, self.val_fraction = lr, batch_size, epochs, val_fraction
        self.device_setting = device
        self.device = resolve_device(device)
        if self.device.type == "cuda":
            # A resumed run must train exactly as an uninterrupted one: no nondeterministic kernels.
            training.prepare_cuda()
        with torch.random.fork_rng(devices=[]):  # initial weights from the run seed only
            torch.manual_seed(seed)
            self.model = build_model(kind, n_inputs, n_targets, list(hidden))
        self.model.to(self.device)
        self.optimizer = training.make_optimizer("adam", self.model.parameters(), self.device, lr=lr)
        self.trained_on = 0  # training examples seen by the last fit

    @classmethod
    def from_config(cls, kind: str, cfg, n_inputs: int, n_targets: int, seed: int) -> "Surrogate":
        return cls(kind, n_inputs, n_targets, hidden=list(cfg.hidden), lr=cfg.lr,
                   batch_size=cfg.batch_size, epochs=cfg.epochs, val_fraction=cfg.val_fraction,
                   device=cfg.device, seed=seed)

    def fit(self, x: np.ndarray, y: np.ndarray, rng: np.random.Generator, epochs: int | None = None,
            progress=None) -> dict[str, float]:
        """Train on a fresh random 90/10 split; loss = summed squared error per minibatch."""
        epochs = self.epochs if epochs is None else epochs
        n = len(x)
        perm = rng.permutation(n)
        n_val = int(round(n * self.val_fraction)) if n > 1 else 0
        val, train = perm[:n_val], perm[n_val:]
        y = np.asarray(y)
        with training.cpu_threads(TRAIN_THREADS):
            self._move_to(self._training_device(x, y, len(train), epochs))
            xt = training.to_device(x, self.device)
            yt = training.to_device(y[:, :self.n_targets], self.device)
            done = training.train_epochs(
                self.model, self.optimizer, summed_squares, xt, yt,
                lambda _: train[rng.permutation(len(train))],  # the run's generator, one draw per epoch
                batch_size=self.batch_size, epochs=epochs,
                on_epoch=(lambda _: progress.update(1)) if progress is not None else None)
            per_target = done.aux_sum if done.aux_sum is not None else torch.zeros(self.n_targets)
            self.trained_on = len(train)
            result = {"train_sse_per_example": done.loss_sum / max(len(train), 1),
                      # the last epoch's squared error per target, for the report's loss curves
                      "train_mse_per_target": (per_target / max(len(train), 1)).cpu().tolist()}
            if n_val:
                result["val_mse"] = self.mse(x[val], y[val])
                pred = self.predict(x[val])
                result["val_mse_per_target"] = np.mean((pred - y[val][:, :self.n_targets]) ** 2, axis=0).tolist()
        return result

    def _training_device(self, x, y, train_rows: int, epochs: int) -> torch.device:
        """The configured device, or for `auto` the faster one by measurement (workers.learning.training)."""
        if self.device_setting != "auto":
            return self.device
        timer = functools.partial(
            training.estimate_fit_seconds, model=self.model, optimizer=("adam", {"lr": self.lr}),
            loss_fn=summed_squares, x=x, y=y[:, :self.n_targets], batch_size=self.batch_size,
            steps=epochs * math.ceil(train_rows / self.batch_size), threads=TRAIN_THREADS)
        gpu = training.visible_gpu()
        if gpu is not None and gpu.device.type == "cuda":
            training.prepare_cuda()
        return training.choose_device("auto", what=f"surrogate ({self.kind})", model=self.model,
                                      batch_size=self.batch_size, rows=train_rows, timer=timer, gpu=gpu)

    def _move_to(self, device: torch.device) -> None:
        if device != self.device:
            training.place(self.model, self.optimizer, device)
            self.device = device

    @torch.no_grad()
    def predict(self, x: np.ndarray, chunk: int = 65536) -> np.ndarray:
        self.model.eval()
        out = []
        with training.cpu_threads(TRAIN_THREADS):
            for start in range(0, len(x), chunk):
                xb = torch.as_tensor(np.asarray(x[start:start + chunk], dtype=np.float32), device=self.device)
                out.append(self.model(xb).cpu().numpy())
        return np.concatenate(out) if out else np.zeros((0, self.n_targets), np.float32)

    def mse(self, x: np.ndarray, y: np.ndarray) -> float:
        pred = self.predict(x)
        return float(np.mean((pred - np.asarray(y)[:, :self.n_targets]) ** 2))

    def kernel_weights(self) -> Network:
        """The current weights as the kernels take them (kernel_data.Network), float32; the
        first layer as (n_in, n_out), the others as (n_out, n_in); missing layers as empty arrays."""
        linears = [m for m in self.model if isinstance(m, nn.Linear)]
        if not 1 <= len(linears) <= 4:
            raise ConfigError(f"the inner-loop kernel takes 1 to 4 layers, the model has {len(linears)}")
        args = []
        for i in range(4):
            if i < len(linears):
                w = linears[i].weight.detach().cpu().numpy()
                args += [np.ascontiguousarray(w.T if i == 0 else w, dtype=np.float32),
                         linears[i].bias.detach().cpu().numpy().astype(np.float32)]
            else:
                args += [np.zeros((0, 0), np.float32), np.zeros(0, np.float32)]
        return Network(*args, len(linears), self.n_targets)

    # --- checkpointing -------------------------------------------------------------------
    def state_bytes(self) -> bytes:
        return self._saved(with_optimizer=True)

    def model_bytes(self) -> bytes:
        """The model alone (no Adam state), as `load_state_bytes(..., with_optimizer=False)` reads it."""
        return self._saved(with_optimizer=False)

    def _saved(self, with_optimizer: bool) -> bytes:
        saved = {"kind": self.kind, "n_inputs": self.n_inputs, "n_targets": self.n_targets,
                 "model": self.model.state_dict(),
                 **({"optimizer": self.optimizer.state_dict()} if with_optimizer else {}),
                 "trained_on": self.trained_on}
        buf = io.BytesIO()
        torch.save(saved, buf)
        return buf.getvalue()

    def load_state_bytes(self, data: bytes, with_optimizer: bool = True, source: str = "checkpoint") -> None:
        """Restore a saved model (and its Adam state); ConfigError naming `source` when the
        bytes are not a model of this shape with finite weights."""
        try:
            state = torch.load(io.BytesIO(data), map_location=self.device, weights_only=True)
            head = (state["kind"], state["n_inputs"], state["n_targets"])
        except Exception as exc:  # torch raises many types on bytes that are not its format
            raise ConfigError(f"the surrogate saved in {source} is unreadable ({type(exc).__name__})") from None
        if head != (self.kind, self.n_inputs, self.n_targets):
            raise ConfigError(
                f"saved surrogate is a {state['kind']} {state['n_inputs']}->{state['n_targets']} model, "
                f"the config asks for {self.kind} {self.n_inputs}->{self.n_targets}")
        tensors = list(_tensors(state["model"]))
        if with_optimizer:
            tensors += list(_tensors(state.get("optimizer")))
        if not all(torch.isfinite(t).all() for t in tensors if t.is_floating_point()):
            raise ConfigError(f"the surrogate saved in {source} has NaN or infinite weights")
        try:
            self.model.load_state_dict(state["model"])
            if with_optimizer:
                self.optimizer.load_state_dict(state["optimizer"])
                # the saved flags (fused on a GPU, foreach on the CPU) are the saving device's
                training.place(self.model, self.optimizer, self.device)
        except (KeyError, RuntimeError, ValueError, TypeError) as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ConfigError(f"the surrogate saved in {source} does not fit the configured model: {first}") from None
        self.trained_on = int(state.get("trained_on", 0))


def _tensors(tree):
    """Every tensor inside nested dicts and lists (a state dict, an optimizer state)."""
    if isinstance(tree, torch.Tensor):
        yield tree
    elif isinstance(tree, dict):
        for value in tree.values():
            yield from _tensors(value)
    elif isinstance(tree, (list, tuple)):
        for value in tree:
            yield from _tensors(value)
