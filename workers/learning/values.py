"""Value networks: predict a game's outcome from a logged state (workers.states).

    python -m workers.values train --data results/states/states.h5 [--encoders rich teo60 protocol15]
        [--targets win discounted] [--sizes 10 100 1000 10000 40000 100000] [--out results/values]
    python -m workers.values evaluate --model results/values/rich_win.pt --data FILE.h5 [--all-games]

An MLP (256-128-64 ReLU, dropout 0.3, after Swiechowski et al. 2018; AdamW, weight decay
0.01, inputs centred and scaled by 1 / max(std, 1)) over one encoder's vectors, trained
either to give the acting player's win probability ("win": binary cross-entropy on won / not
won) or to regress the discounted outcome 0.8^d * f ("discounted": f = 10 won, -8 lost, 3 tie,
d = turns to the game's end; squared error on the value / 10). Games, never states, are split:
a fixed hash of (deck, game index) puts 20% of the games in the held-out test set and 10% in a
validation set for early stopping; the training set for a learning-curve point of n states is
the first n states of the training games in a fixed shuffled game order (nested sets).

A saved model (torch.save of tensors and plain values only, loaded with weights_only=True)
holds its encoder's name and version, the input normalisation and the target; `load_model`
refuses a model whose encoder is unknown or of another version. `ValueModel(g, player)` scores a
state from `player`'s view with numpy (fast enough for a beam search's thousands of states).

Training uses the project's routine (pipeline.training): with `--device auto`, the CPU when torch
sees no GPU, else whichever of the two a short measurement finds faster (cached per model size).
"""
from __future__ import annotations

import argparse
import functools
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from pipeline import training

from .encoders import ENCODERS, get_encoder
from .engine.rng import MASK64, derive

TARGETS = ("win", "discounted")
DISCOUNT = 0.8
REWARD = {1: 10.0, -1: -8.0, 0: 3.0}  # won, lost, tie
VALUE_SCALE = 10.0  # the regression is trained on value / 10
HIDDEN = (256, 128, 64)
DROPOUT = 0.3  # after each hidden layer: a game's states are alike, and memorising them is easy
WEIGHT_DECAY = 1e-2  # AdamW
STD_FLOOR = 1.0  # inputs are scaled by 1 / max(std, 1): small counts are centred, not blown up
SIZES = (10, 100, 1000, 10000, 40000, 100000)  # learning-curve points; all training states is added
TEST_SHARE, VAL_SHARE = 0.2, 0.1
MODEL_FORMAT = 1
RESULTS = Path("results/values")


# ------------------------------------------------------------------------------ data
def target_values(outcome: np.ndarray, turns_to_end: np.ndarray, target: str) -> np.ndarray:
    """The training target of each row: 1/0 won or not ("win"), or 0.8^d * f ("discounted")."""
    if target == "win":
        return (outcome == 1).astype(np.float32)
    if target == "discounted":
        f = np.where(outcome == 1, REWARD[1], np.where(outcome == -1, REWARD[-1], REWARD[0]))
        return (DISCOUNT ** turns_to_end.astype(np.float64) * f).astype(np.float32)
    raise ValueError(f"unknown target {target!r}: expected one of {TARGETS}")


def game_keys(deck: np.ndarray, game_index: np.ndarray) -> np.ndarray:
    return deck.astype(np.int64) * 1_000_000 + game_index.astype(np.int64)


def split_games(deck: np.ndarray, game_index: np.ndarray, seed: int = 0,
                test_share: float = TEST_SHARE, val_share: float = VAL_SHARE) -> np.ndarray:
    """0 train / 1 validation / 2 test per row, from a hash of its game: every state of a game
    lands in the same part, whatever else the file holds."""
    keys = game_keys(deck, game_index)
    unique, inverse = np.unique(keys, return_inverse=True)
    u = np.array([derive(seed, 0x5B17, int(k)) / (MASK64 + 1) for k in unique])
    part = np.where(u < test_share, 2, np.where(u < test_share + val_share, 1, 0)).astype(np.int8)
    return part[inverse]


def training_order(deck: np.ndarray, game_index: np.ndarray, rows: np.ndarray, seed: int = 0) -> np.ndarray:
    """`rows` (indices of training rows) reordered: games in a fixed shuffled order, each game's
    states together in turn order, so that the first n rows make a nested training set."""
    keys = game_keys(deck[rows], game_index[rows])
    rank = np.array([derive(seed, 0x0DE5, int(k)) for k in np.unique(keys)], dtype=np.uint64)
    unique = np.unique(keys)
    game_rank = dict(zip(unique.tolist(), np.argsort(np.argsort(rank)).tolist()))
    order = np.array([game_rank[k] for k in keys.tolist()])
    return rows[np.lexsort((rows, order))]


# ------------------------------------------------------------------------------ model
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


@dataclass
class TrainResult:
    model: ValueNet
    epochs: int
    best_epoch: int
    seconds: float
    train_rows: int
    device: str = "cpu"


def train(x: np.ndarray, y: np.ndarray, x_val: np.ndarray, y_val: np.ndarray, target: str, *,
          hidden=HIDDEN, lr: float = 1e-3, batch_size: int = 256, max_epochs: int = 30,
          patience: int = 3, min_steps: int = 300, device: str = "auto", seed: int = 0,
          dropout: float = DROPOUT, weight_decay: float = WEIGHT_DECAY, log=None,
          threads: int | None = None) -> TrainResult:
    """AdamW on minibatches; after each epoch the validation loss decides early stopping, and
    the best epoch's weights are kept. An epoch is at least `min_steps / max_epochs` steps, so
    a tiny training set still gets some hundreds of updates. Trained by the project's routine
    (pipeline.training): `device="auto"` is the CPU without a GPU, else the faster device by
    measurement; `threads`: torch CPU threads while training (None: as set)."""
    start = time.perf_counter()
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = ValueNet(x.shape[1], hidden, dropout)
    model.set_normalisation(x)
    loss_fn = nn.BCEWithLogitsLoss() if target == "win" else nn.MSELoss()
    plain_loss = lambda pred, truth: (loss_fn(pred, truth), None)  # noqa: E731 - no per-target sums
    n = len(x)
    steps = max(math.ceil(n / batch_size), math.ceil(min_steps / max_epochs))
    y_train = _scaled(np.asarray(y), target)
    adamw = {"lr": lr, "weight_decay": weight_decay}
    with training.cpu_threads(threads):
        timer = functools.partial(training.estimate_fit_seconds, model=model, optimizer=("adamw", adamw),
                                  loss_fn=plain_loss, x=x, y=y_train, batch_size=batch_size,
                                  steps=steps * max_epochs, threads=threads)
        dev = training.choose_device(device, what="value network", model=model, batch_size=batch_size,
                                     rows=n, timer=timer)
        model.to(dev)
        xt, yt = training.to_device(x, dev), training.to_device(y_train, dev)
        xv = training.to_device(x_val, dev)
        yv = training.to_device(_scaled(np.asarray(y_val), target), dev)
        opt = training.make_optimizer("adamw", model.parameters(), dev, **adamw)
        gen = torch.Generator(device="cpu").manual_seed(seed)
        copies = math.ceil(steps * batch_size / n)
        best = {"loss": float("inf"), "epoch": 0, "state": None}

        def order(_epoch):  # `steps` full batches from back-to-back shuffles of the rows
            return torch.cat([torch.randperm(n, generator=gen) for _ in range(copies)])[:steps * batch_size]

        def after_epoch(epoch: int) -> bool:
            val = _loss(model, xv, yv, loss_fn)
            if val < best["loss"] - 1e-5:
                best.update(loss=val, epoch=epoch,
                            state={k: v.detach().clone() for k, v in model.state_dict().items()})
            if log is not None:
                log(f"epoch {epoch}/{max_epochs}: validation loss {val:.4f} (best {best['loss']:.4f} at "
                    f"{best['epoch']}), {time.perf_counter() - start:.1f}s")
            return epoch - best["epoch"] >= patience

        done = training.train_epochs(model, opt, plain_loss, xt, yt, order, batch_size=batch_size,
                                     epochs=max_epochs, on_epoch=after_epoch)
    if best["state"] is not None:
        model.load_state_dict(best["state"])
    model.eval()
    return TrainResult(model, done.epochs, best["epoch"], time.perf_counter() - start, n, str(dev))


def _scaled(y: np.ndarray, target: str) -> np.ndarray:
    return y if target == "win" else y / VALUE_SCALE


@torch.no_grad()
def _loss(model, x, y, loss_fn, chunk: int = 65536) -> float:
    model.eval()
    total = 0.0
    for s in range(0, len(x), chunk):
        total += loss_fn(model(x[s:s + chunk]), y[s:s + chunk]).item() * len(x[s:s + chunk])
    return total / max(len(x), 1)


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


# ------------------------------------------------------------------------------ metrics
def auc(score: np.ndarray, positive: np.ndarray) -> float:
    """Area under the ROC curve (Mann-Whitney, ties counted half)."""
    from scipy.stats import rankdata
    positive = positive.astype(bool)
    n_pos, n_neg = int(positive.sum()), int((~positive).sum())
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    ranks = rankdata(score)
    return float((ranks[positive].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def metrics(pred: np.ndarray, outcome: np.ndarray, turns_to_end: np.ndarray, target: str) -> dict:
    """AUC of the prediction for "the acting player wins"; accuracy of calling the winner
    (probability > 0.5, or value > 0); log-loss (win model) or RMSE of the value (discounted)."""
    won = outcome == 1
    out = {"rows": int(len(pred)), "auc": auc(pred, won)}
    if target == "win":
        p = np.clip(pred, 1e-7, 1 - 1e-7)
        out["accuracy"] = float(np.mean((pred > 0.5) == won))
        out["log_loss"] = float(-np.mean(np.where(won, np.log(p), np.log(1 - p))))
        out["brier"] = float(np.mean((pred - won) ** 2))
    else:
        out["accuracy"] = float(np.mean((pred > 0) == won))
        out["rmse"] = float(np.sqrt(np.mean((pred - target_values(outcome, turns_to_end, target)) ** 2)))
    return out


def auc_by_turn(pred, outcome, turn, edges=(1, 5, 9, 13, 17, 1000)) -> dict:
    out = {}
    for lo, hi in zip(edges, edges[1:]):
        sel = (turn >= lo) & (turn < hi)
        if sel.sum() > 20:
            label = f"{lo}-{hi - 1}" if hi < 1000 else f"{lo}+"
            out[label] = {"rows": int(sel.sum()), "auc": auc(pred[sel], outcome[sel] == 1)}
    return out


# ------------------------------------------------------------------------------ saving
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


# ------------------------------------------------------------------------------ experiment
def _say(text: str) -> None:
    print(text, flush=True)


def _device_note(device: str) -> str:
    if device != "auto":
        return device
    return "cpu" if training.visible_gpu() is None else "auto (the faster device, measured per training size)"


def run_training(data: str | Path, out: str | Path = RESULTS, encoders=None, targets=TARGETS,
                 sizes=SIZES, seed: int = 0, device: str = "auto", max_epochs: int = 30,
                 quiet: bool = False) -> dict:
    """Learning curves and final models for each encoder and target; writes models, metrics.json,
    and the plots under `out`."""
    from .states import load
    say = (lambda *_: None) if quiet else _say
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    import h5py
    with h5py.File(data, "r") as f:
        available = list(f["x"])
    encoders = list(encoders or [e for e in ENCODERS if e in available])
    results = {"data": str(data), "seed": seed, "device": _device_note(device),
               "threads": torch.get_num_threads(), "encoders": {}}
    for name in encoders:
        start = time.perf_counter()
        d = load(data, name)
        part = split_games(d["deck"], d["game_index"], seed)
        train_rows = training_order(d["deck"], d["game_index"], np.flatnonzero(part == 0), seed)
        val_rows, test_rows = np.flatnonzero(part == 1), np.flatnonzero(part == 2)
        x = d["x"]
        say(f"[values] {name}: {len(x):,} rows, {x.shape[1]} values; train {len(train_rows):,} / "
            f"validation {len(val_rows):,} / test {len(test_rows):,} rows "
            f"(loaded in {time.perf_counter() - start:.1f}s)")
        enc_results = results["encoders"][name] = {}
        points = sorted({s for s in sizes if s < len(train_rows)} | {len(train_rows)})
        for target in targets:
            y = target_values(d["outcome"], d["turns_to_end"], target)
            curve = []
            for n in points:
                rows = np.sort(train_rows[:n])
                log = (lambda text: say(f"[values] {name}/{target} n={n:,}: {text}")) \
                    if n == len(train_rows) else None
                r = train(x[rows], y[rows], x[val_rows], y[val_rows], target, device=device,
                          seed=seed, max_epochs=max_epochs, log=log)
                pred = predict(r.model, x[test_rows], target)
                m = metrics(pred, d["outcome"][test_rows], d["turns_to_end"][test_rows], target)
                m.update(train_rows=n, epochs=r.epochs, best_epoch=r.best_epoch, seconds=round(r.seconds, 2),
                         device=r.device)
                curve.append(m)
                say(f"[values] {name}/{target} n={n:,}: AUC {m['auc']:.4f}, accuracy {m['accuracy']:.4f}"
                    + (f", log-loss {m['log_loss']:.4f}" if "log_loss" in m else f", RMSE {m['rmse']:.3f}")
                    + f" ({r.epochs} epochs, {r.seconds:.1f}s)")
            final = curve[-1]
            final["auc_by_turn"] = auc_by_turn(pred, d["outcome"][test_rows], d["turn"][test_rows])
            model_path = out / f"{name}_{target}.pt"
            save_model(model_path, r.model, name, target,
                       {"data": str(data), "split_seed": seed, "test_share": TEST_SHARE,
                        "val_share": VAL_SHARE, "test": {k: v for k, v in final.items() if k != "auc_by_turn"}})
            if target == "win":
                final["calibration"] = calibration(pred, d["outcome"][test_rows] == 1)
            enc_results[target] = {"curve": curve, "final": final, "model": str(model_path)}
        results["encoders"][name]["seconds"] = round(time.perf_counter() - start, 1)
    results = _merge_earlier(out / "metrics.json", results)
    (out / "metrics.json").write_text(json.dumps(results, indent=1))
    plot_results(results, out)
    (out / "summary.md").write_text(summary_table(results))
    say(summary_table(results))
    return results


def _merge_earlier(path: Path, results: dict) -> dict:
    """Keep the encoders and targets that an earlier run on the same data and seed trained into
    the same folder (one encoder can be trained at a time) and this run did not."""
    if path.exists():
        try:
            old = json.loads(path.read_text())
        except ValueError:
            old = {}
        if old.get("data") == results["data"] and old.get("seed") == results["seed"]:
            for name, per in old.get("encoders", {}).items():
                mine = results["encoders"].setdefault(name, {})
                for key, value in per.items():
                    mine.setdefault(key, value)
    order = list(ENCODERS)
    results["encoders"] = dict(sorted(results["encoders"].items(),
                                      key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order)))
    return results


def calibration(prob: np.ndarray, won: np.ndarray, bins: int = 10) -> list:
    """(mean predicted, observed win share, rows) per probability decile bin."""
    edges = np.linspace(0, 1, bins + 1)
    which = np.clip(np.digitize(prob, edges) - 1, 0, bins - 1)
    out = []
    for b in range(bins):
        sel = which == b
        if sel.any():
            out.append([float(prob[sel].mean()), float(won[sel].mean()), int(sel.sum())])
    return out


def summary_table(results: dict) -> str:
    lines = ["| encoder | target | train states | held-out AUC | accuracy | log-loss / RMSE |",
             "|---|---|---|---|---|---|"]
    for name, per in results["encoders"].items():
        for target in TARGETS:
            if target not in per:
                continue
            f = per[target]["final"]
            last = f"{f['log_loss']:.4f}" if "log_loss" in f else f"{f['rmse']:.3f} (RMSE)"
            lines.append(f"| {name} | {target} | {f['train_rows']:,} | {f['auc']:.4f} | "
                         f"{f['accuracy']:.4f} | {last} |")
    lines.append("")
    lines.append("Learning curves (held-out AUC by training states):")
    for name, per in results["encoders"].items():
        for target in TARGETS:
            if target in per:
                points = ", ".join(f"{p['train_rows']:,}: {p['auc']:.3f}" for p in per[target]["curve"])
                lines.append(f"- {name}/{target}: {points}")
    return "\n".join(lines) + "\n"


def plot_results(results: dict, out: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for i, (name, per) in enumerate(results["encoders"].items()):
        for target, style in (("win", "-"), ("discounted", "--")):
            if target in per:
                c = per[target]["curve"]
                ax.plot([p["train_rows"] for p in c], [p["auc"] for p in c], style, marker="o",
                        color=f"C{i}", label=f"{name} / {target}")
    ax.set_xscale("log")
    ax.set_xlabel("training states")
    ax.set_ylabel("AUC on held-out games")
    ax.set_title("Value networks: learning curves")
    ax.axhline(0.5, color="grey", lw=0.5)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "learning_curve.png", dpi=120)
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(5, 5))
    ax.plot([0, 1], [0, 1], color="grey", lw=0.8)
    for i, (name, per) in enumerate(results["encoders"].items()):
        cal = per.get("win", {}).get("final", {}).get("calibration")
        if cal:
            ax.plot([c[0] for c in cal], [c[1] for c in cal], marker="o", color=f"C{i}", label=name)
    ax.set_xlabel("predicted win probability")
    ax.set_ylabel("observed win share (held-out games)")
    ax.set_title("Calibration of the win models")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "calibration.png", dpi=120)
    plt.close(fig)


def evaluate_model(model_path: str | Path, data: str | Path, all_games: bool = False) -> dict:
    """A saved model's metrics on a data file: its held-out games (the split it was trained
    with), or every row with `all_games` (a file it never saw)."""
    from .states import load
    vm = load_model(model_path)
    d = load(data, vm.encoder.name)
    if all_games:
        rows = np.arange(len(d["x"]))
    else:
        part = split_games(d["deck"], d["game_index"], int(vm.info.get("split_seed", 0)),
                           vm.info.get("test_share", TEST_SHARE), vm.info.get("val_share", VAL_SHARE))
        rows = np.flatnonzero(part == 2)
    pred = predict(vm.net, d["x"][rows], vm.target)
    m = metrics(pred, d["outcome"][rows], d["turns_to_end"][rows], vm.target)
    m["auc_by_turn"] = auc_by_turn(pred, d["outcome"][rows], d["turn"][rows])
    m.update(encoder=vm.encoder.name, target=vm.target)
    return m


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m workers.values", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="learning curves and final models from a collected file")
    t.add_argument("--data", required=True, help="an HDF5 file of python -m workers.states collect")
    t.add_argument("--out", default=str(RESULTS))
    t.add_argument("--encoders", nargs="+", default=None, choices=list(ENCODERS))
    t.add_argument("--targets", nargs="+", default=list(TARGETS), choices=list(TARGETS))
    t.add_argument("--sizes", nargs="+", type=int, default=list(SIZES))
    t.add_argument("--max-epochs", type=int, default=30)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--device", default="auto",
                   help="auto (the faster of CPU and GPU, measured; the CPU without a GPU), cpu, cuda, ...")
    t.add_argument("--threads", type=int, default=None, help="torch CPU threads")
    e = sub.add_parser("evaluate", help="a saved model's metrics on a collected file")
    e.add_argument("--model", required=True)
    e.add_argument("--data", required=True)
    e.add_argument("--all-games", action="store_true", help="every row, not just the held-out games")
    args = parser.parse_args(argv)
    for path in [args.data] + ([args.model] if args.command == "evaluate" else []):
        if not Path(path).is_file():
            parser.error(f"{path} is not a file")
    try:
        if args.command == "train":
            if args.threads:
                torch.set_num_threads(args.threads)
            if min(args.sizes) < 1 or args.max_epochs < 1:
                parser.error("--sizes and --max-epochs must be at least 1")
            run_training(args.data, args.out, args.encoders, args.targets, args.sizes, args.seed,
                         args.device, args.max_epochs)
        else:
            print(json.dumps(evaluate_model(args.model, args.data, args.all_games), indent=1))
    except (ValueError, OSError) as exc:  # ModelError, a file of another encoder version, ...
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
