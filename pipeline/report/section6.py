"""The paper's Section 6 check of its surrogates, from run summaries alone.

Test error: the final surrogate of one trial (`surrogate.pt`) tested on another trial's real
evaluations (`decks.npz` with `evaluations.csv`), per statistic it predicts, averaged over every
ordered pair of trials of an algorithm.
Transfer: the elites of a trial's last surrogate archive (`surrogate_elites.npz`, MAP-Elites run on
its final surrogate) played for real with the run's own games, once: `python -m
pipeline.report.section6 transfer RUN...` keeps their results in the run folder
(`transfer_games.npz`, each piece as it comes back, so a stop loses none), and the share retained,
the share in the predicted cell and the mean Manhattan distance are computed from it.
The paper's own figures are data in paper_table1.json ("section6")."""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import yaml

from ..behavior_space import STATISTICS
from ..deck_space import DeckSpace
from ..search import run_files
from ..search.archives import ArchiveSpec
from ..search.surrogate import Surrogate
from .runs import ReportError


def kept_surrogate(folder: Path) -> tuple[Surrogate, list[str]] | None:
    """A run folder's final surrogate and the statistics it predicts, in its output order; None
    without surrogate.pt."""
    path = Path(folder) / run_files.SURROGATE_FILE
    if not path.is_file():
        return None
    config = yaml.safe_load((Path(folder) / "config.yaml").read_text())
    behavior = ArchiveSpec.from_config(config["archive"]).behavior
    n_targets = behavior.surrogate_outputs(int(config["algorithm"]["targets"]))
    space = DeckSpace.from_config(config["deck_space"])
    model = Surrogate(config["algorithm"]["model"], space.size, n_targets, hidden=config["surrogate"]["hidden"],
                      device="cpu")
    model.load_state_bytes(path.read_bytes(), with_optimizer=False, source=str(path))
    return model, [STATISTICS[c] for c in behavior.surrogate_columns(int(config["algorithm"]["targets"]))]


def kept_evaluations(folder: Path) -> tuple[np.ndarray, dict[str, np.ndarray]] | None:
    """A run folder's real evaluations: decks (card counts) and evaluations.csv's columns by name;
    None without decks.npz."""
    path = Path(folder) / run_files.DECKS_FILE
    if not path.is_file():
        return None
    decks = run_files.read_run_decks(folder)
    table = np.genfromtxt(Path(folder) / run_files.EVALUATIONS_CSV, delimiter=",", names=True)
    return decks, {name: np.atleast_1d(table[name])[:len(decks)] for name in table.dtype.names}


def _mse(kept: tuple[Surrogate, list[str]], data: tuple[np.ndarray, dict[str, np.ndarray]]) -> dict[str, float]:
    (model, names), (decks, columns) = kept, data
    predicted = model.predict(decks)
    return {name: float(np.mean((predicted[:, i] - columns[name]) ** 2))
            for i, name in enumerate(names) if name in columns}


def test_mse(model_folder: Path, data_folder: Path) -> dict[str, float] | None:
    """Per statistic one trial's final surrogate predicts, its mean squared error on another
    trial's evaluations; None where either lacks what it needs."""
    kept, data = kept_surrogate(model_folder), kept_evaluations(data_folder)
    return None if kept is None or data is None else _mse(kept, data)


def mean_pairwise_mse(folders: list[Path]) -> tuple[dict[str, float], int]:
    """The test MSE per statistic averaged over every ordered pair of different trials that have
    what it needs, and how many pairs that is (each trial's files read once)."""
    models = {f: kept_surrogate(f) for f in folders}
    data = {f: kept_evaluations(f) for f in folders}
    results = [_mse(models[a], data[b]) for a in folders for b in folders
               if a != b and models[a] is not None and data[b] is not None]
    if not results:
        return {}, 0
    return {name: float(np.mean([r[name] for r in results])) for name in results[0]}, len(results)


TRANSFER_GAMES = "transfer_games.npz"  # the elites' digest and their targets, in order


def kept_surrogate_elites(folder: Path) -> tuple[dict[str, np.ndarray], str] | None:
    """A run folder's last surrogate archive as transfer_summary takes it (`solution`: card counts,
    `index`: the cell the surrogate predicted) and the digest of its file; None without the file."""
    path = Path(folder) / run_files.SURROGATE_ELITES_FILE
    if not path.is_file():
        return None
    decks = run_files.read_run_decks(folder, run_files.SURROGATE_ELITES_FILE)
    with np.load(path) as data:
        cells = data["cell"].astype(np.int64)
    return {"solution": decks, "index": cells}, hashlib.sha256(path.read_bytes()).hexdigest()


def _kept_games(folder: Path, digest: str) -> list:
    """The targets the transfer of these elites (`digest`) has played so far; none for others (a
    run that went on since has another last surrogate archive)."""
    path = Path(folder) / TRANSFER_GAMES
    if not path.is_file():
        return []
    with np.load(path) as kept:
        return kept["targets"].tolist() if str(kept["elites"]) == digest else []


def _keep_games(folder: Path, digest: str, targets: list) -> None:
    """Compressed float64: the games' results exactly, a third of their size as JSON text."""
    from ..cluster.stops import stops_deferred
    played = np.array(targets, dtype=np.float64)

    def write(tmp: Path) -> None:
        with open(tmp, "wb") as f:
            np.savez_compressed(f, elites=np.array(digest), targets=played)
    with stops_deferred():
        run_files.replace_whole(Path(folder) / TRANSFER_GAMES, write)


def transfer(folder: Path) -> dict | None:
    """The transfer of a run folder's last surrogate archive from the games kept with it (share
    retained, share in the predicted cell, mean Manhattan distance, on the run's own cells); None
    until every elite has been played."""
    from .analysis import run_spaces, transfer_summary
    kept = kept_surrogate_elites(folder)
    if kept is None:
        return None
    grid, digest = kept
    targets = _kept_games(folder, digest)
    if len(targets) < len(grid["index"]):
        return None
    return transfer_summary(grid, np.array(targets, dtype=float), *run_spaces((Path(folder) / "config.yaml").read_text()))


def play_transfer(folder: Path, workers: int | None, progress: bool = True) -> dict:
    """Plays the elites of the folder's last surrogate archive not played yet (deck i always plays
    the same seeded games, so a continued transfer plays what an unbroken one would), keeping the
    results in the folder; returns the transfer."""
    from ..search.progress import progress_bar
    from .analysis import play_as_the_run
    kept = kept_surrogate_elites(folder)
    if kept is None:
        raise ReportError(f"{folder} has no {run_files.SURROGATE_ELITES_FILE} (not a surrogate-assisted run, or "
                          "one that ended before runs kept it)")
    grid, digest = kept
    played = _kept_games(folder, digest)
    decks = len(grid["index"])
    if len(played) < decks:
        with progress_bar(progress, total=decks, initial=len(played), desc=f"transfer {Path(folder).name}",
                          unit="deck") as bar:
            play_as_the_run((Path(folder) / "config.yaml").read_text(), grid["solution"], workers, played,
                            on_piece=lambda targets: _keep_games(folder, digest, targets), progress=bar)
    return transfer(folder)


def main(argv=None) -> int:
    from ..cluster.stops import Stopped, stop_on_signals
    from ..run_errors import PipelineError
    parser = argparse.ArgumentParser(prog="python -m pipeline.report.section6",
                                     description="the paper's Section 6 transfer, played once and kept with each run")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("transfer", help="play the elites of each run's last surrogate archive for real")
    play.add_argument("runs", nargs="+", type=Path, help="run folders (e.g. results/paper/dsa_me-seed1)")
    play.add_argument("--workers", type=int, default=None, help="local Dask workers (default: one a core)")
    args = parser.parse_args(argv)
    try:
        with stop_on_signals():
            for folder in args.runs:
                print(f"{folder}: {json.dumps(play_transfer(folder, args.workers))}")
    except PipelineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except Stopped as stop:
        print(f"stopped by {stop.signal_name}: the games played so far are kept in {TRANSFER_GAMES}; the same "
              "command goes on from there", file=sys.stderr)
        return stop.code
    return 0


if __name__ == "__main__":
    sys.exit(main())
