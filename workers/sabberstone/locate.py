"""Where the user's SabberStone build is: `engine.path`, else $SABBERSTONE_DIR. The folder holds
SabberStone's core (the game) and SabberStoneBasicAI (its planner and scores, which the reference
evaluator plays with)."""
from __future__ import annotations

import os
from pathlib import Path

from . import SabberStoneSetupError

ENV = "SABBERSTONE_DIR"
CORE_DLL = "SabberStoneCore.dll"
AI_DLL = "SabberStoneBasicAI.dll"
ASSEMBLIES = (CORE_DLL, AI_DLL)
HOW = (f"set engine.path=<folder holding {CORE_DLL} and {AI_DLL}> or the environment variable "
       f"{ENV} (the SabberStoneCore and core-extensions/SabberStoneBasicAI projects of "
       "github.com/HearthSim/SabberStone, built by you)")


def sabberstone_dir(path: str | os.PathLike | None = None, source: str = "engine.path") -> Path:
    """The configured folder, checked to hold both assemblies; SabberStoneSetupError else.
    `source`: where `path` came from, for the messages (a command's argument, engine.path)."""
    raw = path if path not in (None, "") else os.environ.get(ENV) or None
    if raw is None:
        raise SabberStoneSetupError(f"engine=sabberstone needs a SabberStone build: {HOW}")
    folder = Path(raw).expanduser()
    source = source if path not in (None, "") else ENV
    if not folder.is_dir():
        raise SabberStoneSetupError(f"SabberStone folder {folder} (from {source}) does not exist: {HOW}")
    missing = [name for name in ASSEMBLIES if not (folder / name).is_file()]
    if missing:
        raise SabberStoneSetupError(f"{folder} (from {source}) holds no {' and no '.join(missing)}: {HOW}")
    return folder.resolve()
