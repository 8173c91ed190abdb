"""Recording states: games unchanged, one row per turn, deterministic resumable collection."""
import h5py
import numpy as np
import pytest

from workers.learning import state_log
from workers.engine.game import new_game
from workers.protocol.evaluate import (card_library, default_opponents, evaluate_deck, miracle_rogue,
                              play_games)
from workers.players.play import RandomPlayer, play_game
from tools.states import main
from workers.learning.state_log import COLUMNS, StateRecorder


@pytest.mark.parametrize("player", ["beam", "random"])
def test_recording_does_not_change_games(player):
    deck = miracle_rogue()
    plain = play_games(deck, range(6), 11, player=player)
    recorder = StateRecorder()
    recorded = play_games(deck, range(6), 11, player=player, recorder=recorder)
    assert recorded == plain
    assert recorder.games == 6 and len(recorder) > 6 * 4
    again = StateRecorder()
    assert evaluate_deck(deck, games=6, seed=11, player=player, recorder=again) == \
        evaluate_deck(deck, games=6, seed=11, player=player)
    assert np.array_equal(again.arrays()["x/rich"], recorder.arrays()["x/rich"])


class Counting:
    def __init__(self, inner):
        self.inner, self.turns = inner, 0

    def take_turn(self, g):
        self.turns += 1
        self.inner.take_turn(g)


def test_one_row_per_turn_played_with_outcome_and_turns_to_end():
    lib, opponents = card_library(), default_opponents()
    for seed in range(12):
        opp = opponents[seed % len(opponents)]
        g = new_game(lib, [miracle_rogue(), list(opp.cards)], ["ROGUE", opp.hero_class], seed)
        players = [Counting(RandomPlayer(seed + 100)), Counting(RandomPlayer(seed + 200))]
        recorder = StateRecorder(deck_id=3)
        recorder.start_game(seed, seed % 6)
        play_game(g, players, recorder)
        rows = recorder.arrays()
        turns = players[0].turns + players[1].turns
        assert len(rows["turn"]) == turns
        assert rows["turn"].tolist() == list(range(1, turns + 1))
        assert rows["player"].tolist() == [t % 2 for t in range(turns)]  # the deck goes first
        assert rows["turns_to_end"].tolist() == list(range(turns - 1, -1, -1))
        expected = [g.result(p) for p in rows["player"]]
        assert rows["outcome"].tolist() == expected
        assert set(rows["deck"]) == {3} and set(rows["game_index"]) == {seed}
        # each row is the state as its player left it: after END_TURN, or the game's end
        assert rows["x/protocol15"].shape == (turns, 15)


def test_rows_of_a_game_that_raised_are_dropped():
    recorder = StateRecorder()
    recorder.start_game(0)
    g = new_game(card_library(), [miracle_rogue()] * 2, ["ROGUE", "ROGUE"], 1)
    recorder.turn_ended(g, 0)  # the game then "raises": no end
    recorder.start_game(1)
    assert len(recorder) == 0 and recorder.games == 0


def _read(path):
    with h5py.File(path, "r") as f:
        return {k: f[k][:] for k in ["x/protocol15", "x/teo60", "x/rich"] + [f"rows/{c}" for c in COLUMNS]}


def test_collection_is_the_same_for_any_worker_count_and_after_a_resume(tmp_path, monkeypatch):
    args = ["collect", "--decks", "miracle", "pool:1", "--games", "4", "--games-per-task", "2",
            "--player", "random", "--seed", "5"]
    main(args + ["--out", str(tmp_path / "one.h5")])
    main(args + ["--out", str(tmp_path / "two.h5"), "--workers", "2"])
    one, two = _read(tmp_path / "one.h5"), _read(tmp_path / "two.h5")
    assert len(one["rows/turn"]) > 20
    assert set(one["rows/deck"]) == {0, 1} and set(one["rows/game_index"]) == {0, 1, 2, 3}
    for key in one:
        assert np.array_equal(one[key], two[key]), key
    # An interrupted collection continues where it stopped and ends with the same file.
    real, calls = state_log.run_task, []

    def flaky(task):
        if len(calls) == 2:
            raise KeyboardInterrupt
        calls.append(task)
        return real(task)

    monkeypatch.setattr(state_log, "run_task", flaky)
    out = tmp_path / "resumed.h5"
    with pytest.raises(KeyboardInterrupt):
        main(args + ["--out", str(out)])
    assert not out.exists() and len(list((tmp_path / "resumed.h5.parts").glob("task_*.npz"))) == 2
    monkeypatch.setattr(state_log, "run_task", real)
    main(args + ["--out", str(out)])
    resumed = _read(out)
    for key in one:
        assert np.array_equal(one[key], resumed[key]), key
    assert not (tmp_path / "resumed.h5.parts").exists()
    # Another collection into the same file is refused.
    with pytest.raises(SystemExit, match="another collection"):
        main(args[:-1] + ["6", "--out", str(out)])


def test_info_on_a_missing_or_foreign_file_is_one_error_line(tmp_path):
    import subprocess
    import sys
    from pathlib import Path
    (tmp_path / "junk.h5").write_text("not hdf5")
    for path in (tmp_path / "missing.h5", tmp_path / "junk.h5"):
        done = subprocess.run([sys.executable, "-m", "tools.states", "info", str(path)],
                              cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert [ln for ln in done.stderr.splitlines() if ln.strip()] == [
            ln for ln in done.stderr.splitlines() if ln.startswith(f"error: {path}: not a readable states file")]


def test_mirror_decks_play_each_opponent_deck_against_itself(tmp_path):
    decks = state_log.parse_decks(["mirror"], 0)
    opponents = default_opponents()
    assert [d["hero_class"] for d in decks] == [o.hero_class for o in opponents] and all(d["mirror"] for d in decks)
    manifest = {"decks": decks[2:3], "games": 2, "games_per_task": 2, "seed": 4, "encoders": ["protocol15"],
                "player": "random", "strategy": "nn", "beam_depth": 13, "beam_width": 4, "opponents": None}
    (task,) = state_log.make_tasks(manifest)
    part = state_log.run_task(task)
    assert int(part["failed"]) == 0 and set(part["player"]) == {0, 1}  # both seats recorded
    assert set(part["opponent"]) == {0}  # the one opponent: the deck itself
    # the outcome is the game's from each side: the two seats of one game never both win
    for game in set(part["game_index"]):
        rows = part["game_index"] == game
        assert {int(part["outcome"][rows & (part["player"] == p)][0]) for p in (0, 1)} in ({1, -1}, {0})


def test_collect_takes_any_player_spec_and_refuses_a_bad_one_in_one_line(tmp_path, capsys):
    assert main(["collect", "--decks", "miracle", "--games", "2", "--player", "mcts:x",
                 "--out", str(tmp_path / "s.h5")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "whole number" in err[0]
    assert main(["collect", "--decks", "miracle", "--games", "2", "--player", "mcts:3", "--encoders", "teo60",
                 "--out", str(tmp_path / "s.h5")]) == 0
    assert not (tmp_path / "s.h5.parts").exists() and (tmp_path / "s.h5").stat().st_size > 0
