"""The evaluation client: decks become Dask tasks of a few games each; results come back in
submission order, whichever worker ran what, and lost tasks run again."""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from distributed import as_completed

from workers.errors import DeckError
from workers.protocol.chunk_sums import summarize_chunks

from ..deck_space import DeckSpace
from ..run_errors import ConfigError, EvaluationError
from .worker_cpu import WorkerCPU
from .worker_tasks import EngineLoader, play_chunk
from .worker_watch import scheduler_workers


def evaluation_seed(run_seed: int, eval_id: int) -> int:
    """The seed of evaluation `eval_id` of a run: a pure function of the two numbers."""
    return int(np.random.SeedSequence([int(run_seed), 0xDECC, int(eval_id)]).generate_state(1)[0])


def check_failures(eval_id: int, chunks: list, max_share: float, opponent_names: list[str]) -> None:
    """Games that raised inside the engine on every try are left out of an evaluation, but beyond
    a small share (cluster.max_failed_share) the numbers would describe something else, such as
    an opponent that cannot play at all: EvaluationError instead. (A game that failed a try and
    then finished counts as played; its failed tries are in the result's errors.)"""
    games = sum(c.tried for c in chunks)
    lost = {g for c in chunks for g in c.lost}
    if not lost or (len(lost) <= max_share * games and len(lost) < games):
        return
    game, opponent_index, seed, error = next(e for c in chunks for e in c.errors if e[0] in lost)
    opponent = opponent_names[opponent_index % len(opponent_names)]
    raise EvaluationError(
        f"{len(lost)} of {games} games of evaluation {eval_id} failed inside the engine "
        f"(more than cluster.max_failed_share={max_share:g}); first: game {game} "
        f"against {opponent!r}, seed {seed}: {error}")


def scheduler_lost(client, exc: BaseException) -> bool:
    """Whether `exc` came of the Dask client losing its scheduler: the client is reconnecting or
    has given up (closed), or a task was cancelled because the connection broke."""
    return client.status != "running" or _lost_connection(exc) is not None


def describe_loss(client, exc: BaseException) -> str:
    """What scheduler_lost saw, in one line."""
    cancelled = _lost_connection(exc)
    if cancelled is not None:
        return f"{type(cancelled).__name__}: {str(cancelled).splitlines()[0]}"
    first_line = (str(exc).splitlines() or [""])[0]
    return f"its client is {client.status} after {type(exc).__name__}: {first_line}"


def _lost_connection(exc: BaseException | None) -> BaseException | None:
    """The exception in `exc`'s chain that cancelled a task for a lost connection, if any."""
    while exc is not None:
        if getattr(exc, "reason", None) == "scheduler-connection-lost":
            return exc
        exc = exc.__cause__ or exc.__context__
    return None


TASK_SLOTS, MIN_AUTO_GAMES = 200, 10
MAP_PIECE = 250  # tasks per map call


def games_per_task(setting, games: int, slots: int, decks: int | None = None) -> int:
    """cluster.games_per_task: a count, or auto: about TASK_SLOTS / slots tasks per deck, so a
    few slots get many small tasks to share and many slots one task per deck, keeping the
    scheduler's tasks per second, and its share of the time, small; but where fewer `decks` than
    slots wait (a batch and those still queued before it), a task per slot (finer, the scheduler's
    work per task outgrows a task at 1,000 slots); never under MIN_AUTO_GAMES games a task
    (docs/pipeline.md#task-size)."""
    if setting != "auto":
        return int(setting)
    slots = max(slots, 1)
    tasks = -(-TASK_SLOTS // slots)
    if decks:
        tasks = max(tasks, -(-slots // decks))
    tasks = min(tasks, max(games // MIN_AUTO_GAMES, 1))
    return -(-games // tasks)


def task_options(space: DeckSpace, *, player: str, strategy, beam_depth: int, beam_width: int,
                 hide_deck_order: bool = False, opponents_path: str | None = None, engine: str = "builtin",
                 engine_options: dict | None = None) -> dict:
    """What every game task of a run is told (worker_tasks.play_chunk): the evaluated player and
    its settings, the opponents, the card changes, the engine."""
    return {"player": player, "strategy": strategy, "beam_depth": beam_depth, "beam_width": beam_width,
            "hide_deck_order": bool(hide_deck_order), "opponents_path": opponents_path,
            "stat_overrides": space.stat_overrides, "hero_class": space.hero_class,
            "engine": engine, "engine_options": engine_options or {}}


@dataclass
class BatchTiming:
    wall_s: float  # from the first submission to the last result
    game_s: float  # summed over tasks: time inside play_games
    workers: int

    @property
    def game_time_share(self) -> float:
        return self.game_s / max(self.wall_s * self.workers, 1e-9)


class EvaluationClient:
    def __init__(self, client, space: DeckSpace, *, run_seed: int, games: int, games_per_task,
                 player: str, strategy: str, beam_depth: int, beam_width: int,
                 hide_deck_order: bool = False,
                 opponents_path: str | None = None, max_resubmits: int = 3,
                 engine: str = "builtin", engine_options: dict | None = None,
                 max_failed_share: float = 0.05, slots: int | None = None):
        from workers.protocol import evaluate
        self.dask, self.space, self.run_seed = client, space, run_seed
        self.games, self.games_per_task, self.max_resubmits = games, games_per_task, max_resubmits
        self.max_failed_share = max_failed_share
        self.options = task_options(space, player=player, strategy=strategy, beam_depth=beam_depth,
                                    beam_width=beam_width, hide_deck_order=hide_deck_order,
                                    opponents_path=opponents_path, engine=engine, engine_options=engine_options)
        # Cards, decks and opponents are data that both engines share (the same card set): the
        # built-in engine's readers serve here whatever engine plays the games.
        self._card_data = evaluate
        self._check_pool_playable()
        self.opponent_names = [o.name for o in (evaluate.load_opponents(opponents_path)
                                                if opponents_path else evaluate.default_opponents())]
        client.register_plugin(EngineLoader(opponents_path, space.stat_overrides, engine,
                                            engine_options or {}))
        self.slots = slots or self.workers()  # the slots a run plans on (clusters.planned_slots)
        self.timings: list[BatchTiming] = []
        self.unfinished: list[SubmittedBatch] = []  # submitted batches not wholly handed back yet
        self.worker_cpu, self.games_received = WorkerCPU(), 0  # for cpu_and_games

    def cpu_and_games(self) -> tuple[float | None, int]:
        """The workers' CPU seconds, all of it, and the games handed back, both since the last
        call (the CPU None when the workers could not be asked)."""
        games, self.games_received = self.games_received, 0
        return self.worker_cpu.spent(self.dask), games

    def _check_pool_playable(self) -> None:
        library = self._card_data.card_library(self.space.stat_overrides)
        bad = [f"{c.name} ({c.id})" for c in self.space.cards
               if c.id not in library or not library[c.id].implemented]
        if bad:
            raise ConfigError(f"the engine cannot play {len(bad)} pool card(s): {', '.join(bad[:5])}")

    def chunks(self, decks: int) -> list[list[int]]:
        """The game indices of each task of a deck when `decks` decks are queued; auto sizes them
        for the workers there now (a deck's games and seeds do not depend on how they are split)."""
        size = games_per_task(self.games_per_task, self.games, self.workers(), decks)
        return [list(range(s, min(s + size, self.games))) for s in range(0, self.games, size)]

    def workers(self) -> int:
        return max(sum(w["nthreads"] for w in scheduler_workers(self.dask).values()), 1)

    def evaluate(self, decks: np.ndarray, eval_ids: np.ndarray, progress=None, strategies=None) -> list:
        """EvaluationResult of each deck, in the order given. `strategies`: per deck, the
        evaluated player's score instead of the configured one (the strategy search sends each
        candidate's weights as a tuple)."""
        return self.submit(decks, eval_ids, strategies).results(progress)

    def submit(self, decks: np.ndarray, eval_ids: np.ndarray, strategies=None, last: bool = False) -> "SubmittedBatch":
        """Sends every game task of these decks to the workers and returns at once; the
        batch's `results()` waits for them. Batches submitted earlier run first, and the automatic
        task size counts their decks not handed back yet, unless this is the `last` batch of a
        run: sized alone, the run's tail comes out in smaller tasks."""
        queued = 0 if last else sum(b.waiting for b in self.unfinished)
        batch = SubmittedBatch(self, decks, eval_ids, strategies, queued)
        self.unfinished.append(batch)
        return batch

    def _submit(self, cards, games, seed, options):
        return self.dask.submit(play_chunk, cards, games, seed, options, pure=False)


class SubmittedBatch:
    """The game tasks of one batch of decks, running on the workers; its decks are handed back
    in order, in one or more parts."""

    def __init__(self, client: EvaluationClient, decks: np.ndarray, eval_ids: np.ndarray, strategies=None,
                 queued: int = 0):
        self.client, self.eval_ids = client, eval_ids
        self.card_lists = [tuple(client.space.decode(d)) for d in decks]
        self.options = [client.options if strategies is None else {**client.options, "strategy": s}
                        for s in (strategies if strategies is not None else [None] * len(decks))]
        self.seeds = [evaluation_seed(client.run_seed, e) for e in eval_ids]
        self.chunks = client.chunks(len(decks) + queued)
        self.timing: BatchTiming | None = None  # once every deck is in
        self.start = time.perf_counter()
        tasks = [(d, c) for d in range(len(self.card_lists)) for c in range(len(self.chunks))]
        futures = []
        # map calls, not a submit per task (~0.3 ms each); in pieces, as the scheduler takes in a
        # whole piece before it hands out its first task
        for p in range(0, len(tasks), MAP_PIECE):
            piece = tasks[p:p + MAP_PIECE]
            futures += client.dask.map(
                play_chunk, [self.card_lists[d] for d, _ in piece], [self.chunks[c] for _, c in piece],
                [self.seeds[d] for d, _ in piece], [self.options[d] for d, _ in piece], pure=False)
        self.running = {future: (d, c, 0) for future, (d, c) in zip(futures, tasks)}  # -> deck, chunk, retries
        self.finishing = as_completed(futures)  # the tasks still to take in, as they finish
        self.sums = [[None] * len(self.chunks) for _ in self.card_lists]  # per deck and chunk, as they come
        self.remaining = [len(self.chunks)] * len(self.card_lists)  # per deck: chunks not in yet
        self.returned, self.game_s = 0, 0.0  # decks handed back so far; task seconds so far

    @property
    def waiting(self) -> int:
        """Decks not handed back yet."""
        return len(self.card_lists) - self.returned

    def results(self, progress=None, count: int | None = None) -> list:
        """Waits for the games of the next `count` decks not handed back yet (default: all of them;
        a lost task runs again), and returns those decks' EvaluationResults in order."""
        upto = len(self.card_lists) if count is None else self.returned + count
        while self._complete_from(self.returned) < upto:
            self._receive(progress)
        return self._hand_back(upto)

    def ready(self, most: int) -> list:
        """Waits until the next deck not handed back has all its games, then returns the
        EvaluationResults of it and of every deck after it whose games are all in too, in order,
        up to `most` decks: the results are handed back as they arrive, and a deck finished
        before another is kept back until that one is in, so the order never depends on timing.
        A batch with nothing left to hand back returns [] at once (no task will come to wait for)."""
        if not self.waiting or most < 1:
            return []
        while self._complete_from(self.returned) == self.returned:
            self._receive()
        return self._hand_back(min(self._complete_from(self.returned), self.returned + most))

    def _complete_from(self, deck: int) -> int:
        """The first deck from `deck` on whose games are not all in (or the batch's end)."""
        while deck < len(self.card_lists) and self.remaining[deck] == 0:
            deck += 1
        return deck

    def _receive(self, progress=None) -> None:
        """Takes in the tasks finished since the last call (at least one; one gather for all of
        them), counting each deck whose games are all in on `progress`, and runs again those
        that were lost or failed."""
        finished = self.finishing.next_batch(block=True)
        ok = [f for f in finished if f.status == "finished"]
        for future, (sums, seconds) in zip(ok, self.client.dask.gather(ok) if ok else ()):
            d, c, _ = self.running.pop(future)
            self.sums[d][c] = sums
            self.game_s += seconds
            self.client.games_received += len(self.chunks[c])
            self.remaining[d] -= 1
            if self.remaining[d] == 0 and progress is not None:
                progress.update(1)
        for future in finished:
            if future in self.running:
                self.finishing.add(self._again(future))

    def _hand_back(self, upto: int) -> list:
        """The EvaluationResults of the decks from the first not handed back to `upto` (all of
        their games in), which are then handed back: only once every one of them passed
        check_failures, so an EvaluationError leaves the batch as it was."""
        client, first = self.client, self.returned
        results = []
        for d in range(first, upto):
            check_failures(int(self.eval_ids[d]), self.sums[d], client.max_failed_share, client.opponent_names)
            results.append(summarize_chunks(
                self.sums[d], client._card_data.deck_stats(self.card_lists[d], client.space.stat_overrides),
                client.opponent_names))
        if upto == first:
            return results
        self.sums[first:upto] = [None] * (upto - first)  # summarised: nothing of them is needed again
        self.returned = upto
        if not self.waiting:
            self.timing = BatchTiming(time.perf_counter() - self.start, self.game_s, client.workers())
            client.timings.append(self.timing)
            client.unfinished.remove(self)
        return results

    def _again(self, future):
        """A task that was lost (KilledWorker) or failed runs again, up to cluster.max_retries
        times; an engine's DeckError, or one failure too many, is raised."""
        d, c, attempt = self.running.pop(future)
        try:
            future.result()
        except Exception as exc:
            if attempt >= self.client.max_resubmits or isinstance(exc, DeckError):
                raise
        again = self.client._submit(self.card_lists[d], self.chunks[c], self.seeds[d], self.options[d])
        self.running[again] = (d, c, attempt + 1)
        return again
