"""Learning from games: logged states (`state_log`), value-network training (`value_training`),
the torch training routine that the head node's surrogate shares (`training`), and the engine
as a Gymnasium environment (`gym_env`). Imports `workers.protocol` and below; the command lines
are `python -m tools.states` and `python -m tools.values`."""
