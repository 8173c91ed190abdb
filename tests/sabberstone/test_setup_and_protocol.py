"""The SabberStone engine without any .NET: clear errors when the build is missing, the
pipeline failing fast, the bridge's text protocol, and the comparison command."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from workers.engine.rng import derive
from workers.protocol.evaluate import default_opponents, miracle_rogue
from workers.sabberstone import SabberStoneSetupError
from workers.sabberstone.locate import sabberstone_dir
from workers.sabberstone.protocol import HEADER, build_request, parse_summary, search_seed

ROOT = Path(__file__).resolve().parents[2]


def test_no_folder_configured_names_both_settings(monkeypatch):
    monkeypatch.delenv("SABBERSTONE_DIR", raising=False)
    with pytest.raises(SabberStoneSetupError) as err:
        sabberstone_dir(None)
    assert "engine.path" in str(err.value) and "SABBERSTONE_DIR" in str(err.value)


def test_missing_folder_and_missing_dll_are_named(tmp_path, monkeypatch):
    monkeypatch.setenv("SABBERSTONE_DIR", str(tmp_path / "nowhere"))
    with pytest.raises(SabberStoneSetupError, match="nowhere.*SABBERSTONE_DIR.*does not exist"):
        sabberstone_dir(None)
    with pytest.raises(SabberStoneSetupError, match=r"holds no SabberStoneCore\.dll and no SabberStoneBasicAI\.dll"):
        sabberstone_dir(tmp_path)  # engine.path wins over the environment
    (tmp_path / "SabberStoneCore.dll").write_bytes(b"MZ")
    with pytest.raises(SabberStoneSetupError, match=r"holds no SabberStoneBasicAI\.dll: .*core-extensions/SabberStoneBasicAI"):
        sabberstone_dir(tmp_path)  # the planner's assembly is needed too
    (tmp_path / "SabberStoneBasicAI.dll").write_bytes(b"MZ")
    assert sabberstone_dir(str(tmp_path)) == tmp_path.resolve()


@pytest.mark.parametrize("command, expected", [
    (["workers.sabberstone.checks", "/no/such/folder"], "/no/such/folder (from the command line) does not exist"),
    (["tools.compare_engines", "--sabberstone-dir", "/no/such/folder"], "(from --sabberstone-dir) does not exist"),
])
def test_a_folder_given_on_the_command_line_is_named_as_such(command, expected):
    done = subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and expected in done.stdout + done.stderr, done.stdout + done.stderr


@pytest.mark.parametrize("extra, env, expected", [
    ([], None, "needs a SabberStone build"),
    (["engine.path=/no/such/folder"], None, "/no/such/folder (from engine.path) does not exist"),
    ([], "EMPTY", "holds no SabberStoneCore.dll"),
])
def test_pipeline_without_sabberstone_fails_fast_writing_nothing(tmp_path, extra, env, expected):
    import os
    run_dir = tmp_path / "run"
    environ = {k: v for k, v in os.environ.items() if k != "SABBERSTONE_DIR"}
    if env == "EMPTY":
        (tmp_path / "empty").mkdir()
        environ["SABBERSTONE_DIR"] = str(tmp_path / "empty")
    done = subprocess.run([sys.executable, "-m", "pipeline", "engine=sabberstone", "experiment=smoke",
                           f"run_dir={run_dir}", *extra], cwd=ROOT, env=environ,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    errors = [ln for ln in done.stderr.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1 and expected in errors[0], done.stderr
    assert "Traceback" not in done.stderr
    assert not run_dir.exists()


def test_engine_path_is_no_part_of_a_run_identity():
    from omegaconf import OmegaConf
    from pipeline.state.config import RootCfg, identity
    cfg = OmegaConf.structured(RootCfg)
    assert identity(cfg)["engine"] == {"name": "builtin"}  # the built-in runs' hashes are unchanged
    cfg.engine.name, cfg.engine.path = "sabberstone", "/opt/sabberstone"
    assert identity(cfg)["engine"] == {"name": "sabberstone"}


def test_request_carries_the_protocol():
    opponents = default_opponents()
    games = [(g, g % 6, derive(5, g), search_seed(derive(5, g))) for g in range(8)]
    text = build_request(miracle_rogue(), games, opponents, stat_overrides={"CS2_073": {"cost": 1}})
    lines = text.splitlines()
    assert "player\tbeam" in lines and "evaluated\tnn" in lines and "depth\t13" in lines
    nn = next(ln for ln in lines if ln.startswith("nn\t")).split("\t")[1].split(",")
    assert len(nn) == 109
    assert [ln.split("\t")[2] for ln in lines if ln.startswith("opponent")] == [o.hero_class for o in opponents]
    assert "override\tCS2_073\t1\t-1\t-1" in lines
    assert [ln for ln in lines if ln.startswith("game")][7] == f"game\t7\t1\t{derive(5, 7)}\t{search_seed(derive(5, 7))}"
    assert "history\t1" in lines and "history\t0" in build_request(miracle_rogue(), games, opponents, history=False)
    assert 0 <= search_seed(derive(5, 7)) < 2 ** 31 and search_seed(1) != search_seed(2)
    assert "nn\t" not in build_request(miracle_rogue(), games, opponents, player="random")
    assert "evaluated\tcontrol" in build_request(miracle_rogue(), games, opponents, strategy="control")
    with pytest.raises(ValueError, match="unknown strategy"):
        build_request(miracle_rogue(), games, opponents, strategy="nope")


def test_summary_parses_into_game_records_with_errors_kept():
    # G index opponent game_seed search_seed, then the 16 statistics, then the deck's card plays
    # and the other cards' plays; E: a game that threw, S: one the bridge's guard stopped
    text = (f"{HEADER} seeded=1 overrides=0\n"
            "G\t0\t0\t-5\t77\t1\t0\t12\t-2\t9\t17\t31\t40\t11\t17\t40\t5\t123456\t9\t10\t8\tCS2_072:2,EX1_134:1\t"
            "GAME_005:1\n"
            "E\t1\t1\t456\t78\tNullReferenceException: Object reference not set\n"
            "G\t2\t2\t9\t79\t0\t0\t1\t5\t9\t17\t31\t40\t11\t17\t40\t5\t-9876543210123\t9\t10\t8\t-\t-\n"
            "S\t3\t3\t457\t80\tgame still running after 200 turns\n")
    header, (won, failed, long_score, stopped) = parse_summary(text)
    assert long_score.option_score == -9876543210123 and long_score.card_plays == long_score.other_plays == ()
    assert stopped.error == ("stopped by the bridge's guard (no such limit in the reference): "
                             "game still running after 200 turns")
    assert header == {"seeded": "1", "overrides": "0"}
    assert (won.game, won.game_seed, won.search_seed, won.won, won.p1_hp, won.p2_hp) == (0, 2 ** 64 - 5, 77, 1, 12, -2)
    assert (won.health_diff, won.num_turns, won.game_turn, won.hand_size, won.hand_size_start) == (14, 9, 17, 31, 40)
    assert (won.cards_drawn, won.damage_done, won.mana_spent, won.mana_wasted) == (11, 17, 40, 5)
    assert (won.option_score, won.p1_turns_counted, won.searches_p1, won.searches_p2) == (123456, 9, 10, 8)
    record = won.record()
    assert (record.seed, record.won, record.turns, record.hand_size_sum, record.minion_damage) == (2 ** 64 - 5, True, 9, 31, 17)
    assert (record.mana_spent, record.mana_available, record.hand_size_start_sum) == (40, 45, 40)
    assert record.card_plays == (("CS2_072", 2), ("EX1_134", 1)) and won.other_plays == (("GAME_005", 1),)
    assert failed.error.startswith("SabberStone: NullReferenceException") and failed.game_seed == 456
    from workers.protocol.results import summarize
    result = summarize([record, failed.record()], {}, ["a", "b"])
    assert result.games == 1 and result.errors == [(1, 456, failed.error)]
    with pytest.raises(ValueError, match="not a bridge summary"):
        parse_summary("Unhandled exception: System.Exception")
    with pytest.raises(ValueError, match="malformed"):
        parse_summary(f"{HEADER}\nG\t0\t1\n")
    with pytest.raises(ValueError, match="malformed"):
        parse_summary(f"{HEADER}\n" + "\t".join(["G"] + ["x"] * 22) + "\n")


def test_compare_engines_side_by_side(tmp_path):
    out = tmp_path / "cmp.json"
    done = subprocess.run([sys.executable, "-m", "tools.compare_engines", "--engines", "builtin", "builtin",
                           "--games", "12", "--player", "random", "--seed", "3", "--json", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    import json
    result = json.loads(out.read_text())
    a, b = result["builtin"]["rows"], result["builtin#2"]["rows"]
    assert a == b and a["all"]["games"] == 12 and a["Aggro Hunter"]["games"] == 2
    assert "difference" in done.stdout and "Control Warlock" in done.stdout
    diff_rows = [ln for ln in done.stdout.splitlines() if "win_rate" in ln]
    assert all(ln.split()[-3] == "0.000" for ln in diff_rows)  # same seeds, same engine: no difference


def test_compare_engines_without_sabberstone_is_one_error_line(monkeypatch):
    import os
    env = {k: v for k, v in os.environ.items() if k != "SABBERSTONE_DIR"}
    done = subprocess.run([sys.executable, "-m", "tools.compare_engines", "--games", "6"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert [ln for ln in done.stderr.splitlines() if ln.strip() and "pkg_resources" not in ln and "import" not in ln][-1].startswith("error: ")
    assert "SABBERSTONE_DIR" in done.stderr and "Traceback" not in done.stderr
