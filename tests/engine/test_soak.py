"""Short versions of `make soak` and `make fuzz`: seeded games with invariants after every action."""
from tools import soak


def test_short_soak_between_the_seven_decks():
    report = soak.run(random_games=300, beam_games=4, pool=False, seed=1, depth=13, width=4,
                      progress=False)
    assert report.games == 304 and report.actions > 10000
    assert report.failures == [], report.failures[:3]


def test_fuzz_random_pool_decks_5000_games():
    report = soak.run(random_games=5000, beam_games=0, pool=True, seed=2, depth=13, width=4,
                      progress=False)
    assert report.games == 5000
    assert report.failures == [], report.failures[:3]


def test_invariant_checker_catches_a_broken_state():
    import pytest
    from tools.invariants import InvariantViolation, check_invariants
    from .scenario import FILLER, make_game

    g = make_game(board=[FILLER])
    check_invariants(g)
    g.players[0].hand = g.players[0].hand + [g.players[0].deck[0]]  # one card in two zones
    with pytest.raises(InvariantViolation, match="more than one zone"):
        check_invariants(g)
    g = make_game(board=[FILLER])
    g.players[0].board[0].damage = 10
    with pytest.raises(InvariantViolation, match="dead minion"):
        check_invariants(g)
    g = make_game(board=["NEW1_019"])  # Knife Juggler: it hears summons
    check_invariants(g)
    g.heard = frozenset()  # kept as if nothing in play had triggers
    with pytest.raises(InvariantViolation, match="kept as in play"):
        check_invariants(g)
