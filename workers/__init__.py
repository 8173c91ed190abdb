"""The game side: what runs inside a Dask worker. It never imports `pipeline` or `tools`.

Packages, bottom to top; each imports only those below it:
- `errors`, `inputs`: errors that name the problem; users' files and arguments read defensively.
- `engine`: the built-in Hearthstone engine (rules, card scripts, card data, compiled core,
  class pools). It knows nothing of players.
- `players`: how a side chooses its actions (the game loop, random and beam players, scores,
  state encoders, value networks as players read them, MCTS, player specs).
- `protocol`: the paper's evaluation of a deck (decks and opponents checked, games, results).
- `learning`: learning from games (logged states, value-network training, the torch training
  routine the head node's surrogate shares, the Gymnasium environment).
- `sabberstone`: SabberStone behind the protocol's `evaluate_deck` interface.
"""
from pathlib import Path

from . import moved

DATA = Path(__file__).parent / "data"  # decks, opponents, weights, pools, reference records

moved.install()
