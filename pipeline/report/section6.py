"""The paper's Section 6 check of its surrogates, from run summaries alone: the final surrogate of
one trial (`surrogate.pt`) tested on another trial's real evaluations (`decks.npz` with
`evaluations.csv`), per statistic it predicts, averaged over every ordered pair of trials of an
algorithm. The paper's own figures are data in paper_table1.json ("section6")."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import yaml

from ..behavior_space import STATISTICS
from ..deck_space import DeckSpace
from ..search import run_files
from ..search.archives import ArchiveSpec
from ..search.surrogate import Surrogate


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
    config = yaml.safe_load((Path(folder) / "config.yaml").read_text())
    decks = run_files.read_decks(path, DeckSpace.from_config(config["deck_space"]))
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
