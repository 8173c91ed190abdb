"""Value networks as a player reads them: the network, saving and loading it, and a loaded
network as a score of a game state (ValueModel). Training is in workers.learning.value_training.

A saved model (torch.save of tensors and plain values only, loaded with weights_only=True)
holds its encoder's name and version, the input normalisation and the target; `load_model`
refuses a model whose encoder is unknown or of another version. `ValueModel(g, player)` scores a
state from `player`'s view with numpy (fast enough for a beam search's thousands of states).
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import torch
from torch import nn

from .encoders import ENCODERS, get_encoder

TARGETS = ("win", "discounted")
VALUE_SCALE = 10.0  # the regression is trained on value / 10
HIDDEN = (256, 128, 64)
STD_FLOOR = 1.0  # inputs are scaled by 1 / max(std, 1): small counts are centred, not blown up
MODEL_FORMAT = 1


class ValueNet(nn.Module):
    """Normalised input -> MLP (ReLU) -> one output (a logit for "win", value / 10 otherwise)."""

    def __init__(self, n_inputs: int, hidden=HIDDEN, dropout: float = 0.0):
        super().__init__()
        self.register_buffer("mean", torch.zeros(n_inputs))
        self.register_buffer("scale", torch.ones(n_inputs))
        layers, width = [], n_inputs
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ReLU()] + ([nn.Dropout(dropout)] if dropout else [])
            width = h
        layers.append(nn.Linear(width, 1))
        self.mlp = nn.Sequential(*layers)

    def set_normalisation(self, x: np.ndarray) -> None:
        mean = x.mean(axis=0)
        std = x.std(axis=0)
        self.mean.copy_(torch.as_tensor(mean, dtype=torch.float32))
        # A floor on the spread: a rarely non-zero slot (a card seldom in hand) is not blown up.
        self.scale.copy_(torch.as_tensor(1.0 / np.maximum(std, STD_FLOOR), dtype=torch.float32))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.mlp((x - self.mean) * self.scale).squeeze(-1)


@torch.no_grad()
def predict(model: ValueNet, x: np.ndarray, target: str, chunk: int = 65536) -> np.ndarray:
    """Win probability ("win") or the discounted value ("discounted") of each row."""
    model.eval()
    dev = next(model.parameters()).device
    out = []
    for s in range(0, len(x), chunk):
        out.append(model(torch.as_tensor(x[s:s + chunk], dtype=torch.float32, device=dev)).cpu().numpy())
    raw = np.concatenate(out) if out else np.zeros(0, np.float32)
    return 1 / (1 + np.exp(-raw.astype(np.float64))) if target == "win" else raw * VALUE_SCALE


def save_model(path: str | Path, model: ValueNet, encoder: str, target: str, extra: dict | None = None) -> None:
    enc = get_encoder(encoder)
    linears = [m for m in model.mlp if isinstance(m, nn.Linear)]
    torch.save({"format": MODEL_FORMAT, "encoder": enc.name, "encoder_version": enc.version,
                "n_inputs": enc.size, "target": target,
                "hidden": [m.out_features for m in linears[:-1]],
                "dropout": float(next((m.p for m in model.mlp if isinstance(m, nn.Dropout)), 0.0)),
                "state": {k: v.detach().cpu() for k, v in model.state_dict().items()},
                "info": json.dumps(extra or {})}, path)


class ModelError(ValueError):
    pass


def load_model(path: str | Path, encoder: str | None = None) -> "ValueModel":
    """A saved value network, checked: readable with weights_only, its encoder known here with
    the same version and size (and equal to `encoder` when given), finite weights."""
    try:
        blob = torch.load(path, map_location="cpu", weights_only=True)
        name, version, n_inputs = blob["encoder"], int(blob["encoder_version"]), int(blob["n_inputs"])
        target, hidden, state = blob["target"], list(blob["hidden"]), blob["state"]
        dropout = float(blob.get("dropout", 0.0))
    except Exception as exc:
        first = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ""
        raise ModelError(f"value model {path} is unreadable ({type(exc).__name__}: {first})") from None
    if blob.get("format") != MODEL_FORMAT:
        raise ModelError(f"value model {path} has format {blob.get('format')}, expected {MODEL_FORMAT}")
    if encoder is not None and name != encoder:
        raise ModelError(f"value model {path} reads encoder {name!r}, not {encoder!r}")
    if name not in ENCODERS:
        raise ModelError(f"value model {path} needs encoder {name!r}, which this code does not have")
    enc = ENCODERS[name]
    if version != enc.version or n_inputs != enc.size:
        raise ModelError(f"value model {path} was trained on {name} v{version} ({n_inputs} values); "
                         f"this code encodes {name} v{enc.version} ({enc.size} values): train it again")
    if target not in TARGETS:
        raise ModelError(f"value model {path} has unknown target {target!r}")
    model = ValueNet(n_inputs, hidden, dropout)
    try:
        model.load_state_dict(state)
    except Exception as exc:
        raise ModelError(f"value model {path} does not fit its declared shape: {exc}") from None
    if not all(torch.isfinite(t).all() for t in model.state_dict().values()):
        raise ModelError(f"value model {path} has NaN or infinite weights")
    model.eval()
    return ValueModel(model, enc, target, json.loads(blob.get("info", "{}")))


class ValueModel:
    """A loaded value network as a score (g, player) -> win probability or discounted value,
    +inf/-inf for a won/lost state (as the protocol's scores), computed with numpy."""

    def __init__(self, net: ValueNet, encoder, target: str, info: dict):
        self.net, self.encoder, self.target, self.info = net, encoder, target, info
        state = {k: v.numpy().astype(np.float64) for k, v in net.state_dict().items()}
        self._mean, self._scale = state["mean"], state["scale"]
        self._layers = [(m.weight.detach().numpy().astype(np.float64).T, m.bias.detach().numpy().astype(np.float64))
                        for m in net.mlp if isinstance(m, nn.Linear)]

    def value_of(self, features: np.ndarray) -> float:
        h = (features - self._mean) * self._scale
        for i, (w, b) in enumerate(self._layers):
            h = h @ w + b
            if i < len(self._layers) - 1:
                h = np.maximum(h, 0.0)
        raw = float(h[0])
        return 1 / (1 + math.exp(-raw)) if self.target == "win" else raw * VALUE_SCALE

    def __call__(self, g, player: int) -> float:
        if g.players[1 - player].hero.health < 1:
            return float("inf")
        if g.players[player].hero.health < 1:
            return float("-inf")
        return self.value_of(self.encoder.fn(g, player))
