"""What runs inside a Dask worker: the game engines, the players and deck evaluation."""
from .engine.native import package_path

__path__[:0] = package_path(__name__)  # the compiled players (see engine/native.py)
