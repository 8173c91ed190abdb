"""The compiled engine (workers/engine/native.py): CI plays with it, the plain Python engine
plays the same games, a build from other sources is never used, and copies (written out field
by field, as mypyc needs) take every field."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from workers.engine import native
from workers.engine.entities import HERO_FIELDS, MINION_FIELDS, PLAYER_FIELDS, WEAPON_FIELDS

ROOT = Path(__file__).resolve().parents[2]


def test_ci_plays_with_the_compiled_engine():
    if os.environ.get("CI") != "true" and not native.compiled():
        pytest.skip("the engine is not compiled here (make native); CI requires it")
    assert native.compiled()
    from workers.players import game_counters, play
    from workers.engine import entities, game, rng, state
    for module in (rng, entities, state, game, play, game_counters):
        assert module.__file__.startswith(str(native.NATIVE_DIR)) and module.__file__.endswith(".so")


def test_plain_python_engine_plays_the_pinned_games():
    """The in-process pinned records test plays with whichever engine this process has (the
    compiled one in CI); this plays them again with the plain Python one."""
    code = ("import json; from workers.engine.native import compiled; assert not compiled();"
            "from tests.engine.test_pinned_records import PINNED, play_pinned;"
            "assert play_pinned() == json.loads(PINNED.read_text()); print('same games')")
    env = {**os.environ, native.SWITCH_ENV: "0"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "same games"


def test_a_build_is_used_only_when_it_matches_the_sources(tmp_path, monkeypatch):
    monkeypatch.delenv(native.SWITCH_ENV, raising=False)
    engine = "workers.engine"
    assert native.package_path(engine, tmp_path) == []  # never built: silently plain Python
    (tmp_path / native.DIGEST_FILE).write_text(native.sources_digest() + "\n")
    assert native.package_path(engine, tmp_path) == [str(tmp_path / "workers" / "engine")]
    monkeypatch.setenv(native.SWITCH_ENV, "0")
    assert native.package_path(engine, tmp_path) == []  # switched off
    monkeypatch.delenv(native.SWITCH_ENV)
    (tmp_path / native.DIGEST_FILE).write_text("0" * 64 + "\n")  # built from other sources
    with pytest.warns(UserWarning, match="built from other sources"):
        assert native.package_path(engine, tmp_path) == []


def test_copies_take_every_field():
    from tools.bench.engine_costs import mid_game_state
    g = mid_game_state()
    g.equip(0, "CS2_082")  # Wicked Knife: a weapon to copy too
    copy = g.copy()
    for original, copied in zip(g.players, copy.players):
        pairs = [(PLAYER_FIELDS, original, copied), (HERO_FIELDS, original.hero, copied.hero)]
        pairs += [(MINION_FIELDS, m, c) for m, c in zip(original.board, copied.board)]
        if original.weapon is not None:
            pairs.append((WEAPON_FIELDS, original.weapon, copied.weapon))
            assert copied.weapon is not original.weapon
        assert original.board and len(copied.board) == len(original.board)
        for fields, a, b in pairs:
            for name in fields:
                if name not in ("hero", "weapon", "board"):  # copies, compared above and below
                    assert getattr(b, name) == getattr(a, name), name
        assert copied.board is not original.board
        assert (copied.secrets is original.secrets) == (not original.secrets)  # an empty list is shared
        assert copied.hero is not original.hero
        # a hand and a deck are shared until one side changes them, on a list of its own
        assert original.hand_shared and copied.hand_shared and original.deck_shared and copied.deck_shared
    for name in ("current", "turn", "rng", "next_uid", "next_order", "winner", "done",
                 "random_events", "library", "auras_live", "marks"):
        assert getattr(copy, name) == getattr(g, name), name
    assert copy.state_hash() == g.state_hash()
    for name, to_change in (("hand", "hand_to_change"), ("deck", "deck_to_change")):
        before = list(getattr(g.players[0], name))
        getattr(copy, to_change)(0).pop()
        assert getattr(g.players[0], name) == before and len(getattr(copy.players[0], name)) == len(before) - 1
