"""`python -m pipeline.report RUN_OR_SWEEP_DIR... [--out DIR]`: Table 1, statistics, figures,
surrogate analyses and top decks of the given runs, with an index.html to look at."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..cluster.stops import Stopped
from ..run_errors import PipelineError


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m pipeline.report", description=__doc__)
    parser.add_argument("runs", nargs="+", type=Path, help="run directories, or folders holding them")
    parser.add_argument("--out", type=Path, default=Path("results/report"), help="report folder (replaced)")
    parser.add_argument("--transfer", choices=("first", "all", "none"), default="first",
                        help="re-evaluate the last surrogate archive of the first run of each "
                             "surrogate algorithm (default), of all runs, or of none; plays real games")
    parser.add_argument("--workers", type=int, default=None, help="local Dask workers for --transfer")
    parser.add_argument("--top-decks", type=int, default=10, help="best decks listed per run")
    args = parser.parse_args(argv)
    if args.top_decks < 1 or (args.workers is not None and args.workers < 1):
        print("error: --top-decks and --workers must be positive", file=sys.stderr)
        sys.exit(2)
    if any(args.out.resolve() == p.resolve() or p.resolve() in args.out.resolve().parents for p in args.runs
           if (p / "checkpoint.h5").is_file()):
        print(f"error: --out {args.out} lies inside a run directory; choose another folder", file=sys.stderr)
        sys.exit(2)
    try:
        from ..state import checkpoint as ckpt
        from .runs import find_run_dirs
        for run_dir in find_run_dirs(args.runs):  # path errors and damaged or older
            ckpt.verified_bytes(run_dir / ckpt.FILENAME)  # checkpoints before the report's heavy imports
        from .build import build_report
        out = build_report(args.runs, args.out, transfer=args.transfer, workers=args.workers,
                           top_decks=args.top_decks)
    except PipelineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    except Stopped as stop:  # outside the transfer, whose own stop the report goes on from
        print(f"error: the report was stopped by {stop.signal_name} (the transfer's games played so far are kept in "
              f"{args.out})", file=sys.stderr)
        sys.exit(stop.code)
    except OSError as exc:  # a read-only or full disk where the report goes
        print(f"error: cannot write the report in {args.out}: {exc.strerror or exc}", file=sys.stderr)
        sys.exit(2)
    print(f"report written to {out}/index.html")


if __name__ == "__main__":
    main()
