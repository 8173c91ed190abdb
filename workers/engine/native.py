"""The engine's core compiled to C with mypyc, and the choice between it and the pure Python one.

`python -m workers.engine.native_build` (run by `make`) compiles the modules in
`COMPILED_MODULES` into `build/native/`, and the `__init__.py` of `workers.engine` and of
`workers.players` put their folders there first on the package's path, so `import
workers.engine.state` loads the compiled module. The sources stay the one definition of the
rules: the compiled modules are the same code, about 2.5x faster, and give the same games (a
test plays the pinned records both ways).

The compiled modules are used only when they were built from the sources as they are now (a
digest of the sources is kept beside them); otherwise, or with DSAME_NATIVE=0, or where no C
compiler was found at build time, the engine runs as plain Python.
"""
from __future__ import annotations

import hashlib
import os
import warnings
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NATIVE_DIR = ROOT / "build" / "native"
DIGEST_FILE = "sources.sha256"
# The hot path: what playing an action, copying and hashing a state run, the players' loops,
# MCTS, the state encoders and the Gymnasium action map. These modules keep to what mypyc
# compiles (typed fields, no generated code). The card scripts are compiled too, as they are
# (about a quarter of random play was spent interpreting them): a compiled card is the same
# source. Most are untyped, so their operations stay generic; the hooks re-applied after every
# action (auras, enrages, cost auras) and the cost hooks are typed, with the functions they
# call, so they read the engine's fields directly (tests/engine/test_typed_hooks.py checks it).
# Paths from the repository root.
_CARD_SCRIPTS = tuple(sorted(f"workers/engine/cards/{p.name}" for p in (ROOT / "workers/engine/cards").glob("*.py")
                             if p.name != "__init__.py"))
# GameState's layers, bottom to top (workers/engine/zones.py), are all on it.
STATE_LAYERS = ("zones", "triggers", "deaths", "effects", "combat", "moves", "card_play", "turns", "state")
COMPILED_MODULES = ("workers/engine/rng.py", "workers/engine/cardspec.py", "workers/engine/entities.py") + tuple(
    f"workers/engine/{layer}.py" for layer in STATE_LAYERS) + ("workers/engine/game.py", "workers/players/play.py",
                    "workers/players/game_counters.py", "workers/players/encoders.py",
                    "workers/players/action_space.py", "workers/players/mcts.py",
                    "workers/players/scores.py") + _CARD_SCRIPTS
# Hand-written C for what mypyc compiles poorly (each beside the Python it replaces, which stays
# the fallback): the score network's forward pass, whose tanh mypyc calls through Python.
C_EXTENSIONS = ("workers/players/mlp_forward.c",)
GROUP = "workers.engine.compiled"  # mypyc's shared library: workers/engine/compiled__mypyc.*.so
SWITCH_ENV = "DSAME_NATIVE"


@lru_cache(maxsize=1)  # both packages' __init__ ask; the sources are read once per process
def sources_digest() -> str:
    digest = hashlib.sha256()
    for path in COMPILED_MODULES + C_EXTENSIONS:
        digest.update(path.encode() + b"\0" + (ROOT / path).read_bytes() + b"\0")
    return digest.hexdigest()


def built_digest(native_dir: Path = NATIVE_DIR) -> str | None:
    """The digest of the sources the build in `native_dir` was made from; None: no build."""
    try:
        return (native_dir / DIGEST_FILE).read_text().strip()
    except OSError:
        return None


def usable(native_dir: Path = NATIVE_DIR) -> bool:
    """Whether compiled modules built from the current sources are there and wanted."""
    if os.environ.get(SWITCH_ENV, "1") == "0":
        return False
    built_from = built_digest(native_dir)
    if built_from is None:
        return False  # never built (or no compiler): plain Python, silently
    if built_from != sources_digest():
        # Warned from here, so the two packages that ask give one warning.
        warnings.warn(f"the compiled engine in {native_dir} was built from other sources; playing "
                      "with the plain Python engine (`make native` rebuilds it)")
        return False
    return True


def package_path(package: str, native_dir: Path = NATIVE_DIR) -> list[str]:
    """The folders to put before the own of `package` ("workers.engine", "workers.players"): none
    when the build is not usable."""
    return [str(native_dir.joinpath(*package.split(".")))] if usable(native_dir) else []


def compiled() -> bool:
    """Whether this process plays with the compiled engine: where `state` is found (without
    importing it, so that the card scripts' package can ask native for its path)."""
    from importlib.util import find_spec
    spec = find_spec(f"{__package__}.state")
    return spec is not None and spec.origin is not None and not spec.origin.endswith(".py")
