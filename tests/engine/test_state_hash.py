"""state_hash's two forms (workers/engine/state.py): compiled, the fields mixed one by one
(`_mixed_hash`); in plain Python, the hash of one flat tuple (`_hash_key`). Both must tell the
same states apart, or the beam search would drop different duplicates in the two engines: each
int or bool field of every entity is changed on a copy, and either both forms see it or neither."""
from workers.engine.entities import HERO_FIELDS, MINION_FIELDS, PLAYER_FIELDS, WEAPON_FIELDS
from workers.engine.game import new_game
from workers.players.play import RandomPlayer
from workers.protocol.evaluate import card_library, default_opponents, miracle_rogue

STATE_FIELDS = ("current", "turn", "done", "winner", "next_uid", "next_order", "random_events")


def _positions(games: int = 12, every: int = 7):
    """States along random games of Miracle Rogue against each opponent deck."""
    library, deck = card_library(), miracle_rogue()
    for i in range(games):
        opponent = default_opponents()[i % 6]
        g = new_game(library, [deck, list(opponent.cards)], ["ROGUE", opponent.hero_class], 40 + i)
        players = [RandomPlayer(2 * i), RandomPlayer(2 * i + 1)]
        step = 0
        while not g.done:
            g.apply(players[g.current].choose(g), False)
            step += 1
            if step % every == 0 or g.done:
                yield g.copy()


def _changed(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    return None  # not an int field: left alone


def _entities(g):
    """(label, entity, its fields) of every entity whose fields the hash may read."""
    yield "state", g, STATE_FIELDS
    for p in g.players:
        yield f"player {p.index}", p, PLAYER_FIELDS
        yield f"hero {p.index}", p.hero, HERO_FIELDS
        if p.weapon is not None:
            yield f"weapon {p.index}", p.weapon, WEAPON_FIELDS
        for k, m in enumerate(p.board):
            yield f"minion {p.index}.{k}", m, MINION_FIELDS


def test_both_forms_tell_the_same_fields_apart():
    checked = 0
    seen_minions = False
    for g in _positions():
        key, mixed = g._hash_key(), g._mixed_hash()
        for label, entity, fields in list(_entities(g)):
            seen_minions |= label.startswith("minion")
            for field in fields:
                new = _changed(getattr(entity, field))
                if new is None or field in ("uid", "owner", "index", "hand_hash"):
                    continue  # identities, not values (a change would break the state itself), and a cache
                old = getattr(entity, field)
                setattr(entity, field, new)
                try:
                    key_moved = g._hash_key() != key
                    mix_moved = g._mixed_hash() != mixed
                finally:
                    setattr(entity, field, old)
                assert key_moved == mix_moved, (label, field, key_moved, mix_moved)
                checked += 1
        assert g._hash_key() == key and g._mixed_hash() == mixed
    assert seen_minions and checked > 2000


def test_both_forms_equal_on_copies_and_differ_on_play():
    for g in _positions(games=3, every=5):
        c = g.copy()
        assert (c._hash_key(), c._mixed_hash()) == (g._hash_key(), g._mixed_hash())
        if not c.done:
            c.apply(c.legal_moves()[-1], False)
            if c.current == g.current:  # an action that changed the state, not the turn's end
                assert (c._hash_key() != g._hash_key()) == (c._mixed_hash() != g._mixed_hash())


def _hash_afresh(g) -> int:
    """g's compiled hash with no hand's value kept (GameState._hand_hash)."""
    fresh = g.copy()
    for p in fresh.players:
        p.hand_hash_of = None
    return fresh._mixed_hash()


def test_a_kept_hand_value_follows_its_list():
    """A hand's value is kept with its list, which copies share; a hand changed (on a list of
    its own, or in place on one not shared), or given a new one, is hashed again."""
    for g in _positions(games=4, every=3):
        g._mixed_hash()  # kept on the copy's shared lists
        c = g.copy()
        me = c.current
        assert c._mixed_hash() == g._mixed_hash() == _hash_afresh(g)
        if c.players[me].hand:
            c.hand_to_change(me).pop(0)
            assert c._mixed_hash() == _hash_afresh(c) != g._mixed_hash()
            c._mixed_hash()
            c.hand_to_change(me).reverse()  # its own list now: changed in place
            assert c._mixed_hash() == _hash_afresh(c)
        c.deal(1 - me, list(reversed(c.players[1 - me].hand)), c.players[1 - me].deck)
        assert c._mixed_hash() == _hash_afresh(c)


def test_state_hash_is_the_compiled_or_plain_form():
    from workers.engine import state
    g = next(_positions(games=1))
    assert g.state_hash() == (g._mixed_hash() if state.COMPILED else hash(g._hash_key()))
