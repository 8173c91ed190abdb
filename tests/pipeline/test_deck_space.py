import json

import numpy as np
import pytest
from hearthstone import deckstrings
from hearthstone.enums import FormatType

from pipeline.run_errors import DeckSpaceError
from pipeline.search.inner_kernel import mutate_one

MIRACLE = "/work/shared/reference/miracle_rogue.json"


def test_pool_matches_the_protocol(space):
    assert space.size == 180
    assert int((space.limits == 1).sum()) == 25
    assert int(space.limits.sum()) == 335
    assert space.ids[0] == "CS1_042" and space.names[3] == "Cold Blood"


def test_stat_overrides_are_off_by_default_and_change_costs_when_on(space):
    from pipeline.deck_space import DeckSpace
    with_overrides = DeckSpace.from_pool_file(use_stat_overrides=True)
    cold_blood = space.ids.index("CS2_073")
    assert space.stat_overrides is None and space.costs[cold_blood] == 2
    assert with_overrides.costs[cold_blood] == 1 and "EX1_116" in with_overrides.stat_overrides


def test_encode_decode_round_trip(space):
    cards = [c["id"] for c in json.load(open(MIRACLE))["cards"]] if _has_miracle() else None
    deck = space.random_decks(np.random.default_rng(0), 1)[0] if cards is None else space.encode(cards)
    assert deck.sum() == 30
    assert np.array_equal(space.encode(space.decode(deck)), deck)


def _has_miracle():
    import os
    return os.path.exists(MIRACLE)


@pytest.mark.parametrize("change, message", [
    (lambda ids: ids[:29], "must have 30 cards, this one has 29"),
    (lambda ids: ids[:29] + ["NOT_A_CARD"], "'NOT_A_CARD' is not in the 180-card pool"),
    (lambda ids: ids[:27] + ["EX1_116"] * 3, "copies of Leeroy Jenkins (EX1_116); at most 1"),
])
def test_illegal_decks_name_the_problem(space, change, message):
    ids = space.decode(space.random_decks(np.random.default_rng(0), 1)[0])
    with pytest.raises(DeckSpaceError, match=message.replace("(", r"\(").replace(")", r"\)")):
        space.encode(change(ids))


def test_random_decks_are_legal_and_reproducible(space):
    decks = space.random_decks(np.random.default_rng(5), 500)
    assert decks.shape == (500, 180)
    assert (decks.sum(axis=1) == 30).all() and (decks <= space.limits).all() and (decks >= 0).all()
    assert np.array_equal(decks, space.random_decks(np.random.default_rng(5), 500))
    # Every copy of the multiset is equally likely: a legendary appears with p = 30/335.
    legendary = np.flatnonzero(space.limits == 1)
    assert abs(decks[:, legendary].mean() - 30 / 335) < 0.02


def _half_distance(parents, children):
    return np.abs(children.astype(int) - parents).sum(axis=1) // 2


def test_mutation_keeps_decks_legal_and_changes_about_one_card_half_the_time(space):
    rng = np.random.default_rng(7)
    parents = space.random_decks(rng, 20000)
    children = space.mutate(rng, parents)
    assert (children.sum(axis=1) == 30).all() and (children <= space.limits).all() and (children >= 0).all()
    changed = _half_distance(parents, children)
    # K = 1 with probability 1/2, and a single swap almost never puts the same card back.
    assert abs((changed == 1).mean() - 0.5) < 0.03
    assert (changed == 0).mean() < 0.03
    assert abs(changed.mean() - 2 * (1 - 1 / 150)) < 0.15  # E[K] = 2, few cards come back


def test_compiled_mutation_has_the_same_distribution(space):
    rng = np.random.default_rng(8)
    parents = space.random_decks(rng, 20000)
    children = np.empty_like(parents)
    ks = np.minimum(rng.geometric(0.5, size=len(parents)), 30)
    for i in range(len(parents)):
        mutate_one(parents[i], space.limits, ks[i], rng.random(30), rng.random(30), 30, children[i])
    assert (children.sum(axis=1) == 30).all() and (children <= space.limits).all()
    fast = np.bincount(_half_distance(parents, children), minlength=8)[:6] / len(parents)
    slow = np.bincount(_half_distance(parents, space.mutate(rng, parents)), minlength=8)[:6] / len(parents)
    assert np.abs(fast - slow).max() < 0.02


def test_deck_codes_round_trip_with_the_rogue_hero(space):
    deck = space.random_decks(np.random.default_rng(3), 1)[0]
    code = space.deck_code(deck)
    cards, heroes, _ = deckstrings.parse_deckstring(code)[:3]
    assert heroes == [930]  # Valeera Sanguinar, the Basic Rogue hero
    assert sum(n for _, n in cards) == 30
    assert np.array_equal(space.from_deck_code(code), deck)


def _code(space, deck, hero, extra=0):
    """A deck code of `deck` naming `hero`, `extra` copies added to its first card."""
    cards = [(space.cards[i].dbf_id, int(deck[i])) for i in np.flatnonzero(deck)]
    cards[0] = (cards[0][0], cards[0][1] + extra)
    return deckstrings.write_deckstring(cards, [hero], FormatType.FT_WILD)


def test_a_deck_code_of_another_class_is_refused(space):
    deck = space.random_decks(np.random.default_rng(5), 1)[0]
    with pytest.raises(DeckSpaceError, match=r"names a HUNTER hero \(hero dbf ids \[31\]\), but this deck space is "
                                        "ROGUE's: use a ROGUE deck code or set deck_space.hero_class=HUNTER"):
        space.from_deck_code(_code(space, deck, 31))  # Rexxar
    with pytest.raises(DeckSpaceError, match="names no known hero"):
        space.from_deck_code(_code(space, deck, 1))
    assert np.array_equal(space.from_deck_code(_code(space, deck, 40195)), deck)  # Maiev, a Rogue skin


def test_card_counts_never_wrap_around(space, tmp_path):
    """65,538 copies of one card held in 16 bits would be 2 copies, a legal deck."""
    deck = space.random_decks(np.random.default_rng(6), 1)[0]
    first = int(np.flatnonzero(deck)[0])
    wrapped = 2 ** 16 + int(deck[first])
    with pytest.raises(DeckSpaceError, match=f"{wrapped} copies of {space.names[first]}"):
        space.from_deck_code(_code(space, deck, 930, extra=2 ** 16))
    ids = space.decode(deck)
    (tmp_path / "long.txt").write_text("\n".join(ids + [space.ids[first]] * 2 ** 16))
    with pytest.raises(DeckSpaceError, match=f"long.txt: {wrapped} copies of {space.names[first]}"):
        space.load_deck_file(tmp_path / "long.txt")


def test_deck_files_in_three_forms(space, tmp_path):
    deck = space.random_decks(np.random.default_rng(4), 1)[0]
    ids = space.decode(deck)
    (tmp_path / "a.json").write_text(json.dumps({"cards": [{"id": i} for i in ids]}))
    (tmp_path / "b.txt").write_text("\n".join(space.names[space.ids.index(i)] for i in ids))
    (tmp_path / "c.txt").write_text(space.deck_code(deck))
    for name in ("a.json", "b.txt", "c.txt"):
        assert np.array_equal(space.load_deck_file(tmp_path / name), deck)
    (tmp_path / "bad.txt").write_text("\n".join(ids[:20]))
    with pytest.raises(DeckSpaceError, match="bad.txt: a deck must have 30 cards"):
        space.load_deck_file(tmp_path / "bad.txt")


@pytest.mark.parametrize("overrides", [False, True])
def test_deck_statistics_agree_with_the_engine(overrides):
    from pipeline.deck_space import DeckSpace
    from workers.protocol.evaluate import deck_stats
    space = DeckSpace.from_pool_file(use_stat_overrides=overrides)
    for deck in space.random_decks(np.random.default_rng(6), 50):
        assert space.deck_statistics(deck) == pytest.approx(deck_stats(space.decode(deck), space.stat_overrides))
