"""`python -m tools.bench [options]`: the engine's figures (engine_costs.py), the playouts' (playouts.py:
random games, MCTS iterations and environment steps per second, and a protocol game's CPU time;
with --baseline DIR, also on that checkout, with the ratio), then the head node's (head_node.py)."""
import sys

from . import engine_costs, head_node, playouts

args = engine_costs.parse(sys.argv[1:])
status = engine_costs.run(args)
if status == 0:
    status = playouts.main([] if args.baseline is None else ["--baseline", args.baseline])
if status == 0:
    head_node.main([])  # its own options are not the engine's
sys.exit(status)
