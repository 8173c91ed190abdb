"""deck_space.stat_overrides: card changes as data (pipeline/stat_overrides.py). The engine plays
the new values, the preset rogue_classic_values is what use_stat_overrides=true plays, runs
without the key keep their identity, and bad entries are one clear line before anything runs."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest
from omegaconf import OmegaConf

from pipeline.deck_space import DeckSpace
from pipeline.run_errors import ConfigError
from pipeline.state.config import identity, identity_hash, validate
from workers.engine.actions import PLAY
from workers.engine.entities import Card
from workers.engine.game import new_game
from workers.protocol.evaluate import card_library, deck_stats

from .helpers import command, compose

LEEROY = "EX1_116"


def _space(*entries, **section) -> DeckSpace:
    return DeckSpace.from_config({**section, "stat_overrides": list(entries)})


def _game_with_leeroy_in_hand(library, mana: int):
    g = new_game(library, [["CS2_120"] * 30, ["CS2_120"] * 30], ["ROGUE", "HUNTER"], 3)
    me = g.players[g.current]
    me.hand = [Card(g.new_uid(), library[LEEROY])]
    me.mana = me.max_mana = mana
    return g, me


def test_the_engine_plays_an_overridden_card_at_its_new_cost_and_stats():
    space = _space({"card": "Leeroy Jenkins", "cost": 3, "attack": 2, "health": 7})
    assert space.stat_overrides == {LEEROY: {"cost": 3, "atk": 2, "health": 7}}
    assert space.costs[space.ids.index(LEEROY)] == 3
    changed, plain = card_library(space.stat_overrides), card_library()
    g, me = _game_with_leeroy_in_hand(plain, 3)
    assert not [a for a in g.legal_actions() if a.kind == PLAY]  # 5 mana as printed
    g, me = _game_with_leeroy_in_hand(changed, 3)
    play = [a for a in g.legal_actions() if a.kind == PLAY]
    assert play
    g.apply(play[0])
    leeroy = [m for m in me.board if m.cdef.id == LEEROY][0]
    assert me.mana == 0 and (leeroy.atk, leeroy.health) == (2, 7)


def test_the_list_goes_on_top_of_the_pool_files_overrides_stat_by_stat():
    space = _space({"card": LEEROY, "cost": 6}, {"card": "Fiery War Axe", "attack": 1}, use_stat_overrides=True)
    classic = DeckSpace.from_pool_file(use_stat_overrides=True).stat_overrides
    assert space.stat_overrides == {**classic, LEEROY: {**classic[LEEROY], "cost": 6}, "CS2_106": {"atk": 1}}
    deck = space.random_decks(np.random.default_rng(1), 3)
    for d in deck:  # the head node's deck statistics are the engine's, with the changed costs
        assert space.deck_statistics(d) == pytest.approx(deck_stats(space.decode(d), space.stat_overrides))


def test_the_preset_plays_what_use_stat_overrides_plays():
    preset = DeckSpace.from_config(validate(compose("deck_space=rogue_classic_values")).deck_space)
    classic = DeckSpace.from_config(validate(compose("deck_space.use_stat_overrides=true")).deck_space)
    assert preset.stat_overrides == classic.stat_overrides and len(classic.stat_overrides) == 4
    assert (preset.costs == classic.costs).all()
    ours, theirs = card_library(preset.stat_overrides), card_library(classic.stat_overrides)
    for card_id in classic.stat_overrides:
        assert (ours[card_id].cost, ours[card_id].atk, ours[card_id].health) == \
               (theirs[card_id].cost, theirs[card_id].atk, theirs[card_id].health)


def test_an_empty_list_keeps_the_identity_of_runs_made_before_the_key():
    cfg = validate(compose())
    old = OmegaConf.to_container(cfg)
    del old["deck_space"]["stat_overrides"]  # a config.yaml written before the key existed
    assert identity(cfg) == identity(OmegaConf.create(old))
    changed = validate(compose("deck_space.stat_overrides=[{card: Leeroy Jenkins, cost: 5}]"))
    assert identity_hash(changed) != identity_hash(cfg)
    assert changed.deck_space.stat_overrides[0].card == "Leeroy Jenkins"  # the documented syntax


@pytest.mark.parametrize("value, message", [
    ("[{card: Cold Blood, cost: -1}]", "[0] (Cold Blood): cost must be a whole number from 0 to 99, got -1"),
    ("[{card: Cold Blood, cost: '1'}]", "cost must be a whole number"),
    ("[{card: Cold Blood, cost: true}]", "cost must be a whole number"),
    ("[{card: Cold Blood, health: 1.5}]", "health must be a whole number"),
    ("[{card: Cold Blood, atk: 1}]", "unknown field 'atk'"),
    ("[{card: Cold Blood}]", "changes nothing"),
    ("[{cost: 1}]", "needs card"),
    ("[Cold Blood]", "must be {card: NAME"),
])
def test_malformed_entries_are_refused_with_the_config(value, message):
    with pytest.raises(ConfigError, match=r"^deck_space\.stat_overrides") as err:
        validate(compose(f"deck_space.stat_overrides={value}"))
    assert message in str(err.value)


@pytest.mark.parametrize("entries, message", [
    ([{"card": "Leroy Jenkins", "cost": 1}], "no card is named 'Leroy Jenkins' or has that id; did you mean Leeroy Jenkins?"),
    ([{"card": "Cold Blood", "attack": 1}], "Cold Blood (CS2_073) is a spell, which has no attack"),
    ([{"card": "Fiery War Axe", "health": 3}], "is a weapon, which has no health"),
    ([{"card": "Cold Blood", "cost": 1}, {"card": "CS2_073", "cost": 0}],
     "[1]: Cold Blood (CS2_073) already has an entry (deck_space.stat_overrides[0])"),
])
def test_cards_that_cannot_take_the_entry_are_refused(entries, message):
    with pytest.raises(ConfigError) as err:
        _space(*entries)
    assert message in str(err.value)


def test_a_bad_entry_on_the_command_line_is_one_line_and_writes_nothing(tmp_path):
    run_dir = tmp_path / "run"
    done = subprocess.run(command("deck_space.stat_overrides=[{card: Cold Blood, attack: 1}]", run_dir=run_dir),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and not run_dir.exists()
    assert done.stderr.strip().splitlines() == [
        "error: deck_space.stat_overrides[0]: Cold Blood (CS2_073) is a spell, which has no attack "
        "(only a minion or a weapon has one)"]


def test_the_sabberstone_request_carries_the_list():
    from workers.protocol.evaluate import default_opponents, miracle_rogue
    from workers.sabberstone.protocol import build_request
    space = _space({"card": "Leeroy Jenkins", "cost": 3}, {"card": "Fiery War Axe", "attack": 1, "cost": 0})
    lines = build_request(miracle_rogue(), [(0, 0, 1, 2)], default_opponents(), player="random",
                          stat_overrides=space.stat_overrides).splitlines()
    assert [ln for ln in lines if ln.startswith("override")] == ["override\tCS2_106\t0\t1\t-1",
                                                                 "override\tEX1_116\t3\t-1\t-1"]
