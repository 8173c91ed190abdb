"""A generated corpus of bad inputs, each run as a user runs it (`make fuzz-inputs`):

    python -m tools.fuzz_inputs [--sample N] [--seed S] [--match TEXT] [--jobs J]
                                   [--timeout SECONDS] [--root CHECKOUT] [--list] [--show KIND]

Cases: every config key given a value of the wrong type, negative, zero, NaN, infinite, huge,
empty or null (only values the schema refuses); malformed, truncated, deeply nested, oversized
and wrongly encoded deck, opponents, weights and pool files; damaged checkpoints; run folders
that cannot be used; bad arguments of the command-line tools in workers/ and of the report.
Each runs in a subprocess with a timeout and is classified:

    clear      exit 2, one `error:` line on stderr, no traceback, the run folder untouched
    traceback  a Python traceback (or a crash: any other exit status)
    hang       still running at the timeout
    silent     exit 0: the bad input was accepted
    unclear    exit 2, but more than one line, or something was written in the run folder

The counts are printed; the exit status is 1 unless every case is clear. Cases are cheap by
design: a bad value is refused before any game is played, and the base config is a run of a
few seconds, so a value that slips through shows as `silent` rather than as a hang.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, fields, is_dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from pipeline.state import checkpoint as ckpt
from pipeline.state.config import (CHOICES, OPTIONAL_RANGES, RANGES, STRATEGY_RANGES, RootCfg,
                                   StrategySearchCfg)
from workers import DATA
from workers.inputs import ArgumentParser

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("clear", "traceback", "hang", "silent", "unclear")

# A run of seconds (random players, 2 games a deck, 4 evaluations): what a case runs if its
# bad value is not refused.
BASE = {"experiment": "smoke_random", "progress": "false", "cluster.n_workers": "1", "opponents.games": "2",
        "cluster.games_per_task": "2", "algorithm.budget": "4", "algorithm.initial": "2",
        "algorithm.batch_size": "2", "algorithm.checkpoint_every": "2",
        "algorithm.inner.iterations": "10", "surrogate.epochs": "1"}


@dataclass
class Case:
    """One bad input: `argv` after `python -m`, with {dir} standing for the case's folder;
    `setup` writes the files it needs there; `run_dir` is the folder that must stay as it was."""
    name: str
    argv: list[str]
    setup: Callable[[Path], None] | None = None
    run_dir: str | None = "{dir}/run"
    env: dict[str, str] | None = None  # environment variables, {dir} standing for the case's folder


@dataclass
class Outcome:
    case: str
    kind: str
    seconds: float
    detail: str = ""


# --- the corpus: config keys ------------------------------------------------------------------
def pipeline_case(name: str, overrides: dict[str, str], setup=None, base: dict | None = None) -> Case:
    merged = {"run_dir": "{dir}/run", **(BASE if base is None else base), **overrides}
    return Case(name, ["pipeline", *(f"{k}={v}" for k, v in merged.items())], setup)


def schema_keys(schema=None, prefix: str = "") -> dict[str, object]:
    """Every leaf key of the config schema with its default value."""
    schema = schema if schema is not None else RootCfg()
    out = {}
    for f in fields(schema):
        value = getattr(schema, f.name)
        if value is None and f.name == "strategy_search":  # optional: set by the strategy experiments
            value = StrategySearchCfg()
        if is_dataclass(value):
            out.update(schema_keys(value, f"{prefix}{f.name}."))
        else:
            out[f"{prefix}{f.name}"] = value
    return out


def bad_numbers(key: str, default) -> list[str]:
    """Values the schema refuses for a number key, as Hydra overrides: wrong type, empty, NaN,
    infinite, null where not optional, and just beyond each end of its range (so negative,
    zero or huge where those are out)."""
    allowed = RANGES.get(key) or OPTIONAL_RANGES.get(key) or STRATEGY_RANGES.get(key)
    integer = isinstance(default, int) and not isinstance(default, bool) or key in OPTIONAL_RANGES
    values = ["abc", "''", "nan", "inf", "-inf", "[1]"]
    values += ["1.5", "true", "1" + "0" * 30] if integer else []
    values += ["null"] if key not in OPTIONAL_RANGES else []
    if allowed is not None:
        values += _outside(allowed, integer)
        values += ["-1"] if allowed.low >= 0 else []
        values += ["0"] if allowed.low > 0 or allowed.low_open else []
    return list(dict.fromkeys(values))


def _outside(allowed, integer: bool) -> list[str]:
    """The nearest values just outside each end of a range."""
    step = 1 if integer else 1e-3
    low = allowed.low if allowed.low_open else allowed.low - step
    high = allowed.high if allowed.high_open else allowed.high + step
    return [str(int(v)) if integer else repr(float(v)) for v in (low, high)]


SPECIAL = {  # keys whose bad values are not just numbers out of range
    "name": ["''", "a/b", "..", "'x y'", "null", "'" + "n" * 300 + "'"],
    "algorithm.name": ["''", "a/b", "null"],
    "deck_space.deck_size": ["0", "-30", "29", "31", "abc", "nan", "null"],
    "surrogate.device": ["tpu", "cuda:x", "''", "5"],
    "strategy.player": ["greedy", "''", "null", "5", "'mcts:-1'", "'mcts:abc'", "'value_beam:{dir}/absent.pt'",
                        "'beam:depth=0'", "'beam:width=100000'"],
    "surrogate.hidden": ["[0]", "[-1]", "[16,16,16,16]", "[1000000]", "abc", "[nan]", "[1.5]", "null", "[[1]]"],
    "archive.dims": ["[-3,4]", "[0,40]", "[40]", "[40,40,40]", "[1000000,1000000]", "[nan,4]", "abc", "[]",
                     "null", "[1.5,2]"],
    "archive.ranges": ["[[1,1],[1,7]]", "[[5,15]]", "[[nan,15],[1,7]]", "[[5,inf],[1,7]]", "[[15,5],[1,7]]",
                       "[[5],[1,7]]", "abc", "[]", "null", "[[a,b],[1,7]]"],
    "archive.objective": ["speed", "''", "null", "[1]", "turns"],  # turns: no known range for the QD-score
    "archive.measures": ["[turns,turns]", "[]", "[speed,turns]", "[health_difference,turns]", "null", "abc",
                         "[turns,hand_size,dust,win_rate]", "[turns]"],
    "archive.objective_range": ["[1,1]", "[5]", "[nan,1]", "abc", "[2,1]", "[a,b]"],
    "archive.type": ["bogus", "''", "null", "GRID", "[grid]"],
    "archive.start_dims": ["[5,5]", "[0,0]", "abc"],  # on a grid: a sliding map's setting
    "archive.remap_every": ["10", "-1", "abc"],
    "archive.cells": ["100", "-1", "abc"],  # on a grid: a CVT archive's setting
    "cluster.address": ["notanaddress", "'tcp://'", "tcp://127.0.0.1:99999", "''", "5"],
    "cluster.dashboard_address": [":99999", "abc", "''", "'host:port'"],
    "cluster.slurm": ["5", "abc", "[1]"],
    "cluster.games_per_task": ["0", "-1", "1.5", "abc", "''", "null", "true", "nan", "100001", "[1]"],
    "algorithm.lag": ["-1", "1.5", "abc", "''", "null", "true", "nan", "10000001", "[1]", "AUTO"],
    "algorithm.min_batch": ["-1", "2.5", "many", "null", "false", "10000001", "{}", "Auto"],
    "algorithm.overlap": ["maybe", "1", "''", "[true]"],  # steady_state's old name: null is its default
    "run_dir": ["''", "'{dir}/plainfile'"],
    "engine.path": ["''"],
    "engine.table": ["''", "'{dir}/plainfile'"],
    "deck_file": ["''"],
    "deck_space.pool": ["''"],
    "deck_space.hero_class": ["mage", "JEDI", "''", "null", "5"],
    # unknown card, negative or huge value, a stat the card cannot have, a card twice, wrong types
    "deck_space.stat_overrides": ["[{card: Leroy Jenkins, cost: 1}]", "[{card: NOPE_001, cost: 1}]",
                                  "[{card: Cold Blood, cost: -1}]", "[{card: Leeroy Jenkins, health: 100}]",
                                  "[{card: Cold Blood, attack: 1}]", "[{card: Fiery War Axe, health: 2}]",
                                  "[{card: Cold Blood, cost: 1}, {card: CS2_073, cost: 2}]",
                                  "[{card: Cold Blood, cost: abc}]", "[{card: Cold Blood, cost: 1.5}]",
                                  "[{card: Cold Blood, cost: true}]", "[{card: Cold Blood, cost: null}]",
                                  "[{card: Cold Blood, speed: 1}]", "[{card: Cold Blood}]", "[{cost: 1}]",
                                  "[{card: 5, cost: 1}]", "[Cold Blood]", "[[1]]", "'{card: Cold Blood}'", "abc",
                                  "5", "null"],
    "opponents.path": ["''"],
    "algorithm.offline.path": ["''"],
    "strategy.evaluated": ["bogus", "''", "null", "[1]", "'{dir}/absent.json'"],
    "strategy_search.deck": ["''", "'{dir}/absent.json'"],
    "strategy_search.ranker": ["bogus", "''", "null", "[1]"],
    "strategy_search.es": ["bogus", "''", "null"],
    "strategy_search.x0": ["ones", "''", "null", "'{dir}/absent.json'"],
}
# A strategy search of seconds (one emitter of 4, one iteration), for its own keys' cases.
STRATEGY_BASE = {"experiment": "strategy_smoke", "progress": "false", "cluster.n_workers": "1",
                 "opponents.games": "2", "cluster.games_per_task": "2", "algorithm.budget": "4", "strategy_search.emitters": "1",
                 "strategy_search.batch_size": "4", "strategy.beam_depth": "1", "strategy.beam_width": "1"}


def config_cases() -> list[Case]:
    cases = []
    for key, default in schema_keys().items():
        if key in SPECIAL:
            values = SPECIAL[key]
        elif key in CHOICES:
            values = ["bogus", "''", "null", "[1]"]
            values += [f"'{CHOICES[key][0]}'".upper()] if isinstance(CHOICES[key][0], str) else ["3.5"]
        elif isinstance(default, bool):
            values = ["maybe", "1", "''", "null", "[true]"]
        elif isinstance(default, (int, float)) or key in OPTIONAL_RANGES:
            values = bad_numbers(key, default)
        else:
            continue
        for value in values:
            extra = {"cluster.kind": "address"} if key == "cluster.address" else {}
            base = STRATEGY_BASE if key.startswith("strategy_search.") else None
            setup = _plain_file if "plainfile" in value else None
            cases.append(pipeline_case(f"config {key}={value[:40]}", {key: value, **extra}, setup, base))
    for value in bad_numbers("cluster.slurm.max_failed_jobs", 5):  # in cluster.slurm, a dict of the schema
        cases.append(pipeline_case(f"config cluster.slurm.max_failed_jobs={value[:40]}",
                                   {"+cluster.slurm.max_failed_jobs": value}))
    cases.append(pipeline_case("config unreachable cluster.address",
                               {"cluster.kind": "address", "cluster.address": "tcp://127.0.0.1:1"}))
    cases.append(pipeline_case("config cluster.kind=address without an address", {"cluster.kind": "address"}))
    cases.append(pipeline_case("config initial above budget", {"algorithm.initial": "5"}))
    cases.append(pipeline_case("config offline without a path", {"algorithm": "offline_dsa_me"}))
    cases.append(pipeline_case("config unknown key", {"+algorithm.colour": "red"}))
    for name, settings in (  # archive types and their settings that do not fit together
            ("cvt with one measure", {"archive.type": "cvt", "archive.cells": "50", "archive.measures": "[turns]",
                                      "archive.dims": "[40]", "archive.ranges": "[[5,15]]"}),
            ("cvt without cells", {"archive.type": "cvt"}),
            ("sliding without remap_every", {"archive.type": "sliding"}),
            ("sliding with start_dims of the wrong length", {"archive.type": "sliding", "archive.remap_every": "10",
                                                             "archive.start_dims": "[5]"}),
            ("sliding with start_dims above dims", {"archive.type": "sliding", "archive.remap_every": "10",
                                                    "archive.start_dims": "[50,50]"}),
            ("sliding with a surrogate archive kept", {"archive.type": "sliding", "archive.remap_every": "10",
                                                       "algorithm": "dsa_me_no_reset"}),
            ("three measures with two ranges", {"archive.measures": "[turns,hand_size,dust]",
                                                "archive.dims": "[10,10,10]"})):
        cases.append(pipeline_case(f"config {name}", settings))
    cases.append(pipeline_case("config hide_deck_order with sabberstone",
                               {"engine": "sabberstone", "strategy.hide_deck_order": "true"}))
    return cases


def _plain_file(d: Path) -> None:
    (d / "plainfile").write_text("not a folder")


# --- the corpus: files ---------------------------------------------------------------------------
def _json(value) -> bytes:
    return json.dumps(value).encode()


def _sparse(size: int) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        with open(path, "wb") as f:
            f.truncate(size)  # as large as claimed, without writing it
    return write


DECK = json.loads((DATA / "miracle_rogue.json").read_text())
OPPONENTS = json.loads((DATA / "opponents.json").read_text())
WEIGHTS = json.loads((DATA / "player_strategy_nn.json").read_text())
POOL = json.loads((DATA / "rogue_pool.json").read_text())

# Damage any JSON file can suffer: (label, bytes or a writer).
MALFORMED = [
    ("empty", b""),
    ("whitespace", b"   \n"),
    ("binary", bytes(range(256)) * 4),
    ("truncated", None),  # the valid file cut in half (filled in per file)
    ("deeply nested list", b"[" * 200_000 + b"]" * 200_000),
    ("deeply nested object", b'{"a":' * 100_000 + b"1" + b"}" * 100_000),
    ("latin-1", '{"cards": ["Lépreux"]}'.encode("latin-1")),
    ("utf-16", '{"cards": []}'.encode("utf-16")),
    ("json null", b"null"),
    ("json number", b"42"),
    ("json string", b'"deck"'),
    ("NaN", b'{"cards": [NaN], "opponents": [NaN], "weights": [NaN]}'),
    ("oversized", _sparse(40 << 20)),
]


def _with(base: dict, **changes) -> dict:
    out = json.loads(json.dumps(base))
    out.update(changes)
    return out


def _opponent(**changes) -> dict:
    spec = json.loads(json.dumps(OPPONENTS))
    spec["opponents"][0].update(changes)
    return spec


def _without(key: str) -> dict:
    spec = json.loads(json.dumps(OPPONENTS))
    del spec["opponents"][1][key]
    return spec


def deck_variants() -> list[tuple[str, object]]:
    cards = DECK["cards"]
    return [
        ("29 cards", _with(DECK, cards=cards[:29])), ("31 cards", _with(DECK, cards=cards + cards[:1])),
        ("3 copies", _with(DECK, cards=cards[:27] + [cards[0]] * 3)),
        ("unknown card", _with(DECK, cards=cards[:29] + [{"id": "NOPE_001"}])),
        ("card without id", _with(DECK, cards=cards[:29] + [{"name": "Backstab"}])),
        ("numeric card", _with(DECK, cards=cards[:29] + [7])),
        ("cards not a list", _with(DECK, cards="Backstab")), ("no cards", {"hero": "ROGUE"}),
        ("nested card list", _with(DECK, cards=[cards])),
        ("hunter card", _with(DECK, cards=cards[:29] + [{"id": "DS1_185"}])),
        ("text deck of 29", "\n".join(c["id"] for c in cards[:29]).encode()),
        ("bad deck code", b"AAEBAaIHBOGARBAGE"),
        # 65,536 more of one card: 2 copies again if counts were held in 16 bits
        ("65,566 lines", "\n".join([c["id"] for c in cards] + [cards[0]["id"]] * 2 ** 16).encode()),
        ("deck code, 65,538 of a card", _deck_code(930, extra=2 ** 16)),
        ("deck code of a Hunter", _deck_code(31)),  # Rexxar: the Rogue cards must not play as Rogue
    ]


def _deck_code(hero_dbf: int, extra: int = 0) -> bytes:
    """The reference deck as a deck code naming `hero_dbf`, `extra` copies added to its first card."""
    from hearthstone import deckstrings
    from hearthstone.enums import FormatType
    from workers.engine.carddb import load_cards
    library = load_cards()
    copies = Counter(library[c["id"]].dbf_id for c in DECK["cards"])
    cards = [(dbf, n + (extra if k == 0 else 0)) for k, (dbf, n) in enumerate(copies.items())]
    return deckstrings.write_deckstring(cards, [hero_dbf], FormatType.FT_WILD).encode()


def opponents_variants(d: Path) -> list[tuple[str, object]]:
    nan_weights = _with(WEIGHTS, weights=[float("nan")] + WEIGHTS["weights"][1:])
    return [
        ("no opponents key", {"decks": OPPONENTS["opponents"]}), ("opponents empty", {"opponents": []}),
        ("opponents not a list", {"opponents": "six"}), ("opponent not an object", {"opponents": [5]}),
        ("missing name", _without("name")), ("missing hero_class", _without("hero_class")),
        ("missing strategy", _without("strategy")), ("missing cards", _without("cards")),
        ("bad class", _opponent(hero_class="JEDI")), ("lowercase class", _opponent(hero_class="hunter")),
        ("class mismatch", _opponent(hero_class="MAGE")),
        ("bad strategy", _opponent(strategy="greedy")), ("strategy number", _opponent(strategy=3)),
        ("missing weights file", _opponent(strategy=str(d / "absent.json"))),
        ("weights file not JSON", _opponent(strategy=str(d / "garbage.json"))),
        ("NaN weights", _opponent(strategy=str(d / "nan.json"))),
        ("infinite weights", _opponent(strategy=str(d / "inf.json"))),
        ("string weights", _opponent(strategy=str(d / "str.json"))),
        ("short weights", _opponent(strategy=str(d / "short.json"))),
        ("wrong layers", _opponent(strategy=str(d / "layers.json"))),
        ("nested weights", _opponent(strategy=str(d / "nested.json"))),
        ("card without id", _opponent(cards=[{"name": "x"}] * 30)),
        ("card id number", _opponent(cards=[{"id": 5}] * 30)),
        ("29 cards", _opponent(cards=OPPONENTS["opponents"][0]["cards"][:29])),
        ("name empty", _opponent(name="")),
    ], {"garbage.json": b"{weights", "nan.json": json.dumps(nan_weights).encode(),
        "inf.json": json.dumps(WEIGHTS).replace(str(WEIGHTS["weights"][0]), "Infinity", 1).encode(),
        "str.json": _json(_with(WEIGHTS, weights=["x"] * len(WEIGHTS["weights"]))),
        "short.json": _json(_with(WEIGHTS, weights=WEIGHTS["weights"][:50])),
        "layers.json": _json(_with(WEIGHTS, layer_sizes=[15, 5, 5, 1])),
        "nested.json": b'{"weights":' + b"[" * 100_000 + b"]" * 100_000 + b"}"}


def pool_variants() -> list[tuple[str, object]]:
    cards = POOL["cards"]
    return [
        ("no cards", {"decks": []}), ("cards empty", _with(POOL, cards=[])),
        ("index gap", _with(POOL, cards=cards[:5] + cards[6:])),
        ("duplicate id", _with(POOL, cards=cards + [{**cards[0], "index": len(cards)}])),
        ("unknown id", _with(POOL, cards=cards[:-1] + [{**cards[-1], "id": "NOPE_001"}])),
        ("index not a number", _with(POOL, cards=[{**cards[0], "index": "0"}] + cards[1:])),
        ("bad rarity", _with(POOL, cards=[{**cards[0], "rarity": "mythic"}] + cards[1:])),
        ("too few cards", _with(POOL, cards=cards[:10])),
        ("card not an object", _with(POOL, cards=[3] + cards[1:])),
    ]


def _writer(content) -> Callable[[Path], None]:
    """Writes `content` (bytes, a JSON value or a writer) to a path; "{dir}" inside it becomes
    the case's folder."""
    if callable(content):
        return content
    data = content if isinstance(content, bytes) else _json(content)
    return lambda path: path.write_bytes(data.replace(b"{dir}", str(path.parent).encode()))


def file_case(name: str, argv: list[str], files: dict[str, object], run_dir: str | None = "{dir}/run") -> Case:
    def setup(d: Path) -> None:
        for fname, content in files.items():
            _writer(content)(d / fname)
    return Case(name, argv, setup, run_dir)


def malformed(valid: bytes) -> list[tuple[str, object]]:
    return [(label, content if content is not None else valid[: len(valid) // 2]) for label, content in MALFORMED]


def file_cases() -> list[Case]:
    cases = []
    deck_bytes = (DATA / "miracle_rogue.json").read_bytes()
    for label, content in malformed(deck_bytes) + deck_variants():
        cases.append(file_case(f"deck_file {label}", pipeline_case("", {"deck_file": "{dir}/deck.json"}).argv,
                               {"deck.json": content}))
        cases.append(file_case(f"compare_engines --deck {label}", [*COMPARE, "--deck", "{dir}/deck.json"],
                               {"deck.json": content}, None))
    opp_bytes = (DATA / "opponents.json").read_bytes()
    variants, support = opponents_variants(Path("{dir}"))
    for label, content in malformed(opp_bytes) + variants:
        files = {"opponents.json": content, **support}
        cases.append(file_case(f"opponents {label}", pipeline_case("", {"opponents.path": "{dir}/opponents.json"}).argv,
                               files))
        cases.append(file_case(f"compare_engines --opponents {label}",
                               [*COMPARE, "--opponents", "{dir}/opponents.json"], files, None))
    for label in ("NaN weights", "infinite weights", "short weights", "weights file not JSON"):
        fname = {"NaN weights": "nan.json", "infinite weights": "inf.json", "short weights": "short.json",
                 "weights file not JSON": "garbage.json"}[label]
        cases.append(file_case(f"compare_engines --strategy {label}", [*COMPARE, "--strategy", f"{{dir}}/{fname}"],
                               support, None))
    pool_bytes = (DATA / "rogue_pool.json").read_bytes()
    for label, content in malformed(pool_bytes) + pool_variants():
        cases.append(file_case(f"pool {label}", pipeline_case("", {"deck_space.pool": "{dir}/pool.json"}).argv,
                               {"pool.json": content}))
    bad_overrides = _with(POOL, stat_overrides={"CS2_073": {"cost": -1}, "EX1_116": {"speed": 3}})
    cases.append(file_case("pool bad stat_overrides",
                           pipeline_case("", {"deck_space.pool": "{dir}/pool.json",
                                              "deck_space.use_stat_overrides": "true"}).argv,
                           {"pool.json": bad_overrides}))
    for key in ("deck_file", "opponents.path", "deck_space.pool"):
        cases.append(file_case(f"{key} missing", pipeline_case("", {key: "{dir}/absent.json"}).argv, {}))
        cases.append(file_case(f"{key} a folder", pipeline_case("", {key: "{dir}"}).argv, {}))
    return cases


# --- the corpus: checkpoints and run folders ------------------------------------------------------
def _checkpoint(changes: Callable[[dict], None]) -> Callable[[Path], None]:
    """A small checkpoint with consistent digests whose contents `changes` makes implausible."""
    def write(path: Path) -> None:
        two_copies = [c["index"] for c in POOL["cards"] if c["rarity"] != "legendary"][:15]
        decks = np.zeros((4, len(POOL["cards"])), np.int16)
        decks[:, two_copies] = 2  # 30 legal cards
        targets = np.tile([1.0, 8.0, 4.0, 0.5, 1, 1, 2, 1, 80, 4, 15, 15], (4, 1))
        arrays = {"evaluations": {"decks": decks, "targets": targets, "eval_id": np.arange(4),
                                  "source": np.zeros(4, np.int8), "iteration": np.zeros(4, np.int32)}}
        state = {"rng": np.random.PCG64(0).state, "outer_iteration": 0, "history": [], "evaluations": 4}
        changes({"arrays": arrays, "state": state})
        ckpt.save(path, config_yaml="seed: 0\n", identity="0000000000", state=state, arrays=arrays, blobs={})
    return write


def _flip_bytes(path: Path) -> None:
    """A sound checkpoint with 8 bytes flipped inside the data of /evaluations/targets."""
    import h5py
    _checkpoint(lambda c: None)(path)
    with h5py.File(path, "r") as f:
        offset = f["evaluations/targets"].id.get_offset()
    data = bytearray(path.read_bytes())
    data[offset + 16: offset + 24] = bytes(b ^ 0xFF for b in data[offset + 16: offset + 24])
    path.write_bytes(bytes(data))


def _flip_at(share: float) -> Callable[[Path], None]:
    """A sound checkpoint with one byte flipped at `share` of its length: in its header, HDF5's
    superblock, object headers, symbol tables, heaps or data."""
    def write(path: Path) -> None:
        _checkpoint(lambda c: None)(path)
        data = bytearray(path.read_bytes())
        data[int(share * (len(data) - 1))] ^= 0xFF
        path.write_bytes(bytes(data))
    return write


def _version_1(path: Path) -> None:
    """A sound checkpoint as the pipeline wrote it before the checksums (version 1): refused
    unless accepted on purpose (python -m pipeline.state.upgrade)."""
    import h5py
    _checkpoint(lambda c: None)(path)
    saved = ckpt.load(path, required=())
    path.unlink()
    with h5py.File(path, "w") as f:
        f.attrs.update({"format": ckpt.FORMAT, "version": 1, "config": saved.config_yaml, "identity": saved.identity})
        f.create_group("state").attrs["json"] = json.dumps(saved.state)
        for group, data in saved.arrays.items():
            for key, value in data.items():
                f[f"{group}/{key}"] = value


def _truncated(path: Path) -> None:
    _checkpoint(lambda c: None)(path)
    path.write_bytes(path.read_bytes()[:900])


CHECKPOINTS = [
    ("not HDF5", b"not an hdf5 file"), ("empty", b""), ("truncated", _truncated),
    ("bytes flipped", _flip_bytes), ("of version 1 (no checksums)", _version_1),
    *[(f"byte at {k}/12 of the file flipped", _flip_at(k / 12)) for k in range(12)],
    ("29-card decks", _checkpoint(lambda c: c["arrays"]["evaluations"]["decks"].__setitem__((0, 0), 1))),
    ("negative count", _checkpoint(lambda c: c["arrays"]["evaluations"]["decks"].__setitem__((1, 0), -2))),
    ("NaN target", _checkpoint(lambda c: c["arrays"]["evaluations"]["targets"].__setitem__((2, 0), np.nan))),
    ("win rate 3", _checkpoint(lambda c: c["arrays"]["evaluations"]["targets"].__setitem__((2, 3), 3.0))),
    ("eval ids out of order", _checkpoint(lambda c: c["arrays"]["evaluations"]["eval_id"].__setitem__(0, 7))),
    ("bad rng state", _checkpoint(lambda c: c["state"].__setitem__("rng", {"bit_generator": "MT0"}))),
]


def checkpoint_cases() -> list[Case]:
    cases = []
    offline = {"algorithm": "offline_dsa_me", "algorithm.offline.path": "{dir}/source.h5"}
    for label, content in CHECKPOINTS:
        cases.append(file_case(f"offline source {label}", pipeline_case("", offline).argv, {"source.h5": content}))
        cases.append(Case(f"report of a checkpoint {label}", REPORT, _in_run_folder(content), "{dir}/run"))
    cases.append(file_case("offline source missing", pipeline_case("", offline).argv, {}))
    cases.append(Case("run folder is a file", pipeline_case("", {}).argv, _plain_run_file))
    cases.append(Case("run folder not empty, holds no run", pipeline_case("", {}).argv, _foreign_run_folder))
    cases.append(Case("run folder of another config", pipeline_case("", {"seed": "5"}).argv, _other_config))
    cases.append(Case("run folder with a damaged checkpoint", pipeline_case("", {}).argv, _in_run_folder(_flip_bytes)))
    for k in (1, 3, 5):
        cases.append(Case(f"run folder with a checkpoint flipped at {k}/12", pipeline_case("", {}).argv,
                          _in_run_folder(_flip_at(k / 12))))
    cases.append(Case("run folder with a checkpoint of version 1", pipeline_case("", {}).argv,
                      _in_run_folder(_version_1)))
    # accepting a version-1 file on purpose: what is not one (or not a readable one) is refused
    for label, content in [("missing", None), ("not HDF5", b"not an hdf5 file"), ("empty", b""),
                           ("truncated", _truncated), ("bytes flipped", _flip_bytes), ("flipped at 1/12", _flip_at(1 / 12))]:
        cases.append(Case(f"pipeline.state.upgrade of a checkpoint {label}", ["pipeline.state.upgrade", "{dir}/run"],
                          None if content is None else _in_run_folder(content), "{dir}"))
    cases.append(Case("run folder not creatable", pipeline_case("", {"run_dir": "/proc/dsame-fuzz/run"}).argv,
                      None, None))
    finished = pipeline_case("", {}).argv
    cases.append(Case("run folder with an edited config.yaml", finished, _edited_config(finished)))
    cases.append(Case("run folder with an edited config.yaml, the command following it",
                      pipeline_case("", {"seed": "1"}).argv, _edited_config(finished)))
    if os.geteuid() != 0:  # root writes in any folder
        cases.append(Case("run folder read-only, its old lock writable", pipeline_case("", {}).argv, _read_only_run))
    # Root gives a folder to another user; any other user has one already: /tmp is root's.
    foreign = "{dir}/cache" if os.geteuid() == 0 else "/tmp"
    cases.append(Case("card cache folder of another user", pipeline_case("", {}).argv, _foreign_cache,
                      env={"DSAME_CACHE_DIR": foreign}))
    return cases


def _in_run_folder(content) -> Callable[[Path], None]:
    def setup(d: Path) -> None:
        (d / "run").mkdir()
        _writer(content)(d / "run" / ckpt.FILENAME)
    return setup


def _edited_config(argv: list[str]) -> Callable[[Path], None]:
    """A finished run of `argv` whose config.yaml was then edited (seed 0 -> 1)."""
    def setup(d: Path) -> None:
        subprocess.run([sys.executable, "-m", *(a.replace("{dir}", str(d)) for a in argv)], cwd=ROOT,
                       check=True, capture_output=True, timeout=300)
        config = d / "run" / "config.yaml"
        config.write_text(config.read_text().replace("\nseed: 0\n", "\nseed: 1\n", 1))
    return setup


def _read_only_run(d: Path) -> None:
    """An older run's folder: a lock file anyone may open, in a folder that takes no new file."""
    (d / "run").mkdir()
    (d / "run" / ".lock").touch()
    (d / "run").chmod(0o555)


def _foreign_cache(d: Path) -> None:
    if os.geteuid() == 0:
        (d / "cache").mkdir()
        os.chown(d / "cache", 65534, 65534)  # nobody


def _plain_run_file(d: Path) -> None:
    (d / "run").write_text("a file where the run folder should be")


def _foreign_run_folder(d: Path) -> None:
    (d / "run").mkdir()
    (d / "run" / "notes.txt").write_text("mine")


def _other_config(d: Path) -> None:
    (d / "run").mkdir()
    (d / "run" / "config.yaml").write_text("seed: 0\nname: smoke\n")


# --- the corpus: command-line tools --------------------------------------------------------------
COMPARE = ["tools.compare_engines", "--engines", "builtin", "builtin", "--games", "2", "--player", "random"]
SOAK = ["tools.soak", "--random-games", "2", "--beam-games", "0"]
FIDELITY = ["tools.fidelity", "--runs", "miracle_rogue", "--games", "2", "--workers", "1"]
BENCH = ["tools.bench", "--repeats", "1", "--protocol-repeats", "1", "--protocol-games", "2", "--no-profile"]
REPORT = ["pipeline.report", "{dir}/run", "--out", "{dir}/report", "--transfer", "none"]
# valid as they stand (a small run, its table and runs in the case's folder): each case changes one thing
SCALE = ["tools.scale", "--slots", "4", "--budget", "200", "--modes", "off", "--table", "{dir}/table.npz",
         "--runs-dir", "{dir}/runs"]
LOOP_STUDY = ["tools.loop_study", "--budget", "200", "--seeds", "0", "1", "--out", "{dir}/out"]


def cli_cases() -> list[Case]:
    bad_ints = ["0", "-1", "abc", "1.5", "''", "99999999999999999999999"]
    specs = [
        (BENCH, ["--repeats", "--protocol-repeats", "--protocol-games"]),
        (SOAK, ["--random-games", "--beam-games", "--depth", "--width", "--seed"]),
        (COMPARE, ["--games", "--beam-depth", "--beam-width", "--seed"]),
        (FIDELITY, ["--games", "--workers", "--seed"]),
    ]
    cases = []
    for base, options in specs:
        for option in options:
            for value in bad_ints:
                if value == "0" and option in ("--random-games", "--beam-games", "--seed"):
                    continue  # 0 is allowed there
                argv = _replace_option(base, option, value)
                cases.append(Case(f"{base[0]} {option} {value}", argv, None, None))
    for option, value in [("--budget", "20"), ("--budget", "0"), ("--budget", "abc"), ("--slots", "0"),
                          ("--slots", "1.5"), ("--processes", "-1"), ("--calibration-games", "0"),
                          ("--overhead-tasks", "0")]:
        cases.append(Case(f"tools.scale {option} {value}", _replace_option(SCALE, option, value), None, "{dir}"))
    for override in ["algorithm.initial=500", "algorithm.batch_size=0", "foo=1", "engine=nope", "seed=-1"]:
        cases.append(Case(f"tools.scale {override}", [*SCALE, override], None, "{dir}"))
    for option, value in [("--budget", "20"), ("--budget", "0"), ("--parallel", "0"), ("--loops", "40")]:
        cases.append(Case(f"tools.loop_study {option} {value}", _replace_option(LOOP_STUDY, option, value), None,
                          "{dir}"))
    cases.append(Case("tools.loop_study one seed", [a for a in LOOP_STUDY if a != "1"], None, "{dir}"))
    for override in ["algorithm.initial=500", "opponents.games=0", "foo=1"]:
        cases.append(Case(f"tools.loop_study {override}", [*LOOP_STUDY, override], None, "{dir}"))
    cases += [
        Case("tools.states collect --games 0", ["tools.states", "collect", "--games", "0", "--out", "{dir}/s.h5"],
             None, "{dir}"),
        Case("tools.states collect --games abc", ["tools.states", "collect", "--games", "abc", "--out", "{dir}/s.h5"],
             None, "{dir}"),
        Case("tools.states info missing file", ["tools.states", "info", "{dir}/none.h5"], None, "{dir}"),
        Case("tools.values train missing data", ["tools.values", "train", "--data", "{dir}/none.h5"], None, "{dir}"),
        Case("tools.values no command", ["tools.values"], None, "{dir}"),
        Case("tools.tournament --workers 0", ["tools.tournament", "--players", "random", "random", "--workers", "0",
                                              "--out", "{dir}/t.json"], None, "{dir}"),
        Case("tools.tournament --games abc", ["tools.tournament", "--players", "random", "random", "--games", "abc",
                                              "--out", "{dir}/t.json"], None, "{dir}"),
        Case("tools.tournament unknown player", ["tools.tournament", "--players", "random", "nobody",
                                                 "--out", "{dir}/t.json"], None, "{dir}"),
        Case("tools.soak no games at all", ["tools.soak", "--random-games", "0", "--beam-games", "0"], None, None),
        Case("tools.soak negative games", ["tools.soak", "--random-games", "-5", "--beam-games", "-1"], None, None),
        Case("tools.bench --profile a folder", [*BENCH[:-1], "--profile", "{dir}"], None, None),
        Case("tools.bench --baseline no checkout", [*BENCH, "--baseline", "{dir}"], None, None),
        Case("tools.bench.playouts --baseline no checkout", ["tools.bench.playouts", "--baseline", "{dir}"],
             None, None),
        Case("tools.compare_engines --json a folder", [*COMPARE, "--json", "{dir}"], None, None),
        Case("tools.compare_engines --json in a missing folder", [*COMPARE, "--json", "{dir}/no/x.json"], None, None),
        Case("tools.compare_engines --strategy unknown", [*COMPARE, "--strategy", "greedy"], None, None),
        Case("tools.fidelity --runs unknown", ["tools.fidelity", "--runs", "no_such_run"], None, None),
        Case("tools.fidelity --json a folder", [*FIDELITY, "--json", "{dir}"], None, None),
        Case("pipeline.report --top-decks 0", [*REPORT, "--top-decks", "0"], None, None),
        Case("pipeline.report --workers 0", [*REPORT, "--workers", "0"], None, None),
        Case("pipeline.report missing run", REPORT, None, None),
        Case("pipeline.report not a folder", REPORT, _plain_run_file, "{dir}/run"),
    ]
    return cases


def _replace_option(base: list[str], option: str, value: str) -> list[str]:
    argv = list(base)
    if option in argv:
        argv[argv.index(option) + 1] = value
    else:
        argv += [option, value]
    return argv


def all_cases() -> list[Case]:
    cases = config_cases() + file_cases() + checkpoint_cases() + cli_cases()
    names = Counter(c.name for c in cases)
    seen: Counter = Counter()
    for c in cases:  # unique names, for folders and reports
        if names[c.name] > 1:
            seen[c.name] += 1
            c.name = f"{c.name} #{seen[c.name]}"
    return cases


# --- running and classifying -------------------------------------------------------------------
def snapshot(folder: Path) -> dict[str, str] | None:
    """Every file under `folder` with its digest; None when the folder does not exist."""
    if not folder.exists():
        return None
    if folder.is_file():
        return {"": hashlib.sha256(folder.read_bytes()).hexdigest()}
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
            for p in sorted(folder.rglob("*"))}


def run_case(case: Case, work: Path, timeout: float, root: Path = ROOT) -> Outcome:
    folder = work / f"case-{hashlib.sha1(case.name.encode()).hexdigest()[:12]}"
    folder.mkdir(parents=True)
    if case.setup:
        case.setup(folder)
    argv = [a.replace("{dir}", str(folder)) for a in case.argv]
    run_dir = Path(case.run_dir.replace("{dir}", str(folder))) if case.run_dir else None
    before = snapshot(run_dir) if run_dir else None
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "HYDRA_FULL_ERROR": "0",
           **{k: v.replace("{dir}", str(folder)) for k, v in (case.env or {}).items()}}
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", *argv], cwd=root, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, errors="replace", env=env,
                            start_new_session=True)  # its own group: a hang is killed with its workers
    _live.add(proc)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(proc)
        proc.communicate()
        return Outcome(case.name, "hang", time.perf_counter() - start, f"still running after {timeout:g} s")
    finally:
        _live.discard(proc)
    seconds = time.perf_counter() - start
    written = run_dir is not None and snapshot(run_dir) != before
    return Outcome(case.name, classify(proc.returncode, err, written), seconds, _detail(err, out))


_live: set = set()  # cases running now, killed with their process groups if the harness stops


def _kill(proc) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def classify(returncode: int, stderr: str, written: bool) -> str:
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    if "Traceback (most recent call last)" in stderr or returncode not in (0, 2):
        return "traceback"
    if returncode == 0:
        return "silent"
    if len(lines) == 1 and lines[0].startswith("error: ") and not written:
        return "clear"
    return "unclear"


def _detail(err: str, out: str) -> str:
    """The last line of stderr (or stdout), and the first too when stderr has more."""
    lines = [ln for ln in err.splitlines() if ln.strip()] or [ln for ln in out.splitlines() if ln.strip()]
    if not lines:
        return ""
    return (lines[-1] if len(lines) == 1 else f"{lines[0][:150]} ... {lines[-1]}")[:400]


def run_all(cases: list[Case], jobs: int, timeout: float, root: Path = ROOT, progress: bool = True) -> list[Outcome]:
    work = Path(tempfile.mkdtemp(prefix="dsame-fuzz-inputs-"))
    outcomes = []
    try:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            try:
                for n, outcome in enumerate(pool.map(lambda c: run_case(c, work, timeout, root), cases), 1):
                    outcomes.append(outcome)
                    if progress and (n % 25 == 0 or n == len(cases)):
                        print(f"  {n}/{len(cases)} cases", file=sys.stderr, flush=True)
            except BaseException:  # interrupted: no case may outlive the harness
                pool.shutdown(wait=False, cancel_futures=True)
                for proc in list(_live):
                    _kill(proc)
                raise
        return outcomes
    finally:
        shutil.rmtree(work, ignore_errors=True)


def sample(cases: list[Case], n: int | None, seed: int) -> list[Case]:
    """n cases drawn evenly across the corpus's families (config, files, checkpoints, tools)."""
    if n is None or n >= len(cases):
        return cases
    rng = random.Random(seed)
    families: dict[str, list[Case]] = {}
    for c in cases:
        families.setdefault(c.name.split()[0], []).append(c)
    picked: list[Case] = []
    pools = [rng.sample(v, len(v)) for v in families.values()]
    while len(picked) < n:
        for pool in pools:
            if pool and len(picked) < n:
                picked.append(pool.pop())
    return picked


def main(argv=None) -> int:
    parser = ArgumentParser(prog="python -m tools.fuzz_inputs", description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, help="run this many cases, drawn across the corpus")
    parser.add_argument("--seed", type=int, default=0, help="which sample")
    parser.add_argument("--match", action="append", default=[],
                        help="only the cases whose name contains this text (repeatable)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="cases run at once")
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds before a case counts as a hang")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose code is run (e.g. an old one)")
    parser.add_argument("--list", action="store_true", help="print the cases and stop")
    parser.add_argument("--show", choices=KINDS, action="append", default=[],
                        help="print the cases of this outcome (default: all but clear)")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    if (args.sample is not None and args.sample < 1) or args.jobs < 1 or not args.timeout > 0:
        parser.error("--sample, --jobs and --timeout must be positive")
    cases = [c for c in all_cases() if not args.match or any(m in c.name for m in args.match)]
    cases = sample(cases, args.sample, args.seed)
    if args.list:
        print("\n".join(" ".join([c.name, "::", *c.argv]) for c in cases))
        return 0
    start = time.perf_counter()
    outcomes = run_all(cases, args.jobs, args.timeout, args.root)
    show = args.show or [k for k in KINDS if k != "clear"]
    for o in sorted(outcomes, key=lambda o: (KINDS.index(o.kind), o.case)):
        if o.kind in show:
            print(f"{o.kind:9} {o.case}: {o.detail}")
    counts = Counter(o.kind for o in outcomes)
    print(f"{len(outcomes)} cases in {time.perf_counter() - start:.0f} s: "
          + ", ".join(f"{counts.get(k, 0)} {k}" for k in KINDS))
    return 0 if counts.get("clear", 0) == len(outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
