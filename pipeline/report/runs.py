"""Finding run directories, loading what the report needs, and refusing incomparable mixes."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import yaml

from ..run_errors import PipelineError
from ..state import checkpoint as ckpt
from ..state.config import differences

# Config sections that must agree for runs to be compared: the problem itself (deck space,
# opponents and their game count, the player). Algorithm, surrogate, seed and budget may differ:
# that is what a report compares; runs of different behaviour spaces (archive) are compared within
# their space only (group_by_space).
COMPARABLE_SECTIONS = ("deck_space", "opponents", "strategy")

# Display names and the paper's row order of Table 1.
LABELS = {
    "map_elites": "MAP-Elites", "random_search": "Random search", "offline_dsa_me": "Offline DSA-ME",
    "lsa_me": "LSA-ME", "dsa_me": "DSA-ME", "offline_dsa_me_ad": "Offline DSA-ME (ad)",
    "dsa_me_ad": "DSA-ME (ad)", "dsa_me_no_reset": "DSA-ME (no reset)",
    "offline_dsa_me_surrogate_model": "Offline DSA-ME (Surrogate Model)",
    "offline_dsa_me_elite_data": "Offline DSA-ME (Elite Data)",
}


class ReportError(PipelineError):
    pass


@dataclass
class Run:
    path: Path  # the run directory
    algorithm: str
    seed: int
    config: dict
    evaluations: dict[str, np.ndarray]
    archive: dict[str, np.ndarray]  # the real archive's elites, by cell
    history: list[dict]
    surrogate_archive: dict[str, np.ndarray] | None = None
    has_surrogate: bool = False
    finished: bool = field(default=False)
    saved: ckpt.Checkpoint | None = field(default=None, repr=False)  # for check_contents

    @property
    def label(self) -> str:
        return LABELS.get(self.algorithm, self.algorithm)

    @property
    def name(self) -> str:
        return f"{self.algorithm} seed {self.seed}"

    @property
    def n_evaluations(self) -> int:
        return int(len(self.evaluations["decks"]))

    @property
    def checkpoint(self) -> Path:
        return self.path / ckpt.FILENAME


def find_run_dirs(paths: list[Path]) -> list[Path]:
    """Each argument is a run directory or a folder holding run directories (any depth, through
    links too: a multirun's job folders link to their runs); each run once."""
    if not paths:
        raise ReportError("give at least one run or sweep directory")
    found: dict[Path, Path] = {}  # resolved: as found
    for p in map(Path, paths):
        if not p.exists():
            raise ReportError(f"{p} does not exist")
        if not p.is_dir():
            raise ReportError(f"{p} is not a directory (give run or sweep directories)")
        dirs = [p] if (p / ckpt.FILENAME).is_file() else _run_dirs_under(p)
        if not dirs and _holds_summaries(p):
            raise ReportError(f"{p} holds finished runs' summaries without checkpoints (the paper's runs): "
                              f"make paper-table, or python -m pipeline.report.paper {p} --out DIR, reports them")
        if not dirs:
            raise ReportError(f"{p} holds no run with a checkpoint ({ckpt.FILENAME})")
        for d in dirs:
            found.setdefault(d.resolve(), d)
    return list(found.values())


def _holds_summaries(folder: Path) -> bool:
    """Whether a run folder's summaries lie in `folder` or a folder in it (a run's metrics.jsonl)."""
    return any(folder.glob("metrics.jsonl")) or any(folder.glob("*/metrics.jsonl"))


def _run_dirs_under(folder: Path) -> list[Path]:
    dirs, seen = [], set()
    for root, subdirs, files in os.walk(folder, followlinks=True):
        real = os.path.realpath(root)
        if real in seen:  # reached again through a link (or a loop of links)
            subdirs.clear()
            continue
        seen.add(real)
        subdirs.sort()
        if ckpt.FILENAME in files:  # one reached through a link by its own name
            dirs.append(Path(root) if real == os.path.abspath(root) else Path(real))
    return sorted(dirs)


def load_run(run_dir: Path, saved: ckpt.Checkpoint | None = None) -> Run:
    """The run in `run_dir`, from its checkpoint `saved` when it was read already."""
    saved = ckpt.require(saved, ckpt.DECK_SEARCH_GROUPS) if saved else ckpt.load(run_dir / ckpt.FILENAME)
    try:
        config = yaml.safe_load(saved.config_yaml)
        algorithm, seed = str(config["algorithm"]["name"]), int(config["seed"])
        budget = int(config["algorithm"]["budget"])
    except (yaml.YAMLError, KeyError, TypeError, ValueError) as exc:
        raise ReportError(f"{run_dir / ckpt.FILENAME}: unreadable config ({exc})") from None
    evaluations = saved.arrays["evaluations"]
    return Run(path=Path(run_dir), algorithm=algorithm, seed=seed, config=config,
               evaluations=evaluations, archive=saved.arrays["real_archive"],
               history=list(saved.state.get("history", [])),
               surrogate_archive=saved.arrays.get("surrogate_archive"),
               has_surrogate="surrogate" in saved.blobs,
               finished=len(evaluations["decks"]) >= budget, saved=saved)


def check_contents(run: Run) -> None:
    """The checkpoint's decks, values and ids are plausible for its own config (see
    pipeline.state.checkpoint.check_contents); ReportError or CheckpointError naming the file else."""
    try:
        space, spec = deck_space(run), grid_spec(run)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ReportError(f"{run.checkpoint}: unreadable config ({exc!r})") from None
    ckpt.check_contents(run.saved, limits=space.limits, deck_size=space.deck_size, cells=spec.cells,
                        values=lambda targets, decks: spec.behavior.values(targets, decks, space))


def check_comparable(runs: list[Run]) -> None:
    """Runs of different problems (deck space, opponents or game count, player) cannot share a
    report: say which key differs between which two runs."""
    first = runs[0]
    for run in runs[1:]:
        for section in COMPARABLE_SECTIONS:
            diff = differences(first.config.get(section) or {}, run.config.get(section) or {}, section + ".")
            if diff:
                raise ReportError(f"runs are not comparable: {first.path} and {run.path} differ in "
                                  f"{'; '.join(diff[:3])}")
    seen: dict[tuple, Path] = {}
    for run in runs:
        key = (grid_spec(run), run.algorithm, run.seed)
        if key in seen:
            raise ReportError(f"two runs of {run.algorithm} with seed {run.seed} ({seen[key]} and "
                              f"{run.path}) in one behaviour space: each trial must appear once")
        seen[key] = run.path


def load_runs(paths: list[Path], loaded: dict[Path, ckpt.Checkpoint] | None = None) -> list[Run]:
    """The runs under `paths`, checked and in Table 1's order; `loaded`: checkpoints already read."""
    runs = [load_run(d, (loaded or {}).get(d)) for d in find_run_dirs(paths)]
    check_comparable(runs)
    for run in runs:
        check_contents(run)
    order = list(LABELS)
    runs.sort(key=lambda r: (order.index(r.algorithm) if r.algorithm in order else len(order),
                             r.algorithm, r.seed))
    return runs


def group_by_space(runs: list[Run]) -> dict:
    """The runs per behaviour space (archive settings), in order of first appearance."""
    groups: dict = {}
    for run in runs:
        groups.setdefault(grid_spec(run), []).append(run)
    return groups


def group_by_algorithm(runs: list[Run]) -> dict[str, list[Run]]:
    groups: dict[str, list[Run]] = {}
    for run in runs:
        groups.setdefault(run.algorithm, []).append(run)
    return groups


def grid_spec(run: Run):
    from ..search.archives import ArchiveSpec
    a = run.config["archive"]
    return ArchiveSpec.from_config(a)


def deck_space(run: Run):
    from ..deck_space import DeckSpace
    return DeckSpace.from_config(run.config["deck_space"])
