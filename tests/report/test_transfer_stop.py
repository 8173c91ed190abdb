"""The report's transfer analysis plays real games: it says what it will play before it starts,
and a stop (SIGTERM, Ctrl-C) ends it with the rest of the report written and the games played
kept, so that the next report goes on from there and ends where an unbroken one does."""
import json
import os
import signal

import pytest

from pipeline.report import analysis
from pipeline.report.build import build_report

RUN = "offline_dsa_me-seed0"  # the sweep's run with the most surrogate elites: several pieces


@pytest.fixture
def signals_restored():
    """A stop leaves SIGINT and SIGTERM ignored for the rest of its process's exit: put back
    what this test process had."""
    saved = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    yield
    for s, handler in saved.items():
        signal.signal(s, handler)


def _transfer_row(out):
    cache = json.loads((out / "transfer.json").read_text())
    rows = [v for k, v in cache.items() if k != "unfinished"]
    assert len(rows) == 1
    return rows[0], cache["unfinished"]


def test_a_stopped_transfer_keeps_the_report_and_the_games_played(sweep, tmp_path, monkeypatch, capsys,
                                                                  signals_restored):
    real_play = analysis.play_elites

    def sigterm_after_the_first_piece(decks, evaluator, played=(), on_piece=None, progress=None):
        def piece(targets):
            on_piece(targets)
            os.kill(os.getpid(), signal.SIGTERM)  # as `kill` or scancel would, once a piece is kept
        return real_play(decks, evaluator, played, piece, progress)

    out = tmp_path / "report"
    with monkeypatch.context() as patch:
        patch.setattr(analysis, "play_elites", sigterm_after_the_first_piece)
        build_report([sweep / RUN], out, transfer="all", workers=1)
    announced = [line for line in capsys.readouterr().err.splitlines() if line.startswith("transfer analysis: ")]
    assert len(announced) == 1, announced
    assert " decks x 6 games = " in announced[0] and "on 1 worker slots" in announced[0]
    assert "Ctrl-C or SIGTERM stops it" in announced[0]

    # the report is whole, and says the transfer was cut short after the piece that was kept
    assert (out / "index.html").is_file() and (out / "table1.md").is_file() and (out / "decks.md").is_file()
    kept = json.loads((out / "transfer.json").read_text())["unfinished"]
    (played,) = kept.values()
    assert len(played) == analysis.TRANSFER_PIECE
    text = (out / "surrogate_transfer.md").read_text()
    assert f"stopped by SIGTERM after {len(played)} of " in text and "offline_dsa_me seed 0" in text
    assert "stopped by SIGTERM" in (out / "index.html").read_text()

    # the next report goes on from the games played, and ends where an unbroken transfer does
    build_report([sweep / RUN], out, transfer="all", workers=1)
    assert f"({len(played)} played by an earlier report)" in capsys.readouterr().err
    assert "stopped" not in (out / "surrogate_transfer.md").read_text()
    unbroken = tmp_path / "unbroken"
    build_report([sweep / RUN], unbroken, transfer="all", workers=1)
    continued, left = _transfer_row(out)
    assert continued == _transfer_row(unbroken)[0] and left == {}
    assert continued["surrogate_elites"] > analysis.TRANSFER_PIECE
