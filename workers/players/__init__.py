"""How a side chooses its actions, and what it reads to choose. Imports `workers.engine` (and
the base modules), never the protocol, learning or anything above.

- `play`: the game loop (`play_game`), the random player and the protocol's beam search;
  compiled with the engine's core (see workers/engine/native.py), as is `tally` (the
  statistics the protocol counts while a player plays).
- `scores`: the protocol's score functions (aggro, control, the neural-net one) and the check
  of a strategy name or weights file.
- `encoders`: state encoders (pure functions of state and player); `value_model`: a value
  network, saved and loaded, as a score.
- `value_beam` (the beam search scored by a value network), `mcts` (ISMCTS).
- `specs`: the player spec strings (`mcts:200`, `value_beam:MODEL`, ...) that name a player in
  the config, the tournament and the Gymnasium environment. A new player is a module here and
  a kind in `specs`.
"""
from ..engine.native import package_path

__path__[:0] = package_path(__name__)  # the compiled play and tally (see engine/native.py)
