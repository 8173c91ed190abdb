"""The report's transfer analysis plays a run's surrogate elites as the run played its own games:
with the run's engine, not the built-in one whatever the run used. Without a SabberStone build
here, what can be shown is the refusal: a run of SabberStone asks for its own engine, and no game
is played on another when that engine cannot load."""
import pytest
import yaml

from pipeline.report import analysis
from pipeline.run_errors import PipelineError
from pipeline.state import checkpoint as ckpt


def test_the_transfer_of_a_sabberstone_run_asks_for_sabberstone_and_plays_nothing_elsewhere(sweep, tmp_path, monkeypatch):
    saved = ckpt.load(sweep / "dsa_me-seed0" / ckpt.FILENAME)
    config = yaml.safe_load(saved.config_yaml)
    config["engine"] = {"name": "sabberstone", "path": str(tmp_path / "nowhere"), "table": None}
    moved = tmp_path / ckpt.FILENAME
    ckpt.save(moved, config_yaml=yaml.safe_dump(config), identity=saved.identity, state=saved.state,
              arrays=saved.arrays, blobs=saved.blobs)
    played = []
    monkeypatch.setattr(analysis, "play_elites", lambda decks, *args, **kwargs: played.append(decks))
    # no SabberStone build here: the run's engine cannot load, so no game is played on another
    with pytest.raises(PipelineError, match="nowhere.*does not exist"):
        analysis.run_transfer(moved, workers=1)
    assert played == []
