"""Surrogate models of the game outcome: the protocol's MLP and the linear model (LSA-ME).

Trained online: the model and its Adam state persist between outer iterations. Training runs
on the GPU when there is one; the inner loop predicts batches of 10 decks 100,000 times, where
kernel-launch and framework overheads dominate, so it uses a float32 numpy copy of the weights.
"""
from __future__ import annotations

import io
import os

import numpy as np
import torch
from torch import nn

from .errors import ConfigError


def resolve_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise ConfigError(f"surrogate.device={name} but torch sees no CUDA device")
    return torch.device(name)


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


class Surrogate:
    def __init__(self, kind: str, n_inputs: int, n_targets: int, *, hidden=(128, 32, 16),
                 lr: float = 0.01, batch_size: int = 64, epochs: int = 20,
                 val_fraction: float = 0.1, device: str = "auto", seed: int = 0):
        self.kind, self.n_inputs, self.n_targets = kind, n_inputs, n_targets
        self.batch_size, self.epochs, self.val_fraction = batch_size, epochs, val_fraction
        self.device = resolve_device(device)
        if self.device.type == "cuda":
            # A resumed run must train exactly as an uninterrupted one: no nondeterministic kernels.
            os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
            torch.use_deterministic_algorithms(True, warn_only=True)
        with torch.random.fork_rng(devices=[]):  # initial weights from the run seed only
            torch.manual_seed(seed)
            self.model = build_model(kind, n_inputs, n_targets, list(hidden))
        self.model.to(self.device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
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
        xt = torch.as_tensor(np.asarray(x, dtype=np.float32), device=self.device)
        yt = torch.as_tensor(np.asarray(y, dtype=np.float32)[:, :self.n_targets], device=self.device)
        self.model.train()
        train_loss = float("nan")
        per_target = torch.zeros(self.n_targets, device=self.device)
        for _ in range(epochs):
            order = train[rng.permutation(len(train))]
            total = 0.0
            per_target = torch.zeros(self.n_targets, device=self.device)
            for start in range(0, len(order), self.batch_size):
                batch = torch.as_tensor(order[start:start + self.batch_size], device=self.device)
                squared = (self.model(xt[batch]) - yt[batch]) ** 2
                loss = squared.sum()
                per_target += squared.detach().sum(dim=0)  # reports only; training is unchanged
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                total += loss.item()
            train_loss = total / max(len(order), 1)
            if progress is not None:
                progress.update(1)
        self.trained_on = len(train)
        result = {"train_sse_per_example": train_loss,
                  # the last epoch's squared error per target, for the report's loss curves
                  "train_mse_per_target": (per_target / max(len(train), 1)).cpu().tolist()}
        if n_val:
            result["val_mse"] = self.mse(x[val], y[val])
            pred = self.predict(x[val])
            result["val_mse_per_target"] = np.mean(
                (pred - np.asarray(y[val])[:, :self.n_targets]) ** 2, axis=0).tolist()
        return result

    @torch.no_grad()
    def predict(self, x: np.ndarray, chunk: int = 65536) -> np.ndarray:
        self.model.eval()
        out = []
        for start in range(0, len(x), chunk):
            xb = torch.as_tensor(np.asarray(x[start:start + chunk], dtype=np.float32), device=self.device)
            out.append(self.model(xb).cpu().numpy())
        return np.concatenate(out) if out else np.zeros((0, self.n_targets), np.float32)

    def mse(self, x: np.ndarray, y: np.ndarray) -> float:
        pred = self.predict(x)
        return float(np.mean((pred - np.asarray(y)[:, :self.n_targets]) ** 2))

    def kernel_weights(self) -> tuple:
        """The current weights as the argument list of inner_kernel.predict_batch:
        (w0, b0, w1, b1, w2, b2, w3, b3, n_layers, n_out), float32; the first layer as
        (n_in, n_out), the others as (n_out, n_in); missing layers as empty arrays."""
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
        return (*args, len(linears), self.n_targets)

    # --- checkpointing -------------------------------------------------------------------
    def state_bytes(self) -> bytes:
        buf = io.BytesIO()
        torch.save({"kind": self.kind, "n_inputs": self.n_inputs, "n_targets": self.n_targets,
                    "model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(),
                    "trained_on": self.trained_on}, buf)
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
