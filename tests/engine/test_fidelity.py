"""The fidelity command: statistics by hand, the reference data, a short run, bad input."""
import json
import math

import pytest

from tools import fidelity


def test_ratio_se_by_hand():
    # R = 6/4 = 1.5; residuals 2 - 1.5 = 0.5 and 4 - 4.5 = -0.5; sqrt(0.5 / (2*1)) / mean(t)=2.
    r, se = fidelity.ratio_se([2, 4], [1, 3])
    assert r == pytest.approx(1.5) and se == pytest.approx(0.25)
    assert fidelity.ratio_se([3, 6, 9], [1, 2, 3]) == (3.0, 0.0)  # exact proportionality
    assert math.isnan(fidelity.ratio_se([5], [2])[1])


def test_z_score_by_hand():
    assert fidelity.z_score((1.0, 0.3), (0.5, 0.4)) == pytest.approx(1.0)  # 0.5 / sqrt(0.09 + 0.16)
    assert fidelity.z_score((2.0, 0.0), (2.0, 0.0)) == 0.0
    assert fidelity.z_score((3.0, 0.0), (2.0, 0.0)) == math.inf
    assert math.isnan(fidelity.z_score((1.0, math.nan), (1.0, 0.1)))


def test_statistics_mix_game_means_and_turn_ratios():
    rows = [{"opponent": 0, "win_rate": 1.0, "health_difference": 10.0, "turns": 1.0, "hand_size": 2.0,
             "hand_size_start": 3.0, "cards_drawn_per_turn": 1.0, "damage_per_turn": 0.0,
             "mana_spent_per_turn": 1.0, "mana_wasted_per_turn": 0.0},
            {"opponent": 0, "win_rate": 0.0, "health_difference": -10.0, "turns": 3.0, "hand_size": 4.0,
             "hand_size_start": 9.0, "cards_drawn_per_turn": 3.0, "damage_per_turn": 0.0,
             "mana_spent_per_turn": 3.0, "mana_wasted_per_turn": 0.0}]
    s = fidelity.statistics(rows)
    assert s["win_rate"] == pytest.approx((0.5, 0.5))  # sd sqrt(0.5), / sqrt(2)
    assert s["health_difference"] == pytest.approx((0.0, 10.0))
    assert s["hand_size"] == pytest.approx((1.5, 0.25))  # the ratio case above
    assert s["hand_size_start"] == pytest.approx((3.0, 0.0))


def test_reference_runs_match_their_own_summaries():
    names = fidelity.available_runs()
    assert len(names) == 8 and "miracle_rogue" in names and "miracle_rogue__overrides" in names
    for name in names:
        run = fidelity.load_run(name)
        games = run["games"]
        assert len(games) == 200 and len(run["deck"]) == 30
        turns = sum(g["num_turns"] for g in games)
        assert sum(g["hand_size"] for g in games) / turns == pytest.approx(run["overall"]["HandSize"])
        assert sum(g["won"] for g in games) / len(games) == pytest.approx(run["overall"]["WinRate"])


def test_chunked_processes_play_the_same_games():
    runs = {"miracle_rogue": fidelity.load_run("miracle_rogue")}
    serial = fidelity.play_runs(runs, 6, 3, 1, None)["miracle_rogue"]
    parallel = fidelity.play_runs(runs, 6, 3, 2, None)["miracle_rogue"]
    assert serial == parallel


def test_short_run_prints_the_summary(capsys, tmp_path):
    out = tmp_path / "fidelity.json"
    assert fidelity.main(["--runs", "miracle_rogue", "--games", "12", "--workers", "2",
                          "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "== miracle_rogue (no stat overrides)" in text
    assert "card usage" in text
    line = next(l for l in text.splitlines() if l.startswith("fidelity_within_2se: "))
    within, checked = map(int, line.split(": ")[1].split("/"))
    assert checked == 24 and 0 <= within <= 24  # 4 statistics x 6 opponents
    for name, _ in fidelity.STATISTICS:
        assert any(l.startswith(f"mean_z {name}: ") for l in text.splitlines())
    assert "miracle_rogue hand_size: builtin " in text
    data = json.loads(out.read_text())
    assert data["summary"]["checked"] == 24
    assert data["runs"]["miracle_rogue"]["statistics"]["all"]["games"] == [12, 200]


def test_unknown_run_is_refused(capsys):
    assert fidelity.main(["--runs", "miracle_rogue", "no_such_deck"]) == 2
    err = capsys.readouterr().err
    assert "no_such_deck" in err and "random_0__overrides" in err
