"""`python -m pipeline.report.summaries RUN_DIR...`: rewrite a stopped run's summaries (archive.csv,
evaluations.csv, metrics.jsonl, the heatmap, best decks, the archive page, decks.npz, the
surrogate) from its checkpoint, as the driver writes them at the end of a run.

A run stopped by SIGTERM or Ctrl-C writes only its checkpoint (the reports could outlast a batch
system's grace period), so its summaries are those of an earlier checkpoint; this brings them up
to the checkpoint, for instance before an unfinished run is committed. It holds the run folder's
lock meanwhile, so a run still going is refused, and it changes nothing but those files."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..run_errors import PipelineError


def rewrite_summaries(run_dir: Path) -> int:
    """Writes the summaries of the run in `run_dir` from its checkpoint; returns its evaluations."""
    from omegaconf import OmegaConf

    from ..deck_space import DeckSpace
    from ..search import search_class
    from ..state import checkpoint as ckpt
    from ..state import run_dir as rd
    from ..state.config import validate
    if not (run_dir / ckpt.FILENAME).is_file():
        raise PipelineError(f"{run_dir} holds no checkpoint ({ckpt.FILENAME}) to write summaries from")
    with rd.locked(run_dir):
        saved = ckpt.load(run_dir / ckpt.FILENAME)
        cfg = validate(OmegaConf.create(saved.config_yaml))
        cfg.progress = False
        search = search_class(cfg.algorithm.kind)(cfg, run_dir, DeckSpace.from_config(cfg.deck_space), None,
                                                  saved.config_yaml)
        search.resume(saved)
        search.write_reports()
        return search.evaluations


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.report.summaries", description=__doc__)
    parser.add_argument("runs", nargs="+", type=Path, help="run directories")
    args = parser.parse_args(argv)
    for run_dir in args.runs:
        try:
            evaluations = rewrite_summaries(run_dir)
        except PipelineError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"{run_dir}: summaries written from its checkpoint ({evaluations} evaluations)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
