"""The full engine tests against a real SabberStone build: they run only where one is
configured (SABBERSTONE_DIR=<folder holding SabberStoneCore.dll>) and skip otherwise; no
SabberStone build can be fetched or built on the test machines."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(
    not os.environ.get("SABBERSTONE_DIR"),
    reason="no SabberStone build configured: set SABBERSTONE_DIR=<folder holding SabberStoneCore.dll> "
           "to run the full SabberStone engine tests")


def test_check_loads_the_card_database_and_plays_copied_games():
    from workers.sabberstone.checks import check
    found = check()
    assert int(found["cards"]) > 1000 and found["errors"] == "0" and found["seeded"] == "1"


def test_protocol_games_on_sabberstone():
    code = ("import json; from workers.sabberstone import engine; "
            "r = engine.evaluate_deck(engine.builtin.miracle_rogue(), games=12, seed=1); "
            "print(json.dumps({'games': r.games, 'errors': r.errors, 'turns': r.measures[0]}))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["games"] + len(out["errors"]) == 12 and 3 < out["turns"] < 30


def test_smoke_run_on_sabberstone(tmp_path):
    done = subprocess.run([sys.executable, "-m", "pipeline", "engine=sabberstone", "experiment=smoke_random",
                           "algorithm.budget=30", "algorithm.initial=20", f"run_dir={tmp_path / 'run'}",
                           "progress=false"], cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "run" / "checkpoint.h5").is_file()


RUNS = sorted(p.stem for p in (ROOT / "workers" / "data" / "sabberstone" / "runs").glob("*.json"))


@pytest.mark.parametrize("run", RUNS)
def test_whole_record_files_replay_with_their_card_usage(run):
    """Every game of every shared record file, and its card usage, comes out the same."""
    records = ROOT / "workers" / "data" / "sabberstone" / "runs" / f"{run}.json"
    done = subprocess.run([sys.executable, "-m", "workers.sabberstone.replay", str(records),
                           "--workers", str(os.cpu_count() or 1)],
                          cwd=ROOT, capture_output=True, text=True, timeout=3600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert f"{run}.json: 200/200 games agree on every statistic; card usage agrees" in done.stdout


OVERRIDE_A_SPELL = r"""
import json
from workers.sabberstone import engine
from workers.sabberstone.runtime import load_bridge
load_bridge()
from SabberStoneCore.Model import Cards
from SabberStoneCore.Enums import GameTag
cold_blood = Cards.FromId("CS2_073")
tags = lambda: sorted((str(kv.Key), int(kv.Value)) for kv in cold_blood.Tags)
before = tags()
played = engine.play_seeded(engine.builtin.miracle_rogue(), [(g, g, 100 + g, 7 + g) for g in range(2)],
                            engine.default_opponents(), stat_overrides={"CS2_073": {"cost": 1, "atk": 2, "health": 3}})
print(json.dumps({"same": before == tags(), "errors": [g.error for g in played]}))
"""


def test_an_override_of_a_spells_attack_and_health_plays_and_is_undone():
    done = subprocess.run([sys.executable, "-c", OVERRIDE_A_SPELL], cwd=ROOT, capture_output=True, text=True,
                          timeout=1800)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"same": True, "errors": [None, None]}


# deck_space.stat_overrides as the pipeline hands it to the bridge: a minion's cost and attack and
# a weapon's attack (the ATK tag its Weapon entities read), all back to the card data after the batch.
OVERRIDE_A_LIST = r"""
import json
from pipeline.deck_space import DeckSpace
from workers.sabberstone import engine
from workers.sabberstone.protocol import build_request, parse_summary
from workers.sabberstone.runtime import load_bridge
bridge = load_bridge()
from SabberStoneCore.Model import Cards
from SabberStoneCore.Enums import GameTag
space = DeckSpace.from_config({"stat_overrides": [{"card": "Leeroy Jenkins", "cost": 3, "attack": 2},
                                                  {"card": "Fiery War Axe", "attack": 1}]})
leeroy, axe = Cards.FromId("EX1_116"), Cards.FromId("CS2_106")
request = build_request(engine.builtin.miracle_rogue(), [(g, g, 300 + g, 9 + g) for g in range(2)],
                        engine.default_opponents(), player="random", stat_overrides=space.stat_overrides)
header, games = parse_summary(str(bridge.PlayBatch(request)))
print(json.dumps({"overrides": header["overrides"], "errors": [g.error for g in games],
                  "after": [leeroy.Cost, leeroy.ATK, axe.Tags[GameTag.ATK]]}))
"""


def test_a_stat_override_list_is_applied_for_its_batch_and_undone():
    done = subprocess.run([sys.executable, "-c", OVERRIDE_A_LIST], cwd=ROOT, capture_output=True, text=True,
                          timeout=1800)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"overrides": "2", "errors": [None, None],
                                                                "after": [5, 6, 3]}


@pytest.mark.parametrize("run", ["miracle_rogue", "miracle_rogue__overrides"])
def test_replay_of_reference_records_agrees_game_by_game(run):
    """The reference records were played by the reference evaluator on SabberStone with the seeds
    they store: replayed with those seeds, every statistic of every game comes out the same."""
    records = ROOT / "workers" / "data" / "sabberstone" / "runs" / f"{run}.json"
    done = subprocess.run([sys.executable, "-m", "workers.sabberstone.replay", str(records), "--games", "12"],
                          cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert f"{run}.json: 12/12 games agree on every statistic" in done.stdout
