"""Shared pieces of the player tests: a small value model trained with workers.learning.value_training's own API
on states recorded from a few random games (seconds on 2 cores)."""
import pytest

from workers.engine.game import new_game
from workers.engine.rng import derive
from workers.protocol.evaluate import card_library, default_opponents, miracle_rogue


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory):
    """A protocol15 "win" model (hidden 16-8) trained on ~500 recorded states of random games."""
    import numpy as np
    import torch
    from workers.protocol.evaluate import play_games
    from workers.learning.state_log import StateRecorder
    from workers.learning.value_training import split_games, target_values, train
    from workers.players.value_model import save_model
    rec = StateRecorder(encoders=("protocol15",))
    play_games(miracle_rogue(), range(24), seed=7, player="random", recorder=rec)
    d = rec.arrays()
    x, outcome = d["x/protocol15"], d["outcome"]
    part = split_games(d["deck"], d["game_index"])
    y = target_values(outcome, d["turns_to_end"], "win")
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        r = train(x[part == 0], y[part == 0], x[part != 0], y[part != 0], "win", hidden=(16, 8),
                  max_epochs=3, min_steps=60, device="cpu")
    finally:
        torch.set_num_threads(threads)
    assert len(x) > 300 and np.isfinite(r.model.mlp[0].weight.detach().numpy()).all()
    path = tmp_path_factory.mktemp("models") / "tiny_protocol15_win.pt"
    save_model(path, r.model, "protocol15", "win")
    return str(path)


def game(index: int = 0, seed: int = 1):
    """A fresh game between two copies of protocol opponent deck `index` (a mirror match)."""
    o = default_opponents()[index % 6]
    return new_game(card_library(), [list(o.cards), list(o.cards)], [o.hero_class, o.hero_class],
                    derive(seed, index))
