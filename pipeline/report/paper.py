"""Our runs beside the paper's Table 1: `python -m pipeline.report.paper RUN_OR_FOLDER... [--out DIR]`.

Reads only each run folder's summary (config.yaml, and metrics.jsonl, whose last line holds the
final real archive's four numbers, and evaluations.csv, every real evaluation), so it works on the
summaries kept in results/paper/ without their checkpoints. The paper's numbers are data with
their citation (paper_table1.json). Prints paper_table.md: per algorithm our mean +- SE over our
trials, the paper's, the ratio, Welch's t-test of the two means and the per-trial standard
deviations, twice: on our cells (each range split evenly) and on the cells the paper's reference
code used (evostone2_cells.py), rebuilt from evaluations.csv; and qd_score_vs_paper.png (every
trial's QD-score over real evaluations, the paper's final means marked). With --out, each file is
written only when its contents change, so a tracked folder stays clean.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml

from ..behavior_space import DEFAULT_DIMS, DEFAULT_MEASURES, DEFAULT_OBJECTIVE, DEFAULT_RANGES, KNOWN_OBJECTIVE_RANGES
from ..run_errors import PipelineError
from ..search import run_files
from ..search.run_files import EVALUATIONS_CSV
from .evostone2_cells import evostone2_metrics, fillable_cells
from .runs import LABELS, ReportError
from .section6 import mean_pairwise_mse, transfer

PAPER = json.loads((Path(__file__).with_name("paper_table1.json")).read_text())
# (metrics.jsonl key, column header, scale): the paper gives win rate and coverage in percent.
METRICS = (("max_fitness", "Max avg health diff", 1.0), ("max_win_rate", "Max win %", 100.0),
           ("coverage", "Cells filled %", 100.0), ("qd_score", "QD-score", 1.0))
# The paper's behaviour space is the default one (behavior_space), its scale the paper's own data.
PAPER_SPACE = {"objective": DEFAULT_OBJECTIVE, "measures": list(DEFAULT_MEASURES), "type": "grid",
               "dims": list(DEFAULT_DIMS), "ranges": [list(r) for r in DEFAULT_RANGES]}
PAPER_SCALE = {"budget": PAPER["evaluations"], "games": PAPER["games"]}  # real evaluations, games per evaluation
WITHIN_SE = 3


@dataclass
class Summary:
    path: Path
    algorithm: str
    seed: int
    budget: int
    history: list[dict]  # metrics.jsonl, one record per real batch
    evaluations: dict | None  # evaluations.csv's columns up to the last log row (None: no such file)

    @property
    def final(self) -> dict:
        return self.history[-1]

    @property
    def finished(self) -> bool:
        return self.final["evaluations"] >= self.budget

    def evostone2(self, upto: int | None = None) -> dict:
        """The four numbers of the archive that the first `upto` (default all) evaluations build
        on EvoStone2's cells."""
        ev = {name: column[:upto] for name, column in self.evaluations.items()}
        return evostone2_metrics(ev["objective"], ev["win_rate"], ev["measures"], PAPER_SPACE["dims"],
                                 PAPER_SPACE["ranges"], KNOWN_OBJECTIVE_RANGES[PAPER_SPACE["objective"]])


def find_summaries(paths: list[Path]) -> list[Summary]:
    """Every folder under `paths` holding config.yaml and metrics.jsonl, as a run summary."""
    found = []
    for p in map(Path, paths):
        if not p.is_dir():
            raise ReportError(f"{p} is not a directory (give run folders or folders holding them)")
        folders = sorted({m.parent for m in p.rglob("metrics.jsonl")} | ({p} if (p / "metrics.jsonl").is_file() else set()))
        if not folders:
            raise ReportError(f"{p} holds no run summary (config.yaml with metrics.jsonl)")
        found += [load_summary(folder) for folder in folders]
    return found


def load_summary(folder: Path) -> Summary:
    try:
        config = yaml.safe_load((folder / "config.yaml").read_text())
        algorithm, seed = str(config["algorithm"]["name"]), int(config["seed"])
        budget, archive = int(config["algorithm"]["budget"]), config["archive"]
        scale = {"budget": budget, "games": int(config["opponents"]["games"])}
        history = [json.loads(line) for line in (folder / "metrics.jsonl").read_text().splitlines() if line.strip()]
    except (OSError, yaml.YAMLError, json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise ReportError(f"{folder}: not a readable run summary ({exc})") from None
    space = {key: archive.get(key) for key in PAPER_SPACE}
    if space != PAPER_SPACE:
        raise ReportError(f"{folder}: its behaviour space {space} is not the paper's {PAPER_SPACE}")
    if scale != PAPER_SCALE:
        raise ReportError(f"{folder}: a run of {scale['budget']:,} evaluations of {scale['games']} games, not the "
                          f"paper's {PAPER_SCALE['budget']:,} of {PAPER_SCALE['games']}")
    if not history:  # a run that has just begun: named, not counted
        return Summary(folder, algorithm, seed, budget, history, None)
    return Summary(folder, algorithm, seed, budget, history, _evaluations(folder, history[-1]["evaluations"]))


def _evaluations(folder: Path, evaluations: int) -> dict | None:
    """Objective, win rate and measures of the first `evaluations` rows of evaluations.csv (a run
    writes it with its checkpoint, which may be ahead of its last log row)."""
    path = folder / EVALUATIONS_CSV
    if not path.is_file():
        return None
    objective, measures = PAPER_SPACE["objective"], PAPER_SPACE["measures"]
    try:
        table = np.genfromtxt(path, delimiter=",", names=True, max_rows=evaluations)
        columns = {name: np.atleast_1d(table[name]) for name in (objective, "win_rate", *measures)}
    except (OSError, ValueError) as exc:
        raise ReportError(f"{path}: not a readable evaluations file ({exc})") from None
    if len(columns[objective]) < evaluations or np.isnan(np.column_stack(list(columns.values()))).any():
        raise ReportError(f"{path}: holds {len(columns[objective]):,} whole rows, not the {evaluations:,} "
                          f"evaluations metrics.jsonl ends with")
    return {"objective": columns[objective], "win_rate": columns["win_rate"],
            "measures": np.column_stack([columns[m] for m in measures])}


def _spread(values: list[float]) -> tuple[float, float, float]:
    """Mean, standard error and per-trial standard deviation (NaN for SE and SD with one value)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.nan, math.nan
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, sd / math.sqrt(n), sd


def welch_p(ours: tuple[float, float, float], n: int, paper_mean: float, paper_se: float) -> float:
    """Two-sided p of Welch's t-test between our trials and the paper's (from its mean and SE over
    PAPER["trials"]); NaN with fewer than two of ours."""
    if n < 2:
        return math.nan
    from scipy.stats import ttest_ind_from_stats
    trials = PAPER["trials"]
    return float(ttest_ind_from_stats(ours[0], ours[2], n, paper_mean, paper_se * math.sqrt(trials), trials,
                                      equal_var=False).pvalue)


def comparison_rows(summaries: list[Summary], numbers=lambda s: s.final) -> list[dict]:
    """Per algorithm (the paper's order first): our mean, SE and per-trial SD of each number
    (`numbers` of a run: its final log row, or its EvoStone2 cells' numbers) over its runs, the
    paper's mean and SE, the ratio ours / paper, whether ours lies within the paper's mean +- 3
    SE, Welch's p and the paper's per-trial SD (its SE x sqrt of its trials)."""
    order = list(PAPER["rows"]) + [a for a in LABELS if a not in PAPER["rows"]]
    by_algorithm: dict[str, list[Summary]] = {}
    for s in sorted(summaries, key=lambda s: (order.index(s.algorithm) if s.algorithm in order else len(order),
                                              s.algorithm, s.seed)):
        by_algorithm.setdefault(s.algorithm, []).append(s)
    rows = []
    for algorithm, runs in by_algorithm.items():
        paper = PAPER["rows"].get(algorithm)
        row = {"algorithm": algorithm, "label": LABELS.get(algorithm, algorithm), "trials": len(runs),
               "seeds": [r.seed for r in runs], "evaluations": [r.final["evaluations"] for r in runs],
               "finished": sum(r.finished for r in runs)}
        for key, _, scale in METRICS:
            ours = _spread([float(numbers(r)[key]) * scale for r in runs])
            row[key] = {"ours": ours, "paper": tuple(paper[key]) if paper else None}
            if paper:
                mean, se = paper[key]
                row[key].update(ratio=ours[0] / mean, within=abs(ours[0] - mean) <= WITHIN_SE * se,
                                p=welch_p(ours, len(runs), mean, se), paper_sd=se * math.sqrt(PAPER["trials"]))
        rows.append(row)
    return rows


def _value(mean: float, se: float) -> str:
    return f"{mean:.2f}" if math.isnan(se) else f"{mean:.2f} +- {se:.2f}"


def _number(x: float, digits: int = 2) -> str:
    return "-" if math.isnan(x) else f"{x:.{digits}f}"


def table_lines(rows: list[dict]) -> list[str]:
    head = ["Algorithm", "", *[h for _, h, _ in METRICS]]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    paper_said = f"paper: {PAPER['trials']} trials, {PAPER['evaluations']:,} evaluations"
    for row in rows:
        evals = sorted(set(row["evaluations"]))
        said = f"ours: {_trials(row['seeds'])} ({_seeds(row['seeds'])}), {'-'.join(f'{e:,}' for e in evals)} evaluations"
        lines.append("| " + " | ".join([row["label"], said, *[_value(*row[k]["ours"][:2]) for k, _, _ in METRICS]]) + " |")
        if row[METRICS[0][0]]["paper"] is None:
            lines.append("| | paper: not in its Table 1 |" + " |" * len(METRICS))
            continue
        lines.append(f"| | {paper_said} | " + " | ".join(_value(*row[k]["paper"]) for k, _, _ in METRICS) + " |")
        lines.append(f"| | ratio ours / paper (outside mean +- {WITHIN_SE} SE: *) | " + " | ".join(
            f"{row[k]['ratio']:.2f}" + ("" if row[k]["within"] else " *") for k, _, _ in METRICS) + " |")
        lines.append("| | Welch's t-test, p | " + " | ".join(_number(row[k]["p"], 3) for k, _, _ in METRICS) + " |")
        lines.append("| | per-trial SD, ours / paper | " + " | ".join(
            f"{_number(row[k]['ours'][2])} / {row[k]['paper_sd']:.2f}" for k, _, _ in METRICS) + " |")
    return lines


def table_markdown(summaries: list[Summary]) -> str:
    waiting = [f"{s.algorithm} seed {s.seed}" for s in summaries if not s.history]
    summaries = [s for s in summaries if s.history]
    if not summaries:
        raise ReportError(f"no run here has finished a batch yet ({', '.join(waiting)})")
    # a trial under way is counted only where its algorithm has no finished one
    done = {s.algorithm for s in summaries if s.finished}
    going = [s for s in summaries if not s.finished and s.algorithm in done]
    summaries = [s for s in summaries if s not in going]
    rows = comparison_rows(summaries)
    unfinished = sum(r["trials"] - r["finished"] for r in rows)
    dims, ranges = PAPER_SPACE["dims"], PAPER_SPACE["ranges"]
    text = (f"Our runs beside the paper's Table 1 ({PAPER['citation']} {PAPER['note']})."
            + (f" {unfinished} of our runs are unfinished: their numbers are as of their last batch." if unfinished else "")
            + (f" Not counted, no batch yet: {', '.join(waiting)}." if waiting else "")
            + (" Under way, not counted beside finished trials: " + ", ".join(
                f"{s.algorithm} seed {s.seed} ({s.final['evaluations']:,} evaluations)" for s in going) + "." if going else "")
            + " Welch's p needs two trials of ours; the paper's per-trial SD is its SE x sqrt"
            + f" {PAPER['trials']}.\n\n## On our cells (each range split evenly into {' x '.join(map(str, dims))})\n\n"
            + "\n".join(table_lines(rows)) + "\n")
    binned = [s for s in summaries if s.evaluations is not None]
    fillable = " x ".join(str(n) for n in fillable_cells(dims, ranges))
    text += ("\n## On the paper's cells (EvoStone2's map: each range split by its width + 1, so "
             f"{fillable} cells can be filled), rebuilt from evaluations.csv\n\n")
    if not binned:
        return text + "No run here has evaluations.csv.\n" + section6_markdown(summaries)
    missing = [f"{s.algorithm} seed {s.seed}" for s in summaries if s.evaluations is None]
    return (text + "\n".join(table_lines(comparison_rows(binned, lambda s: s.evostone2()))) + "\n"
            + (f"\nWithout evaluations.csv, so not in this table: {', '.join(missing)}.\n" if missing else "")
            + section6_markdown(summaries))


def section6_markdown(summaries: list[Summary]) -> str:
    """The paper's Section 6 from the DSA-ME trials' summaries (section6.py), beside the paper's:
    the test error of a final surrogate on another trial's evaluations (trials that keep
    surrogate.pt and decks.npz), and the transfer of a last surrogate archive to real games
    (trials whose surrogate_elites.npz has been played, transfer_games.npz). Finished trials
    only: the paper's are of final surrogates."""
    paper = PAPER["section6"]
    trials = [s for s in summaries if s.algorithm == "dsa_me" and s.history and s.finished]
    kept = [s for s in trials if (s.path / run_files.SURROGATE_FILE).is_file() and (s.path / run_files.DECKS_FILE).is_file()]
    kept_seeds = [s.seed for s in kept]
    text = "\n## The paper's Section 6: a final DSA-ME surrogate tested on another trial's evaluations\n\n"
    if len(kept) < 2:
        text += (f"Needs two finished DSA-ME trials that keep surrogate.pt and decks.npz; "
                 f"{len(kept)} of {len(trials)} here do{f' ({_seeds(kept_seeds)})' if kept else ''}.\n")
    else:
        mse, pairs = mean_pairwise_mse([s.path for s in kept])
        names = [n for n in paper["test_mse"] if n in mse]
        text += (f"Mean squared error, mean over {pairs} ordered pairs of trials ({_seeds(kept_seeds)}):\n\n"
                 + _ours_and_papers(names, [mse[n] for n in names], [paper["test_mse"][n] for n in names]))
    text += "\n## The paper's Section 6: a last DSA-ME surrogate archive played for real\n\n"
    played = [(s, t) for s in trials if (t := transfer(s.path)) is not None]
    if not played:
        return text + (f"No finished DSA-ME trial here has its last surrogate archive played (`python -m "
                       f"pipeline.report.section6 transfer RUN` plays it once and keeps the games).\n")
    ours = [np.mean([t[key] for _, t in played]) * scale for key, _, scale in TRANSFER_KEYS.values()]
    played_seeds = [s.seed for s, _ in played]
    return (text + f"The elites of the last surrogate archive placed by their real games on the run's cells, mean "
            f"over {_trials(played_seeds)} ({_seeds(played_seeds)}; "
            f"{', '.join(str(t['surrogate_elites']) for _, t in played)} elites):\n\n"
            + _ours_and_papers(list(TRANSFER_KEYS), ours, [paper["transfer"][key] * scale for _, key, scale
                                                           in TRANSFER_KEYS.values()]))


# the transfer's columns: header -> (our key, the key in paper_table1.json, scale)
TRANSFER_KEYS = {"retained %": ("retained_share", "retained_share", 100.0),
                 "in the predicted cell %": ("same_cell_share", "same_cell_share", 100.0),
                 "mean Manhattan distance (cells)": ("mean_manhattan_distance", "manhattan_distance", 1.0)}


def _seeds(seeds: list[int]) -> str:
    """'seed 0', 'seeds 0, 1'."""
    return f"seed{'s' * (len(seeds) != 1)} {', '.join(map(str, seeds))}"


def _trials(seeds: list[int]) -> str:
    """'1 trial', '2 trials'."""
    return f"{len(seeds)} trial{'s' * (len(seeds) != 1)}"


def _ours_and_papers(names: list[str], ours: list[float], papers: list[float]) -> str:
    return ("| | " + " | ".join(names) + " |\n|" + "---|" * (len(names) + 1) + "\n| ours | "
            + " | ".join(f"{v:.2f}" for v in ours) + " |\n| paper | " + " | ".join(f"{v:.2f}" for v in papers) + " |\n")


def qd_score_figure(summaries: list[Summary]) -> bytes:
    """A PNG: QD-score over real evaluations, one line per trial, dashed on EvoStone2's cells (the
    cells the paper's numbers count) where the run has evaluations.csv; the paper's final means
    marked."""
    import io

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5))
    colours: dict[str, str] = {}
    for s in summaries:
        first = s.algorithm not in colours  # one legend entry per algorithm and kind of cells
        colour = colours.setdefault(s.algorithm, f"C{len(colours)}")
        name, evaluations = LABELS.get(s.algorithm, s.algorithm), [h["evaluations"] for h in s.history]
        ax.plot(evaluations, [h["qd_score"] for h in s.history], color=colour, linewidth=1,
                label=f"{name}, our cells (one line a trial)" if first else None)
        if s.evaluations is not None:
            ax.plot(evaluations, [s.evostone2(n)["qd_score"] for n in evaluations], color=colour, linestyle="--",
                    linewidth=1, label=f"{name}, the paper's cells" if first else None)
    end = PAPER["evaluations"]
    for algorithm, colour in colours.items():
        if algorithm in PAPER["rows"]:
            mean, se = PAPER["rows"][algorithm]["qd_score"]
            ax.errorbar([end], [mean], yerr=[[se]], fmt="*", markersize=12, color=colour, capsize=4,
                        label=f"{LABELS.get(algorithm, algorithm)}, paper (final mean +- SE)")
            ax.axhline(mean, color=colour, linestyle=":", linewidth=0.8)
    ax.set_xlabel("real evaluations")
    ax.set_ylabel("QD-score")
    ax.set_xlim(0, end * 1.05)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    image = io.BytesIO()
    fig.savefig(image, format="png", dpi=110, metadata={"Software": None})
    plt.close(fig)
    return image.getvalue()


def write_if_changed(path: Path, data: bytes) -> bool:
    """Writes `data` to `path` unless the file holds it already; whether it wrote."""
    if path.is_file() and path.read_bytes() == data:
        return False
    path.write_bytes(data)
    return True


def main(argv=None) -> int:
    from workers.inputs import ArgumentParser
    parser = ArgumentParser(prog="python -m pipeline.report.paper", description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="run folders, or folders holding them (e.g. results/paper)")
    parser.add_argument("--out", type=Path, default=None, help="where paper_table.md and the figure go "
                                                                "(default: print the table only)")
    args = parser.parse_args(argv)
    try:
        summaries = find_summaries(args.runs)
        text = table_markdown(summaries)
        if args.out is not None:
            args.out.mkdir(parents=True, exist_ok=True)
            write_if_changed(args.out / "paper_table.md", text.encode())
            write_if_changed(args.out / "qd_score_vs_paper.png", qd_score_figure([s for s in summaries if s.history]))
    except PipelineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
