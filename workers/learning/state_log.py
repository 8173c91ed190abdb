"""Logged game states: one row per end of turn, for training value networks.

The command line is `python -m tools.states` (collect, bench, info).

A row is written for each turn of each game, from the view of the player who just played it:
the state right after its END_TURN was applied (the opponent's turn has started and drawn),
or the state in which the game ended during that turn. It holds each encoder's vector
(workers.players.encoders) and the columns of `COLUMNS`: the game's deck, game index and opponent,
the turn number (1 = the first turn of the game), the seat (0 = the evaluated deck, which goes
first; 1 = its opponent), the game's outcome from that seat (+1 won, -1 lost, 0 tie) and the
turns still to be played (0 for the game's last turn).

Decks (`--decks`, any mix): `miracle` (the paper's Miracle Rogue), `pool:K` (K random decks
from the Rogue card pool, as `workers.engine.class_pools.random_pool_deck` builds them, seeded from --seed),
deck JSON files, or `mirror` (each of the six opponent decks against itself, both sides with
the collection's strategy). Each deck plays games 0..N-1 of the protocol (game g against opponent
g mod 6, the deck first) with its own evaluation seed derived from --seed and its position.

Collection is split into tasks (a deck and a range of games); each finished task is written
to FILE.h5.parts/ at once, so a re-run of the same command continues where it stopped; when
all tasks are done they are merged into FILE.h5 in task order, so the file is the same for any
number of workers (tools.states runs them on a Dask LocalCluster, as the pipeline does).
"""
from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..engine.class_pools import pool_ids, random_pool_deck
from ..engine.rng import derive
from ..players.encoders import ENCODERS, get_encoder

FORMAT = 1
COLUMNS = ("deck", "game_index", "opponent", "turn", "player", "outcome", "turns_to_end")
DEFAULT_ENCODERS = ("protocol15", "teo60", "rich")
DEFAULT_DECKS = ("miracle", "pool:59")


class StateRecorder:
    """Passed as `recorder` to workers.protocol.evaluate.play_games / evaluate_deck (or play_game): keeps
    each turn's end as encoded rows; a game's rows are kept once the game is over, with its
    outcome (rows of a game that raised are dropped when the next game starts).

    Encoders only read the state, so recording changes no game."""

    def __init__(self, encoders=DEFAULT_ENCODERS, deck_id: int = 0):
        self.encoders = [get_encoder(name) for name in encoders]
        self.deck_id = deck_id
        self.features: dict[str, list] = {e.name: [] for e in self.encoders}
        self.columns: dict[str, list] = {c: [] for c in COLUMNS}
        self.games = 0  # games whose rows were kept
        self._game = (0, 0)
        self._pending: list = []

    def start_game(self, game_index: int, opponent_index: int = 0) -> None:
        self._game = (game_index, opponent_index)
        self._pending = []

    def turn_ended(self, g, player: int) -> None:
        self._pending.append((player, [e.fn(g, player) for e in self.encoders]))
        if g.done:
            self._finish(g)

    def _finish(self, g) -> None:
        last = len(self._pending)
        game_index, opponent = self._game
        cols = self.columns
        for turn, (player, vectors) in enumerate(self._pending, start=1):
            for e, v in zip(self.encoders, vectors):
                self.features[e.name].append(v)
            for name, value in (("deck", self.deck_id), ("game_index", game_index),
                                ("opponent", opponent), ("turn", turn), ("player", player),
                                ("outcome", g.result(player)), ("turns_to_end", last - turn)):
                cols[name].append(value)
        self._pending = []
        self.games += 1

    def __len__(self) -> int:
        return len(self.columns["turn"])

    def arrays(self) -> dict[str, np.ndarray]:
        """x/<encoder> (rows, size) float32 and one int32 array per column."""
        out = {}
        for e in self.encoders:
            rows = self.features[e.name]
            out[f"x/{e.name}"] = (np.stack(rows) if rows else np.zeros((0, e.size), np.float32))
        for name in COLUMNS:
            out[name] = np.asarray(self.columns[name], dtype=np.int32)
        return out


# ------------------------------------------------------------------------------ decks
def parse_decks(specs, seed: int) -> list[dict]:
    """[{name, cards}] from deck specs: 'miracle', 'pool:K', deck JSON files, or 'mirror': each
    of the protocol's six opponent decks against itself, both sides playing the collection's
    strategy (the mirror matches of tools.tournament)."""
    from ..protocol.evaluate import load_deck_file, miracle_rogue, validate_deck
    decks, pool_index = [], 0
    for spec in specs:
        if spec == "miracle":
            decks.append({"name": "Miracle Rogue", "cards": miracle_rogue()})
        elif spec == "mirror":
            from ..protocol.evaluate import default_opponents
            decks += [{"name": f"{o.name} mirror", "cards": list(o.cards), "hero_class": o.hero_class,
                       "mirror": True} for o in default_opponents()]
        elif spec.startswith("pool:"):
            try:
                count = int(spec[5:])
            except ValueError:
                raise SystemExit(f"deck spec {spec!r}: pool:K needs a whole number K") from None
            pool = pool_ids("ROGUE")
            for _ in range(count):
                cards = random_pool_deck(derive(seed, 0xDEC0, pool_index), list(pool))
                decks.append({"name": f"pool deck {pool_index}", "cards": cards})
                pool_index += 1
        else:
            if not Path(spec).is_file():
                raise SystemExit(f"deck spec {spec!r} is not 'miracle', 'pool:K' or a deck file")
            decks.append({"name": Path(spec).stem, "cards": load_deck_file(spec)})
    for d in decks:
        validate_deck(d["cards"], hero_class=d.get("hero_class", "ROGUE"), label=f"deck {d['name']!r}")
    if not decks:
        raise SystemExit("no decks given")
    return decks


def deck_seed(seed: int, deck_id: int) -> int:
    return derive(seed, 0x57A7E5, deck_id)


# ------------------------------------------------------------------------------ tasks
def run_task(task: dict) -> dict:
    """Play one task's games with a recorder; its rows as arrays (runs on a worker)."""
    from ..protocol.evaluate import OpponentDeck, load_opponents, play_games
    start = time.perf_counter()
    recorder = StateRecorder(task["encoders"], task["deck_id"])
    hero_class = task.get("hero_class", "ROGUE")
    if task.get("mirror"):
        opponents = [OpponentDeck("mirror", hero_class, task["strategy"], tuple(task["cards"]))]
    else:
        opponents = load_opponents(task["opponents"]) if task["opponents"] else None
    records = play_games(task["cards"], task["games"], task["seed"], player=task["player"],
                         strategy=task["strategy"], opponents=opponents,
                         beam_depth=task["beam_depth"], beam_width=task["beam_width"],
                         hero_class=hero_class, recorder=recorder)
    out = recorder.arrays()
    out["failed"] = np.array(sum(r.error is not None for r in records), np.int32)
    out["seconds"] = np.array(time.perf_counter() - start)
    return out


def make_tasks(manifest: dict) -> list[dict]:
    per = manifest["games_per_task"]
    tasks = []
    for deck_id, deck in enumerate(manifest["decks"]):
        for start in range(0, manifest["games"], per):
            tasks.append({
                "deck_id": deck_id, "cards": deck["cards"], "seed": deck_seed(manifest["seed"], deck_id),
                "games": list(range(start, min(start + per, manifest["games"]))),
                "encoders": list(manifest["encoders"]), "player": manifest["player"],
                "strategy": manifest["strategy"], "beam_depth": manifest["beam_depth"],
                "beam_width": manifest["beam_width"], "opponents": manifest["opponents"],
                "hero_class": deck.get("hero_class", "ROGUE"), "mirror": deck.get("mirror", False)})
    return tasks


# ------------------------------------------------------------------------------ collection
@dataclass
class Progress:
    total: int
    done: int = 0
    rows: int = 0
    failed: int = 0
    start: float = field(default_factory=time.perf_counter)
    last: float = 0.0
    quiet: bool = False

    resumed: int = 0  # tasks done by an earlier run

    def update(self, part: dict, earlier: bool = False) -> None:
        self.done += 1
        self.rows += len(part["turn"])
        self.failed += int(part["failed"])
        if earlier:
            self.resumed += 1
            return
        now = time.perf_counter()
        if self.quiet or not (now - self.last >= 5 or self.done == self.total):
            return
        self.last = now
        elapsed = now - self.start
        eta = elapsed / max(self.done - self.resumed, 1) * (self.total - self.done)
        print(f"[collect] tasks {self.done}/{self.total}, rows {self.rows:,}, failed games "
              f"{self.failed}, {_clock(elapsed)} elapsed, about {_clock(eta)} left", flush=True)


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}h{seconds // 60 % 60:02d}m{seconds % 60:02d}s" if seconds >= 3600 \
        else f"{seconds // 60}m{seconds % 60:02d}s"


def _write_part(path: Path, part: dict) -> None:
    tmp = path.with_suffix(".tmp.npz")
    with open(tmp, "wb") as f:
        np.savez(f, **{k.replace("/", "__"): v for k, v in part.items()})
    os.replace(tmp, path)


def _read_part(path: Path) -> dict:
    with np.load(path) as data:
        return {k.replace("__", "/"): data[k] for k in data.files}


def collect(decks: list[dict], games: int, out: str | Path, *, seed: int = 0, workers: int = 1,
            encoders=DEFAULT_ENCODERS, player: str = "beam", strategy: str = "nn",
            beam_depth: int = 13, beam_width: int = 4, games_per_task: int = 20,
            opponents: str | None = None, quiet: bool = False, run_parallel=None) -> Path:
    """Collect the rows of `games` games per deck into the HDF5 file `out` (see the module
    doc); resumes from `out`.parts/ when the same collection was started before. With more
    than one worker, `run_parallel(run_task, tasks, workers)` runs the tasks ({index: task})
    and yields (index, part) as each finishes (tools.states: on a local Dask cluster)."""
    if workers > 1 and run_parallel is None:
        raise ValueError("collecting with more than one worker needs run_parallel")
    out = Path(out)
    encoders = list(encoders)
    for name in encoders:
        get_encoder(name)
    manifest = {"format": FORMAT, "seed": int(seed), "games": int(games),
                "games_per_task": int(games_per_task), "decks": decks, "player": player,
                "strategy": strategy, "beam_depth": int(beam_depth), "beam_width": int(beam_width),
                "opponents": str(opponents) if opponents else None, "encoders": encoders,
                "encoder_versions": {n: ENCODERS[n].version for n in encoders}}
    if out.exists():
        with h5_file(out, "r") as f:
            if json.loads(f.attrs["manifest"]) == manifest:
                if not quiet:
                    print(f"[collect] {out} is complete ({f.attrs['rows']:,} rows); nothing to do")
                return out
        raise SystemExit(f"{out} exists and holds another collection; choose another --out")
    parts = Path(str(out) + ".parts")
    parts.mkdir(parents=True, exist_ok=True)
    stored = parts / "manifest.json"
    if stored.exists():
        if json.loads(stored.read_text()) != manifest:
            raise SystemExit(f"{parts} holds a different unfinished collection (other decks, games, "
                             f"seed, players or encoders); remove it or choose another --out")
    else:
        stored.write_text(json.dumps(manifest))
    tasks = make_tasks(manifest)
    names = [parts / f"task_{i:06d}.npz" for i in range(len(tasks))]
    todo = [i for i, p in enumerate(names) if not p.exists()]
    progress = Progress(len(tasks), quiet=quiet)
    for p in names:
        if p.exists():
            progress.update(_read_part(p), earlier=True)
    progress.start = time.perf_counter()
    if not quiet:
        print(f"[collect] {len(decks)} decks x {games} games = {len(tasks)} tasks, "
              f"{len(tasks) - len(todo)} done before, {workers} worker(s)", flush=True)
    start = time.perf_counter()
    if todo and workers <= 1:
        for i in todo:
            part = run_task(tasks[i])
            _write_part(names[i], part)
            progress.update(part)
    elif todo:
        for i, part in run_parallel(run_task, {i: tasks[i] for i in todo}, workers):
            _write_part(names[i], part)
            progress.update(part)
    seconds = time.perf_counter() - start
    _merge(out, manifest, names, seconds)
    shutil.rmtree(parts)
    if not quiet:
        with h5_file(out, "r") as f:
            print(f"[collect] wrote {out}: {f.attrs['rows']:,} rows of {f.attrs['games_played']:,} "
                  f"games ({f.attrs['games_failed']} failed) in {_clock(seconds)}", flush=True)
    return out


def h5_file(path, mode):
    import h5py
    return h5py.File(path, mode)


def _merge(out: Path, manifest: dict, names, seconds: float) -> None:
    tmp = out.with_name(out.name + ".tmp")
    rows = games_failed = 0
    with h5_file(tmp, "w") as f:
        f.attrs["format"] = FORMAT
        f.attrs["manifest"] = json.dumps(manifest)
        f.attrs["collect_seconds"] = seconds  # this run's wall time (the part before a resume not included)
        datasets = {}
        for name in manifest["encoders"]:
            enc = ENCODERS[name]
            ds = f.create_dataset(f"x/{name}", shape=(0, enc.size), maxshape=(None, enc.size),
                                  dtype=np.float32, chunks=(min(4096, max(1, 65536 // enc.size)), enc.size),
                                  compression="gzip", compression_opts=4, shuffle=True)
            ds.attrs["version"] = enc.version
            ds.attrs["names"] = json.dumps(enc.names)
            datasets[f"x/{name}"] = ds
        for col in COLUMNS:
            datasets[col] = f.create_dataset(f"rows/{col}", shape=(0,), maxshape=(None,), dtype=np.int32,
                                             chunks=(16384,), compression="gzip")
        game_seconds = 0.0
        for path in names:
            part = _read_part(path)
            n = len(part["turn"])
            for key, ds in datasets.items():
                ds.resize(rows + n, axis=0)
                ds[rows:rows + n] = part[key]
            rows += n
            games_failed += int(part["failed"])
            game_seconds += float(part["seconds"])
        f.create_dataset("decks", data=np.array([json.dumps(d) for d in manifest["decks"]],
                                                dtype=h5_string()))
        f.attrs["rows"] = rows
        f.attrs["games_failed"] = games_failed
        f.attrs["games_played"] = len(manifest["decks"]) * manifest["games"] - games_failed
        f.attrs["task_seconds"] = game_seconds  # summed over tasks, on whichever worker
    os.replace(tmp, out)


def h5_string():
    import h5py
    return h5py.string_dtype()


def load(path: str | Path, encoder: str | None = None) -> dict[str, np.ndarray]:
    """The columns of a collected file (and `encoder`'s vectors as "x"), checked against the
    encoder's current version."""
    with h5_file(path, "r") as f:
        out = {col: f[f"rows/{col}"][:] for col in COLUMNS}
        if encoder is not None:
            if f"x/{encoder}" not in f:
                raise ValueError(f"{path} has no {encoder!r} encoding (it has {', '.join(f['x'])})")
            ds = f[f"x/{encoder}"]
            if int(ds.attrs["version"]) != get_encoder(encoder).version:
                raise ValueError(f"{path} holds {encoder} v{ds.attrs['version']}, this code encodes "
                                 f"v{get_encoder(encoder).version}; collect again")
            out["x"] = ds[:]
        out["games_per_deck"] = int(json.loads(f.attrs["manifest"])["games"])
    return out


# ------------------------------------------------------------------------------ bench
def bench(games: int = 60, seed: int = 0, repeats: int = 3, encoders=DEFAULT_ENCODERS) -> dict:
    """CPU time per game of the protocol's games (Miracle Rogue, beam players) with and without
    recording, interleaved `repeats` times (best of each), and the CPU time spent inside the
    recorder itself (a steadier figure on a busy machine)."""
    from ..protocol.evaluate import miracle_rogue, play_games, warm_up
    warm_up()
    deck = miracle_rogue()
    clock = time.process_time
    plain, recorded, inside, rows = [], [], [], 0

    class Timed(StateRecorder):
        spent = 0.0

        def turn_ended(self, g, player):
            t = clock()
            super().turn_ended(g, player)
            self.spent += clock() - t

    play_games(deck, range(2), seed)  # warm caches
    for _ in range(repeats):
        t = clock()
        a = play_games(deck, range(games), seed)
        plain.append(clock() - t)
        recorder = Timed(encoders)
        t = clock()
        b = play_games(deck, range(games), seed, recorder=recorder)
        recorded.append(clock() - t)
        inside.append(recorder.spent)
        rows = len(recorder)
        if a != b:
            raise AssertionError("recording changed a game")
    return {"games": games, "rows": rows, "plain_s": min(plain), "recorded_s": min(recorded),
            "overhead": min(recorded) / min(plain) - 1, "recorder_s": min(inside),
            "recorder_share": min(inside) / min(plain)}
