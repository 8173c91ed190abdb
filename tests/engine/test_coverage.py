"""The coverage count: every card that can enter a game is implemented and has a test that plays it."""
import subprocess
import sys
from pathlib import Path

import pytest

from workers.engine import cardspec
from workers.engine.coverage import cards_entering_games, report

from .scenario import covers, library, make_game, play

CROC = "CS2_120"


def test_every_card_that_can_enter_a_game_is_implemented_and_tested():
    lines, done, total = report()
    assert total >= 411 + 9  # the collectible cards, the hero powers and The Coin at least
    missing = [line for line in lines if "MISSING" in line or "UNTESTED" in line]
    assert done == total, "\n".join(missing)


def test_the_coverage_command_prints_the_totals_and_fails_only_when_cards_are_missing():
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-m", "workers.engine", "coverage"], cwd=root,
                         capture_output=True, text=True)
    last = out.stdout.strip().splitlines()
    assert last[-3] == "collectible_cards: 411/411 implemented and tested"
    done, total = last[-1].removeprefix("cards_implemented_and_tested: ").split("/")
    assert done == total and out.returncode == 0


def test_a_covers_mark_fails_when_the_test_never_plays_the_card():
    @covers(CROC)
    def only_holds_it():
        make_game(hand=[CROC])

    @covers(CROC)
    def plays_it():
        g = make_game(hand=[CROC])
        play(g, CROC)

    plays_it()
    with pytest.raises(AssertionError, match=r"marked @covers\['CS2_120'\] but never puts them into play"):
        only_holds_it()


def test_a_card_a_random_pool_can_create_is_counted_and_must_be_implemented(monkeypatch):
    lib = library()
    unscripted = sorted(c.id for c in lib.values() if not c.implemented and not c.collectible
                        and c.type == "MINION")[0]
    monkeypatch.setitem(cardspec.RANDOM_POOLS, "test_pool", lambda library: {"X": [unscripted]})
    sources = cards_entering_games(lib)
    assert sources[unscripted] == "pool test_pool"
    assert not lib[unscripted].implemented


def test_tokens_named_in_scripts_and_hero_powers_are_counted():
    sources = cards_entering_games(library())
    assert sources["CS2_101t"] == "script"  # Silver Hand Recruit, Reinforce's token
    assert sources["CS2_083b"] == "game"  # Dagger Mastery
    assert sources["EX1_189"] == "collectible"
