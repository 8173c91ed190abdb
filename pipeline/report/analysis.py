"""Post-hoc analyses of finished runs: `python -m pipeline.report.analysis mse MODEL.h5 DATA.h5`.

mse: the test error per target of one run's final surrogate on the real evaluations of
another run (the paper's check of how well a surrogate generalises).
transfer: evaluate the elites of a run's last surrogate archive for real, place them in a new
archive and report the share retained as elites, the share landing in their predicted cell, and
the mean Manhattan distance between predicted and real cells (`python -m pipeline.report.analysis
transfer RUN/checkpoint.h5`; uses the run's game settings on a LocalCluster).
"""
from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

import numpy as np
import torch

from ..run_errors import CheckpointError, PipelineError
from ..search.surrogate import Surrogate
from ..state import checkpoint as ckpt


def load_surrogate(path: Path) -> Surrogate:
    saved = ckpt.load(path, required=("evaluations",))
    if "surrogate" not in saved.blobs:
        raise CheckpointError(f"{path} holds no surrogate model")
    head = torch.load(io.BytesIO(saved.blobs["surrogate"]), map_location="cpu", weights_only=True)
    import yaml
    hidden = yaml.safe_load(saved.config_yaml)["surrogate"]["hidden"]
    model = Surrogate(head["kind"], head["n_inputs"], head["n_targets"], hidden=hidden, device="cpu")
    model.load_state_bytes(saved.blobs["surrogate"], with_optimizer=False)
    return model


def surrogate_test_mse(model_path: Path, data_path: Path) -> dict[str, float]:
    """Per statistic the model learned (its run's behaviour space), its test MSE on the data."""
    import yaml

    from ..behavior_space import STATISTICS
    from ..deck_space import DeckSpace
    from ..search.archives import ArchiveSpec
    model = load_surrogate(model_path)
    config = yaml.safe_load(ckpt.load(model_path).config_yaml)
    behavior = ArchiveSpec.from_config(config["archive"]).behavior
    data = ckpt.load(data_path, required=("evaluations",)).arrays["evaluations"]
    columns = behavior.surrogate_columns(model.n_targets)
    stats = behavior.statistics(data["targets"], data["decks"], DeckSpace.from_config(config["deck_space"]))
    err = np.mean((model.predict(data["decks"]) - stats[:, columns]) ** 2, axis=0)
    return {STATISTICS[c]: float(e) for c, e in zip(columns, err)}


TRANSFER_EVAL_OFFSET = 10 ** 9  # evaluation ids (hence seeds) apart from the run's own
TRANSFER_PIECE = 8  # decks handed back at a time: how often progress moves and what a stop keeps


def surrogate_elites(saved: ckpt.Checkpoint) -> dict[str, np.ndarray]:
    """The last surrogate archive of the run whose checkpoint is `saved`."""
    if "surrogate_archive" not in saved.arrays:
        raise CheckpointError(f"{saved.path} holds no surrogate archive (not a surrogate-assisted run)")
    return saved.arrays["surrogate_archive"]


def play_elites(decks: np.ndarray, evaluator, played=(), on_piece=None, progress=None) -> np.ndarray:
    """The real targets of every deck, in order. `played`: the targets of a first part already
    played (a stopped report's); deck i always plays the games of evaluation id
    TRANSFER_EVAL_OFFSET + i, so a continued transfer plays what an unbroken one would.
    `on_piece(targets so far)` is called as each piece of decks comes back."""
    targets = [list(t) for t in played]
    if len(targets) < len(decks):
        batch = evaluator.submit(decks[len(targets):], TRANSFER_EVAL_OFFSET + np.arange(len(targets), len(decks)))
        while batch.waiting:
            targets += [r.targets() for r in batch.results(progress, count=min(TRANSFER_PIECE, batch.waiting))]
            if on_piece is not None:
                on_piece(targets)
    return np.array(targets, dtype=float)


def transfer_summary(grid: dict[str, np.ndarray], targets: np.ndarray, spec, space) -> dict[str, float]:
    """The surrogate archive's elites placed by their real targets in a new archive: the share
    kept as elites, the share in the cell the surrogate predicted, the mean Manhattan distance."""
    from ..search.archives import archive_arrays, make_archive
    decks = grid["solution"]
    archive = make_archive(spec, decks.shape[1])
    objective, measures = spec.behavior.values(targets, decks, space)
    archive.add(decks, objective, measures, eval_id=np.arange(len(decks)), targets=targets)
    real_cells = archive.index_of(measures)
    predicted = np.asarray(grid["index"])
    kept = set(archive_arrays(archive)["eval_id"].tolist())
    dims = np.array(spec.dims)
    distance = np.abs(np.array(np.unravel_index(real_cells, dims)) - np.array(np.unravel_index(predicted, dims))).sum(0)
    return {"surrogate_elites": int(len(decks)), "retained_share": len(kept) / len(decks),
            "same_cell_share": float(np.mean(real_cells == predicted)),
            "mean_manhattan_distance": float(distance.mean())}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    mse = sub.add_parser("mse", help="test MSE per target of MODEL's surrogate on DATA's evaluations")
    mse.add_argument("model", type=Path)
    mse.add_argument("data", type=Path)
    transfer = sub.add_parser("transfer", help="evaluate RUN's last surrogate archive for real")
    transfer.add_argument("run", type=Path)
    transfer.add_argument("--workers", type=int, default=None)
    args = parser.parse_args(argv)
    try:
        if args.command == "mse":
            print(json.dumps(surrogate_test_mse(args.model, args.data), indent=1))
        else:
            print(json.dumps(run_transfer(args.run, args.workers), indent=1))
    except PipelineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)


def run_transfer(path: Path, workers: int | None, played=(), on_piece=None, progress=None,
                 announce=None) -> dict:
    """The transfer of one run (its checkpoint at `path`) on a local cluster of `workers`, its
    games played as the run played them (engine, player, opponents, retries): what the command
    line and the report run. `played`, `on_piece`: as for play_elites; `announce(n)` is called
    with the cluster's worker slots once it is up, before any game is played."""
    saved = ckpt.load(path)
    grid = surrogate_elites(saved)
    targets = play_as_the_run(saved.config_yaml, grid["solution"], workers, played, on_piece, progress, announce)
    spec, space = run_spaces(saved.config_yaml)
    return transfer_summary(grid, targets, spec, space)


def run_spaces(config_yaml: str):
    """(ArchiveSpec, DeckSpace) of the run whose config.yaml is `config_yaml`."""
    from ..deck_space import DeckSpace
    from ..search.archives import ArchiveSpec
    cfg = _run_config(config_yaml)
    return ArchiveSpec.from_config(cfg.archive), DeckSpace.from_config(cfg.deck_space)


def _run_config(config_yaml: str):
    from omegaconf import OmegaConf

    from ..state.config import validate
    # validated: a key added since the run was written takes its default, as on resume
    return validate(OmegaConf.create(config_yaml))


def play_as_the_run(config_yaml: str, decks: np.ndarray, workers: int | None, played=(), on_piece=None,
                    progress=None, announce=None) -> np.ndarray:
    """The real targets of `decks` (play_elites) with the games of the run whose config.yaml is
    `config_yaml`, on a local cluster of `workers`."""
    from omegaconf import OmegaConf

    from ..cluster.run_client import cluster_and_client
    from ..deck_space import DeckSpace
    cfg = _run_config(config_yaml)
    cfg.cluster = OmegaConf.merge(cfg.cluster, {"kind": "local", "n_workers": workers, "dashboard": False})
    with cluster_and_client(cfg, DeckSpace.from_config(cfg.deck_space)) as evaluator:
        if announce is not None:
            announce(evaluator.workers())
        return play_elites(decks, evaluator, played, on_piece, progress)


if __name__ == "__main__":
    main()
