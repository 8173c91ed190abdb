"""Where the user's SabberStone build is: `engine.path`, else $SABBERSTONE_DIR."""
from __future__ import annotations

import os
from pathlib import Path

from . import SabberStoneSetupError

ENV = "SABBERSTONE_DIR"
CORE_DLL = "SabberStoneCore.dll"
HOW = ("set engine.path=<folder holding SabberStoneCore.dll> or the environment variable "
       f"{ENV} (build it with `dotnet build -c Release SabberStoneCore` from "
       "github.com/HearthSim/SabberStone)")


def sabberstone_dir(path: str | os.PathLike | None = None) -> Path:
    """The configured folder, checked to hold SabberStoneCore.dll; SabberStoneSetupError else."""
    raw = path if path not in (None, "") else os.environ.get(ENV) or None
    if raw is None:
        raise SabberStoneSetupError(f"engine=sabberstone needs a SabberStone build: {HOW}")
    folder = Path(raw).expanduser()
    source = "engine.path" if path not in (None, "") else ENV
    if not folder.is_dir():
        raise SabberStoneSetupError(f"SabberStone folder {folder} (from {source}) does not exist: {HOW}")
    if not (folder / CORE_DLL).is_file():
        raise SabberStoneSetupError(f"{folder} (from {source}) holds no {CORE_DLL}: {HOW}")
    return folder.resolve()
