"""What a user watches while a run goes: metrics log, archive heatmap and page, best decks."""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import yaml

from ..deck_space import DeckSpace
from ..state.checkpoint import new_private_file, write_error
from .archive_page import archive_html
from .archives import ArchiveSpec, archive_arrays, ccdf, display_spec, plane

METRICS_FILE = "metrics.jsonl"
HEATMAP_FILE = "archive_heatmap.png"
BEST_DECKS_FILE = "best_decks.md"
BEST_DECKS_JSON = "best_decks.json"
CCDF_FILE = "ccdf.csv"
ARCHIVE_CSV = "archive.csv"
EVALUATIONS_CSV = "evaluations.csv"
ARCHIVE_PAGE = "archive.html"
DECKS_FILE = "decks.npz"
SURROGATE_FILE = "surrogate.pt"
SURROGATE_ELITES_FILE = "surrogate_elites.npz"


def replace_whole(path: Path, write) -> None:
    """Write through a temporary file and rename, so a reader never sees half a file; a write
    that fails (a full disk) leaves the previous file and raises RunDirError naming the folder."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        os.close(new_private_file(tmp))  # `write` reopens it and keeps its mode, 0600
        write(tmp)
        os.replace(tmp, path)
    except OSError as exc:
        raise write_error(path, exc) from None
    finally:
        tmp.unlink(missing_ok=True)


def write_metrics(run_dir: Path, history: list[dict]) -> None:
    """The whole metrics log, one JSON object per line (rewritten from the checkpointed
    history, so a resumed run's log never holds lines of lost work)."""
    def write(tmp):
        with open(tmp, "w") as f:
            for row in history:
                f.write(json.dumps(row, sort_keys=True) + "\n")
    replace_whole(Path(run_dir) / METRICS_FILE, write)


def write_heatmap(run_dir: Path, archive, spec: ArchiveSpec, title: str) -> None:
    """The elites' objective over the first two measures (with a third: each cell's best over
    it; with one: a single row)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..behavior_space import describe
    if spec.kind == "cvt":
        return _write_cvt_picture(run_dir, archive, spec, title)
    data, dims, ((x0, x1), (y0, y1)) = plane(archive_arrays(archive), display_spec(archive, spec))
    grid = np.full(int(np.prod(dims)), np.nan)
    grid[data["index"]] = data["objective"]
    names = spec.behavior.measures
    fig, ax = plt.subplots(figsize=(6.4, 5.2))
    image = ax.imshow(grid.reshape(dims).T, origin="lower", extent=(x0, x1, y0, y1), aspect="auto",
                      cmap="viridis", vmin=spec.objective_range[0], vmax=spec.objective_range[1])
    fig.colorbar(image, ax=ax, label=describe(spec.behavior.objective))
    grouped = " (sliding groups)" if spec.kind == "sliding" else ""
    ax.set_xlabel(describe(names[0]) + grouped)
    ax.set_ylabel(describe(names[1]) + grouped if len(names) > 1 else "")
    if len(names) == 1:
        ax.set_yticks([])
    ax.set_title(title if len(names) < 3 else f"{title}\n(each cell: the best over {describe(names[2])})",
                 fontsize=10 if len(names) == 3 else None)
    fig.tight_layout()
    replace_whole(Path(run_dir) / HEATMAP_FILE, lambda tmp: fig.savefig(tmp, format="png", dpi=100))
    plt.close(fig)


def _write_cvt_picture(run_dir: Path, archive, spec: ArchiveSpec, title: str) -> None:
    """A CVT archive: for two measures its Voronoi cells coloured by their elite's objective;
    for three, the elites projected on each pair of measures."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import PolyCollection

    from ..behavior_space import describe
    from .archives import voronoi_cells
    data = archive_arrays(archive)
    names, lo, hi = spec.behavior.measures, *spec.objective_range
    pairs = [(0, 1)] if len(names) == 2 else [(0, 1), (0, 2), (1, 2)]
    fig, axes = plt.subplots(1, len(pairs), figsize=(6.4 * len(pairs) * 0.8, 5.2), squeeze=False)
    for ax, (i, j) in zip(axes[0], pairs):
        if len(names) == 2:
            polygons = voronoi_cells(archive.centroids, spec.ranges)
            values = np.full(len(polygons), np.nan)
            values[data["index"]] = data["objective"]
            shown = PolyCollection(polygons, array=np.ma.masked_invalid(values), cmap="viridis",
                                   edgecolors="#ccc", linewidths=0.3)
            shown.set_clim(lo, hi)
            ax.add_collection(shown)
        else:
            shown = ax.scatter(data["measures"][:, i], data["measures"][:, j], c=data["objective"], s=8,
                               cmap="viridis", vmin=lo, vmax=hi)
        ax.set_xlim(*spec.ranges[i])
        ax.set_ylim(*spec.ranges[j])
        ax.set_xlabel(describe(names[i]))
        ax.set_ylabel(describe(names[j]))
    fig.colorbar(shown, ax=list(axes[0]), label=describe(spec.behavior.objective))
    fig.suptitle(f"{title} (CVT, {spec.cvt_cells} cells)", fontsize=10)
    replace_whole(Path(run_dir) / HEATMAP_FILE, lambda tmp: fig.savefig(tmp, format="png", dpi=100))
    plt.close(fig)


def best_decks(archive, space: DeckSpace, n: int) -> list[dict]:
    from workers.protocol.results import TARGET_NAMES
    data = archive_arrays(archive)
    order = np.argsort(-data["objective"], kind="stable")[:n]
    decks = []
    for i in order:
        deck = data["solution"][i]
        decks.append({
            "eval_id": int(data["eval_id"][i]),
            "objective": float(data["objective"][i]),
            "measures": [float(m) for m in data["measures"][i]],
            "targets": {name: float(v) for name, v in zip(TARGET_NAMES, data["targets"][i])},
            "deck_code": space.deck_code(deck),
            "cards": space.describe(deck),
        })
    return decks


def write_best_decks(run_dir: Path, archive, space: DeckSpace, n: int, spec: ArchiveSpec | None = None) -> None:
    behavior = (spec or ArchiveSpec()).behavior
    short = {name: name.replace("_", " ") for name in behavior.names}
    decks = best_decks(archive, space, n)
    lines = ["# Best decks of the real archive", ""]
    for rank, d in enumerate(decks, 1):
        t = d["targets"]
        said = ", ".join(f"{short[name]} {value:.2f}" for name, value in zip(behavior.measures, d["measures"]))
        lines += [f"## {rank}. {short[behavior.objective]} {d['objective']:+.2f}, win rate {t['win_rate']:.1%}, "
                  f"{said} (evaluation {d['eval_id']})",
                  "", f"Deck code: `{d['deck_code']}`", "", *[f"- {c}" for c in d["cards"]], ""]
    replace_whole(Path(run_dir) / BEST_DECKS_FILE, lambda tmp: Path(tmp).write_text("\n".join(lines)))
    replace_whole(Path(run_dir) / BEST_DECKS_JSON, lambda tmp: Path(tmp).write_text(json.dumps(decks, indent=1)))


def write_ccdf(run_dir: Path, archive, spec: ArchiveSpec) -> None:
    """The paper's CCDF: % of all cells whose elite has f > t, t = -30 ... 30."""
    thresholds, share = ccdf(archive, spec)
    text = "threshold,percent_of_cells\n" + "".join(f"{t},{p:.4f}\n" for t, p in zip(thresholds, share))
    replace_whole(Path(run_dir) / CCDF_FILE, lambda tmp: Path(tmp).write_text(text))


def _scores(spec: ArchiveSpec, objective: np.ndarray, targets: np.ndarray, measures: np.ndarray):
    """The columns archive.csv and evaluations.csv share, names and values: the objective, the win
    rate (unless it is the objective), the measures by name."""
    from workers.protocol.results import TARGET_NAMES
    behavior = spec.behavior
    win = [] if behavior.objective == "win_rate" else [targets[:, TARGET_NAMES.index("win_rate")]]
    names = [behavior.objective, *["win_rate"] * len(win), *behavior.measures]
    values = np.column_stack([objective, *win, measures]) if len(objective) else np.zeros((0, len(names)))
    return names, values


def write_archive_csv(run_dir: Path, archive, spec: ArchiveSpec, space: DeckSpace) -> None:
    """archive.csv: every elite in one row (cell, objective, win rate, the measures by name, the
    evaluation that made it, the deck by card names), small enough to keep with a finished run
    (about 1,000 elites of the paper's 1,600 cells: 0.3 MB) and readable without the checkpoint."""
    import csv
    import io

    data = archive_arrays(archive)
    names, values = _scores(spec, data["objective"], data["targets"], data["measures"])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["cell", *names, "eval_id", "deck"])
    for i in range(len(data["index"])):
        writer.writerow([int(data["index"][i]), *(f"{v:.6g}" for v in values[i]), int(data["eval_id"][i]),
                         "; ".join(space.describe(data["solution"][i]))])
    replace_whole(Path(run_dir) / ARCHIVE_CSV, lambda tmp: Path(tmp).write_text(out.getvalue()))


def write_evaluations_csv(run_dir: Path, objective: np.ndarray, measures: np.ndarray, targets: np.ndarray,
                          iterations: np.ndarray, spec: ArchiveSpec) -> None:
    """evaluations.csv: every real evaluation in order (its id, the outer iteration that made it,
    objective, win rate, measures by name; no deck: about 0.4 MB at 10,000), so that the archive can
    be rebuilt on other cells (the paper's, `pipeline.report.paper`) without the checkpoint."""
    names, values = _scores(spec, objective, targets, measures)
    rows = [f"{i},{int(it)}," + ",".join(f"{v:.6g}" for v in row)
            for i, (it, row) in enumerate(zip(iterations, values))]
    header = ",".join(["eval_id", "outer_iteration", *names])
    replace_whole(Path(run_dir) / EVALUATIONS_CSV, lambda tmp: Path(tmp).write_text("\n".join([header, *rows]) + "\n"))


def write_decks(run_dir: Path, decks: np.ndarray, space: DeckSpace, name: str = DECKS_FILE,
                **columns: np.ndarray) -> None:
    """decks.npz: every real evaluation's deck in evaluation order, each as the sorted pool indices
    of its cards (`cards`), with the pool's card ids (`pool`): with evaluations.csv, what a
    surrogate is tested on (the paper's Section 6) without the checkpoint; about 100 KB at 10,000.
    Other decks the same way under another `name`, with `columns` of one value a deck beside them."""
    dtype = np.uint8 if space.size <= 256 else np.uint16
    cards = np.array([np.repeat(np.arange(space.size), d) for d in np.asarray(decks, dtype=np.int64)],
                     dtype=dtype).reshape(len(decks), space.deck_size)

    def write(tmp):
        with open(tmp, "wb") as f:  # a file, not a name: numpy would add ".npz" to the temporary one
            np.savez_compressed(f, cards=cards, pool=np.array(space.ids), **columns)
    replace_whole(Path(run_dir) / name, write)


def write_surrogate_elites(run_dir: Path, elites: dict[str, np.ndarray], space: DeckSpace) -> None:
    """surrogate_elites.npz: the last surrogate archive's elites (decks as in decks.npz) with the
    cell the surrogate put each in (`cell`): what the paper's Section 6 transfer plays for real
    without the checkpoint; a few tens of KB."""
    write_decks(run_dir, elites["solution"], space, SURROGATE_ELITES_FILE,
                cell=np.asarray(elites["index"], dtype=np.int64))


def read_run_decks(run_dir: Path, name: str = DECKS_FILE) -> np.ndarray:
    """A run folder's decks file (decks.npz, or surrogate_elites.npz) as card counts over the pool
    its config.yaml names."""
    config = yaml.safe_load((Path(run_dir) / "config.yaml").read_text())
    return read_decks(Path(run_dir) / name, DeckSpace.from_config(config["deck_space"]))


def read_decks(path: Path, space: DeckSpace) -> np.ndarray:
    """decks.npz's decks (or surrogate_elites.npz's) as card counts over `space`'s pool (which must
    be the file's)."""
    with np.load(path) as data:
        cards, pool = data["cards"].astype(np.int64), [str(c) for c in data["pool"]]
    if pool != list(space.ids):
        raise ValueError(f"{path} was written for another card pool")
    decks = np.zeros((len(cards), space.size), dtype=np.int16)
    np.add.at(decks, (np.repeat(np.arange(len(cards)), cards.shape[1]), cards.ravel()), 1)
    return decks


def write_surrogate(run_dir: Path, state: bytes) -> None:
    """surrogate.pt: the surrogate as it is now (Surrogate.model_bytes: its weights, kind and
    shape, no optimiser state; about 110 KB for the protocol's MLP), the final one once the run
    is finished."""
    replace_whole(Path(run_dir) / SURROGATE_FILE, lambda tmp: Path(tmp).write_bytes(state))


def write_archive_page(run_dir: Path, archive, spec: ArchiveSpec, space: DeckSpace, title: str) -> None:
    """archive.html: the archive to explore in a browser, rewritten with the other files so
    that it can be opened (and reloaded) while the run goes on."""
    text = archive_html(archive_arrays(archive), display_spec(archive, spec), space, title,
                        centroids=getattr(archive, "centroids", None) if spec.kind == "cvt" else None)
    replace_whole(Path(run_dir) / ARCHIVE_PAGE, lambda tmp: Path(tmp).write_text(text))
