"""The summaries a finished run keeps without its checkpoint, for the paper's Section 6: every
evaluation's deck (decks.npz, beside evaluations.csv) and the surrogate (surrogate.pt)."""
import numpy as np
import pytest

from pipeline.deck_space import DeckSpace
from pipeline.search import run_files
from pipeline.search.surrogate import Surrogate
from pipeline.state import checkpoint as ckpt

from .helpers import run_pipeline


def test_decks_and_surrogate_kept_beside_evaluations_are_the_checkpoints(tmp_path):
    run_dir = tmp_path / "run"
    run_pipeline(run_dir=run_dir)
    saved = ckpt.load(run_dir / ckpt.FILENAME)
    space = DeckSpace.from_pool_file()
    decks = run_files.read_decks(run_dir / run_files.DECKS_FILE, space)
    assert np.array_equal(decks, saved.arrays["evaluations"]["decks"])
    assert len((run_dir / run_files.EVALUATIONS_CSV).read_text().splitlines()) == len(decks) + 1
    kept, final = (Surrogate("mlp", space.size, 3, seed=9) for _ in range(2))
    kept.load_state_bytes((run_dir / run_files.SURROGATE_FILE).read_bytes(), with_optimizer=False)
    final.load_state_bytes(saved.blobs["surrogate"])
    assert kept.trained_on == final.trained_on > 0
    assert np.array_equal(kept.predict(decks), final.predict(decks))
    assert (run_dir / run_files.SURROGATE_FILE).stat().st_size < len(saved.blobs["surrogate"]) / 2  # no Adam state


def test_decks_of_another_pool_are_refused(tmp_path):
    space = DeckSpace.from_pool_file()
    decks = space.random_decks(np.random.default_rng(0), 3)
    run_files.write_decks(tmp_path, decks, space)
    assert np.array_equal(run_files.read_decks(tmp_path / run_files.DECKS_FILE, space), decks)
    with np.load(tmp_path / run_files.DECKS_FILE) as data:
        np.savez_compressed(tmp_path / "other.npz", cards=data["cards"], pool=data["pool"][::-1])
    with pytest.raises(ValueError, match="another card pool"):
        run_files.read_decks(tmp_path / "other.npz", space)
