"""`python -m tools.bench [--baseline DIR]`: the engine's figures (engine.py), the playouts'
(playouts.py: random games, MCTS iterations and environment steps per second, with their ratio
to the checkout DIR when given), then the head node's (head_node.py)."""
import argparse
import sys

from . import engine, head_node, playouts

parser = argparse.ArgumentParser(prog="python -m tools.bench", description=__doc__)
parser.add_argument("--baseline", help="another checkout to compare the playout figures with "
                                       "(e.g. `git worktree add /tmp/base c30c748`)")
args = parser.parse_args()
status = engine.main([])
if status == 0:
    status = playouts.main([] if args.baseline is None else ["--baseline", args.baseline])
if status == 0:
    head_node.main([])  # its own options are not the engine's
sys.exit(status)
