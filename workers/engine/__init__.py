"""The built-in Hearthstone engine. Its core modules load compiled when they were built from
the current sources (see native.py), else as plain Python."""
from .native import package_path

__path__[:0] = package_path(__name__)
