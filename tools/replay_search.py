"""A run's search computed again on its recorded games: `python -m tools.replay_search RUN_DIR [--upto N]`.

The head node's side of a DSA-ME or MAP-Elites run (surrogate training, inner loops, mutations,
the decks each batch chooses) is computed again from the run's config, and each deck's result
is taken from the evaluations its checkpoint recorded instead of played (RecordedGames stands in
for the workers: the games themselves are the engine's to reproduce, and `make fidelity` and the
records' digests check those). It says whether the search asked for exactly the run's decks, in
order, or names the first evaluation where it chose another: under other thread counts or on
another CPU this checks that a run computes the same, at the cost of the head node's share of
a run (minutes for thousands of evaluations) instead of its games (hours).
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import numpy as np
from omegaconf import OmegaConf

from pipeline import float_paths
from pipeline.cluster.evaluation import BatchTiming
from pipeline.deck_space import DeckSpace
from pipeline.run_errors import PipelineError
from pipeline.search import search_class
from pipeline.search.loop import legacy_lag
from pipeline.state import checkpoint as ckpt
from pipeline.state.config import validate


class Diverged(Exception):
    """The search asked for another deck than the run evaluated under this id."""

    def __init__(self, eval_id: int):
        super().__init__(eval_id)
        self.eval_id = eval_id


class ReplayEnd(Exception):
    """The search asked for an evaluation beyond those replayed."""


class RecordedResult:
    def __init__(self, targets: np.ndarray):
        self._targets, self.errors = targets, []

    def targets(self) -> list[float]:
        return [float(t) for t in self._targets]


class RecordedGames:
    """STAND-IN for the evaluation client: each deck's result is the one the run recorded for
    its evaluation id, once the deck is checked to be the one the run evaluated."""

    slots = 1  # unused: the loop's numbers come from the run's config or checkpoint

    def __init__(self, decks: np.ndarray, targets: np.ndarray, upto: int):
        self.decks, self.targets, self.upto = decks, targets, upto

    def submit(self, decks, ids, strategies=None, last=False) -> "RecordedBatch":
        return RecordedBatch(self, np.asarray(decks), np.asarray(ids))

    def cpu_and_games(self) -> tuple[None, int]:
        return None, 0  # no worker plays here


class RecordedBatch:
    timing = BatchTiming(0.0, 0.0, 1)

    def __init__(self, games: RecordedGames, decks: np.ndarray, ids: np.ndarray):
        self.games, self.decks, self.ids, self.returned = games, decks, ids, 0

    def ready(self, most: int) -> list[RecordedResult]:
        results = []
        for deck, eval_id in zip(self.decks[self.returned:self.returned + most], self.ids[self.returned:]):
            if eval_id >= self.games.upto:
                if results:
                    break
                raise ReplayEnd
            if not np.array_equal(deck, self.games.decks[eval_id]):
                raise Diverged(int(eval_id))
            results.append(RecordedResult(self.games.targets[eval_id]))
        self.returned += len(results)
        return results


def replay(run_dir: Path, upto: int | None = None) -> tuple[int, int | None]:
    """(evaluations replayed, the first evaluation id where the search chose another deck or None)."""
    saved = ckpt.load(Path(run_dir) / ckpt.FILENAME)
    recorded = saved.arrays["evaluations"]
    decks, targets = recorded["decks"].astype(np.int16), recorded["targets"]
    upto = len(decks) if upto is None else min(upto, len(decks))
    cfg = validate(OmegaConf.create(saved.config_yaml))
    cfg.progress = False
    space = DeckSpace.from_config(cfg.deck_space)
    with tempfile.TemporaryDirectory() as scratch:
        search = search_class(cfg.algorithm.kind)(cfg, Path(scratch), space, RecordedGames(decks, targets, upto),
                                                  saved.config_yaml)
        search.write_reports = lambda **kw: None  # what a replay compares is the decks, not the pages
        search.checkpoint = lambda: None
        if search.steady_state:  # the lag the run used, as its resume would keep it
            search.lag = int(saved.state.get("lag", legacy_lag(search.algo)))
        try:
            search.run()
        except Diverged as exc:
            return exc.eval_id, exc.eval_id
        except ReplayEnd:
            pass
        return search.evaluations, None


def main(argv=None) -> int:
    from workers.inputs import ArgumentParser
    parser = ArgumentParser(prog="python -m tools.replay_search", description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path, help="a run folder with its checkpoint")
    parser.add_argument("--upto", type=int, default=None, help="replay the first N evaluations (default: all)")
    args = parser.parse_args(argv)
    try:
        done, diverged = replay(args.run_dir, args.upto)
    except PipelineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    threads = {k: os.environ[k] for k in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS") if k in os.environ}
    if diverged is not None:
        print(f"diverged at evaluation {diverged}: the search chose another deck than the run evaluated "
              f"(the first {diverged} are the same){'; ' + str(threads) if threads else ''}")
    else:
        print(f"the same: the search asked for the run's {done} decks in order{'; ' + str(threads) if threads else ''}")
    # what the numbers hung on here, to set beside another machine's replay
    print(f"computed on {float_paths.cpu_model()}, CPU paths {'pinned' if float_paths.PINNED else 'not pinned'}, "
          f"MKL's branch {float_paths.describe_mkl_branch(float_paths.mkl_branch())}")
    return 1 if diverged is not None else 0


if __name__ == "__main__":
    sys.exit(main())
