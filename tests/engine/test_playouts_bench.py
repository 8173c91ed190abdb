"""The playout benchmark (tools/bench/playouts.py): its measurements play the same games on the
compiled and the plain Python engine (so the draws on the stream's halves, the compiled playout
loop and the compiled MCTS decide exactly as the rules' source does), and a baseline that is no
checkout is refused."""
import os

import pytest

from tools.bench import playouts
from workers.engine.native import compiled

CORE = min(1, (os.cpu_count() or 1) - 1)


@pytest.mark.parametrize("figure", ["random_games_per_s", "mcts_iterations_per_s"])
def test_the_measured_games_are_the_same_compiled_and_plain(figure, monkeypatch):
    if not compiled():
        pytest.skip("no compiled engine here (make native)")
    _, on_compiled = playouts.measure_in(playouts.ROOT, figure, CORE)
    monkeypatch.setenv("DSAME_NATIVE", "0")
    _, on_plain = playouts.measure_in(playouts.ROOT, figure, CORE)
    assert on_compiled == on_plain


def test_a_baseline_that_is_no_checkout_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        playouts.main(["--baseline", str(tmp_path)])
    assert exit_info.value.code == 2
    assert "not a checkout of this repository" in capsys.readouterr().err
