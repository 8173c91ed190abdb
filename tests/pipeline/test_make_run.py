"""`make run` is the real thing: the command its Makefile target runs plays the paper's
protocol players (not random ones) and is sized for a search one can watch."""
import math
import re
import shlex
from pathlib import Path

from hydra import compose, initialize_config_dir

from pipeline.driver import CONF_DIR
from pipeline.state.config import validate

ROOT = Path(__file__).resolve().parents[2]


def run_target_overrides() -> list[str]:
    """The Hydra overrides of the `python -m pipeline` line in the Makefile's run target."""
    text = (ROOT / "Makefile").read_text()
    match = re.search(r"^run:[^\n]*\n((?:\t[^\n]*\n)+)", text, re.M)
    assert match, "the Makefile has no run target with a recipe"
    lines = [ln.strip() for ln in match.group(1).splitlines() if "-m pipeline" in ln]
    assert len(lines) == 1, f"the run target should run python -m pipeline once: {match.group(1)!r}"
    words = shlex.split(lines[0])
    return words[words.index("pipeline") + 1:]


def _cfg(*overrides):
    with initialize_config_dir(config_dir=CONF_DIR, version_base="1.3"):
        return validate(compose("config", overrides=list(overrides)))


def test_make_run_plays_the_protocols_players():
    overrides = run_target_overrides()
    assert any(o.startswith("experiment=") for o in overrides), overrides
    run, paper = _cfg(*overrides), _cfg("experiment=paper")
    assert run.strategy.player == "beam" and run.strategy.player != "random"
    assert dict(run.strategy) == dict(paper.strategy)  # depth 13, width 4, the nn score
    assert (run.strategy.beam_depth, run.strategy.beam_width, run.strategy.evaluated) == (13, 4, "nn")
    assert dict(run.opponents) | {"games": None} == dict(paper.opponents) | {"games": None}
    assert run.engine.name == paper.engine.name and run.algorithm.name == "dsa_me"


def test_make_run_makes_at_least_five_outer_iterations():
    """A batch is the surrogate archive's elites, one per cell at most: whatever the surrogate
    predicts, the budget left after the initial decks and the lag's mutants holds 5 batches."""
    a, cells = (run := _cfg(*run_target_overrides())).algorithm, math.prod(run.archive.dims)
    lag = int(a.lag) if a.steady_state else 0
    assert a.lag != "auto" or not a.steady_state, "a fixed lag keeps make run the same on every machine"
    assert math.ceil((a.budget - a.initial - lag) / cells) >= 5


def test_the_random_preset_says_so_and_is_not_the_default():
    random = _cfg("experiment=smoke_random")
    assert random.strategy.player == "random" and random.name == "smoke_random"
    assert "smoke_random" not in run_target_overrides()
