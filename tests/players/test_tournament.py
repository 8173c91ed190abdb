"""tools.tournament: a consistent, reproducible table for a few cheap players."""
import json
import math

import numpy as np
import pytest

from tools.tournament import bradley_terry, format_table, main, run_tournament, schedule, parse_decks


@pytest.fixture(scope="module")
def small():
    return run_tournament(["random", "beam_nn", "mcts:6"], games=4, decks=["opponents"], workers=1, seed=3)


def test_table_is_consistent(small):
    players = small["players"]
    assert not small["errors"] and len(small["games"]) == 3 * 4
    for p in players:
        total = 0
        for q in players:
            if q == p:
                continue
            a, b = small["win_rate"][p][q], small["win_rate"][q][p]
            assert a["games"] == b["games"] == 4
            assert math.isclose(a["rate"] + b["rate"], 1.0)
            total += a["games"]
        assert small["score"][p]["games"] == total == 8
        t = small["timing"][p]
        assert t["decisions"] > 0 and t["actions"] >= t["decisions"] and t["ms_per_decision"] > 0
    elo = [small["elo"][p]["elo"] for p in players]
    score = [small["score"][p]["rate"] for p in players]
    assert abs(sum(elo)) < 0.5  # mean 0 (each rounded to 0.1)
    assert np.argsort(elo).tolist() == np.argsort(score).tolist()  # ratings order as scores do
    assert small["score"]["beam_nn"]["rate"] > small["score"]["random"]["rate"]
    text = format_table(small)
    assert "beam_nn" in text and "Elo" in text and "±" in text


def test_same_records_for_any_number_of_workers(small):
    again = run_tournament(["random", "beam_nn", "mcts:6"], games=4, decks=["opponents"], workers=2,
                           seed=3, chunk=3)
    strip = lambda rs: [{k: v for k, v in r.items() if k != "seconds"} for r in rs]
    assert strip(again["games"]) == strip(small["games"])
    assert again["elo"] == small["elo"] and again["win_rate"] == small["win_rate"]


def test_both_seats_and_the_same_deals_for_every_pair():
    decks = parse_decks(["opponents"])
    tasks = schedule(["a", "b", "c"], decks, [(i, i) for i in range(6)], 4, 0)
    by_pair = {}
    for t in tasks:
        by_pair.setdefault(t["pair"], []).append(t)
    for ts in by_pair.values():
        first, second = ts[0]["seats"], ts[1]["seats"]  # one deal, played from both seats
        assert (first[0]["player"], first[1]["player"]) == (second[1]["player"], second[0]["player"])
        assert first[0]["deck"] == second[0]["deck"] and ts[0]["seed"] == ts[1]["seed"] != ts[2]["seed"]
    assert [t["seed"] for t in by_pair[0]] == [t["seed"] for t in by_pair[2]]  # same deals for every pair


def test_bradley_terry_recovers_known_strengths():
    t = np.array([0.0, 1.0, 2.0])
    games = np.full((3, 3), 4000.0) - np.diag([4000.0] * 3)
    p = 1 / (1 + np.exp(t[None, :] - t[:, None]))
    elo, se = bradley_terry(p * games, games)
    assert np.allclose(elo, 400 / np.log(10) * (t - t.mean()), atol=2.0)
    assert (se > 0).all() and (se < 10).all()
    # an unbeaten player stays finite (the prior)
    points = np.array([[0, 10, 10], [0, 0, 5], [0, 5, 0]], float)
    games = np.array([[0, 10, 10], [10, 0, 10], [10, 10, 0]], float)
    elo, _ = bradley_terry(points, games)
    assert np.isfinite(elo).all() and elo[0] > elo[1] + 200


def test_cli_writes_json_and_refuses_bad_input_in_one_line(tmp_path, capsys):
    out = tmp_path / "t.json"
    assert main(["--players", "random", "mcts:4", "--games", "2", "--workers", "1", "--quiet",
                 "--decks", "miracle", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["settings"]["decks"] == ["Miracle Rogue"] and len(data["games"]) == 2
    cell = data["win_rate"]["random"]["mcts:4"]
    assert 0 <= cell["lo"] <= cell["rate"] <= cell["hi"] <= 1 and cell["hi"] - cell["lo"] > 0.3  # 2 games: wide
    table = out.with_suffix(".md").read_text()
    assert "95% Wilson interval" in table and f"[{cell['lo']:.3f}, {cell['hi']:.3f}]" in table
    assert out.with_suffix(".png").read_bytes()[:4] == b"\x89PNG"
    assert "random" in capsys.readouterr().out
    for argv, message in ((["--players", "random", "value_beam:" + str(tmp_path / "none.pt")], "does not exist"),
                          (["--players", "random", "mcts:x"], "whole number"),
                          (["--players", "random", "beam_nn", "--games", "3"], "even"),
                          (["--players", "random", "random"], "two different players"),
                          (["--players", "random", "beam_nn", "--decks", "nodeck"], "not 'opponents'")):
        assert main(argv + ["--out", str(tmp_path / "x.json")]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and message in err[0], err
