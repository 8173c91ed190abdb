"""Card scripts, one module per group of cards. Importing this package registers them all."""
import importlib
import pkgutil

from ..native import package_path

__path__[:0] = package_path(__name__)  # compiled with the engine's core when built (native.py)
for _module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    importlib.import_module(f"{__name__}.{_module.name}")
