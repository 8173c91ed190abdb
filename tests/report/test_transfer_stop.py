"""The report's transfer analysis plays real games: it says what it will play before it starts,
and a stop (SIGTERM, Ctrl-C) ends it with the rest of the report written and the games played
kept, so that the next report goes on from there and ends where an unbroken one does."""
import json
import os
import signal

import pytest

from pipeline.cluster.stops import Stopped
from pipeline.report import analysis, decks
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


def _stop_after_the_transfer(patch):
    """SIGINT as the report writes its decks, after the transfer: Ctrl-C once more."""
    real_write = decks.write_decks

    def write_decks(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGINT)
        return real_write(*args, **kwargs)
    patch.setattr(decks, "write_decks", write_decks)


def test_a_report_stopped_twice_and_run_again_plays_no_game_twice(sweep, tmp_path, monkeypatch, signals_restored):
    """A report stopped by SIGINT during the transfer and again after it, a second report that
    finishes the transfer and is stopped after it before it is written, and a third: every deck
    is handed back once over the three, and the third plays none. (The games a report plays are
    kept in its folder as they come back, not in the folder the report is assembled in, which a
    stop removes.)"""
    real_play = analysis.play_elites
    handed_back = []  # per report that played: (decks already played, decks played by its end)

    def play(decks_, evaluator, played=(), on_piece=None, progress=None, stop_at_first_piece=False):
        def piece(targets):
            on_piece(targets)
            handed_back[-1] = (len(played), len(targets))
            if stop_at_first_piece:
                os.kill(os.getpid(), signal.SIGINT)
        handed_back.append((len(played), len(played)))
        return real_play(decks_, evaluator, played, piece, progress)

    out = tmp_path / "report"
    with monkeypatch.context() as patch:  # 1: Ctrl-C once a piece is kept, and again after the transfer
        patch.setattr(analysis, "play_elites", lambda *a, **k: play(*a, **k, stop_at_first_piece=True))
        _stop_after_the_transfer(patch)
        build_report([sweep / RUN], out, transfer="all", workers=1)  # the second stop does not cut it short
    assert handed_back == [(0, analysis.TRANSFER_PIECE)]
    assert "stopped by SIGINT" in (out / "surrogate_transfer.md").read_text()
    with monkeypatch.context() as patch:  # 2: the transfer finishes, Ctrl-C before the report is written
        patch.setattr(analysis, "play_elites", play)
        _stop_after_the_transfer(patch)
        with pytest.raises(Stopped):
            build_report([sweep / RUN], out, transfer="all", workers=1)
    elites = handed_back[-1][1]
    assert handed_back[-1][0] == analysis.TRANSFER_PIECE < elites
    assert "stopped by SIGINT" in (out / "surrogate_transfer.md").read_text()  # the first report's page stays
    assert not list(tmp_path.glob(".report.tmp-*"))  # nothing half-written is left beside it
    with monkeypatch.context() as patch:  # 3: nothing left to play
        patch.setattr(analysis, "play_elites", play)
        build_report([sweep / RUN], out, transfer="all", workers=1)
    assert len(handed_back) == 2, "the third report played games again"
    assert sum(end - start for start, end in handed_back) == elites  # every deck once
    row, left = _transfer_row(out)
    assert row["surrogate_elites"] == elites and left == {}
    assert "stopped" not in (out / "surrogate_transfer.md").read_text()
