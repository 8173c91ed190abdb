"""Strategy search: ribs' CMA-ME over the evaluated player's network weights, the deck fixed.

The paper trained the 109 weights of the evaluated Rogue player's score this way (see
PROTOCOL.md, "Player strategy training"): a GridArchive over the weights on the run's behaviour
space (archive.*: objective, 1 to 3 measures, dims, ranges; the paper's turns and hand size by
default), `strategy_search.emitters` EvolutionStrategyEmitters with CMA-ES and improvement
ranking, under a ribs Scheduler's ask/tell loop. Each candidate is scored by the
protocol's evaluation of the fixed deck with the candidate as the evaluated player's score
(its weights travel to the workers in the task, so no file is needed on any machine).

Checkpoint (pipeline/state/checkpoint.py, one per iteration): /strategy_evaluations (every
candidate's weights and targets in evaluation-id order), /strategy_archive (the elites by
cell, for reports and checks) and /blobs/scheduler, the pickled ribs Scheduler (archive,
emitters, CMA-ES states and random generators), so a resumed run goes on exactly where the
uninterrupted one would have. The pickle is read back with an unpickler that only builds
ribs and numpy objects: a checkpoint handed over by someone else cannot run code.
"""
from __future__ import annotations

import io
import json
import pickle
from pathlib import Path

import numpy as np

from workers import DATA

from ..behavior_space import N_TARGETS, BehaviorSpace
from ..deck_space import DeckSpace
from ..run_errors import CheckpointError
from ..state import checkpoint as ckpt
from ..state.config import identity_hash
from . import run_files
from .archives import ArchiveSpec, archive_arrays, qd_metrics
from .progress import progress_bar

LAYER_SIZES = (15, 5, 4, 1)  # the evaluated player's network (workers/players/scores.py)
N_WEIGHTS = sum(a * b for a, b in zip(LAYER_SIZES, LAYER_SIZES[1:])) + sum(LAYER_SIZES[1:])
EVALUATIONS, ARCHIVE, GROUPS = ckpt.STRATEGY_EVALUATIONS, ckpt.STRATEGY_ARCHIVE, ckpt.STRATEGY_GROUPS
BEST_FILE = "best_strategy.json"
BEST_MD = "best_strategies.md"
ELITES_DIR = "strategy_elites"
REFERENCE = DATA / "player_strategy_nn.json"


# --- the ribs objects ---------------------------------------------------------------------------
def make_scheduler(cfg, spec: ArchiveSpec, x0: np.ndarray):
    """The archive, emitters and scheduler of a run, every generator seeded from the run seed."""
    from ribs.archives import GridArchive
    from ribs.emitters import EvolutionStrategyEmitter
    from ribs.schedulers import Scheduler
    s = cfg.strategy_search
    seeds = np.random.SeedSequence([int(cfg.seed), 0x57A7]).spawn(int(s.emitters) + 1)
    archive = GridArchive(solution_dim=N_WEIGHTS, dims=list(spec.dims), ranges=list(spec.ranges),
                          epsilon=spec.epsilon, seed=int(seeds[0].generate_state(1)[0]),
                          extra_fields={"eval_id": ((), np.int64), "targets": ((N_TARGETS,), np.float64)})
    emitters = [EvolutionStrategyEmitter(archive, x0=x0, sigma0=float(s.sigma0), ranker=s.ranker,
                                         es=s.es, batch_size=int(s.batch_size), seed=seed)
                for seed in seeds[1:]]
    return Scheduler(archive, emitters)


def initial_point(cfg) -> np.ndarray:
    x0 = cfg.strategy_search.x0
    return np.zeros(N_WEIGHTS) if x0 == "zeros" else np.array(read_weights(x0), dtype=np.float64)


def read_weights(path) -> list[float]:
    """The weights of a file in the format of player_strategy_nn.json (checked by
    workers.players.scores.check_strategy before a run starts)."""
    return [float(w) for w in json.loads(Path(path).read_text())["weights"]]


class _RibsUnpickler(pickle.Unpickler):
    """Builds only what a pickled ribs Scheduler holds: ribs classes, numpy arrays, dtypes and
    scalar types, and numpy's random generators (no numpy function that could write a file)."""

    NUMPY = {("numpy._core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "scalar"),
             ("numpy._core.numeric", "_frombuffer"), ("numpy.core.numeric", "_frombuffer"),
             ("numpy.core.multiarray", "_reconstruct"), ("numpy.core.multiarray", "scalar"),
             ("numpy.random._pickle", "__bit_generator_ctor"), ("numpy.random._pickle", "__generator_ctor"),
             ("numpy.random._pickle", "__randomstate_ctor"),
             ("numpy.random.bit_generator", "SeedSequence"),
             ("numpy.random.bit_generator", "__pyx_unpickle_SeedSequence"),
             ("numpy.random._pcg64", "PCG64"), ("numpy.random._mt19937", "MT19937"),
             ("numpy.random._philox", "Philox"), ("numpy.random._sfc64", "SFC64"),
             ("numpy.random._generator", "Generator")}

    def find_class(self, module, name):
        found = super().find_class(module, name) if self._allowed(module, name) else None
        if module.split(".")[0] == "ribs" and not isinstance(found, type):
            found = None  # ribs classes only, not its functions
        if found is None:
            raise pickle.UnpicklingError(f"{module}.{name} is not part of a ribs scheduler")
        return found

    def _allowed(self, module: str, name: str) -> bool:
        if module.split(".")[0] == "ribs" or (module, name) in self.NUMPY:
            return True
        if module == "numpy":
            value = getattr(np, name, None)
            return name in ("dtype", "ndarray") or (isinstance(value, type) and issubclass(value, np.generic))
        return module == "numpy.dtypes" and name.endswith("DType")


def load_scheduler(blob: bytes, path: Path):
    try:
        return _RibsUnpickler(io.BytesIO(blob)).load()
    except Exception as exc:  # any unpickling problem: the file is not what this run wrote
        raise ckpt.damaged(path, f"its ribs scheduler cannot be restored ({type(exc).__name__}: {exc})") from None


# --- the weights file ---------------------------------------------------------------------------
def weights_document(weights, *, description: str, **info) -> dict:
    """A weights file in the format of workers/data/player_strategy_nn.json, with `info`
    (objective, measures, run) beside it; `strategy.evaluated=<file>` reads it as it is."""
    reference = json.loads(REFERENCE.read_text())
    return {"description": description, "features": reference["features"],
            "layer_sizes": list(LAYER_SIZES), "weights": [float(w) for w in weights], **info}


def write_json(path: Path, document) -> None:
    run_files.replace_whole(Path(path), lambda tmp: Path(tmp).write_text(json.dumps(document, indent=1)))


# --- the run ------------------------------------------------------------------------------------
class StrategySearch:
    # A stop inside a step finds the scheduler asked and not told: only the checkpoint of the
    # last whole step (written after every step) can be resumed from.
    checkpoints_on_stop = False

    def __init__(self, cfg, run_dir: Path, space: DeckSpace, evaluator, config_yaml: str):
        self.cfg, self.algo, self.settings = cfg, cfg.algorithm, cfg.strategy_search
        self.run_dir, self.space, self.evaluator = Path(run_dir), space, evaluator
        self.config_yaml = config_yaml
        self.spec = ArchiveSpec.from_config(cfg.archive)
        self.identity = identity_hash(cfg)
        self.deck = fixed_deck(cfg, space)
        self.scheduler = make_scheduler(cfg, self.spec, initial_point(cfg))
        self.weights = np.zeros((0, N_WEIGHTS))
        self.targets = np.zeros((0, N_TARGETS))
        self.iterations = np.zeros(0, dtype=np.int32)
        self.iteration = 0
        self.history: list[dict] = []

    @property
    def archive(self):
        return self.scheduler.archive

    @property
    def evaluations(self) -> int:
        return len(self.weights)

    @property
    def per_iteration(self) -> int:
        return int(self.settings.emitters) * int(self.settings.batch_size)

    @property
    def budget(self) -> int:
        """Whole iterations only (a ribs scheduler is told all it asked): the budget rounded down."""
        return int(self.algo.budget) // self.per_iteration * self.per_iteration

    # --- start or resume ----------------------------------------------------------------------
    def prepare_offline_surrogate(self) -> None:  # the driver's hook for a fresh run; none here
        return None

    def resume(self, saved: ckpt.Checkpoint) -> None:
        path = saved.path
        if saved.identity != self.identity:
            raise CheckpointError(f"{path} belongs to another config (identity {saved.identity}, "
                                  f"this config {self.identity})")
        missing = [g for g in GROUPS if g not in saved.arrays] + \
            (["the ribs scheduler"] if "scheduler" not in saved.blobs else [])
        if missing:
            raise ckpt.damaged(path, f"it lacks {', '.join(missing)} (not a strategy run)")
        ev = saved.arrays[EVALUATIONS]
        n = check_evaluations(path, ev, self.per_iteration)
        scheduler = load_scheduler(saved.blobs["scheduler"], path)
        check_scheduler(path, scheduler, self.scheduler, saved.arrays[ARCHIVE], ev)
        state = saved.state
        if state.get("evaluations") != n or state.get("iteration") != n // self.per_iteration:
            raise ckpt.damaged(path, f"its state counts {state.get('evaluations')!r} evaluations in "
                                     f"{state.get('iteration')!r} iterations, the file holds {n}")
        self.scheduler = scheduler
        self.weights, self.targets = ev["weights"].astype(np.float64), ev["targets"].astype(np.float64)
        self.iterations = ev["iteration"].astype(np.int32)
        self.iteration = int(state["iteration"])
        self.history = list(state.get("history", []))

    # --- the loop -----------------------------------------------------------------------------
    def run(self) -> None:
        with progress_bar(bool(self.cfg.progress), total=self.budget, initial=self.evaluations,
                          desc="evaluations", unit="strategy") as bar:
            while self.evaluations + self.per_iteration <= self.budget:
                self.step(bar)
                self.checkpoint()
                self.write_reports()
        self.write_reports(final=True)

    def step(self, bar=None) -> None:
        """One ask/tell iteration: every emitter's batch, evaluated and told to the scheduler."""
        solutions = np.asarray(self.scheduler.ask(), dtype=np.float64)
        ids = np.arange(self.evaluations, self.evaluations + len(solutions))
        decks = np.repeat(self.deck[None, :], len(solutions), axis=0)
        results = self.evaluator.evaluate(decks, ids, progress=bar,
                                          strategies=[tuple(float(w) for w in s) for s in solutions])
        targets = np.array([r.targets() for r in results], dtype=np.float64)
        objective, measures = self.spec.behavior.values(targets, decks, self.space)
        self.scheduler.tell(objective, measures, eval_id=ids, targets=targets)
        self.iteration += 1
        self.weights = np.concatenate([self.weights, solutions])
        self.targets = np.concatenate([self.targets, targets])
        self.iterations = np.concatenate([self.iterations, np.full(len(ids), self.iteration, np.int32)])
        timing = self.evaluator.timings[-1]
        m = qd_metrics(self.archive, self.spec)
        self.history.append({
            "evaluations": self.evaluations, "iteration": self.iteration,
            **{k: float(v) for k, v in m.items()},
            "best_objective": float(m["max_fitness"]),
            "batch_best_objective": float(objective.max()),
            "batch_mean_objective": float(objective.mean()),
            "batch_wall_s": float(timing.wall_s), "worker_game_time_share": float(timing.game_time_share),
            "game_errors": int(sum(len(r.errors) for r in results))})

    # --- persistence --------------------------------------------------------------------------
    def checkpoint(self) -> None:
        arrays = {EVALUATIONS: {"weights": self.weights, "targets": self.targets,
                                "eval_id": np.arange(self.evaluations), "iteration": self.iterations},
                  ARCHIVE: archive_arrays(self.archive)}
        state = {"history": self.history, "algorithm": self.algo.name, "kind": "cma_me",
                 "evaluations": self.evaluations, "iteration": self.iteration}
        ckpt.save(self.run_dir / ckpt.FILENAME, config_yaml=self.config_yaml, identity=self.identity,
                  state=state, arrays=arrays,
                  blobs={"scheduler": pickle.dumps(self.scheduler, protocol=pickle.HIGHEST_PROTOCOL)})

    def write_reports(self, final: bool = False) -> None:
        run_files.write_metrics(self.run_dir, self.history)
        if not len(self.archive):
            return
        run_files.write_heatmap(self.run_dir, self.archive, self.spec,
                                f"CMA-ME strategy search: {self.evaluations} evaluations")
        elites = ranked_elites(self.archive)
        write_json(self.run_dir / BEST_FILE, self._document(elites[0], "best"))
        write_best_table(self.run_dir, elites[: int(self.cfg.report.best_decks)], self.spec.behavior)
        if final and self.cfg.report.strategy_elites:
            self.write_elites(elites)

    def write_elites(self, elites: list[dict]) -> None:
        """report.strategy_elites=true: one weights file per archive cell, named by its cell."""
        folder = self.run_dir / ELITES_DIR
        ckpt.make_private_dir(folder)
        for e in elites:
            write_json(folder / ("cell_" + "_".join(f"{c:03d}" for c in e["cell"]) + ".json"),
                       self._document(e, f"elite of cell {tuple(e['cell'])}"))

    def _document(self, elite: dict, what: str) -> dict:
        return weights_document(
            elite["weights"],
            description=(f"Evaluated player's score trained by CMA-ME ({what} of {self.run_dir.name}, "
                         f"{self.evaluations} evaluations of {int(self.cfg.opponents.games)} games); "
                         "same network and layout as workers/data/player_strategy_nn.json."),
            objective=elite["objective"], measures=elite["measures"], win_rate=elite["win_rate"],
            eval_id=elite["eval_id"], cell=elite["cell"], run=str(self.run_dir))

    def summary(self) -> str:
        m = qd_metrics(self.archive, self.spec)
        lines = [f"{self.algo.name}: {self.evaluations} evaluations in {self.iteration} iterations, "
                 f"QD-score {m['qd_score']:.2f}, coverage {m['coverage']:.2%}, best objective "
                 f"{m['max_fitness']:.2f}; files in {self.run_dir}"]
        if len(self.archive):
            lines.append(f"best weights: {self.run_dir / BEST_FILE} (use strategy.evaluated={self.run_dir / BEST_FILE})")
        return "\n".join(lines)


def fixed_deck(cfg, space: DeckSpace) -> np.ndarray:
    """The deck every candidate plays, as a pool vector (default: Miracle Rogue)."""
    return space.load_deck_file(cfg.strategy_search.deck or DATA / "miracle_rogue.json")


def ranked_elites(archive) -> list[dict]:
    """The archive's elites, best objective first (ties: lower cell first)."""
    data = archive_arrays(archive)
    order = np.argsort(-data["objective"], kind="stable")
    dims = archive.dims
    return [{"weights": data["solution"][i], "objective": float(data["objective"][i]),
             "measures": [float(v) for v in data["measures"][i]],
             "win_rate": float(data["targets"][i][3]), "eval_id": int(data["eval_id"][i]),
             "cell": [int(c) for c in np.unravel_index(int(data["index"][i]), dims)]} for i in order]


def write_best_table(run_dir: Path, elites: list[dict], behavior: BehaviorSpace) -> None:
    names = [name.replace("_", " ") for name in behavior.measures]
    lines = ["# Best strategies of the archive", "",
             f"| rank | {behavior.objective.replace('_', ' ')} | win rate | {' | '.join(names)} | evaluation | cell |",
             "|---:|---:|---:|" + "---:|" * len(names) + "---:|---|"]
    lines += [f"| {r} | {e['objective']:+.2f} | {e['win_rate']:.1%} | "
              + "".join(f"{m:.2f} | " for m in e["measures"]) + f"{e['eval_id']} | {tuple(e['cell'])} |"
              for r, e in enumerate(elites, 1)]
    run_files.replace_whole(Path(run_dir) / BEST_MD, lambda tmp: Path(tmp).write_text("\n".join(lines) + "\n"))


# --- plausibility of a loaded checkpoint ---------------------------------------------------------
def check_evaluations(path: Path, ev: dict, per_iteration: int) -> int:
    n = ckpt._fields(path, EVALUATIONS, ev, ("weights", "targets", "eval_id", "iteration"))
    w = ev["weights"]
    if w.ndim != 2 or w.shape[1] != N_WEIGHTS:
        raise ckpt.damaged(path, f"/{EVALUATIONS}/weights is {w.shape}, not {N_WEIGHTS} weights per row")
    ckpt._check_finite(path, f"/{EVALUATIONS}/weights", w, N_WEIGHTS)
    ckpt._check_targets(path, f"/{EVALUATIONS}/targets", ev["targets"])
    if not np.array_equal(ev["eval_id"], np.arange(n)):
        raise ckpt.damaged(path, f"/{EVALUATIONS}/eval_id is not 0, 1, 2, ... in order")
    if n % per_iteration or not np.array_equal(ev["iteration"], np.arange(n) // per_iteration + 1):
        raise ckpt.damaged(path, f"/{EVALUATIONS} is not whole iterations of {per_iteration} evaluations")
    return n


def check_scheduler(path: Path, loaded, fresh, saved_archive: dict, ev: dict) -> None:
    """The unpickled scheduler is one of this config (same archive and emitters) and its
    archive holds exactly the elites the file lists, each one an evaluation of the file."""
    from ribs.schedulers import Scheduler
    if not isinstance(loaded, Scheduler):
        raise ckpt.damaged(path, "its scheduler blob is not a ribs Scheduler")
    a, b = loaded.archive, fresh.archive
    same = (type(a) is type(b) and a.solution_dim == b.solution_dim and tuple(a.dims) == tuple(b.dims)
            and np.allclose(a.lower_bounds, b.lower_bounds) and np.allclose(a.upper_bounds, b.upper_bounds)
            and len(loaded.emitters) == len(fresh.emitters)
            and all(type(x) is type(y) and x.batch_size == y.batch_size
                    for x, y in zip(loaded.emitters, fresh.emitters)))
    if not same:
        raise ckpt.damaged(path, "its ribs scheduler does not fit the config (archive or emitters differ)")
    mine = archive_arrays(a)
    if set(mine) != set(saved_archive) or not all(np.array_equal(mine[k], saved_archive[k]) for k in mine):
        raise ckpt.damaged(path, f"/{ARCHIVE} disagrees with the scheduler's archive")
    ids = mine["eval_id"]
    if len(ids) and (ids.min() < 0 or ids.max() >= len(ev["weights"]) or
                     not np.array_equal(mine["solution"], ev["weights"][ids]) or
                     not np.array_equal(mine["targets"], ev["targets"][ids])):
        raise ckpt.damaged(path, f"/{ARCHIVE} elites differ from the evaluations they name")
    if loaded._last_called not in (None, "tell"):
        raise ckpt.damaged(path, "its scheduler was saved between ask and tell")

