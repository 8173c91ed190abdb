"""The built-in Hearthstone engine: the rules and the game state (`state`, `game`, `entities`,
`actions`, `rng`), the card scripts (`cards/`, declared with `cardspec`), the card data
(`carddb`), the class pools and deck-building rules (`class_pools`), card coverage
(`coverage`). It imports only `workers.errors`; it knows nothing of players or evaluations. A
new card is a script in `cards/` and a test. Its core modules load compiled when they were
built from the current sources (see native.py), else as plain Python."""
from .native import package_path

__path__[:0] = package_path(__name__)
