"""State encoders: sizes, minion-order invariance, exact values on a hand-built state."""
import numpy as np
import pytest

from workers.players.encoders import (ENCODERS, HERO_CLASSES, RICH_CARDS, RICH_MINION_FACTS,
                              RICH_PLAYER_FACTS, describe, encode, get_encoder)
from workers.players.scores import state_features
from tests.engine.scenario import make_game

SIZES = {"protocol15": 15, "teo60": 60, "rich": 2 * 21 + 2 * 20 + len(RICH_CARDS) + 1}


def state():
    """Player 0 (Rogue, to act) with a damaged Sen'jin and a Crocolisk, a weapon, River
    Crocolisk and The Coin in hand; player 1 (Hunter) with a Boar and a Kobold, 2 armour."""
    g = make_game(hand=["CS2_120", "GAME_005"], board=["CS2_179", "CS2_120"],
                  enemy_board=["CS2_171", "CS2_142"], mana=5)
    g.equip(0, "CS2_080")  # Assassin's Blade 3/4
    g.players[0].board[0].damage = 1
    g.players[1].hero.armor = 2
    return g


def test_registry_sizes_names_and_versions():
    assert set(ENCODERS) >= set(SIZES)
    g = state()
    for name, size in SIZES.items():
        enc = get_encoder(name)
        assert enc.size == size == len(enc.names) == len(set(enc.names))
        assert enc.version >= 1
        for player in (0, 1):
            v = encode(name, g, player)
            assert v.shape == (size,) and v.dtype == np.float32
        assert describe(name).count("\n") == size
    with pytest.raises(ValueError, match="unknown state encoder"):
        get_encoder("nope")


def test_protocol15_is_the_score_features():
    g = state()
    for player in (0, 1):
        assert encode("protocol15", g, player).tolist() == list(state_features(g, player))
    assert encode("protocol15", g, 0).tolist() == [30, 30, 3, 0, 2, 2, 0, 20, 20, 5, 3, 7, 3, 4, 0]


def test_teo60_exact_values():
    v = encode("teo60", state(), 0).tolist()
    own = [4, 3, 1, 3, 2, 1] + [0] * 15  # (health, attack, ready), strongest attack first
    enemy = [2, 2, 1, 1, 1, 1] + [0] * 15
    own_facts = [30, 0, 2, 20, 5, 5, 3, 4, 0]  # health, armour, hand, deck, crystals, mana, weapon, secrets
    enemy_facts = [30, 2, 0, 20, 5, 5, 0, 0, 0]
    assert v == own + enemy + own_facts + enemy_facts
    # From the other side the halves swap.
    assert encode("teo60", state(), 1).tolist() == enemy + own + enemy_facts + own_facts


def test_rich_exact_values():
    v = encode("rich", state(), 0)
    p, m = len(RICH_PLAYER_FACTS), len(RICH_MINION_FACTS)
    rogue, hunter = [0.0] * 9, [0.0] * 9
    rogue[HERO_CLASSES.index("ROGUE")] = hunter[HERO_CLASSES.index("HUNTER")] = 1
    # deck, hand, crystals, mana, fatigue, spell damage, weapon atk/dur, armour, health, power used, secrets
    assert v[:p].tolist() == [20, 2, 5, 5, 0, 0, 3, 4, 0, 30, 0, 0] + rogue
    assert v[p:2 * p].tolist() == [20, 0, 5, 5, 0, 1, 0, 0, 2, 30, 0, 0] + hunter
    # count, atk, health, max health, damaged, ready, taunt, shield, stealth, windfury, charge,
    # frozen, silenced, poisonous, spell damage, deathrattle, trigger, aura, can't attack, cost
    assert v[2 * p:2 * p + m].tolist() == [2, 5, 7, 8, 1, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6]
    assert v[2 * p + m:2 * p + 2 * m].tolist() == [2, 3, 3, 3, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 3]
    bag = v[2 * p + 2 * m:]
    assert bag.sum() == 2
    assert bag[RICH_CARDS.index("CS2_120")] == 1 and bag[RICH_CARDS.index("GAME_005")] == 1


def test_rich_counts_cards_outside_the_vocabulary_as_other():
    g = make_game(hand=["CS2_120"])
    g.players[0].hand[0].cdef = g.library["CS2_101t"]  # Silver Hand Recruit: not collectible
    assert encode("rich", g, 0)[-1] == 1


@pytest.mark.parametrize("name", list(SIZES))
def test_minion_order_does_not_matter(name):
    g = make_game(board=["CS2_179", "CS2_120", "EX1_008", "CS2_142"],
                  enemy_board=["CS2_171", "CS2_142", "CS2_120"])
    g.players[0].board[1].damage = 2
    g.players[1].board[0].frozen = True
    before = [encode(name, g, p) for p in (0, 1)]
    for p in g.players:
        p.board.reverse()
    g.players[0].board.insert(0, g.players[0].board.pop(2))
    after = [encode(name, g, p) for p in (0, 1)]
    for a, b in zip(before, after):
        assert np.array_equal(a, b)


def test_encoders_only_read_the_state():
    g = state()
    h, rng, events = g.state_hash(), g.rng, g.random_events
    for name in ENCODERS:
        encode(name, g, 0)
        encode(name, g, 1)
    assert (g.state_hash(), g.rng, g.random_events) == (h, rng, events)
