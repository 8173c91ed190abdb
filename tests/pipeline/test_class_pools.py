"""Deck spaces of every class, built from the card data by the rule of the paper's Rogue pool."""
import json

import numpy as np
import pytest
from hearthstone import deckstrings

from workers.engine.class_pools import HERO_CLASSES, class_pool
from pipeline.deck_space import BUILTIN_POOL, DeckSpace
from pipeline.run_errors import ConfigError, DeckSpaceError
from workers.engine.carddb import load_cards


def test_the_rule_rebuilds_the_papers_rogue_pool_exactly():
    paper = json.loads(BUILTIN_POOL.read_text())["cards"]
    built = class_pool("ROGUE")["cards"]
    keys = ("index", "id", "name", "card_class", "type", "sabberstone_set", "rarity")
    assert [{k: c[k] for k in keys} for c in built] == [{k: c[k] for k in keys} for c in paper]


@pytest.mark.parametrize("hero_class", HERO_CLASSES)
def test_each_class_gets_its_own_basic_and_classic_cards_and_the_neutrals(hero_class):
    cards = load_cards()
    pool = {c["id"] for c in class_pool(hero_class)["cards"]}
    own = {c.id for c in cards.values() if c.collectible and c.card_class == hero_class
           and c.type != "HERO" and c.card_set in ("CORE", "EXPERT1")}
    neutral = {c["id"] for c in class_pool("ROGUE")["cards"] if c["card_class"] == "NEUTRAL"}
    assert own and own <= pool
    assert pool - own - {"EX1_128"} == neutral  # the paper's neutrals, Azure Drake included
    assert ("EX1_128" in pool) == (hero_class == "ROGUE")  # Conceal, the Rogue addition
    assert all(cards[i].card_class in (hero_class, "NEUTRAL") for i in pool)


def test_a_mage_space_draws_mage_decks_with_jaina_in_the_deck_code():
    space = DeckSpace.from_pool_file(hero_class="MAGE")
    assert space.hero_class == "MAGE" and "CS2_029" in space.ids and "CS2_072" not in space.ids
    decks = space.random_decks(np.random.default_rng(5), 20)
    assert decks.shape == (20, space.size) and (decks.sum(axis=1) == 30).all()
    _, heroes, _ = deckstrings.parse_deckstring(space.deck_code(decks[0]))[:3]
    by_dbf = {c.dbf_id: c for c in load_cards().values()}
    assert by_dbf[heroes[0]].name == "Jaina Proudmoore"
    assert np.array_equal(space.from_deck_code(space.deck_code(decks[0])), decks[0])


def test_a_pool_file_with_another_class_card_is_refused(tmp_path):
    path = tmp_path / "pool.json"
    path.write_text(BUILTIN_POOL.read_text())
    with pytest.raises(DeckSpaceError, match=r"Backstab \(CS2_072\) is a ROGUE card, not playable by MAGE"):
        DeckSpace.from_pool_file(path, hero_class="MAGE")


def test_an_unknown_class_is_a_config_error():
    with pytest.raises(ConfigError, match="unknown hero class 'JEDI'"):
        DeckSpace.from_pool_file(hero_class="JEDI")


def test_the_config_refuses_an_unknown_class():
    from pipeline.state.config import validate
    from .helpers import compose
    with pytest.raises(ConfigError, match="deck_space.hero_class"):
        validate(compose("deck_space.hero_class=mage"))


def test_a_mage_dsa_me_smoke_run_finishes_with_mage_decks(tmp_path):
    from .helpers import final_state, run_pipeline
    run_dir = tmp_path / "mage"
    run_pipeline("deck_space.hero_class=MAGE", run_dir=run_dir)
    state = final_state(run_dir)
    decks = state["evaluations"]["decks"]
    space = DeckSpace.from_pool_file(hero_class="MAGE")
    assert decks.shape == (60, space.size) and (decks.sum(axis=1) == 30).all()
    cards = load_cards()
    played = {space.ids[i] for i in np.flatnonzero(decks.sum(axis=0))}
    assert any(cards[i].card_class == "MAGE" for i in played)
    best = json.loads((run_dir / "best_decks.json").read_text())
    assert best[0]["deck_code"].startswith("AAE") and (run_dir / "archive_heatmap.png").exists()


def test_opponent_files_may_hold_decks_of_any_class(tmp_path):
    from workers.engine.class_pools import HERO_CLASSES, pool_ids
    from workers.protocol.evaluate import load_opponents, miracle_rogue, play_games
    from tools.soak import random_pool_deck
    decks = [{"name": f"random {cls.title()}", "hero_class": cls, "strategy": "control",
              "cards": random_pool_deck(n, pool_ids(cls))} for n, cls in enumerate(HERO_CLASSES)]
    path = tmp_path / "opponents.json"
    path.write_text(json.dumps({"opponents": decks}))
    opponents = load_opponents(path)
    assert [o.hero_class for o in opponents] == list(HERO_CLASSES)
    records = play_games(miracle_rogue(), range(len(HERO_CLASSES)), 3, opponents=opponents)
    assert [r.opponent_index for r in records] == list(range(len(HERO_CLASSES)))
    assert all(r.error is None and r.turns > 0 for r in records)
