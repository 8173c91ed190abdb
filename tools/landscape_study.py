"""The search's rules compared on a learned landscape, many seeds at no cost in games:
`python -m tools.landscape_study --data CHECKPOINT... [--rules ours evostone2_cells] [--seeds 0 1 2 ...]
[--budget 10000] [--algorithm map_elites] [--spread 1] [--paper-surrogate DIR | --run-surrogate RUN]
[--noise H T S] [--out DIR]`.

A real deck costs about 2.6 s of CPU (200 protocol games), so a rule of the search (the archive's
cells, the loop) cannot be tried on many seeds of real runs. Here each deck's result comes from a
LANDSCAPE STAND-IN for the games instead: an MLP trained on real evaluations (the checkpoints
given, e.g. the paper runs'), plus Gaussian noise of its held-out residuals' size per statistic,
drawn from the evaluation's id, so that the results spread as real ones do. With
--paper-surrogate, health difference, turns and hand size come from one of the paper's own
surrogates (tools.paper_surrogates) instead, the other statistics from the MLP; with
--run-surrogate, from a run's own final surrogate (its folder's surrogate.pt: the control that
says whether a landscape differs for the paper's games or for being a run-trained surrogate);
--noise sets the noise of those three (e.g. a deck's own, from decks evaluated twice). The
search is the pipeline's own (`experiment=paper`, the algorithm, each rule's overrides). Each
run's evaluations are scored on EvoStone2's cells (what the paper's Table 1 counts) and on the
run's own archive. Prints, per rule, mean +- SD over the seeds and Welch's t-test against the
first rule, and writes the figures of every run as JSON into --out (runs already there are read,
not run again).
"""
from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from workers.inputs import ArgumentParser
from workers.protocol.results import TARGET_NAMES

from .paper_surrogates import STATISTICS as PAPER_STATISTICS
from .paper_surrogates import PaperSurrogate
from .run_config import checked_config
from .tf_checkpoint import TFCheckpointError

# EvoStone2's map during the search too: each range divided by its width + 1, the values above
# clipped into the last cell (pipeline/report/evostone2_cells.py), the same cells as an even
# 40 x 40 split of turns [5, 16] and hand size [1, 8]
EVOSTONE2_CELLS = "archive.ranges=[[5,16],[1,8]]"
SYNCHRONOUS = "algorithm.steady_state=false"
# name -> the overrides of `python -m pipeline` that make the rule
RULES = {
    "ours": [],
    "evostone2_cells": [EVOSTONE2_CELLS],
    "synchronous": [SYNCHRONOUS],
    # DSA-ME's outer loop and map as EvoStone2 runs them: synchronous, its cells in the real and
    # the surrogate archives (fewer surrogate elites to play each outer iteration); the inner loop
    # keeps our mutation
    "evostone2_dsa_me": [SYNCHRONOUS, EVOSTONE2_CELLS],
    "evostone2_mutation": [],  # with the deck space's mutation replaced (SPACE_CHANGES)
    # EvoStone2's own loop instead of the pipeline's (evostone2_loop; EVOSTONE2_LOOPS)
    "evostone2_loop_200": [],
    "evostone2_loop_100": [],
    "evostone2_all_100": [],  # its loop and its mutation: its MAP-Elites as a whole
}
# rule -> the evaluators of EvoStone2's loop (the paper's 200 CPUs, 2 an evaluator: about 100)
EVOSTONE2_LOOPS = {"evostone2_loop_200": 200, "evostone2_loop_100": 100, "evostone2_all_100": 100}


def evostone2_mutation(space, rng: np.random.Generator, parents: np.ndarray) -> np.ndarray:
    """EvoStone2's mutation (the facts of its Individual.cs): remove K ~ P(K=k) = 0.5^k copies one at
    a time, each found by walking the deck's cards in pool order from a number drawn in [0, T - 1]
    (T: the copies left), which gives the first card present one chance more than its copies and
    the last one fewer (a single copy of the last card is never removed); refill one copy at a
    time, uniformly over the cards under their limit. Ours removes uniformly over the copies."""
    decks = np.asarray(parents, dtype=np.int16).copy()
    for deck in decks:
        removals = min(int(rng.geometric(0.5)), space.deck_size)
        for _ in range(removals):
            present = np.flatnonzero(deck)
            number = rng.integers(0, int(deck.sum()))
            deck[present[np.searchsorted(np.cumsum(deck[present]), number)]] -= 1
        for _ in range(removals):
            deck[rng.choice(np.flatnonzero(deck < space.limits))] += 1
    return decks


# rule -> how it changes the deck space (only the real archive's mutation: DSA-ME's inner loop
# mutates in its compiled kernel, which keeps ours)
SPACE_CHANGES = {rule: lambda space: setattr(space, "mutate", lambda rng, parents: evostone2_mutation(space, rng, parents))
                 for rule in ("evostone2_mutation", "evostone2_all_100")}
FIGURES = ("coverage", "qd_score", "max_fitness", "elites")


def evostone2_loop(landscape: "Landscape", space, spec, seed: int, budget: int, initial: int,
                   workers: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """MAP-Elites as EvoStone2's distributed search runs it (the facts of its DistributedSearch,
    DeckSearchManager and MapElitesAlgorithm): each of `workers` evaluators is handed the next deck
    as soon as it is idle; the first `initial` decks handed out are random and the rest mutants of
    an elite drawn uniformly from the archive as it is at that moment; once the random decks are
    all out, nothing more is handed out until one of them is back. So with more workers than
    random decks, the first mutants all come from the first deck back. The archive uses EvoStone2's
    cells. A deck's evaluation lasts in proportion to its average turns (200 games), times
    log-normal noise (SD 0.1) for the evaluator's pace. Returns the decks, their targets and the
    order they were handed out in, in the order they came back."""
    import heapq

    from pipeline.report.evostone2_cells import evostone2_cell
    from pipeline.report.paper import PAPER_SPACE
    rng = np.random.default_rng([seed, 0xE502])
    turns = TARGET_NAMES.index("turns")
    elites: dict[int, tuple[float, np.ndarray]] = {}  # cell -> (objective, deck)
    running: list[tuple[float, int, np.ndarray, np.ndarray]] = []  # (finish time, id, deck, targets)
    back_decks, back_targets, back_ids = [], [], []
    dispatched = 0

    def hand_out(now: float) -> None:
        nonlocal dispatched
        while len(running) < workers and dispatched < budget and (dispatched < initial or back_decks):
            if dispatched < initial:
                deck = space.random_decks(rng, 1)[0]
            else:
                parent = elites[list(elites)[int(rng.integers(0, len(elites)))]][1]
                deck = space.mutate(rng, parent[None, :])[0]
            targets = landscape.targets(deck[None, :], np.array([dispatched]), seed)[0]
            length = max(float(targets[turns]), 1.0) * float(np.exp(rng.normal(0.0, 0.1)))
            heapq.heappush(running, (now + length, dispatched, deck, targets))
            dispatched += 1

    hand_out(0.0)
    while running:
        now, eval_id, deck, targets = heapq.heappop(running)
        back_decks.append(deck)
        back_targets.append(targets)
        back_ids.append(eval_id)
        objective, measures = spec.behavior.values(targets[None, :], deck[None, :], space)
        cell = int(evostone2_cell(measures, PAPER_SPACE["dims"], PAPER_SPACE["ranges"])[0])
        if cell not in elites or float(objective[0]) > elites[cell][0]:
            elites[cell] = (float(objective[0]), deck)
        hand_out(now)
    return np.array(back_decks), np.array(back_targets), np.array(back_ids)


class Landscape:
    """Each deck's 12 targets: the model's prediction plus noise of the held-out residuals' SD, the
    noise drawn from (seed, evaluation id), so a deck evaluated again under another id varies as a
    real one would. `spread` scales the predicted measures' distance from their mean over the
    training decks (turns and hand size, one factor for both or one each; 1: as learned): how
    coverage follows an engine whose decks differ more or less in them."""

    def __init__(self, model, noise_sd: np.ndarray, center: np.ndarray, spread: float | Sequence[float] = 1.0):
        self.model, self.noise_sd, self.center, self.spread = model, noise_sd, center, spread
        self.paper_model = None  # PaperSurrogate or RunSurrogate: its three statistics replace the model's

    @classmethod
    def trained(cls, checkpoints: list[Path], space, seed: int = 0) -> "Landscape":
        from pipeline.search.surrogate import Surrogate
        from pipeline.state import checkpoint as ckpt
        data = [ckpt.load(p, required=("evaluations",)).arrays["evaluations"] for p in checkpoints]
        decks = np.concatenate([d["decks"] for d in data]).astype(np.float32)
        targets = np.concatenate([d["targets"] for d in data]).astype(np.float64)
        rng = np.random.default_rng(seed)
        held = rng.random(len(decks)) < 0.1
        model = Surrogate("mlp", space.size, targets.shape[1], device="cpu", seed=seed, epochs=30)
        model.fit(decks[~held], targets[~held], rng)
        residual = model.predict(decks[held]) - targets[held]
        return cls(model, residual.std(axis=0), targets.mean(axis=0))

    def targets(self, decks: np.ndarray, eval_ids: np.ndarray, seed: int) -> np.ndarray:
        predicted = self.model.predict(np.asarray(decks, dtype=np.float32)).astype(np.float64)
        if self.paper_model is not None:
            predicted[:, :len(PAPER_STATISTICS)] = self.paper_model.predict(decks)
        if np.any(np.asarray(self.spread) != 1.0):
            measures = [TARGET_NAMES.index("turns"), TARGET_NAMES.index("hand_size")]
            predicted[:, measures] = self.center[measures] + (predicted[:, measures] - self.center[measures]) * self.spread
        noise = np.array([np.random.default_rng([seed, int(e)]).standard_normal(len(self.noise_sd)) for e in eval_ids])
        return predicted + noise.reshape(predicted.shape) * self.noise_sd


class RunSurrogate:
    """A run's final surrogate (surrogate.pt in its folder) giving the paper's surrogates' three
    statistics, so that it stands where PaperSurrogate does."""

    def __init__(self, folder: Path):
        from pipeline.report.section6 import kept_surrogate
        kept = kept_surrogate(folder)
        if kept is None:
            raise ValueError(f"{folder}: no surrogate.pt (a run folder from seed 1 on keeps its final surrogate)")
        self.model, names = kept
        missing = [name for name in PAPER_STATISTICS if name not in names]
        if missing:
            raise ValueError(f"{folder}: its surrogate does not predict {', '.join(missing)}")
        self.columns = [names.index(name) for name in PAPER_STATISTICS]

    def predict(self, decks: np.ndarray) -> np.ndarray:
        return self.model.predict(decks).astype(np.float64)[:, self.columns]


class LandscapeGames:
    """STAND-IN for the evaluation client: a deck's results are the landscape's, not games'."""

    slots = 1  # the paper preset pins the loop's numbers; nothing here depends on slots

    def __init__(self, landscape: Landscape, seed: int):
        self.landscape, self.seed = landscape, seed

    def submit(self, decks, ids, strategies=None, last=False) -> "LandscapeBatch":
        return LandscapeBatch(self.landscape.targets(decks, ids, self.seed))

    def cpu_and_games(self) -> tuple[None, int]:
        return None, 0  # no worker plays here


class LandscapeBatch:
    def __init__(self, targets: np.ndarray):
        from pipeline.cluster.evaluation import BatchTiming

        from .replay_search import RecordedResult
        self.results = [RecordedResult(t) for t in targets]
        self.returned, self.timing = 0, BatchTiming(0.0, 0.0, 1)

    def ready(self, most: int) -> list:
        handed = self.results[self.returned:self.returned + most]
        self.returned += len(handed)
        return handed


def run_one(landscape: Landscape, algorithm: str, rule: str, seed: int, budget: int) -> dict:
    """One run of the pipeline's search on the landscape: its figures on EvoStone2's cells and on
    its own archive."""
    from omegaconf import OmegaConf

    from pipeline.behavior_space import KNOWN_OBJECTIVE_RANGES
    from pipeline.deck_space import DeckSpace
    from pipeline.report.evostone2_cells import evostone2_metrics
    from pipeline.report.paper import PAPER_SPACE
    from pipeline.search import search_class
    from pipeline.search.archives import qd_metrics
    cfg = checked_config("experiment=paper", f"algorithm={algorithm}", f"seed={seed}", f"algorithm.budget={budget}",
                         "progress=false", *RULES[rule])
    space = DeckSpace.from_config(cfg.deck_space)
    SPACE_CHANGES.get(rule, lambda space: None)(space)
    with tempfile.TemporaryDirectory() as scratch:
        search = search_class(cfg.algorithm.kind)(cfg, Path(scratch), space, LandscapeGames(landscape, seed),
                                                  OmegaConf.to_yaml(cfg))
        search.write_reports = lambda **kw: None  # figures are what a study compares, not pages
        search.checkpoint = lambda: None
        if rule in EVOSTONE2_LOOPS:
            if algorithm != "map_elites":
                raise SystemExit(f"error: rule {rule} is EvoStone2's MAP-Elites loop; use --algorithm map_elites")
            decks, targets, _ = evostone2_loop(landscape, space, search.spec, seed, budget, int(cfg.algorithm.initial),
                                               workers=EVOSTONE2_LOOPS[rule])
            own = None
        else:
            search.run()
            decks, targets = search.decks, search.targets
            own = qd_metrics(search.archive, search.spec)
    objective, measures = search.spec.behavior.values(targets, decks, space)
    paper = evostone2_metrics(objective, targets[:, TARGET_NAMES.index("win_rate")], measures,
                              PAPER_SPACE["dims"], PAPER_SPACE["ranges"], KNOWN_OBJECTIVE_RANGES[PAPER_SPACE["objective"]])
    return {"rule": rule, "seed": seed, "evaluations": len(decks),
            "paper_cells": {k: paper[k] for k in FIGURES},
            "own_cells": None if own is None else {"coverage": own["coverage"], "qd_score": own["qd_score"],
                                                   "max_fitness": own["max_fitness"]}}


def table(runs: list[dict], rules: list[str]) -> str:
    from scipy.stats import ttest_ind
    lines = ["| rule | runs | coverage % (paper's cells) | QD-score (paper's cells) | coverage % (own cells) | "
             f"Welch p of coverage against {rules[0]} |", "|---|---|---|---|---|---|"]
    base = [r["paper_cells"]["coverage"] for r in runs if r["rule"] == rules[0]]
    for rule in rules:
        mine = [r for r in runs if r["rule"] == rule]
        cov = np.array([r["paper_cells"]["coverage"] for r in mine]) * 100
        qd = np.array([r["paper_cells"]["qd_score"] for r in mine])
        own = np.array([r["own_cells"]["coverage"] for r in mine if r["own_cells"]]) * 100  # EvoStone2's loop: none
        p = ttest_ind([c * 100 for c in base], cov, equal_var=False).pvalue if rule != rules[0] and len(cov) > 1 else None
        lines.append(f"| {rule} | {len(mine)} | {cov.mean():.2f} +- {cov.std(ddof=1) if len(cov) > 1 else 0:.2f} | "
                     f"{qd.mean():.1f} +- {qd.std(ddof=1) if len(qd) > 1 else 0:.1f} | {f'{own.mean():.2f}' if len(own) else '-'} | "
                     f"{'-' if p is None else f'{p:.2g}'} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = ArgumentParser(prog="python -m tools.landscape_study", description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, nargs="+", required=True, help="checkpoints whose evaluations the "
                                                                               "landscape learns")
    parser.add_argument("--rules", nargs="+", choices=sorted(RULES), default=["ours", "evostone2_cells"])
    parser.add_argument("--seeds", type=int, nargs="+", default=list(range(10)))
    parser.add_argument("--budget", type=int, default=10_000)
    parser.add_argument("--algorithm", choices=("map_elites", "dsa_me"), default="map_elites")
    parser.add_argument("--spread", type=float, nargs="+", default=[1.0], metavar="FACTOR",
                        help="the landscape's spread of turns and hand size about their mean: one factor for "
                             "both, or turns' then hand size's (default 1: as learned)")
    surrogate = parser.add_mutually_exclusive_group()
    surrogate.add_argument("--paper-surrogate", type=Path, help="a folder with one of the paper's surrogates "
                           "(tools.paper_surrogates): health difference, turns and hand size come from it")
    surrogate.add_argument("--run-surrogate", type=Path, metavar="RUN", help="a run folder with surrogate.pt: "
                           "health difference, turns and hand size come from the run's final surrogate")
    parser.add_argument("--noise", type=float, nargs=3, metavar=("HEALTH", "TURNS", "HAND"),
                        help="the noise SD of health difference, turns and hand size (default: the held-out "
                             "residuals')")
    parser.add_argument("--out", type=Path, default=Path("results/landscape_study"))
    args = parser.parse_args(argv)
    if len(args.spread) > 2:
        parser.error("--spread takes one factor (turns and hand size) or two (turns, hand size)")
    spread = args.spread[0] if len(args.spread) == 1 else args.spread  # one: as the studies kept it
    import torch

    from pipeline.deck_space import DeckSpace
    torch.set_num_threads(1)  # a study runs beside real runs; one core is its share
    try:
        paper_model = (PaperSurrogate.load(args.paper_surrogate) if args.paper_surrogate
                       else RunSurrogate(args.run_surrogate) if args.run_surrogate else None)
    except (TFCheckpointError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    space = DeckSpace.from_pool_file()
    landscape = Landscape.trained(args.data, space)
    landscape.spread, landscape.paper_model = spread, paper_model
    if args.noise is not None:
        landscape.noise_sd[:len(args.noise)] = args.noise
    print(f"landscape: noise SD per statistic: health difference {landscape.noise_sd[0]:.2f}, "
          f"turns {landscape.noise_sd[1]:.3f}, hand size {landscape.noise_sd[2]:.3f}", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    learned = {"data": [str(p.resolve()) for p in args.data], "noise_sd": [round(float(v), 6) for v in landscape.noise_sd],
               "spread": spread,
               **({"paper_surrogate": str(args.paper_surrogate.resolve())} if args.paper_surrogate else {}),
               **({"run_surrogate": str(args.run_surrogate.resolve())} if args.run_surrogate else {})}
    kept = args.out / "landscape.json"
    if kept.is_file() and json.loads(kept.read_text()) != learned:
        print(f"error: the runs in {args.out} are of another landscape ({kept}); give another --out", file=sys.stderr)
        return 2
    kept.write_text(json.dumps(learned))
    runs = []
    for rule in args.rules:
        for seed in args.seeds:
            path = args.out / f"{args.algorithm}-{rule}-seed{seed}-{args.budget}.json"
            if not path.is_file():
                path.write_text(json.dumps(run_one(landscape, args.algorithm, rule, seed, args.budget)))
            runs.append(json.loads(path.read_text()))
            print(f"{rule} seed {seed}: {runs[-1]['paper_cells']}", flush=True)
    text = table(runs, args.rules)
    (args.out / f"study-{args.algorithm}-{args.budget}.md").write_text(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
