"""Quality of one DSA-ME loop against another: the same runs with real games (random players, the
smoke's settings), several seeds per loop, compared by final QD-score and coverage (mean, standard
deviation, Welch's t-test and the Mann-Whitney U test against the first loop listed).

    python -m tools.loop_study [--budget 500] [--seeds 0 1 2 3 4] [--loops sync 40] [--parallel 2]
                               [--out results/loop_study] [key=value ...]

A loop is `sync` (algorithm.steady_state=false), `auto` (the steady-state loop with the default
lag, from the one worker's slot: 10 decks) or a number: the steady-state loop with that
algorithm.lag (at 3 decks per slot, 60 stands for 20 slots, 600 for 200; the old `auto`, which
runs without `lag` in their checkpoint keep, was 4% of the budget, 20 at 500 and 80 at 2,000); `:batched` after it runs the inner loop in the batched mode
(algorithm.inner.mode), e.g. `--loops sync sync:batched`. Each run is `python -m pipeline`
in its own process with one worker; `--parallel` runs go at once. Runs already finished in
--out are read, not run again. Prints a Markdown table and writes it, with every run's figures,
beside the runs (study-<budget>.md, study-<budget>.json).
"""
from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from workers.inputs import ArgumentParser

from .run_config import checked_config

ROOT = Path(__file__).resolve().parents[1]
# the random-player smoke run, written out so that a change of the smoke preset does not change the study
SMOKE = ["strategy=random", "opponents.games=24", "cluster.games_per_task=12", "algorithm.initial=100",
         "algorithm.inner.iterations=20000", "surrogate.epochs=20", "progress=false", "cluster.n_workers=1"]


INNER_MODES = ("serial", "batched")


def loop_overrides(loop: str) -> list[str]:
    loop, _, mode = loop.partition(":")
    inner = [f"algorithm.inner.mode={mode}"] if mode else []
    if loop == "sync":
        return ["algorithm.steady_state=false", *inner]
    return ["algorithm.steady_state=true", f"algorithm.lag={loop if loop == 'auto' else int(loop)}", *inner]


def loop_name(loop: str) -> str:
    loop, _, mode = loop.partition(":")
    name = {"sync": "synchronous", "auto": "steady-state, default lag"}.get(loop, f"steady-state, lag {loop}")
    return f"{name}, {mode or 'serial'} inner loop"


def bad_loop(loop: str) -> bool:
    loop, _, mode = loop.partition(":")
    return (loop not in ("sync", "auto") and not loop.isdigit()) or (mode != "" and mode not in INNER_MODES)


def run_one(out: Path, budget: int, loop: str, seed: int, extra: list[str]) -> dict:
    run_dir = out / f"budget{budget}-{loop.replace(':', '-')}-seed{seed}"
    metrics = run_dir / "metrics.jsonl"
    if not (run_dir / "done").is_file():
        command = [sys.executable, "-m", "pipeline", "name=loop_study", *SMOKE, f"algorithm.budget={budget}",
                   f"seed={seed}", f"run_dir={run_dir}", *loop_overrides(loop), *extra]
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"error: the run {run_dir.name} failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
        (run_dir / "done").touch()
    last = json.loads(metrics.read_text().splitlines()[-1])
    return {"loop": loop, "seed": seed, "budget": budget, "evaluations": last["evaluations"],
            "qd_score": last["qd_score"], "coverage": last["coverage"], "max_fitness": last["max_fitness"]}


def compare(runs: list[dict], loops: list[str]) -> list[dict]:
    """Per loop: mean and sd of QD-score and coverage; against the first: Welch's t and Mann-Whitney p."""
    from scipy import stats
    rows = []
    base = [r for r in runs if r["loop"] == loops[0]]
    for loop in loops:
        mine = [r for r in runs if r["loop"] == loop]
        row = {"loop": loop, "seeds": len(mine)}
        for key in ("qd_score", "coverage"):
            values = np.array([r[key] for r in mine])
            row[f"{key}_mean"], row[f"{key}_sd"] = float(values.mean()), float(values.std(ddof=1))
            if loop != loops[0] and len(base) > 1:
                ref = np.array([r[key] for r in base])
                row[f"{key}_welch_p"] = float(stats.ttest_ind(values, ref, equal_var=False).pvalue)
                row[f"{key}_mannwhitney_p"] = float(stats.mannwhitneyu(values, ref).pvalue)
        rows.append(row)
    return rows


def table(rows: list[dict], budget: int, games: int) -> str:
    lines = [f"Budget {budget} evaluations, random players, {games} games per deck:", "",
             "| loop | seeds | QD-score mean (sd) | p (Welch, MW) | coverage mean (sd) | p (Welch, MW) |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        def p(key):
            return f"{r[key + '_welch_p']:.2f}, {r[key + '_mannwhitney_p']:.2f}" if key + "_welch_p" in r else "-"
        lines.append(f"| {loop_name(r['loop'])} | {r['seeds']} | {r['qd_score_mean']:.2f} ({r['qd_score_sd']:.2f}) | {p('qd_score')} "
                     f"| {r['coverage_mean']:.4f} ({r['coverage_sd']:.4f}) | {p('coverage')} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = ArgumentParser(prog="python -m tools.loop_study", description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=int, default=500)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    parser.add_argument("--loops", nargs="+", default=["sync", "40"],
                        help="sync or a steady-state lag, each optionally :batched; the first is the baseline")
    parser.add_argument("--parallel", type=int, default=2, help="runs at once")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "loop_study")
    parser.add_argument("overrides", nargs="*", help="more config overrides for every run (key=value)")
    args = parser.parse_args(argv)
    if (any(bad_loop(loop) for loop in args.loops) or len(set(args.loops)) < 2 or args.budget < 1
            or args.parallel < 1 or len(args.seeds) < 2):
        parser.error("--loops needs two or more of sync and lags (whole numbers), each optionally :batched; "
                     "--seeds at least two, --budget and --parallel positive")
    for loop in args.loops:  # a bad setting is one line now, not a child run's error later
        checked_config("name=loop_study", *SMOKE, f"algorithm.budget={args.budget}", f"seed={args.seeds[0]}",
                       *loop_overrides(loop), *args.overrides)
    jobs = [(loop, seed) for seed in args.seeds for loop in args.loops]
    with ThreadPoolExecutor(args.parallel) as pool:
        runs = list(pool.map(lambda job: run_one(args.out, args.budget, *job, args.overrides), jobs))
    rows = compare(runs, args.loops)
    games = [o.split("=", 1)[1] for o in SMOKE + args.overrides if o.startswith("opponents.games=")][-1]
    text = table(rows, args.budget, int(games))
    print(text)
    (args.out / f"study-{args.budget}.md").write_text(text + "\n")
    (args.out / f"study-{args.budget}.json").write_text(json.dumps({"runs": runs, "summary": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
