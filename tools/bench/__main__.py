import sys

from . import engine, head_node

status = engine.main()
if status == 0:
    head_node.main([])  # its own options are not the engine's
sys.exit(status)
