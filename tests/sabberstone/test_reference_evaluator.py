"""The bridge as the reference evaluator, on the STAND-IN assemblies (a toy game and a toy
planner with SabberStone's API, tests/sabberstone/*StandIn.cs): games are functions of their two
seeds (GameConfig.RandomSeed and Util.ThreadLocalRandom), across processes; the planner is seeded
as the reference records mean `search_seed`, and the old one-step-off seeding is told apart;
card usage counts the deck's own cards; stat overrides (a spell's attack too) do not outlive
their batch; and the replay command agrees with records it made itself and reports a record it
is given that differs. These check the bridge's plumbing, not Hearthstone rules."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Runs in a child process: a Mono runtime cannot be unloaded from pytest's process.
PLAY = r"""
import json, sys
from workers.sabberstone import engine
deck, opponents = engine.builtin.miracle_rogue(), engine.default_opponents()
path, search = sys.argv[1], int(sys.argv[2])
games = [(g, g % 6, 1000 + g, search + g) for g in range(12)]
played = engine.play_seeded(deck, games, opponents, path=path, beam_depth=3, beam_width=3)
overridden = engine.play_seeded(deck, games, opponents, path=path, beam_depth=3, beam_width=3,
                                stat_overrides={c: {"cost": 1, "atk": 9} for c in set(deck)})
after = engine.play_seeded(deck, games, opponents, path=path, beam_depth=3, beam_width=3)
print(json.dumps({"games": [g.__dict__ for g in played], "overridden": [g.__dict__ for g in overridden],
                  "after": [g.__dict__ for g in after]}))
"""


def _env(cache):
    env = {k: v for k, v in os.environ.items() if k not in ("SABBERSTONE_DIR", "SABBERSTONE_RUNTIME")}
    env["DSAME_CACHE_DIR"] = str(cache)
    return env


def _play(stand_in_dir, cache, search: int) -> dict:
    done = subprocess.run([sys.executable, "-c", PLAY, str(stand_in_dir), str(search)], cwd=ROOT, env=_env(cache),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_games_are_functions_of_their_two_seeds(stand_in_dir, cache_env):
    first, second = _play(stand_in_dir, cache_env, 50), _play(stand_in_dir, cache_env, 50)
    assert all(g["error"] is None for g in first["games"])
    # Two processes, each with its own time-seeded static random: the same games.
    assert first["games"] == second["games"]
    # The planner's clones draw from Util.ThreadLocalRandom: another search seed, other plans.
    other = _play(stand_in_dir, cache_env, 90)
    assert [g["game_seed"] for g in other["games"]] == [g["game_seed"] for g in first["games"]]
    assert other["games"] != first["games"]
    # Overrides change the games while their batch runs, and nothing after it.
    assert first["overridden"] != first["games"] and first["after"] == first["games"]
    # Card plays are the deck's own cards; the card each player is given on its second turn
    # (as The Coin or Bananas are) is counted apart.
    deck = set(__import__("workers.protocol.evaluate", fromlist=["x"]).miracle_rogue())
    assert all(card in deck for g in first["games"] for card, _ in g["card_plays"])
    assert any(g["other_plays"] == [["STANDIN_GIFT", 1]] for g in first["games"])


# Runs in a child process: compiles Bridge.cs with its planner seeding replaced (argv[2]: "as is",
# "records": the reference harness's way, which seeds SabberStone's shared generator and gives the
# thread a fresh slot, by reflection on the private fields of Util.ThreadLocalRandom; "old": the
# bridge's seeding before it was fixed, SetSeed(search_seed)), and plays the same games with it.
SEEDED_AS = r"""
import json, sys
from pathlib import Path
from workers.sabberstone import protocol
from workers.sabberstone.compiler import BRIDGE_SOURCE, compile_bridge, find_compiler
from workers.sabberstone.runtime import _load_pythonnet
from workers.protocol.evaluate import default_opponents, miracle_rogue
folder, how, scratch = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
fixed = "Util.ThreadLocalRandom.SetSeed(new Random(searchSeed).Next());"
seeding = {"as is": fixed,
           "old": "Util.ThreadLocalRandom.SetSeed(searchSeed);",
           "records": 'var tlr = typeof(Util.ThreadLocalRandom); '
                      'tlr.GetField("globalRandom", BindingFlags.NonPublic | BindingFlags.Static).SetValue(null, new Random(searchSeed)); '
                      'tlr.GetField("threadRandom", BindingFlags.NonPublic | BindingFlags.Static).SetValue(null, '
                      'new System.Threading.ThreadLocal<Random>(Util.ThreadLocalRandom.NewRandom));'}[how]
text = BRIDGE_SOURCE.read_text()
assert text.count(fixed) == 1
source = scratch / "Bridge.cs"
source.write_text(text.replace(fixed, seeding))
_load_pythonnet("mono")
import clr
for name in ("SabberStoneCore.dll", "SabberStoneBasicAI.dll"):
    clr.AddReference(str(folder / name))
clr.AddReference(str(compile_bridge(folder, find_compiler("mono"), source=source)))
from DsameBridge import Bridge
games = [(g, g % 6, 7000 + 13 * g, 400 + 31 * g) for g in range(24)]
request = protocol.build_request(miracle_rogue(), games, default_opponents(), beam_depth=3, beam_width=3)
print(json.dumps([g.__dict__ for g in protocol.parse_summary(str(Bridge.PlayBatch(request)))[1]]))
"""


def _seeded_as(stand_in_dir, cache, tmp_path, how: str) -> list[dict]:
    scratch = tmp_path / how.replace(" ", "_")
    scratch.mkdir()
    done = subprocess.run([sys.executable, "-c", SEEDED_AS, str(stand_in_dir), how, str(scratch)], cwd=ROOT,
                          env=_env(cache), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_planner_is_seeded_as_the_records_mean_search_seed(stand_in_dir, cache_env, tmp_path):
    """The records' search_seed seeds SabberStone's shared generator, and the thread's generator
    is made from it on first use: the bridge must give exactly those games, and the old seeding
    (the thread's generator seeded with search_seed itself) other plans."""
    records = _seeded_as(stand_in_dir, cache_env, tmp_path, "records")
    assert all(g["error"] is None for g in records)
    assert _seeded_as(stand_in_dir, cache_env, tmp_path, "as is") == records
    old = _seeded_as(stand_in_dir, cache_env, tmp_path, "old")
    assert [g["game_seed"] for g in old] == [g["game_seed"] for g in records]
    assert sum(a != b for a, b in zip(old, records)) >= 3


OVERRIDES = r"""
import json, sys
from workers.sabberstone import engine
from workers.sabberstone.runtime import load_bridge
load_bridge(sys.argv[1])
from SabberStoneCore.Model import Cards
from SabberStoneCore.Enums import GameTag
spell, minion = Cards.FromId("SPELL_7"), Cards.FromId("CS2_072")
before = [spell.Tags.ContainsKey(GameTag.ATK), spell.Tags.ContainsKey(GameTag.HEALTH), minion.ATK, minion.Health]
games = [(g, g % 6, 900 + g, 40 + g) for g in range(3)]
played = engine.play_seeded(engine.builtin.miracle_rogue(), games, engine.default_opponents(), path=sys.argv[1],
                            beam_depth=2, beam_width=2,
                            stat_overrides={"SPELL_7": {"cost": 1, "atk": 3, "health": 2}, "CS2_072": {"atk": 9}})
after = [spell.Tags.ContainsKey(GameTag.ATK), spell.Tags.ContainsKey(GameTag.HEALTH), minion.ATK, minion.Health]
print(json.dumps({"before": before, "after": after, "errors": [g.error for g in played]}))
"""


def test_overrides_of_a_spells_attack_and_health_play_and_are_undone(stand_in_dir, cache_env):
    """A spell has no attack or health tag: overriding them writes the tags (as the reference
    does) instead of failing, and the batch's end removes them again."""
    done = subprocess.run([sys.executable, "-c", OVERRIDES, str(stand_in_dir)], cwd=ROOT, env=_env(cache_env),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["errors"] == [None, None, None]
    assert out["before"] == out["after"] and out["before"][:2] == [False, False]


def _records_file(tmp_path, games: list[dict]) -> Path:
    """A record file in the reference format (shared/reference/sabberstone/runs), made from games
    the stand-in played (so a replay on the stand-in should agree with every one)."""
    from workers.protocol.evaluate import default_opponents, miracle_rogue
    records, usage = [], {}
    for g in games:
        record = {k: v for k, v in g.items() if k not in ("card_plays", "other_plays", "error")}
        record["health_diff"] = g["p1_hp"] - g["p2_hp"]
        records.append(record)
        for card, n in g["card_plays"]:
            usage[card] = usage.get(card, 0) + n
    run = {"deck": miracle_rogue(), "depth": 13, "width": 4, "nerfs": "none", "nerfs_applied": "none",
           "game_logging_history": True, "games": records, "card_usage": usage,
           "opponents": [{"name": o.name, "class": o.hero_class, "strategy": o.strategy.capitalize()}
                         for o in default_opponents()]}
    path = tmp_path / "stand_in_run.json"
    path.write_text(json.dumps(run))
    return path


# deck_space.stat_overrides as the pipeline hands it over: every entry applied for the batch (the
# header's count), the games changed, every card as before afterwards.
CONFIG_LIST = r"""
import json, sys
from pipeline.deck_space import DeckSpace
from workers.sabberstone import engine
from workers.sabberstone.protocol import build_request, parse_summary
from workers.sabberstone.runtime import load_bridge
bridge = load_bridge(sys.argv[1])
from SabberStoneCore.Model import Cards
space = DeckSpace.from_config({"stat_overrides": [{"card": "Leeroy Jenkins", "cost": 0, "attack": 9},
                                                  {"card": "Eviscerate", "cost": 0}]})
cards = [Cards.FromId(c) for c in ("EX1_116", "EX1_124")]
stats = lambda: [[c.Cost, c.ATK, sorted((str(kv.Key), int(kv.Value)) for kv in c.Tags)] for c in cards]
deck = engine.builtin.miracle_rogue()
games = [(g, g % 6, 700 + g, 30 + g) for g in range(6)]
def batch(overrides):
    request = build_request(deck, games, engine.default_opponents(), beam_depth=2, beam_width=2,
                            stat_overrides=overrides)
    return parse_summary(str(bridge.PlayBatch(request)))
before = stats()
(plain, plain_games), (changed, changed_games) = batch(None), batch(space.stat_overrides)
print(json.dumps({"overrides": [plain["overrides"], changed["overrides"]], "restored": stats() == before,
                  "changed": [g.__dict__ for g in plain_games] != [g.__dict__ for g in changed_games]}))
"""


def test_a_config_list_of_overrides_is_applied_for_its_batch_and_undone(stand_in_dir, cache_env):
    done = subprocess.run([sys.executable, "-c", CONFIG_LIST, str(stand_in_dir)], cwd=ROOT, env=_env(cache_env),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"overrides": ["0", "2"], "restored": True,
                                                                "changed": True}


MAKE_RECORDS = r"""
import json, sys
from workers.sabberstone import engine
games = [(g, g % 6, 5000 + 7 * g, 300 + g) for g in range(8)]
played = engine.play_seeded(engine.builtin.miracle_rogue(), games, engine.default_opponents(), path=sys.argv[1])
print(json.dumps([g.__dict__ for g in played]))
"""


def test_replay_agrees_with_its_own_records_and_reports_a_difference(stand_in_dir, cache_env, tmp_path):
    env = _env(cache_env)
    made = subprocess.run([sys.executable, "-c", MAKE_RECORDS, str(stand_in_dir)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr[-2000:]
    games = json.loads(made.stdout.strip().splitlines()[-1])
    records = _records_file(tmp_path, games)
    command = [sys.executable, "-m", "workers.sabberstone.replay", str(records), "--path", str(stand_in_dir)]

    done = subprocess.run(command + ["--json", str(tmp_path / "out.json")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    assert "stand_in_run.json: 8/8 games agree on every statistic; card usage agrees" in done.stdout
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("game ")]
    assert len(lines) == 8 and lines[4].endswith("agrees   [5/5 agree so far]")
    assert json.loads((tmp_path / "out.json").read_text())[str(records)]["agree"] == 8

    run = json.loads(records.read_text())
    card = sorted(run["card_usage"])[0]
    run["card_usage"][card] += 1  # the games agree, the card usage does not
    records.write_text(json.dumps(run))
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert (f"8/8 games agree on every statistic; card usage differs: {card} {run['card_usage'][card]} -> "
            f"{run['card_usage'][card] - 1}") in done.stdout
    run["card_usage"][card] -= 1
    run["games"][5]["hand_size"] += 1  # a record that does not match its game
    run["games"][5]["won"] = 1 - run["games"][5]["won"]
    records.write_text(json.dumps(run))
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    line = next(ln for ln in done.stdout.splitlines() if ln.startswith("game   5"))
    hand = games[5]["hand_size"]
    assert "differs:" in line and f"hand_size {hand + 1} -> {hand}" in line and "won " in line
    assert "stand_in_run.json: 7/8 games agree on every statistic" in done.stdout
    done = subprocess.run(command + ["--games", "3"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "3/3 games agree on every statistic; card usage not compared" in done.stdout


@pytest.mark.parametrize("damage, expected", [
    ({"games": []}, "no deck, opponents"),
    ({"deck": ["CS2_072"] * 3, "opponents": [], "games": [{}]}, "deck is not a list of 30 card ids"),
    ({"games": [{"game": 0, "opponent": 0}]}, "a game record has no integer game_seed, search_seed"),
    ({"opponents": [{"name": "Aggro Mage", "class": "MAGE", "strategy": "Aggro"}]}, "is none of the protocol's six"),
    ({"nerfs": "full", "nerfs_applied": "none"}, "nerfs_applied names no override"),
])
def test_replay_refuses_a_record_file_it_cannot_replay(tmp_path, damage, expected):
    from workers.protocol.evaluate import default_opponents, miracle_rogue
    run = {"deck": miracle_rogue(), "nerfs": "none", "games": [{"game": 0, "opponent": 0, "game_seed": 1, "search_seed": 2}],
           "opponents": [{"name": o.name, "class": o.hero_class, "strategy": o.strategy} for o in default_opponents()]}
    run.update(damage)
    if damage == {"games": []}:
        run = {"games": []}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(run))
    env = {**os.environ, "SABBERSTONE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "workers.sabberstone.replay", str(path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    error = [ln for ln in done.stderr.splitlines() if ln.startswith("error:")]
    assert len(error) == 1 and expected in error[0] and str(path) in error[0], done.stderr


def test_replay_reads_the_overrides_a_run_applied():
    from workers.sabberstone.replay import load_records, stat_overrides
    run = load_records(ROOT / "workers" / "data" / "sabberstone" / "runs" / "miracle_rogue__overrides.json")
    assert stat_overrides(run) == {"CS2_073": {"cost": 1}, "CS2_233": {"cost": 2},
                                   "EX1_116": {"cost": 4}, "EX1_095": {"cost": 5}}
    plain = load_records(ROOT / "workers" / "data" / "sabberstone" / "runs" / "miracle_rogue.json")
    assert stat_overrides(plain) is None and len(plain["games"]) == 200


def test_every_shipped_record_file_loads_and_its_card_usage_is_a_count():
    """The shipped records load for replay, the newer ones with the key that says their card
    usage no longer counts the plays of a failed try (card_usage_failed_tries_removed)."""
    from workers.sabberstone.replay import load_records
    paths = sorted((ROOT / "workers" / "data" / "sabberstone" / "runs").glob("*.json"))
    assert len(paths) == 8
    for path in paths:
        run = load_records(path)
        assert all(isinstance(n, int) and n >= 0 for n in run["card_usage"].values()), path.name
        assert set(run["card_usage"]) <= set(run["deck"]), path.name
    for name in ("random_1__overrides", "random_2__overrides"):
        run = load_records(ROOT / "workers" / "data" / "sabberstone" / "runs" / f"{name}.json")
        removed = run["card_usage_failed_tries_removed"]
        assert removed and all(isinstance(n, int) and n > 0 for n in removed.values())
