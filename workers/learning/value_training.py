"""Training value networks: predict a game's outcome from a logged state (workers.learning.state_log).
The network itself, saving and loading it, is workers.players.value_model; the command line
is `python -m tools.values`.

An MLP (256-128-64 ReLU, dropout 0.3, after Swiechowski et al. 2018; AdamW, weight decay
0.01, inputs centred and scaled by 1 / max(std, 1)) over one encoder's vectors, trained
either to give the acting player's win probability ("win": binary cross-entropy on won / not
won) or to regress the discounted outcome 0.8^d * f ("discounted": f = 10 won, -8 lost, 3 tie,
d = turns to the game's end; squared error on the value / 10). Games, never states, are split:
a fixed hash of (deck, game index) puts 20% of the games in the held-out test set and 10% in a
validation set for early stopping; the training set for a learning-curve point of n states is
the first n states of the training games in a fixed shuffled game order (nested sets).

Training uses the project's routine (workers.learning.training): with `--device auto`, the CPU when torch
sees no GPU, else whichever of the two a short measurement finds faster (cached per model size).
"""
from __future__ import annotations

import functools
import json
import math
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from ..engine.rng import MASK64, derive
from ..players.encoders import ENCODERS
from ..players.value_model import HIDDEN, TARGETS, VALUE_SCALE, ValueNet, load_model, predict, save_model
from . import training

DISCOUNT = 0.8
REWARD = {1: 10.0, -1: -8.0, 0: 3.0}  # won, lost, tie
DROPOUT = 0.3  # after each hidden layer: a game's states are alike, and memorising them is easy
WEIGHT_DECAY = 1e-2  # AdamW
SIZES = (10, 100, 1000, 10000, 40000, 100000)  # learning-curve points; all training states is added
TEST_SHARE, VAL_SHARE = 0.2, 0.1
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
    (workers.learning.training): `device="auto"` is the CPU without a GPU, else the faster device by
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
# ------------------------------------------------------------------------------ experiment
def _say(text: str) -> None:
    print(text, flush=True)


def _device_note(device: str) -> str:
    if device != "auto":
        return device
    return "cpu" if training.visible_gpu() is None else "auto (the faster device, measured per training size)"


def load_files(paths, encoder: str) -> dict[str, np.ndarray]:
    """The rows of one or more collected files as one data set; each file's deck ids are moved
    past the previous file's, so that its games stay apart in the split by game."""
    from .state_log import load
    if len(paths) == 1:
        return load(paths[0], encoder)
    parts, offset = [], 0
    for path in paths:
        d = dict(load(path, encoder))
        d["deck"] = d["deck"].astype(np.int64) + offset
        offset = int(d["deck"].max()) + 1 if len(d["deck"]) else offset
        parts.append(d)
    out = {k: np.concatenate([d[k] for d in parts]) for k in parts[0] if k != "games_per_deck"}
    out["games_per_deck"] = max(d["games_per_deck"] for d in parts)
    return out


def run_training(data, out: str | Path = RESULTS, encoders=None, targets=TARGETS,
                 sizes=SIZES, seed: int = 0, device: str = "auto", max_epochs: int = 30,
                 quiet: bool = False) -> dict:
    """Learning curves and final models for each encoder and target; writes models, metrics.json,
    and the plots under `out`. `data`: a collected file, or a list of them trained on together."""
    say = (lambda *_: None) if quiet else _say
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    paths = [data] if isinstance(data, (str, Path)) else list(data)
    import h5py
    available = None
    for path in paths:
        with h5py.File(path, "r") as f:
            available = [e for e in f["x"] if available is None or e in available]
    encoders = list(encoders or [e for e in ENCODERS if e in available])
    data = " + ".join(str(p) for p in paths)
    results = {"data": data, "seed": seed, "device": _device_note(device),
               "threads": torch.get_num_threads(), "encoders": {}}
    for name in encoders:
        start = time.perf_counter()
        d = load_files(paths, name)
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
    from .state_log import load
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
