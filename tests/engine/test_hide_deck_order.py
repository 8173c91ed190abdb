"""The planner's hidden deck order as an evaluation option: it changes the games on the built-in
engine, and the SabberStone engine refuses it before playing anything."""
import pytest

from workers.protocol.evaluate import miracle_rogue, play_games


def _outcomes(records):
    assert all(r.error is None for r in records), [r.error for r in records]
    return [(r.won, r.own_health, r.enemy_health, r.turns, r.card_plays) for r in records]


def test_hidden_deck_order_changes_the_games_deterministically():
    deck = miracle_rogue()
    knows = play_games(deck, range(3), 5, beam_depth=3, beam_width=2)
    hidden = play_games(deck, range(3), 5, beam_depth=3, beam_width=2, hide_deck_order=True)
    assert _outcomes(hidden) != _outcomes(knows)
    assert [r.seed for r in hidden] == [r.seed for r in knows]  # same games, other plans
    assert play_games(deck, range(3), 5, beam_depth=3, beam_width=2, hide_deck_order=True) == hidden


def test_random_players_ignore_it():
    deck = miracle_rogue()
    assert play_games(deck, range(2), 5, player="random", hide_deck_order=True) == \
        play_games(deck, range(2), 5, player="random")


def test_the_sabberstone_engine_refuses_it_before_playing(monkeypatch):
    from workers.sabberstone import engine

    def no_bridge(*args, **kwargs):
        raise AssertionError("the bridge was loaded")

    monkeypatch.setattr(engine, "load_bridge", no_bridge)
    with pytest.raises(ValueError, match="hide_deck_order=True is not supported by the sabberstone engine"):
        engine.play_games(miracle_rogue(), range(3), 5, hide_deck_order=True)
    with pytest.raises(ValueError, match="SabberStone's planner"):
        engine.evaluate_deck(miracle_rogue(), games=3, hide_deck_order=True)
