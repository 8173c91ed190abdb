"""The search algorithms on real evaluations: MAP-Elites, random search and the surrogate-
assisted family (DSA-ME, LSA-ME, the (ad), offline and no-reset variants), with the state that
a checkpoint holds and restores.

Steady-state loop (algorithm.steady_state=true, surrogate kinds; docs/pipeline.md#the-steady-state-loop): the
workers' queue never runs dry. Each outer iteration trains on the evaluations submitted before
it except the last `lag` decks (which are still being played), runs the inner loop and
submits its batch behind them; the G initial random decks are followed at once by `lag` decks
mutated from the real archive, so the workers also play while the first surrogate trains.
Results are applied in submission order and every wait is for a fixed number of evaluations, so
which data each step sees does not depend on timing: a run is as reproducible as a synchronous
one, and a checkpoint holds every batch in flight, which a resume plays again with the same
evaluation ids (the same games).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..behavior_space import N_TARGETS, card_features
from ..cluster.stops import stops_deferred
from ..deck_space import DeckSpace
from ..run_errors import CheckpointError
from ..state import checkpoint as ckpt
from ..state.config import identity_hash
from . import run_files
from .archives import ArchiveSpec, SurrogateGrid, archive_arrays, make_archive, qd_metrics, restore_archive
from .emitters import DeckMutationEmitter
from .inner_loop import run_inner_loop
from .kernel_data import ValueSources
from .loop import legacy_lag, steady_state_lag, steady_state_min_batch
from .progress import progress_bar
from .surrogate import Surrogate

SOURCE_RANDOM, SOURCE_MUTATION, SOURCE_SURROGATE = 0, 1, 2
IN_FLIGHT = "pending"  # the checkpoint group of the batches in flight (its name since version 1)


@dataclass
class InFlight:
    """A batch submitted to the workers whose decks are not all added yet: its decks and their
    evaluation ids (consecutive), their source, the outer iteration that chose them, what that
    iteration logged and the batch's size. Which of its decks are added follows from the ids: those
    below the search's count of evaluations. A batch resumed from a checkpoint holds only the
    decks that were not added then."""

    decks: np.ndarray
    ids: np.ndarray
    source: int
    iteration: int
    log: dict = field(default_factory=dict)
    size: int = -1  # the batch's size when chosen (the log's "batch"); -1: len(decks)
    batch: object = None  # the evaluation client's SubmittedBatch of these decks
    wait_s: float = 0.0

    def __post_init__(self):
        if self.size < 0:
            self.size = len(self.decks)

    def added(self, evaluations: int) -> int:
        """How many of its decks are among the first `evaluations` evaluations."""
        return min(max(evaluations - int(self.ids[0]), 0), len(self.ids))


class Search:
    checkpoints_on_stop = True  # a stop between its steps leaves a whole state to checkpoint

    def __init__(self, cfg, run_dir: Path, space: DeckSpace, evaluator, config_yaml: str):
        self.cfg, self.algo, self.run_dir = cfg, cfg.algorithm, Path(run_dir)
        self.space, self.evaluator, self.config_yaml = space, evaluator, config_yaml
        self.spec = ArchiveSpec.from_config(cfg.archive)
        self.behavior = self.spec.behavior
        self.identity = identity_hash(cfg)
        self.budget = int(self.algo.budget)
        self.archive = make_archive(self.spec, space.size, N_TARGETS, budget=self.budget, seed=int(cfg.seed))
        self.rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([int(cfg.seed), 1])))
        self.decks = np.zeros((0, space.size), dtype=np.int16)
        self.targets = np.zeros((0, N_TARGETS))
        self.sources = np.zeros(0, dtype=np.int8)
        self.iterations = np.zeros(0, dtype=np.int32)
        self.outer_iteration = 0
        self.history: list[dict] = []
        self.surrogate: Surrogate | None = None
        self.grid: SurrogateGrid | None = None
        self.flights: list[InFlight] = []  # in submission order
        self.steady_state = self.algo.kind == "surrogate" and bool(self.algo.steady_state)
        # decks in flight while the head node works: kept from a checkpoint, or resolved by run()
        self.lag = None if self.steady_state else 0
        self._eval_bar = None
        if self.algo.kind == "surrogate":
            self.surrogate = Surrogate.from_config(self.algo.model, cfg.surrogate, space.size,
                                                   self.behavior.surrogate_outputs(int(self.algo.targets)),
                                                   seed=int(cfg.seed))

    @property
    def evaluations(self) -> int:
        return len(self.decks)

    @property
    def submitted(self) -> int:
        """Evaluations done or in flight."""
        return self.evaluations + sum(len(f.ids) - f.added(self.evaluations) for f in self.flights)

    @property
    def room(self) -> int:
        """Evaluations the budget has left beyond those done or in flight."""
        return self.budget - self.submitted

    # --- start or resume ----------------------------------------------------------------
    def resume(self, saved: ckpt.Checkpoint) -> None:
        if saved.identity != self.identity:
            raise CheckpointError(f"{saved.path} belongs to another config (identity "
                                  f"{saved.identity}, this config {self.identity})")
        ckpt.check_contents(saved, limits=self.space.limits, deck_size=self.space.deck_size,
                            cells=self.spec.cells, values=self._values)
        state = saved.state
        self.rng.bit_generator.state = state["rng"]
        self.outer_iteration = state["outer_iteration"]
        self.history = state["history"]
        ev = saved.arrays["evaluations"]
        self.decks, self.targets = ev["decks"].astype(np.int16), ev["targets"]
        self.sources, self.iterations = ev["source"], ev["iteration"]
        restore_archive(self.archive, saved.arrays["real_archive"],
                        replay=(self.decks, *self._values(self.targets, self.decks),
                                ev["eval_id"], self.targets))
        if self.surrogate is not None:
            if "surrogate" not in saved.blobs:
                raise ckpt.damaged(saved.path, "it holds no surrogate model")
            self.surrogate.load_state_bytes(saved.blobs["surrogate"], source=str(saved.path))
        if "surrogate_archive" in saved.arrays:
            self.grid = self._new_grid()
            try:
                self.grid.load_state(saved.arrays["surrogate_archive"])
            except (ValueError, IndexError) as exc:
                raise ckpt.damaged(saved.path, f"its surrogate archive does not fit the config ({exc})") from None
        if IN_FLIGHT in saved.arrays:
            self.flights = self._restore_flights(saved)
        if self.steady_state:  # the lag a run began with, whatever the slots now
            self.lag = int(state.get("lag", legacy_lag(self.algo)))

    def _restore_flights(self, saved: ckpt.Checkpoint) -> list[InFlight]:
        """The batches that were in flight when the checkpoint was written, each cut to the decks
        not added then (`run` plays them again). Older checkpoints hold the first batch whole,
        with how many of its decks were added (its record's "added")."""
        pending, about = saved.arrays[IN_FLIGHT], saved.state.get(IN_FLIGHT)
        try:
            decks, ids = pending["decks"].astype(np.int16), pending["eval_id"].astype(np.int64)
            which = pending["flight"].astype(np.int64)
            for d in decks:
                self.space.validate(d)
            if not isinstance(about, list) or not about or len(decks) != len(ids) or len(which) != len(ids):
                raise ValueError("its parts do not match")
            if not np.array_equal(which, np.repeat(np.arange(len(about)), np.bincount(which, minlength=len(about)))):
                raise ValueError("its batches are not in order")
            added = [int(a.get("added", 0)) for a in about]
            first = self.evaluations - added[0]
            if not 0 <= added[0] < np.count_nonzero(which == 0) or any(added[1:]) \
                    or not np.array_equal(ids, np.arange(first, first + len(ids))) \
                    or not np.array_equal(self.decks[first:], decks[:added[0]]):
                raise ValueError("it does not follow the evaluations")
            flights = [InFlight(decks[which == i][added[i]:], ids[which == i][added[i]:], int(a["source"]),
                                int(a["iteration"]), dict(a["log"]), size=int(a.get("size", np.count_nonzero(which == i))))
                       for i, a in enumerate(about)]
        except (KeyError, TypeError, ValueError) as exc:
            raise ckpt.damaged(saved.path, f"its batches in flight cannot be played again ({exc})") from None
        return flights

    def prepare_offline_surrogate(self) -> None:
        """The offline variants' fixed model: trained once on a file's evaluations, or loaded."""
        source = self.algo.offline
        if self.algo.kind != "surrogate" or source.source == "none":
            return
        saved = ckpt.load(Path(source.path), required=("evaluations",))
        ckpt.check_contents(saved, limits=self.space.limits, deck_size=self.space.deck_size, cells=None)
        if source.source == "model":
            if "surrogate" not in saved.blobs:
                raise CheckpointError(f"{source.path} holds no surrogate model (not a DSA-ME run)")
            self.surrogate.load_state_bytes(saved.blobs["surrogate"], with_optimizer=False,
                                            source=str(source.path))
        else:
            ev = saved.arrays["evaluations"]
            if len(ev["decks"]) < 2:
                raise CheckpointError(f"{source.path} holds {len(ev['decks'])} evaluations, too few to train on")
            with self._bar(total=int(source.epochs), desc="offline training", unit="epoch") as bar:
                stats = self.surrogate.fit(ev["decks"], self._surrogate_targets(ev["targets"], ev["decks"]),
                                           self.rng, epochs=int(source.epochs), progress=bar)
            self._log({"offline_training_examples": len(ev["decks"]), **stats})

    # --- the loop ------------------------------------------------------------------------
    def run(self) -> None:
        if self.lag is None:
            self.lag = steady_state_lag(self.algo, self.evaluator.slots)
        with self._bar(total=self.budget, initial=self.evaluations, desc="evaluations", unit="deck",
                       leave=True) as bar:
            self._eval_bar = bar
            for flight in self.flights:  # resumed with batches in flight: play them again
                if flight.batch is None:
                    flight.batch = self.evaluator.submit(flight.decks, flight.ids)
            if not self.steady_state and self.flights:  # stopped while waiting for a batch
                self._collect_until(self.submitted)
                self._save()
            while self.submitted < self.budget:
                if self.algo.kind == "surrogate":
                    self._steady_step() if self.steady_state else self._surrogate_step()
                else:
                    since = self.evaluations
                    while self.evaluations < self.budget and self.evaluations - since < int(self.algo.checkpoint_every):
                        self._real_batch()
                self._save()
            if self.flights:
                self._collect_until(self.submitted)
                self._save()
        self.write_reports()

    def _real_batch(self) -> None:
        """One batch of MAP-Elites (or random search) on real evaluations."""
        initial = self.budget if self.algo.kind == "random_search" else int(self.algo.initial)
        with stops_deferred():
            emitter = DeckMutationEmitter(self.archive, self.space, self.rng,
                                          min(int(self.algo.batch_size), self.room), initial,
                                          emitted=self.evaluations)
            random_phase = self.evaluations < initial or len(self.archive) == 0
            self._submit(emitter.ask(), SOURCE_RANDOM if random_phase else SOURCE_MUTATION, {})
        self._collect_until(self.submitted)

    def _surrogate_step(self) -> None:
        """The paper's loop: the initial random decks, or one outer iteration of DSA-ME on
        every evaluation so far, whose batch is played before the next one starts."""
        initial = min(int(self.algo.initial), self.budget)
        with stops_deferred():
            if self.evaluations < initial:
                self._submit(self.space.random_decks(self.rng, initial - self.evaluations), SOURCE_RANDOM, {})
            else:
                self._submit(*self._outer_iteration())
        self._collect_until(self.submitted)

    def _steady_step(self) -> None:
        """The steady-state loop: the initial random decks; then, once they are in, `lag` decks
        mutated from the real archive; then one outer iteration on every evaluation but the
        last `lag` submitted, whose batch joins the queue behind them, topped up with mutants of
        real elites to `min_batch` decks."""
        initial = min(int(self.algo.initial), self.budget)
        if self.submitted < initial:
            with stops_deferred():
                self._submit(self.space.random_decks(self.rng, initial - self.submitted), SOURCE_RANDOM, {})
            return
        if self.submitted < initial + self.lag:
            self._collect_until(initial)
            with stops_deferred():
                count = min(initial + self.lag - self.submitted, self.room)
                self._submit(self._mutants(count), SOURCE_MUTATION, {"steady_state_fill": count})
            return
        self._collect_until(self.submitted - self.lag)
        with stops_deferred():
            decks, source, log = self._outer_iteration()
            self._submit(decks, source, log)
            # too few new surrogate elites would let the queue run dry while the next one is made
            short = min(steady_state_min_batch(self.algo, self.lag) - len(decks), self.room)
            if short > 0:
                self._submit(self._mutants(short), SOURCE_MUTATION, {"steady_state_top_up": short})

    def _outer_iteration(self) -> tuple[np.ndarray, int, dict]:
        """Train the surrogate on the evaluations added so far, run the inner loop and choose
        the next batch: (decks, source, log)."""
        self.outer_iteration += 1
        log = {"trained_on": self.evaluations, **({"lag": self.lag} if self.steady_state else {})}
        self._train(log)
        grid = self._inner_loop(log)
        start = time.perf_counter()
        decks, source = self._select_for_evaluation(grid), SOURCE_SURROGATE
        if not len(decks):  # everything the surrogate proposes was evaluated already
            decks, source = self._mutants(int(self.algo.batch_size)), SOURCE_MUTATION
        log["select_s"] = time.perf_counter() - start
        return decks, source, log

    def _train(self, log: dict) -> None:
        start = time.perf_counter()
        if self.algo.train_online:
            with self._bar(total=int(self.cfg.surrogate.epochs), desc="training", unit="epoch") as bar:
                log.update(self.surrogate.fit(self.decks, self._surrogate_targets(), self.rng, progress=bar))
        log["train_s"] = time.perf_counter() - start

    def _inner_loop(self, log: dict) -> SurrogateGrid:
        """MAP-Elites on the surrogate alone, into a fresh surrogate archive (or, without
        resetting, the last one); it is kept for the checkpoint."""
        grid = self.grid if (self.grid is not None and not self.algo.reset) else self._new_grid()
        inner = self.algo.inner
        start = time.perf_counter()
        with self._bar(total=int(inner.iterations) * int(inner.batch_size), desc="inner loop",
                       unit="pred", unit_scale=True) as bar:
            run_inner_loop(self.space, self.surrogate.kernel_weights(), grid, self.rng,
                           int(inner.iterations), int(inner.batch_size), int(inner.initial), progress=bar,
                           sources=ValueSources(*self.behavior.sources(int(self.algo.targets)),
                                                card_features(self.space)),
                           mode=str(inner.mode), step_decks=int(inner.step_decks), threads=inner.threads)
        log["inner_loop_s"] = time.perf_counter() - start
        log["surrogate_elites"] = len(grid)
        self.grid = grid
        return grid

    def _mutants(self, count: int) -> np.ndarray:
        """`count` mutations of real elites (uniform parents)."""
        parents = archive_arrays(self.archive)["solution"]
        return self.space.mutate(self.rng, parents[self.rng.integers(0, len(parents), count)])

    def _select_for_evaluation(self, grid: SurrogateGrid) -> np.ndarray:
        """The surrogate elites in cell order, without repeats (and without decks evaluated or
        in flight before, for the no-reset variant)."""
        decks = grid.elites()["solution"]
        _, first = np.unique(decks, axis=0, return_index=True)
        decks = decks[np.sort(first)]
        if self.algo.skip_evaluated and self.submitted:
            seen = {d.tobytes() for d in self.decks}
            seen |= {d.tobytes() for f in self.flights for d in f.decks[f.added(self.evaluations):]}
            decks = decks[[d.tobytes() not in seen for d in decks]] if len(decks) else decks
        return decks

    def _submit(self, decks: np.ndarray, source: int, log: dict) -> None:
        """Cuts the decks to the budget's room, validates them and sends their games to the
        workers, behind the batches in flight."""
        start = time.perf_counter()
        decks = np.asarray(decks, dtype=np.int16)[: self.room]
        for d in decks:
            self.space.validate(d)
        ids = np.arange(self.submitted, self.submitted + len(decks))
        flight = InFlight(decks, ids, source, self.outer_iteration, log)
        flight.batch = self.evaluator.submit(decks, ids, last=self.submitted + len(decks) >= self.budget)
        log["dispatch_s"] = time.perf_counter() - start
        self.flights.append(flight)

    def _collect_until(self, evaluations: int) -> None:
        """Waits for the batches in flight, in submission order, until `evaluations` decks are
        added to the archive and the evaluations; each batch makes one log row when complete.
        Results are added as they arrive (the decks in order whose games are all in), so a stop
        meanwhile keeps every one of them; what each step of the search sees is the same."""
        while self.evaluations < evaluations:
            flight = self.flights[0]
            first = flight.added(self.evaluations)
            start = time.perf_counter()
            results = flight.batch.ready(min(len(flight.decks) - first, evaluations - self.evaluations))
            flight.wait_s += time.perf_counter() - start
            with stops_deferred():  # a stop leaves the search as it was before or after these decks
                self._add(flight, slice(first, first + len(results)), results)
                if first + len(results) == len(flight.decks):
                    self._retire(flight)

    def _add(self, flight: InFlight, part: slice, results: list) -> None:
        """These decks of the batch, with their results, to the real archive and the evaluations."""
        decks, ids = flight.decks[part], flight.ids[part]
        targets = np.array([r.targets() for r in results], dtype=np.float64)
        objective, measures = self._values(targets, decks)
        self.archive.add(decks, objective, measures, eval_id=ids, targets=targets)
        self.decks = np.concatenate([self.decks, decks])
        self.targets = np.concatenate([self.targets, targets])
        self.sources = np.concatenate([self.sources, np.full(len(decks), flight.source, np.int8)])
        self.iterations = np.concatenate([self.iterations, np.full(len(decks), flight.iteration, np.int32)])
        flight.log["game_errors"] = flight.log.get("game_errors", 0) + sum(len(r.errors) for r in results)
        if self._eval_bar is not None:  # the bar shows what a stop now would keep
            self._eval_bar.update(len(decks))

    def _retire(self, flight: InFlight) -> None:
        """A batch wholly added: off the list, and its log row, whose outer_iteration is the one
        that made the batch (as in evaluations.csv), not the count reached since (steady state)."""
        self.flights.pop(0)
        timing = flight.batch.timing
        # the workers' whole CPU against the games they handed back since the last row (any batch's)
        cpu, games = self.evaluator.cpu_and_games()
        self._log({"outer_iteration": flight.iteration, "batch": flight.size, "batch_wall_s": timing.wall_s,
                   "wait_s": flight.wait_s,
                   "batch_game_s": timing.game_s, "worker_game_time_share": timing.game_time_share,
                   **({"workers_cpu_s": cpu, "games_received": games} if cpu is not None else {}),
                   **flight.log})

    def _log(self, extra: dict) -> None:
        # a sliding map's metrics are of its cells as they are now: say which
        geometry = {"sliding_dims": list(self.archive.dims)} if self.spec.kind == "sliding" else {}
        self.history.append(_plain({"evaluations": self.evaluations, "outer_iteration": self.outer_iteration,
                                    **qd_metrics(self.archive, self.spec), **geometry, **extra}))

    # --- persistence ---------------------------------------------------------------------
    def _save(self) -> None:
        """The checkpoint, then the files a user looks at; both timed as the next row's
        checkpoint_s."""
        start = time.perf_counter()
        self.checkpoint()
        self.write_reports()
        if self.history:
            self.history[-1]["checkpoint_s"] = time.perf_counter() - start  # in the next checkpoint

    def checkpoint(self) -> None:
        arrays = {
            "evaluations": {"decks": self.decks, "targets": self.targets,
                            "eval_id": np.arange(self.evaluations), "source": self.sources,
                            "iteration": self.iterations},
            "real_archive": archive_arrays(self.archive),
        }
        if self.grid is not None:
            arrays["surrogate_archive"] = self.grid.state()
        blobs = {"surrogate": self.surrogate.state_bytes()} if self.surrogate is not None else {}
        state = {"rng": self.rng.bit_generator.state, "outer_iteration": self.outer_iteration,
                 "history": self.history, "algorithm": self.algo.name,
                 "evaluations": self.evaluations}
        if self.steady_state and self.lag is not None:
            state["lag"] = self.lag
        if self.flights:
            waiting = [slice(f.added(self.evaluations), None) for f in self.flights]
            arrays[IN_FLIGHT] = {"decks": np.concatenate([f.decks[w] for f, w in zip(self.flights, waiting)]),
                                 "eval_id": np.concatenate([f.ids[w] for f, w in zip(self.flights, waiting)]),
                                 "flight": np.repeat(np.arange(len(self.flights)),
                                                     [len(f.ids[w]) for f, w in zip(self.flights, waiting)])}
            state[IN_FLIGHT] = [{"source": f.source, "iteration": f.iteration, "log": _plain(f.log),
                                 "size": f.size} for f in self.flights]
        ckpt.save(self.run_dir / ckpt.FILENAME, config_yaml=self.config_yaml, identity=self.identity,
                  state=state, arrays=arrays, blobs=blobs)

    def write_reports(self) -> None:
        run_files.write_metrics(self.run_dir, self.history)
        if len(self.archive):
            run_files.write_heatmap(self.run_dir, self.archive, self.spec,
                                    f"{self.algo.name}: {self.evaluations} evaluations")
            run_files.write_best_decks(self.run_dir, self.archive, self.space,
                                       int(self.cfg.report.best_decks), self.spec)
            run_files.write_ccdf(self.run_dir, self.archive, self.spec)
            run_files.write_archive_csv(self.run_dir, self.archive, self.spec, self.space)
            run_files.write_evaluations_csv(self.run_dir, *self._values(self.targets, self.decks), self.targets,
                                            self.iterations, self.spec)
            run_files.write_decks(self.run_dir, self.decks, self.space)
            if self.surrogate is not None and self.surrogate.trained_on:
                run_files.write_surrogate(self.run_dir, self.surrogate.model_bytes())
            if self.grid is not None and len(self.grid):
                run_files.write_surrogate_elites(self.run_dir, self.grid.elites(), self.space)
            run_files.write_archive_page(self.run_dir, self.archive, self.spec, self.space,
                                         f"{self.cfg.name}: {self.algo.name}, seed {self.cfg.seed}, "
                                         f"{self.evaluations} evaluations")

    # --- helpers -------------------------------------------------------------------------
    def _new_grid(self) -> SurrogateGrid:
        return SurrogateGrid.for_archive(self.spec, self.archive, self.space.size,
                                         self.behavior.surrogate_outputs(int(self.algo.targets)))

    def _values(self, targets: np.ndarray, decks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(objective, measures) of evaluations, as the behaviour space takes them."""
        return self.behavior.values(targets, decks, self.space)

    def _surrogate_targets(self, targets=None, decks=None) -> np.ndarray:
        """What the surrogate learns of each evaluation (default: this run's): the statistics
        of its outputs."""
        targets, decks = (self.targets, self.decks) if targets is None else (targets, decks)
        stats = self.behavior.statistics(targets, decks, self.space)
        return stats[:, self.behavior.surrogate_columns(int(self.algo.targets))]

    def _bar(self, **kw):
        kw.setdefault("leave", False)
        return progress_bar(bool(self.cfg.progress), **kw)


def _plain(row: dict) -> dict:
    """A log row with numpy numbers as Python floats (the checkpoint's state is JSON)."""
    return {k: (float(v) if isinstance(v, (np.floating, np.integer)) else v) for k, v in row.items()}
