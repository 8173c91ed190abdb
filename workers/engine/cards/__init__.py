"""Card scripts, one module per group of cards. Importing this package registers them all.

Scripts are plain Python, untyped, except the hooks re-applied after every action (tests/engine/
test_typed_hooks.py) and the scripts the protocol's games run most (Miracle Rogue's spells, its
Gadgetzan Auctioneer and Leeroy Jenkins, the opponents' hero powers): typed, their compiled code
reads the engine's fields and calls its methods directly instead of through Python."""
import importlib
import pkgutil

from ..native import package_path

__path__[:0] = package_path(__name__)  # compiled with the engine's core when built (native.py)
for _module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    importlib.import_module(f"{__name__}.{_module.name}")
