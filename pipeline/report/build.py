"""The whole report: load and check the runs, then write every part into one folder."""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from ..behavior_space import describe
from ..cluster.stops import stop_on_signals, stops_deferred
from ..state import checkpoint as ckpt
from . import decks, figures, page, stats, strategy, surrogates, table
from .runs import LABELS, ReportError, find_run_dirs, grid_spec, group_by_algorithm, group_by_space, load_runs
from .transfer_cache import TRANSFER_CACHE, TransferCache

MARKER = ".pipeline-report"  # only a folder holding this is ever replaced
MARKER_TEXT = "written by python -m pipeline.report; replaced by the next report\n"


def build_report(paths: list[Path], out: Path, *, transfer: str = "first", workers: int | None = None,
                 top_decks: int = 10) -> Path:
    """Every input is read and checked before anything is written; the folder is assembled
    beside `out` and moved into place, so a failure or a stop leaves no half-written report.
    Only the transfer's games are written into `out` as they are played (transfer_cache.py)."""
    out = Path(out)
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / MARKER).exists())):
        raise ReportError(f"--out {out} exists and is not a report folder; not replacing it")
    dirs = find_run_dirs(paths)
    loaded = {d: ckpt.load(d / ckpt.FILENAME, required=()) for d in dirs}  # each file read once
    strategy_dirs = [d for d in dirs if strategy.is_strategy_checkpoint(loaded[d])]  # their own section
    deck_dirs = [d for d in dirs if d not in strategy_dirs]
    runs = load_runs(deck_dirs, loaded) if deck_dirs else []  # raises ReportError on bad or incomparable input
    strategy_runs = strategy.load_strategy_runs(strategy_dirs, loaded)
    out.parent.mkdir(parents=True, exist_ok=True)
    cache = TransferCache(out, claim=lambda: _claim(out))  # games played: in `out` itself, as they come
    work = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        with stop_on_signals():  # a stop outside the transfer ends the report here, through `finally`
            strategy_html = strategy.write_section(strategy_runs, work)
            spaces = group_by_space(runs)
            if len(spaces) > 1:
                _reports_per_space(spaces, work, transfer, cache, workers, top_decks, strategy_html)
            elif runs:
                _deck_parts(runs, work, transfer, cache, workers, top_decks, strategy_html)
            else:
                page.write_page(work, title="DSA-ME results report",
                                runs_text=f"{_plural(len(strategy_runs), 'strategy search run')}, no deck search",
                                table_md="", stats=[], figures=[], mse_md="", transfer_md="", all_decks=[],
                                labels=LABELS, extra_html=strategy_html)
            (work / MARKER).write_text(MARKER_TEXT)
            with stops_deferred():  # the cache is in `out` before and after: a stop waits for both renames
                if cache.path.is_file():
                    shutil.copy(cache.path, work / TRANSFER_CACHE)
                old = out.with_name(f"{work.name}.old")
                if out.exists():
                    out.rename(old)
                work.rename(out)
                shutil.rmtree(old, ignore_errors=True)
    finally:
        if work.exists():
            shutil.rmtree(work)
    return out


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _claim(out: Path) -> None:
    """`out` as a report folder, before the transfer first keeps games in it."""
    if not out.is_dir():
        out.mkdir()
        (out / MARKER).write_text(MARKER_TEXT)


def _reports_per_space(spaces: dict, work: Path, transfer: str, cache: TransferCache, workers, top_decks: int,
                       strategy_html: str) -> None:
    """Runs of several behaviour spaces: Table 1, the statistics and the figures compare runs of
    one space only, so each space gets a report of its own (space1/, space2/ ...), and the
    top page says so and links them."""
    import html
    links = []
    for number, (spec, group) in enumerate(spaces.items(), 1):
        folder = work / f"space{number}"
        folder.mkdir()
        _deck_parts(group, folder, transfer, cache, workers, top_decks, "")
        b = spec.behavior
        said = (f"objective {b.objective}, measures {', '.join(b.measures)}, "
                f"{' x '.join(map(str, spec.dims))} cells over {list(map(list, spec.ranges))}")
        links.append(f"<li><a href='space{number}/index.html'>space {number}</a>: {html.escape(said)}; "
                     f"{_plural(len(group), 'run')}</li>")
    text = (f"{sum(len(g) for g in spaces.values())} runs in {len(spaces)} behaviour spaces: runs of "
            "different spaces are not compared with each other; each space has its own report.")
    (work / "index.html").write_text(
        f"<!doctype html><html><head><meta charset='utf-8'><title>DSA-ME results report</title>"
        f"<style>{page.STYLE}</style></head><body><h1>DSA-ME results report</h1><p>{html.escape(text)}</p>"
        f"<ul>{''.join(links)}</ul>{strategy_html}</body></html>\n")


def _deck_parts(runs, work: Path, transfer: str, cache: TransferCache, workers, top_decks: int,
                strategy_html: str) -> None:
    """Table 1, statistics, figures, surrogate analyses and decks of the deck searches."""
    rows = table.table_rows(runs)
    table_md = table.write_table(rows, work, table.paper_pointer(runs))
    per_run = {a: [table.run_metrics(r) for r in g] for a, g in group_by_algorithm(runs).items()}
    tests, why_no_tests = stats.all_tests(per_run), stats.untestable(per_run)
    stats.write_stats(tests, work, why_no_tests)
    figs, notes = [], []
    spec = grid_spec(runs[0])  # the runs share one behaviour space
    lo, hi = spec.objective_range
    for (names, note), caption in (
            (figures.progress_figure(runs, work), "QD-score and number of elites against real evaluations: "
             "dots are the logged points (one per batch), joined by lines; with several trials, the mean "
             "and 95% band where all of them have data"),
            ((figures.ccdf_figure(runs, work), ""), "CCDF of elite objective values"),
            ((figures.heatmaps_figure(runs, work), ""), f"Final real archive of each run (colour: "
             f"{describe(spec.behavior.objective)} on [{lo:g}, {hi:g}]); each run's archive.html below lets "
             "you explore it"),
            (figures.loss_figure(runs, work), "Surrogate training and validation loss per target over outer "
             "iterations (dots: logged iterations)")):
        if names:
            figs.append((names[0], caption))
        elif note:
            notes.append(note)
    archives = archive_pages(runs, work)
    mse_md = surrogates.write_mse(surrogates.mse_pairs(runs), work)
    transfer_rows, transfer_note = surrogates.transfer(runs, transfer, cache, workers)
    transfer_md = surrogates.write_transfer(transfer_rows, work, transfer_note)
    all_decks = decks.write_decks(runs, work, top_decks)
    unfinished = sum(not r.finished for r in runs)
    runs_text = (f"{_plural(len(runs), 'run')} of {_plural(len(group_by_algorithm(runs)), 'algorithm')}"
                 + ("" if not unfinished else ", unfinished (numbers as of its last checkpoint)" if len(runs) == 1
                    else f", {unfinished} of them unfinished (numbers as of their last checkpoint)")
                 + ": " + ", ".join(str(r.path) for r in runs))
    page.write_page(work, title="DSA-ME results report", runs_text=runs_text, table_md=table_md,
                    stats=tests, figures=figs, mse_md=mse_md, transfer_md=transfer_md,
                    all_decks=all_decks, labels=LABELS, extra_html=strategy_html, notes=notes,
                    archives=archives, stats_note=why_no_tests)


def archive_pages(runs, work: Path) -> list[tuple[str, str]]:
    """Each run's archive as a page to explore (the run folder's archive.html, written again
    from its checkpoint): [(file name, run name)]."""
    from ..search.archive_page import archive_html
    from .runs import deck_space
    pages = []
    for run in runs:
        name = f"archive-{run.algorithm}-seed{run.seed}.html"
        title = f"{run.config.get('name', 'run')}: {run.algorithm}, seed {run.seed}, {run.n_evaluations} evaluations"
        (work / name).write_text(archive_html(run.archive, grid_spec(run), deck_space(run), title))
        pages.append((name, f"{run.label}, seed {run.seed} ({run.n_evaluations} evaluations)"))
    return pages
