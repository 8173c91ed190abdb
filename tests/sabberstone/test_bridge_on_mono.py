"""The C# bridge compiled with Mono's mcs against the STAND-IN SabberStoneCore.dll and run
through pythonnet on Mono: it compiles, is cached by content hash, plays batches whose summary
parses into GameRecords (deterministic, split-invariant), passes the startup check, and runs
inside Dask workers through the pipeline. The stand-in is a toy game with SabberStone's API:
these tests check the plumbing, not Hearthstone rules."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from workers.sabberstone import SabberStoneSetupError
from workers.sabberstone.compiler import BRIDGE_SOURCE, compile_bridge, find_compiler

ROOT = Path(__file__).resolve().parents[2]

# Runs in a child process: a Mono runtime cannot be unloaded, and a crash must not take pytest down.
PLAY = r"""
import json, sys
from workers.sabberstone import engine
from workers.protocol.results import summarize
deck = engine.builtin.miracle_rogue()
path, player = sys.argv[1], sys.argv[2]
whole = engine.play_games(deck, range(12), 11, path=path, player=player, beam_depth=3, beam_width=2)
again = engine.play_games(deck, range(12), 11, path=path, player=player, beam_depth=3, beam_width=2)
split = (engine.play_games(deck, range(0, 5), 11, path=path, player=player, beam_depth=3, beam_width=2)
         + engine.play_games(deck, range(5, 12), 11, path=path, player=player, beam_depth=3, beam_width=2))
result = summarize(whole, engine.deck_stats(deck), [o.name for o in engine.default_opponents()])
print(json.dumps({"records": [r.to_dict() for r in whole], "same": whole == again, "split": whole == split,
                  "objective": result.objective, "games": result.games}))
"""


def _child_env(cache):
    env = {k: v for k, v in os.environ.items() if k not in ("SABBERSTONE_DIR", "SABBERSTONE_RUNTIME")}
    env["DSAME_CACHE_DIR"] = str(cache)
    return env


def test_bridge_compiles_once_and_is_cached_by_content(stand_in_dir, cache_env, tmp_path):
    compiler = find_compiler("mono")
    assert compiler.kind == "mono"
    dll = compile_bridge(stand_in_dir, compiler)
    assert dll.is_file() and dll.parent == cache_env / "sabberstone"
    assert (cache_env / "sabberstone").stat().st_mode & 0o777 == 0o700  # no other user can plant a DLL
    stamp = dll.stat().st_mtime_ns
    assert compile_bridge(stand_in_dir, compiler) == dll
    assert dll.stat().st_mtime_ns == stamp  # reused, not rebuilt
    changed = tmp_path / "Bridge.cs"
    changed.write_text(BRIDGE_SOURCE.read_text() + "\n// another version\n")
    other = compile_bridge(stand_in_dir, compiler, source=changed)
    assert other != dll and other.is_file()


def test_a_planted_bridge_is_compiled_over_not_loaded(stand_in_dir, cache_env):
    compiler = find_compiler("mono")
    dll = compile_bridge(stand_in_dir, compiler)
    genuine = dll.read_bytes()
    dll.write_bytes(genuine[:-16] + b"planted payload!")  # same name, other content
    assert compile_bridge(stand_in_dir, compiler) == dll
    assert dll.read_bytes() != genuine[:-16] + b"planted payload!"  # rebuilt: its digest matched no record
    dll.with_suffix(".sha256").unlink()  # a DLL without its record is not trusted either
    stamp = dll.stat().st_mtime_ns
    compile_bridge(stand_in_dir, compiler)
    assert dll.stat().st_mtime_ns != stamp and dll.with_suffix(".sha256").is_file()


def test_a_cache_folder_of_another_user_is_refused(stand_in_dir, tmp_path):
    import os
    if os.geteuid() != 0:
        pytest.skip("needs root to give a folder to another user") if not os.environ.get("CI") else pytest.fail("CI runs as root")
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    os.chown(foreign, 65534, 65534)  # nobody
    with pytest.raises(SabberStoneSetupError, match="belongs to user id 65534, not to you"):
        compile_bridge(stand_in_dir, find_compiler("mono"), cache=foreign)
    loose = tmp_path / "loose"
    loose.mkdir(mode=0o777)
    loose.chmod(0o777)
    compile_bridge(stand_in_dir, find_compiler("mono"), cache=loose)
    assert loose.stat().st_mode & 0o777 == 0o700  # ours, closed before use


def test_bridge_against_another_api_is_one_clear_error(mono, cache_env, tmp_path):
    wrong = tmp_path / "wrong"
    wrong.mkdir()
    (tmp_path / "Empty.cs").write_text("namespace SabberStoneCore { public class Nothing {} }\n")
    for name in ("SabberStoneCore.dll", "SabberStoneBasicAI.dll"):
        subprocess.run([mono, "-target:library", f"-out:{wrong / name}", str(tmp_path / "Empty.cs")],
                       check=True, capture_output=True)
    with pytest.raises(SabberStoneSetupError, match="does not compile against .*SabberStoneCore.dll and SabberStoneBasicAI.dll"):
        compile_bridge(wrong, find_compiler("mono"))


@pytest.mark.parametrize("player", ["random", "beam"])
def test_batches_run_in_dotnet_and_parse_into_game_records(stand_in_dir, cache_env, player):
    done = subprocess.run([sys.executable, "-c", PLAY, str(stand_in_dir), player], cwd=ROOT,
                          env=_child_env(cache_env), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    records = out["records"]
    from workers.engine.rng import derive
    assert [r["game_index"] for r in records] == list(range(12))
    assert [r["opponent_index"] for r in records] == [g % 6 for g in range(12)]
    assert [r["seed"] for r in records] == [derive(11, g) for g in range(12)]
    assert all(r["hand_size_start_sum"] > 0 and r["card_plays"] for r in records)
    assert all(r["error"] is None and r["turns"] > 0 for r in records)
    assert all(r["won"] == (r["enemy_health"] <= 0 < r["own_health"]) for r in records)
    assert all(r["mana_spent"] <= r["mana_available"] for r in records)
    assert out["same"] and out["split"]  # seeded: the same games again, whatever the chunking
    assert out["games"] == 12


def test_startup_check_passes_on_a_loadable_build(stand_in_dir, cache_env):
    from workers.sabberstone.checks import check
    found = check(str(stand_in_dir), games=2)
    assert found["runtime"] == "mono" and found["cards"] == "1500"
    assert found["errors"] == "0" and found["seeded"] == "1"


def test_startup_check_names_the_mono_copy_bug_when_copying_games_kills_the_runtime(
        stand_in_dir, cache_env, monkeypatch):
    from workers.sabberstone.checks import check
    monkeypatch.setenv("STANDIN_ABORT_ON_CLONE", "1")  # the stand-in aborts the runtime in Clone()
    with pytest.raises(SabberStoneSetupError) as err:
        check(str(stand_in_dir), games=1)
    message = str(err.value)
    assert "\n" not in message and "crashed while playing and copying games" in message
    assert "EntityData" in message and "runtime mono" in message


def test_startup_check_reports_a_runtime_that_dies_while_loading(stand_in_dir, cache_env, monkeypatch):
    from workers.sabberstone.checks import check
    monkeypatch.setenv("STANDIN_ABORT_ON_LOAD", "1")
    with pytest.raises(SabberStoneSetupError) as err:
        check(str(stand_in_dir), games=1)
    message = str(err.value)
    assert message.startswith("the mono runtime crashed while loading SabberStone")
    assert "simulated runtime crash while loading" in message and "\n" not in message


def test_startup_check_on_a_file_that_is_no_assembly_is_one_message(stand_in_dir, cache_env, tmp_path):
    from workers.sabberstone.checks import check
    broken = tmp_path / "broken"
    broken.mkdir()
    # Files with the right names that are no assemblies: compiling the bridge against them fails.
    (broken / "SabberStoneCore.dll").write_bytes(b"MZ not really a .NET assembly")
    (broken / "SabberStoneBasicAI.dll").write_bytes(b"MZ not really a .NET assembly")
    with pytest.raises(SabberStoneSetupError) as err:
        check(str(broken))
    assert "\n" not in str(err.value) and "SabberStoneCore.dll" in str(err.value)


def test_pipeline_plays_a_deck_file_on_dask_workers(stand_in_dir, cache_env):
    env = _child_env(cache_env)
    env["SABBERSTONE_DIR"] = str(stand_in_dir)
    done = subprocess.run([sys.executable, "-m", "pipeline", "engine=sabberstone", "strategy=random",
                           "deck_file=workers/data/miracle_rogue.json", "opponents.games=12",
                           "cluster.games_per_task=6", "cluster.n_workers=2", "progress=false"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout[done.stdout.index("{"):])
    assert out["games"] == 12 and set(out["targets"]) >= {"health_difference", "turns", "hand_size"}
