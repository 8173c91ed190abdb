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


def elite_transfer(path: Path, evaluator, spec=None) -> dict[str, float]:
    from ..search.archives import ArchiveSpec, archive_arrays, make_archive
    saved = ckpt.load(path)
    if "surrogate_archive" not in saved.arrays:
        raise CheckpointError(f"{path} holds no surrogate archive (not a surrogate-assisted run)")
    grid = saved.arrays["surrogate_archive"]
    spec = spec or ArchiveSpec()
    decks = grid["solution"]
    results = evaluator.evaluate(decks, TRANSFER_EVAL_OFFSET + np.arange(len(decks)))
    targets = np.array([r.targets() for r in results])
    archive = make_archive(spec, decks.shape[1])
    objective, measures = spec.behavior.values(targets, decks, evaluator.space)
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
            print(json.dumps(_transfer_cli(args.run, args.workers), indent=1))
    except PipelineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)


def _transfer_cli(path: Path, workers: int | None) -> dict:
    from omegaconf import OmegaConf

    from ..cluster.clusters import open_cluster
    from ..cluster.evaluation import EvaluationClient
    from ..deck_space import DeckSpace
    from ..search.archives import ArchiveSpec
    cfg = OmegaConf.create(ckpt.load(path).config_yaml)
    space = DeckSpace.from_config(cfg.deck_space)
    cluster_cfg = OmegaConf.merge(cfg.cluster, {"kind": "local", "n_workers": workers, "dashboard": False})
    with open_cluster(cluster_cfg) as client:
        evaluator = EvaluationClient(
            client, space, run_seed=int(cfg.seed), games=int(cfg.opponents.games),
            games_per_task=cfg.cluster.games_per_task, player=cfg.strategy.player,
            strategy=cfg.strategy.evaluated, beam_depth=int(cfg.strategy.beam_depth),
            beam_width=int(cfg.strategy.beam_width),
            # a checkpoint written before the option existed has no such key: false
            hide_deck_order=bool(cfg.strategy.get("hide_deck_order", False)),
            opponents_path=cfg.opponents.path)
        return elite_transfer(path, evaluator, ArchiveSpec.from_config(cfg.archive))


if __name__ == "__main__":
    main()
