"""How a side chooses its actions, and what it reads to choose. Imports `workers.engine` (and
the base modules), never the protocol, learning or anything above.

- `play`: the one turn loop every player plugs its choice of action into (`play_turn`), the
  game loop (`play_game`), the random player, random playouts and the protocol's beam search;
  compiled with the engine's core (see workers/engine/native.py), as are `game_counters` (the
  statistics the protocol counts while a player plays), `encoders`, `action_space` and `mcts`.
- `scores`: the protocol's score functions (aggro, control, the neural-net one) and the check
  of a strategy name or weights file.
- `encoders`: state encoders (pure functions of state and player); `action_space`: one index
  per legal move (the Gymnasium environment's and a policy's actions); `value_model`: a value
  network, saved and loaded, as a score.
- `value_beam` (the beam search scored by a value network; `reply_beam` values its best lines
  again after the opponent's reply), `mcts` (ISMCTS), `ppo_player` (a MaskablePPO policy as a
  player), `osl` and `trade` (the seeds' baselines).
- `specs`: the player spec strings (`mcts:200`, `value_beam:MODEL`, ...) that name a player in
  the config, the tournament and the Gymnasium environment. A new player is a module here and
  a kind in `specs`; its `take_turn` passes its choice of the next action to `play_turn`.
"""
from ..engine.native import package_path

__path__[:0] = package_path(__name__)  # the compiled modules above (see engine/native.py)
