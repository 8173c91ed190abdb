"""The paper's own surrogates beside our real evaluations:
`python -m tools.paper_surrogates --models DIR... --runs RUN_DIR... [--checkpoints H5...] [--seeds 0 1]
[--first N] [--cells evostone2|ours] [--train-once]`.

EvoStone2's repository keeps surrogates that the paper's runs trained on their SabberStone games
(`TestBed/DeckSearch/resources/fixed_models/`): `miracle_rogue_dsa-me_FCNN_default_target` (a DSA-ME
run's, its 19th training), `miracle_rogue_dsa-me-offline_FCNN_default_target` (trained once on a
DSA-ME run's evaluations) and `miracle_rogue_random_FCNN_default_target` (on 10,000 random decks).
Each is our surrogate's MLP (180 card counts in the pool's order -> 128 -> 32 -> 16 -> health
difference, turns, hand size; ELU), so without a SabberStone build they tell whether the paper's
games put our decks where ours put them. Per model (a `--models` folder with `model.ckpt.*`, or a
run folder's own `surrogate.pt`) it prints:

- calibration on each set of real evaluations (`--runs` folders with decks.npz, `--checkpoints`):
  each statistic's predicted mean and SD beside the real ones, the correlation, the slope of the
  real values on the predicted ones (1: the model's games spread these decks as ours did; above 1:
  ours spread them wider) and the mean squared error; a run's own surrogate is not scored on its
  own run's evaluations, which it trained on;
- the inner loop on it: our MAP-Elites on the surrogate alone (`experiment=paper`'s 100,000 x 10
  into a fresh archive of EvoStone2's cells), the elites it keeps and the share of them predicted
  inside both measure ranges, per `--seeds`; `--train-once` adds our surrogate trained once on
  each `--runs` folder's evaluations, as the paper's offline one was;
- for the paper's models, Adam's step count, from `beta2_power` = 0.999^steps;
- a deck's own noise per statistic, from the decks evaluated more than once in a set (what
  `tools.landscape_study --noise` takes).
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

from workers.inputs import ArgumentParser, InputError

from .tf_checkpoint import TFCheckpointError, read_checkpoint

STATISTICS = ("health_difference", "turns", "hand_size")  # the paper's surrogates' outputs, in order
LAYERS = 4
EVOSTONE2_RANGES = [[5.0, 16.0], [1.0, 8.0]]  # an even 40 x 40 split of these is EvoStone2's map's cells


class PaperSurrogate:
    """One of the paper's surrogates, read from its TF checkpoint: `predict` as ours does."""

    def __init__(self, tensors: dict[str, np.ndarray], source: str):
        try:
            self.layers = [(tensors[f"fc{i}/w"].astype(np.float64), tensors[f"fc{i}/b"].astype(np.float64))
                           for i in range(1, LAYERS + 1)]
        except KeyError as missing:
            raise TFCheckpointError(f"{source}: no tensor {missing} (the paper's MLP has fc1 to fc4)") from None
        self.beta2_power = float(tensors["beta2_power"]) if "beta2_power" in tensors else None

    @classmethod
    def load(cls, folder: Path) -> "PaperSurrogate":
        return cls(read_checkpoint(Path(folder) / "model.ckpt"), str(folder))

    def predict(self, decks: np.ndarray) -> np.ndarray:
        h = np.asarray(decks, dtype=np.float64)
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < LAYERS - 1:
                h = np.where(h >= 0, h, np.expm1(np.minimum(h, 0)))
        return h

    def kernel_weights(self):
        """The weights as the inner loop's kernels take them (pipeline.search.kernel_data.Network)."""
        from pipeline.search.kernel_data import Network
        args = []
        for i, (w, b) in enumerate(self.layers):
            args += [np.ascontiguousarray(w if i == 0 else w.T, dtype=np.float32), b.astype(np.float32)]
        return Network(*args, LAYERS, len(self.layers[-1][1]))

    @property
    def adam_steps(self) -> float | None:
        return None if not self.beta2_power else math.log(self.beta2_power) / math.log(0.999)


def calibration(predicted: np.ndarray, real: np.ndarray) -> dict[str, float]:
    """How one statistic's predictions stand to its real values."""
    cov = np.cov(real, predicted)
    return {"mean": float(predicted.mean()), "sd": float(predicted.std()), "real_mean": float(real.mean()),
            "real_sd": float(real.std()), "r": float(np.corrcoef(real, predicted)[0, 1]),
            "slope": float(cov[0, 1] / cov[1, 1]), "mse": float(np.mean((predicted - real) ** 2))}


def inner_archive(weights, seed: int, cells: str = "evostone2") -> dict[str, float]:
    """`experiment=paper`'s inner loop on a surrogate alone, into a fresh archive of EvoStone2's
    cells (or ours): its elites, and the share of them predicted inside both measure ranges."""
    from pipeline.deck_space import DeckSpace
    from pipeline.report.paper import PAPER_SPACE
    from pipeline.search.archives import ArchiveSpec, SurrogateGrid
    from pipeline.search.inner_loop import run_inner_loop

    from .run_config import checked_config
    inner = checked_config("experiment=paper", "algorithm=dsa_me").algorithm.inner
    space = DeckSpace.from_pool_file()
    ranges = EVOSTONE2_RANGES if cells == "evostone2" else PAPER_SPACE["ranges"]
    grid = SurrogateGrid(ArchiveSpec.from_config({**PAPER_SPACE, "ranges": ranges}), space.size, int(weights.n_out))
    run_inner_loop(space, weights, grid, np.random.default_rng(seed), int(inner.iterations), int(inner.batch_size),
                   int(inner.initial))
    m = grid.measures[grid.occupied]
    (t_lo, t_hi), (h_lo, h_hi) = PAPER_SPACE["ranges"]
    inside = (m[:, 0] > t_lo) & (m[:, 0] < t_hi) & (m[:, 1] > h_lo) & (m[:, 1] < h_hi)
    return {"elites": len(grid), "inside": float(inside.mean())}


def _evaluations(args) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each set of real evaluations by name (a run folder's or a checkpoint's file name): decks,
    and the three statistics as columns."""
    from pipeline.report.section6 import kept_evaluations
    from pipeline.state import checkpoint as ckpt
    sets = {}
    for folder in args.runs:
        kept = kept_evaluations(folder)
        if kept is None:
            raise InputError(f"{folder} keeps no decks.npz (the paper runs keep it from seed 1 on)")
        decks, columns = kept
        sets[folder.name] = decks, np.stack([columns[name] for name in STATISTICS], axis=1)
    for path in args.checkpoints:
        evaluations = ckpt.load(path, required=("evaluations",)).arrays["evaluations"]
        sets[path.name] = evaluations["decks"], evaluations["targets"][:, :len(STATISTICS)]
    return sets


def _our_models(args, sets) -> dict[str, tuple[object, str]]:
    """Our surrogates by name, each with the evaluation set it trained on (not scored on it)."""
    from pipeline.report.section6 import kept_surrogate
    models = {}
    for folder in args.runs:
        kept = kept_surrogate(folder)
        if kept is not None:
            models[f"ours: {folder.name}"] = kept[0], folder.name
        if args.train_once:
            models[f"ours, trained once: {folder.name}"] = trained_once(*sets[folder.name]), folder.name
    return models


def trained_once(decks: np.ndarray, real: np.ndarray):
    """Our surrogate trained once (the protocol's 20 epochs, seed 0) on a run's evaluations, as the
    paper's offline surrogate was trained on a DSA-ME run's."""
    from pipeline.deck_space import DeckSpace
    from pipeline.search.surrogate import Surrogate
    model = Surrogate("mlp", DeckSpace.from_pool_file().size, len(STATISTICS), device="cpu", seed=0)
    model.fit(decks.astype(np.float32), real, np.random.default_rng(0))
    return model


def repeat_noise(sets) -> tuple[int, np.ndarray]:
    """A deck's own noise per statistic, from the decks evaluated more than once within a set:
    the SD of the differences from a deck's first evaluation, over sqrt 2."""
    differences = []
    for decks, real in sets.values():
        first = {}
        for i, deck in enumerate(np.asarray(decks)):
            key = deck.tobytes()
            if key in first:
                differences.append(real[i] - real[first[key]])
            else:
                first[key] = i
    if not differences:
        return 0, np.full(len(STATISTICS), np.nan)
    return len(differences), np.std(differences, axis=0) / np.sqrt(2)


def report(models, sets, seeds, cells: str = "evostone2", first: int = 0) -> str:
    """The tables; `first`: score only each set's first N evaluations (0: all)."""
    if first:
        sets = {name: (decks[:first], real[:first]) for name, (decks, real) in sets.items()}
    label = f", first {first}" if first else ""
    repeats, noise = repeat_noise(sets)
    lines = [f"decks evaluated again: {repeats}; a deck's own noise SD ("
             + ", ".join(f"{name} {sd:.3g}" for name, sd in zip(STATISTICS, noise)) + ")", "",
             "| model | evaluations | statistic | predicted mean (real) | predicted SD (real) | r | "
             "slope of real on predicted | MSE |", "|---|---|---|---|---|---|---|---|"]
    for name, (model, own) in models.items():
        for set_name, (decks, real) in sets.items():
            if set_name == own:
                continue
            predicted = np.asarray(model.predict(np.asarray(decks, dtype=np.float32)), dtype=np.float64)
            for j, statistic in enumerate(STATISTICS):
                c = calibration(predicted[:, j], real[:, j].astype(np.float64))
                lines.append(f"| {name} | {set_name}{label} ({len(decks)}) | {statistic} | {c['mean']:.3f} "
                             f"({c['real_mean']:.3f}) | {c['sd']:.3f} ({c['real_sd']:.3f}) | {c['r']:.3f} | "
                             f"{c['slope']:.3f} | {c['mse']:.3f} |")
    where = "EvoStone2's" if cells == "evostone2" else "our"
    lines += ["", f"| model | Adam steps | inner loop: elites on {where} cells (share inside the ranges), per seed |",
              "|---|---|---|"]
    for name, (model, _) in models.items():
        steps = getattr(model, "adam_steps", None)
        runs = [inner_archive(model.kernel_weights(), seed, cells) for seed in seeds]
        archives = ", ".join(f"{r['elites']} ({r['inside']:.1%})" for r in runs)
        lines.append(f"| {name} | {'-' if steps is None else f'{steps:.0f}'} | {archives} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = ArgumentParser(prog="python -m tools.paper_surrogates", description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, nargs="*", default=[], help="folders with a TF model.ckpt "
                                                                            "(EvoStone2's fixed_models/*)")
    parser.add_argument("--runs", type=Path, nargs="*", default=[], help="run folders keeping decks.npz "
                                                                          "(their surrogate.pt is a model too)")
    parser.add_argument("--checkpoints", type=Path, nargs="*", default=[], help="checkpoints whose evaluations "
                                                                                 "are scored too")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0], help="the inner loop's seeds")
    parser.add_argument("--first", type=int, default=0, help="score only each set's first N evaluations "
                                                                  "(100: a run's random initial decks)")
    parser.add_argument("--cells", choices=("evostone2", "ours"), default="evostone2",
                        help="the inner loop's archive: EvoStone2's cells (default) or ours")
    parser.add_argument("--train-once", action="store_true",
                        help="also train our surrogate once on each --runs folder's evaluations")
    args = parser.parse_args(argv)
    from pipeline.run_errors import CheckpointError
    try:
        models = {folder.name: (PaperSurrogate.load(folder), None) for folder in args.models}
        sets = _evaluations(args)
        models.update(_our_models(args, sets))
    except (TFCheckpointError, CheckpointError, InputError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if not models or not sets:
        print("error: give at least one model (--models, or a --runs folder with surrogate.pt) and one set of "
              "evaluations (--runs, --checkpoints)", file=sys.stderr)
        return 2
    print(report(models, sets, args.seeds, args.cells, args.first), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
