"""Value networks from the command line (workers.learning.value_training does the work).

    python -m tools.values train --data results/states/states.h5 [MORE.h5 ...] [--encoders rich teo60 protocol15]
        [--targets win discounted] [--sizes 10 100 1000 10000 40000 100000] [--out results/values]
    python -m tools.values evaluate --model results/values/rich_win.pt --data FILE.h5 [--all-games]
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import torch

from workers.inputs import ArgumentParser
from workers.learning.value_training import RESULTS, SIZES, evaluate_model, run_training
from workers.players.encoders import ENCODERS
from workers.players.value_model import TARGETS


def main(argv=None) -> int:
    parser = ArgumentParser(prog="python -m tools.values", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="learning curves and final models from a collected file")
    t.add_argument("--data", required=True, nargs="+",
                   help="HDF5 files of python -m tools.states collect (several: trained on together)")
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
    data = args.data if isinstance(args.data, list) else [args.data]
    for path in data + ([args.model] if args.command == "evaluate" else []):
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
