"""archive.html of a small real run, opened in headless Chromium from disk and from a web
server: a real click on a filled cell shows that elite's deck code, checked against the run's
best_decks.json and checkpoint; a click on an empty cell shows nothing. And the paper's full
40 x 40 archive as a page: small and quick to draw."""
import functools
import http.server
import json
import re
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import h5py
import numpy as np
import pytest

from pipeline.deck_space import DeckSpace
from pipeline.behavior_space import describe
from pipeline.search.archive_page import archive_html, page_data
from pipeline.search.archives import ArchiveSpec, archive_arrays, make_archive

from .browser import browser


def real_archive(run_dir: Path) -> dict[str, np.ndarray]:
    with h5py.File(run_dir / "checkpoint.h5", "r") as f:
        return {k: f[f"real_archive/{k}"][()] for k in ("index", "solution", "objective", "eval_id")}


@contextmanager
def served(folder: Path):
    """The folder on a local web server (the page must not need file:// to work)."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    handler.log_message = lambda *a, **k: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def cell_centre(page, cell: int, dims) -> tuple[float, float]:
    """Where a cell lies on the screen, from the plot area's box (first measure across, second up)."""
    box = page.evaluate("(() => { const r = document.getElementById('plot').getBoundingClientRect();"
                        " return [r.left, r.top, r.width, r.height]; })()")
    i, j = divmod(cell, dims[1])
    return box[0] + (i + 0.5) * box[2] / dims[0], box[1] + box[3] - (j + 0.5) * box[3] / dims[1]


def test_the_run_folder_holds_a_self_contained_archive_page(short_run):
    text = (short_run / "archive.html").read_text()
    assert "<script src" not in text and "<link rel='stylesheet'" not in text and 'rel="stylesheet"' not in text
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", text)  # nothing from the network
    data = json.loads(re.search(r'<script id="data" type="application/json">(.*?)</script>', text, re.S).group(1))
    assert len(data["elites"]) == len(real_archive(short_run)["index"]) > 0
    assert (short_run / "archive.html").stat().st_mode & 0o777 == 0o600  # like the other run files


@pytest.mark.parametrize("how", ["file", "http"])
def test_a_click_on_a_cell_shows_its_deck_code(chromium, short_run, how):
    archive = real_archive(short_run)
    best = json.loads((short_run / "best_decks.json").read_text())[0]
    k = int(np.flatnonzero(archive["eval_id"] == best["eval_id"])[0])
    cell, dims = int(archive["index"][k]), (40, 40)
    empty = next(c for c in range(dims[0] * dims[1]) if c not in set(archive["index"].tolist()))
    with served(short_run) as base, browser(chromium) as page:
        page.open((short_run / "archive.html").resolve().as_uri() if how == "file" else f"{base}/archive.html")
        assert page.evaluate("document.querySelectorAll('#grid rect.cell').length") == len(archive["index"])
        xlabel, ylabel = page.evaluate("[document.getElementById('xlabel').textContent,"
                                       " document.getElementById('ylabel').textContent]")
        assert xlabel == f"{describe('turns')} (5 to 15, 40 cells)"  # the config's ranges and dims
        assert ylabel == f"{describe('hand_size')} (1 to 7, 40 cells)"

        x, y = cell_centre(page, cell, dims)
        page.mouse("mouseMoved", x, y)
        tip = page.evaluate("document.getElementById('tip').textContent")
        assert f"fitness {best['objective']:+.2f}" in tip and "win rate" in tip
        page.click(x, y)
        assert page.errors() == []
        code = page.evaluate("document.getElementById('deck-code').textContent")
        assert code == best["deck_code"]
        space = DeckSpace.from_pool_file()
        assert np.array_equal(space.from_deck_code(code), archive["solution"][k])  # the checkpoint's deck
        copies = page.evaluate("Array.from(document.querySelectorAll('#cards tr td:first-child'))"
                               ".map(td => +td.textContent)")
        assert sum(copies) == 30 and len(copies) == int(np.count_nonzero(archive["solution"][k]))
        assert page.evaluate("document.querySelectorAll('#curve rect').length") == 8
        page.evaluate("document.getElementById('copy').click()")
        time.sleep(0.3)
        assert page.evaluate("document.getElementById('copied').textContent") in ("copied", "select the code and copy it")

        page.click(*cell_centre(page, empty, dims))
        assert page.evaluate("document.getElementById('deck').hidden") is True
        assert page.evaluate("document.getElementById('deck-code')") is None
        assert page.evaluate("document.getElementById('deck').textContent") == ""
        assert page.errors() == []


def test_the_papers_full_archive_is_a_small_quick_page(chromium, tmp_path):
    space, spec = DeckSpace.from_pool_file(), ArchiveSpec()
    rng = np.random.default_rng(0)
    archive = make_archive(spec, space.size)
    cells = np.arange(spec.cells)
    measures = np.column_stack([5 + (cells // 40 + 0.5) / 4, 1 + (cells % 40 + 0.5) * 6 / 40])  # one per cell
    archive.add(space.random_decks(rng, spec.cells), rng.uniform(-30, 30, spec.cells), measures,
                eval_id=cells, targets=rng.uniform(0, 1, (spec.cells, 12)))
    arrays = archive_arrays(archive)
    assert len(arrays["index"]) == 1600
    start = time.perf_counter()
    text = archive_html(arrays, spec, space, "full")
    assert time.perf_counter() - start < 20
    assert len(text.encode()) < 1_000_000
    path = tmp_path / "archive.html"
    path.write_text(text)
    with browser(chromium) as page:
        page.open(path.as_uri())
        assert page.evaluate("document.querySelectorAll('#grid rect.cell').length") == 1600
        load_ms = page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
        assert load_ms < 5000, f"the full archive's page took {load_ms:.0f} ms to load"
        x, y = cell_centre(page, 1599, spec.dims)
        page.click(x, y)
        code = page.evaluate("document.getElementById('deck-code').textContent")
        assert np.array_equal(space.from_deck_code(code), arrays["solution"][1599])
        assert page.errors() == []


def test_page_data_refuses_decks_of_another_space():
    space = DeckSpace.from_pool_file()
    arrays = {"index": np.array([0]), "solution": np.zeros((1, space.size + 1), dtype=np.int16),
              "objective": np.zeros(1), "measures": np.zeros((1, 2)), "eval_id": np.zeros(1, dtype=np.int64),
              "targets": np.zeros((1, 12))}
    with pytest.raises(ValueError, match="card slots"):
        page_data(arrays, ArchiveSpec(), space, "x")
