"""The summaries a finished run keeps without its checkpoint, for the paper's Section 6: every
evaluation's deck (decks.npz, beside evaluations.csv) and the surrogate (surrogate.pt); and the
summaries rewritten from a checkpoint (pipeline.report.summaries)."""
import json

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


def test_summaries_rewritten_from_the_checkpoint_are_the_drivers(tmp_path, capsys):
    """`python -m pipeline.report.summaries` writes what the driver wrote at the end of the run
    (here, with the driver's files removed first); a folder without a checkpoint, or one a run
    holds, is refused in one line and left as it was."""
    from pipeline.report.summaries import main
    from pipeline.state.run_dir import locked
    run_dir = tmp_path / "run"
    run_pipeline(run_dir=run_dir)
    texts = ("archive.csv", run_files.EVALUATIONS_CSV, "metrics.jsonl", "best_decks.json")
    written = {name: (run_dir / name).read_bytes() for name in texts}
    # the last row's checkpoint time is known only once that checkpoint is written, so it holds none
    rows = [json.loads(line) for line in written["metrics.jsonl"].splitlines()]
    del rows[-1]["checkpoint_s"]
    space = DeckSpace.from_pool_file()
    decks = run_files.read_decks(run_dir / run_files.DECKS_FILE, space)
    for name in (*texts, run_files.DECKS_FILE):
        (run_dir / name).unlink()
    assert main([str(run_dir)]) == 0
    assert capsys.readouterr().out.strip() == f"{run_dir}: summaries written from its checkpoint (60 evaluations)"
    assert [json.loads(line) for line in (run_dir / "metrics.jsonl").read_bytes().splitlines()] == rows
    assert all((run_dir / name).read_bytes() == written[name] for name in texts if name != "metrics.jsonl")
    assert np.array_equal(run_files.read_decks(run_dir / run_files.DECKS_FILE, space), decks)

    with locked(run_dir):  # a run still going
        assert main([str(run_dir)]) == 2
    assert "is in use by another running process" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main([str(empty)]) == 2
    assert capsys.readouterr().err.strip() == f"error: {empty} holds no checkpoint (checkpoint.h5) to write summaries from"
    assert list(empty.iterdir()) == []
