"""The tournament's intervals: the Wilson interval of a win rate and the Bradley-Terry ratings'
intervals, on small known cases and by their coverage in simulated tournaments."""
import math

import numpy as np
import pytest

from tools.tournament import ELO, bradley_terry, summarize
from workers.learning.intervals import Z95, wilson_interval


def test_wilson_interval_known_values_and_edges():
    lo, hi = wilson_interval(7, 10)  # the textbook case: 0.3968 .. 0.8922
    assert lo == pytest.approx(0.3968, abs=1e-4) and hi == pytest.approx(0.8922, abs=1e-4)
    assert wilson_interval(0, 20)[0] == 0.0 < wilson_interval(0, 20)[1] < 0.2  # not the empty 0 +- 0
    assert 0.8 < wilson_interval(20, 20)[0] < wilson_interval(20, 20)[1] == 1.0
    widths = [np.subtract(*wilson_interval(0.55 * n, n)[::-1]) for n in (100, 1000, 10000)]
    assert widths[0] > widths[1] > widths[2] and widths[1] == pytest.approx(2 * Z95 * math.sqrt(0.55 * 0.45 / 1000), rel=0.01)
    with pytest.raises(ValueError):
        wilson_interval(0, 0)


@pytest.mark.parametrize("p, n", [(0.5, 40), (0.15, 60), (0.55, 1000)])
def test_wilson_interval_covers_the_true_rate_95_percent_of_the_time(p, n):
    wins = np.random.default_rng(int(p * 1000) + n).binomial(n, p, size=4000)
    covered = np.mean([lo <= p <= hi for lo, hi in (wilson_interval(w, n) for w in wins)])
    assert 0.92 <= covered <= 0.98, covered


def _records(pairs):
    """Game records as tools.tournament writes them: (seat-0 player, seat-1 player, winner)."""
    return [{"seats": [a, b], "winner": w, "seconds": [0.01, 0.01], "decisions": [1, 1], "actions": [2, 2]}
            for a, b, w in pairs]


def test_summary_intervals_on_a_known_two_player_case():
    # 600 of 1000 points for "a": the cell's Wilson interval, and Bradley-Terry's rating
    # difference log(600/400) on the Elo scale with SE 1/sqrt(n p (1-p)) (the prior is weak).
    games = [("a", "b", 0)] * 300 + [("b", "a", 1)] * 300 + [("a", "b", 1)] * 200 + [("b", "a", 0)] * 200
    s = summarize(["a", "b"], _records(games))
    cell = s["win_rate"]["a"]["b"]
    assert cell["games"] == 1000 and cell["rate"] == 0.6
    assert (cell["lo"], cell["hi"]) == pytest.approx(wilson_interval(600, 1000), abs=1e-4)
    assert s["win_rate"]["b"]["a"]["lo"] == pytest.approx(1 - cell["hi"], abs=1e-4)
    # seated second, "a" won 300 of its 500 games and "b" 200 of its 500
    assert (s["as_second"]["a"]["b"]["rate"], s["as_second"]["a"]["b"]["games"]) == (0.6, 500)
    assert (s["as_second"]["b"]["a"]["rate"], s["as_second"]["b"]["a"]["games"]) == (0.4, 500)
    diff = s["elo"]["a"]["elo"] - s["elo"]["b"]["elo"]
    assert diff == pytest.approx(ELO * math.log(1.5), abs=1.0)
    se_diff = ELO / math.sqrt(1000 * 0.6 * 0.4)
    assert s["elo"]["a"]["se"] == pytest.approx(se_diff / 2, abs=0.2)  # each rating against the mean
    for p in "ab":
        e = s["elo"][p]
        assert e["lo"] == pytest.approx(e["elo"] - Z95 * e["se"], abs=0.2)
        assert e["hi"] == pytest.approx(e["elo"] + Z95 * e["se"], abs=0.2)
    assert s["elo"]["a"]["lo"] > 0 > s["elo"]["b"]["hi"]  # 0.6 over 1000 games: apart


def test_bradley_terry_intervals_cover_the_true_ratings():
    rng = np.random.default_rng(5)
    t = np.array([-0.6, 0.0, 0.2, 0.4])
    truth = ELO * (t - t.mean())
    p = 1 / (1 + np.exp(t[None, :] - t[:, None]))
    n = 200
    games = np.full((4, 4), float(n)) - np.diag([float(n)] * 4)
    hits, trials = 0, 300
    for _ in range(trials):
        upper = np.triu(rng.binomial(n, p), 1).astype(float)
        points = upper + np.tril(n - upper.T, -1)  # i's wins over j above, j's over i below
        elo, se = bradley_terry(points, games)
        hits += int(np.sum(np.abs(elo - truth) <= Z95 * se))
    coverage = hits / (trials * 4)
    assert 0.92 <= coverage <= 0.98, coverage
