"""The Hydra entry point: `python -m pipeline [overrides]` runs (or resumes) a search, or with
`deck_file=PATH` evaluates one deck."""
from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path

import hydra
from hydra.core.hydra_config import HydraConfig
from hydra.experimental.callback import Callback
from hydra.types import RunMode
from omegaconf import DictConfig, OmegaConf

from .cluster.events import say
from .cluster.run_client import cluster_and_client, engine_options
from .cluster.stops import Stopped, stop_on_signals, stops_deferred
from .run_errors import PipelineError, RunDirError, SchedulerLost
from .state.config import check_inputs, validate

CONF_DIR = str(Path(__file__).resolve().parent.parent / "conf")
# A run whose Dask client loses its scheduler (a driver starved of CPU long enough for the
# connection to drop) starts its cluster again and resumes from its checkpoint, this often at most.
SCHEDULER_RESTARTS = 3
SWEEP_LINK = "run"  # in each job folder of a multirun: a link to the job's run folder


def run(cfg: DictConfig, client=None) -> Path | None:
    """Run (or resume) the configured search (a deck search, or with algorithm.kind=cma_me the
    strategy search of pipeline/search/strategy_search.py); `client`: an existing Dask client to use
    instead of starting the configured cluster."""
    cfg = validate(cfg)
    if cfg.deck_file:
        return evaluate_deck_file(cfg, checked_space(cfg), client)
    from .state import run_dir as rd
    cfg, run_dir, asked_loop = _run_loop_and_dir(cfg, client)
    _link_sweep_folder(run_dir)
    # The folder first (created, locked, a test file written), before anything slow: an unusable
    # one fails in a second, not once the search is built; and what is read below cannot be
    # replaced by another driver meanwhile. A failure leaves the folder as it was.
    with rd.locked(run_dir):
        for restart in range(SCHEDULER_RESTARTS + 1):
            try:
                search = _search_to_end(cfg, run_dir, asked_loop, client)
                break
            except SchedulerLost as lost:
                # Only a cluster of the run's own, and only from a checkpoint: the resumed run plays
                # the evaluations since then again with the same seeds, so its results are the same.
                if client is not None or lost.saved is None or restart == SCHEDULER_RESTARTS:
                    raise
                with _cluster_log(run_dir):
                    say(f"{lost.cause}; starting the cluster again and resuming from the checkpoint "
                        f"at {lost.saved} evaluations (restart {restart + 1} of at most {SCHEDULER_RESTARTS})")
    print(f"run finished: {run_dir}", file=sys.stderr)
    print(summary(search))
    return run_dir


def _search_to_end(cfg, run_dir, asked_loop, client):
    """The search, begun or resumed from the folder's checkpoint and run to its end on the
    cluster of the config (or `client`); SchedulerLost where the Dask client lost its scheduler."""
    from .state import run_dir as rd
    saved = rd.open_run_dir(run_dir, cfg)  # raises before anything is written or built
    space = checked_space(cfg)
    search = _stoppable_search(cfg, run_dir, space, OmegaConf.to_yaml(cfg, resolve=True))
    with _noting_stops(search):
        if saved is not None:
            search.resume(saved)
            _check_kept_loop(search, run_dir, asked_loop)
        else:
            search.prepare_offline_surrogate()
        with _cluster_log(run_dir), cluster_and_client(cfg, space, client) as evaluator:
            rd.write_config(run_dir, cfg, saved)  # also repairs a missing or damaged config.yaml
            if saved is not None:
                print(f"resuming {run_dir} at {search.evaluations} evaluations", file=sys.stderr)
            search.evaluator = evaluator
            with _last_checkpoint(search):
                try:
                    search.run()
                except Exception as exc:
                    from .cluster.evaluation import describe_loss, scheduler_lost
                    if not scheduler_lost(evaluator.dask, exc):
                        raise
                    raise SchedulerLost(f"the driver lost its Dask scheduler ({describe_loss(evaluator.dask, exc)})",
                                        run_dir, search.saved_evaluations) from exc
    return search


def _run_loop_and_dir(cfg, client):
    """The config with its steady-state loop as numbers (search.deck_search.resolve_loop), its run
    folder, and the loop this command asks where it resumes a run begun with `lag: auto` (None
    otherwise). A run resumed with `auto` keeps the numbers it began with, whatever the slots now.
    A run of an earlier version began with auto and keeps its lag in its checkpoint: the same
    command resumes it as it began, in the folder it has, and a command that names its run_dir
    and gives numbers must give the ones it kept."""
    from .cluster.clusters import planned_slots
    from .search.loop import loop_is_auto, resolve_loop
    from .state import run_dir as rd
    algo = cfg.algorithm
    began = rd.loop_begun_in(rd.resolve_run_dir(cfg)) if algo.kind == "surrogate" and algo.steady_state else None
    if began is not None and "auto" in began:
        if algo.lag == algo.min_batch == "auto":
            return cfg, rd.resolve_run_dir(cfg), None
        if cfg.run_dir:
            auto = OmegaConf.merge(cfg, {"algorithm": {"lag": "auto", "min_batch": "auto"}})
            return auto, rd.resolve_run_dir(auto), (algo.lag, algo.min_batch)
    elif began is not None and cfg.run_dir and loop_is_auto(algo):
        kept = {key: value if algo[key] == "auto" else algo[key] for key, value in zip(("lag", "min_batch"), began)}
        cfg = OmegaConf.merge(cfg, {"algorithm": kept})
    if loop_is_auto(cfg.algorithm):
        slots = planned_slots(cfg.cluster) if client is None else sum(client.nthreads().values())
        if slots:  # else (a cluster started elsewhere) the search resolves it once connected
            cfg = resolve_loop(cfg, slots)
    return cfg, rd.resolve_run_dir(cfg), None


def _check_kept_loop(search, run_dir, asked) -> None:
    """A run begun with `lag: auto` resumed by a command that gives numbers: they must be its."""
    from .search.loop import steady_state_min_batch
    if asked is None:
        return
    kept = (search.lag, steady_state_min_batch(search.algo, search.lag))
    if any(a != "auto" and int(a) != k for a, k in zip(asked, kept)):
        raise RunDirError(f"{run_dir} holds a run with algorithm.lag {kept[0]} and min_batch {kept[1]} "
                          f"(auto when it began), this command asks {asked[0]} and {asked[1]}; "
                          "run it without them, or choose another run_dir")


def checked_space(cfg):
    """The deck space, once the files the config names and the engine are checked."""
    check_inputs(cfg)  # the files the config names, read and checked before anything is written
    engine_options(cfg)  # a missing or broken engine fails here, before anything is written
    from .deck_space import DeckSpace
    return DeckSpace.from_config(cfg.deck_space)


def _stoppable_search(cfg, run_dir, space, config_yaml):
    """The search of algorithm.kind, with its checkpoint and report writes finished before a stop
    (SIGINT, SIGTERM) takes effect: a stop leaves the last complete checkpoint, never half a file,
    and the step it interrupted runs again on resume with the same seeds."""
    from .search import search_class

    class StoppableSearch(search_class(cfg.algorithm.kind)):
        saved_evaluations = None  # how many evaluations the checkpoint on disk holds

        def resume(self, saved) -> None:
            super().resume(saved)
            self.saved_evaluations = self.evaluations

        def checkpoint(self) -> None:
            with stops_deferred():
                super().checkpoint()
                self.saved_evaluations = self.evaluations

        def write_reports(self, **kw) -> None:
            with stops_deferred():
                super().write_reports(**kw)

    return StoppableSearch(cfg, run_dir, space, None, config_yaml)


@contextlib.contextmanager
def _noting_stops(search):
    """A stop leaving the run notes what it leaves behind, for stopped_message."""
    try:
        yield
    except Stopped as stop:
        stop.kept = (search.run_dir, search.saved_evaluations)
        raise


CLUSTER_LOG = "cluster.log"  # in the run folder: what the cluster did to the run (lost and replaced jobs)


@contextlib.contextmanager
def _cluster_log(run_dir: Path):
    """The cluster's events (pipeline/cluster/events.py: say) go to the run's cluster.log too."""
    from .cluster.events import set_event_log
    set_event_log(Path(run_dir) / CLUSTER_LOG)
    try:
        yield
    finally:
        set_event_log(None)


@contextlib.contextmanager
def _last_checkpoint(search):
    """A stop (SIGTERM from scancel or a preemption, SIGINT) in the middle of the search writes
    one more checkpoint before the cluster closes: the search's state is whole whenever a stop
    leaves run() (its results are applied inside stops_deferred blocks), and the checkpoint holds
    the batches still in flight, which the resumed run plays again with the same seeds. So a
    preempted job loses only the games in flight, not the work since the last outer iteration.
    Only the checkpoint is written (the reports, a heatmap and pages, could outlast a short grace
    period; the resumed run writes them). If the write fails, the last complete checkpoint stays."""
    try:
        yield
    except Stopped as stop:
        # before the first checkpoint there is little to keep
        if search.checkpoints_on_stop and search.saved_evaluations is not None:
            try:
                search.checkpoint()
            except Exception as exc:  # noqa: BLE001 - the stop goes on; the older checkpoint stays
                print(f"stopping: the last checkpoint was not written ({type(exc).__name__}: {exc}); "
                      "the one before stays", file=sys.stderr)
        raise stop


def stopped_message(stop: Stopped) -> str:
    """The one line a stopped run prints: what is kept and how to go on."""
    run_dir, evaluations = getattr(stop, "kept", (None, None))
    if stop.reason:
        kept = ("no checkpoint was written yet" if evaluations is None else
                f"the checkpoint in {run_dir} holds {evaluations} evaluations")
        return f"error: {stop.reason}; {kept}; once that is fixed, run the same command again"
    if evaluations is None:
        return f"stopped by {stop.signal_name} before the first checkpoint; run the same command again to start"
    return (f"stopped by {stop.signal_name}: the checkpoint in {run_dir} holds {evaluations} evaluations; "
            "run the same command again to resume")


def summary(search) -> str:
    """The final numbers and the best deck (or strategy), for the terminal."""
    if hasattr(search, "summary"):
        return search.summary()
    from .search.archives import qd_metrics
    from .search.run_files import best_decks
    m = qd_metrics(search.archive, search.spec)
    lines = [f"{search.algo.name}: {search.evaluations} evaluations, QD-score {m['qd_score']:.2f}, "
             f"coverage {m['coverage']:.2%}, max fitness {m['max_fitness']:.2f}, "
             f"max win rate {m['max_win_rate']:.1%}; files in {search.run_dir}"]
    best = best_decks(search.archive, search.space, 1)
    if best:
        lines.append(f"best deck ({best[0]['objective']:+.2f} health difference): {best[0]['deck_code']}")
    return "\n".join(lines)


def evaluate_deck_file(cfg, space, client=None) -> None:
    deck = space.load_deck_file(cfg.deck_file)
    import numpy as np
    with cluster_and_client(cfg, space, client) as evaluator:
        result = evaluator.evaluate(deck[None, :], np.array([0]))[0]
    from workers.protocol.results import TARGET_NAMES
    print(json.dumps({"deck_code": space.deck_code(deck), "cards": space.describe(deck),
                      "games": result.games, "targets": dict(zip(TARGET_NAMES, result.targets()))},
                     indent=1))
    return None


def _link_sweep_folder(run_dir: Path) -> None:
    """A multirun job's folder is named by its overrides; its run goes to run_dir, named by what it
    computes (so the same sweep again resumes it, whatever the cluster options): the job folder
    links to it. Replaced, not kept, so SweepTable knows the link is this sweep's."""
    if not HydraConfig.initialized() or HydraConfig.get().mode != RunMode.MULTIRUN:
        return
    folder = Path(HydraConfig.get().runtime.output_dir)
    fresh = folder / f".{SWEEP_LINK}.{os.getpid()}"
    with contextlib.suppress(FileNotFoundError):
        fresh.unlink()
    fresh.symlink_to(os.path.relpath(Path(run_dir).resolve(), folder.resolve()), target_is_directory=True)
    os.replace(fresh, folder / SWEEP_LINK)


class SweepTable(Callback):
    """At the end of a multirun, which run folder each job went to (conf/config.yaml names this
    class in hydra.callbacks). The jobs may run elsewhere (SLURM): their links, made after the
    sweep's start mark (both timed by the same file system), are this sweep's."""

    def on_multirun_start(self, config: DictConfig, **kwargs) -> None:
        self.mark = Path(config.hydra.sweep.dir) / ".sweep-started"
        self.mark.parent.mkdir(parents=True, exist_ok=True)
        self.mark.touch()

    def on_multirun_end(self, config: DictConfig, **kwargs) -> None:
        sweep, since = self.mark.parent, self.mark.stat().st_mtime_ns
        links = sorted(p for p in sweep.rglob(SWEEP_LINK) if p.is_symlink() and p.lstat().st_mtime_ns >= since)
        rows = [(str(p.parent.relative_to(sweep)), _shown(p.resolve())) for p in links]
        width = max((len(job) for job, _ in rows), default=0)
        print(f"sweep {_shown(sweep)}: {len(rows)} runs (each job folder links to its run as '{SWEEP_LINK}')")
        for job, run_dir in rows:
            print(f"  {job:<{width}}  ->  {run_dir}")


def _shown(path: Path) -> str:
    with contextlib.suppress(ValueError):
        return str(path.resolve().relative_to(Path.cwd()))
    return str(path)


@hydra.main(config_path=CONF_DIR, config_name="config", version_base="1.3")
def main(cfg: DictConfig) -> None:
    try:
        with stop_on_signals():
            run(cfg)
    except Stopped as stop:  # the cluster is closed by now and the last checkpoint is complete
        print(stopped_message(stop), file=sys.stderr)
        sys.exit(stop.code)
    except PipelineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as exc:  # other deck or config errors raised by the engine
        from workers.errors import DeckError
        if isinstance(exc, DeckError):
            print(f"error: {exc}", file=sys.stderr)
            sys.exit(2)
        raise
