"""Post-hoc analyses of finished runs: `python -m pipeline.analysis mse MODEL.h5 DATA.h5`.

mse: the test error per target of one run's final surrogate on the real evaluations of
another run (the paper's check of how well a surrogate generalises).
"""
from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

import numpy as np
import torch

from . import checkpoint as ckpt
from .errors import CheckpointError, PipelineError
from .surrogate import Surrogate


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
    from workers.results import TARGET_NAMES
    model = load_surrogate(model_path)
    data = ckpt.load(data_path, required=("evaluations",)).arrays["evaluations"]
    pred = model.predict(data["decks"])
    err = np.mean((pred - data["targets"][:, :model.n_targets]) ** 2, axis=0)
    return {name: float(e) for name, e in zip(TARGET_NAMES, err)}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    mse = sub.add_parser("mse", help="test MSE per target of MODEL's surrogate on DATA's evaluations")
    mse.add_argument("model", type=Path)
    mse.add_argument("data", type=Path)
    args = parser.parse_args(argv)
    try:
        print(json.dumps(surrogate_test_mse(args.model, args.data), indent=1))
    except PipelineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
