"""What a user watches while a run goes: metrics log, archive heatmap and page, best decks."""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from ..deck_space import DeckSpace
from ..state.checkpoint import new_private_file, write_error
from .archive_page import archive_html
from .archives import OBJECTIVE_RANGE, GridSpec, archive_arrays, ccdf

METRICS_FILE = "metrics.jsonl"
HEATMAP_FILE = "archive_heatmap.png"
BEST_DECKS_FILE = "best_decks.md"
BEST_DECKS_JSON = "best_decks.json"
CCDF_FILE = "ccdf.csv"
ARCHIVE_PAGE = "archive.html"


def _replace(path: Path, write) -> None:
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
    _replace(Path(run_dir) / METRICS_FILE, write)


def write_heatmap(run_dir: Path, archive, spec: GridSpec, title: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = archive_arrays(archive)
    grid = np.full(spec.cells, np.nan)
    grid[data["index"]] = data["objective"]
    grid = grid.reshape(spec.dims)  # [turns cell, hand-size cell]
    (t0, t1), (h0, h1) = spec.ranges
    fig, ax = plt.subplots(figsize=(6.4, 5.2))
    image = ax.imshow(grid.T, origin="lower", extent=(t0, t1, h0, h1), aspect="auto",
                      cmap="viridis", vmin=OBJECTIVE_RANGE[0], vmax=OBJECTIVE_RANGE[1])
    fig.colorbar(image, ax=ax, label="average health difference")
    ax.set_xlabel("average number of turns")
    ax.set_ylabel("average hand size")
    ax.set_title(title)
    fig.tight_layout()
    _replace(Path(run_dir) / HEATMAP_FILE, lambda tmp: fig.savefig(tmp, format="png", dpi=100))
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


def write_best_decks(run_dir: Path, archive, space: DeckSpace, n: int) -> None:
    decks = best_decks(archive, space, n)
    lines = ["# Best decks of the real archive", ""]
    for rank, d in enumerate(decks, 1):
        t = d["targets"]
        lines += [f"## {rank}. health difference {d['objective']:+.2f}, win rate {t['win_rate']:.1%}, "
                  f"turns {d['measures'][0]:.2f}, hand size {d['measures'][1]:.2f} (evaluation {d['eval_id']})",
                  "", f"Deck code: `{d['deck_code']}`", "", *[f"- {c}" for c in d["cards"]], ""]
    _replace(Path(run_dir) / BEST_DECKS_FILE, lambda tmp: Path(tmp).write_text("\n".join(lines)))
    _replace(Path(run_dir) / BEST_DECKS_JSON, lambda tmp: Path(tmp).write_text(json.dumps(decks, indent=1)))


def write_ccdf(run_dir: Path, archive, spec: GridSpec) -> None:
    """The paper's CCDF: % of all cells whose elite has f > t, t = -30 ... 30."""
    thresholds, share = ccdf(archive, spec)
    text = "threshold,percent_of_cells\n" + "".join(f"{t},{p:.4f}\n" for t, p in zip(thresholds, share))
    _replace(Path(run_dir) / CCDF_FILE, lambda tmp: Path(tmp).write_text(text))


def write_archive_page(run_dir: Path, archive, spec: GridSpec, space: DeckSpace, title: str) -> None:
    """archive.html: the archive to explore in a browser, rewritten with the other files so
    that it can be opened (and reloaded) while the run goes on."""
    text = archive_html(archive_arrays(archive), spec, space, title)
    _replace(Path(run_dir) / ARCHIVE_PAGE, lambda tmp: Path(tmp).write_text(text))
