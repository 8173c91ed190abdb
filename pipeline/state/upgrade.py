"""`python -m pipeline.state.upgrade PATH`: accept a version-1 checkpoint on purpose.

Version-1 files (runs made before the digests) cannot be verified, so every reader refuses them.
This reads one once, as it is, and rewrites it atomically as version 3 with the same contents:
from then on any damage is caught. PATH is the checkpoint or its run folder (held with the run's
lock meanwhile). What the file holds is still checked for plausibility (legal decks, finite
values, ids that agree) when the run resumes or is reported, as for any checkpoint."""
from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from ..run_errors import PipelineError
from . import checkpoint as ckpt
from .run_dir import locked


def upgrade(path: Path) -> str:
    """Rewrites the version-1 checkpoint at `path` as version 3; returns what was done, in a line."""
    path = Path(path)
    if path.is_dir():
        path = path / ckpt.FILENAME
    # A run folder is held as a run holds it: a driver using it now is not disturbed.
    holding = locked(path.parent) if path.name == ckpt.FILENAME and path.is_file() else contextlib.nullcontext()
    with holding:
        saved = ckpt.load(path, required=(), accept_unverified=True)
        if saved.version != ckpt.UNVERIFIED_VERSION:
            return f"{path} is checkpoint version {saved.version}, verified by its checksums: left as it is"
        ckpt.save(path, config_yaml=saved.config_yaml, identity=saved.identity, state=saved.state,
                  arrays=saved.arrays, blobs=saved.blobs)
        ckpt.load(path, required=())  # what was written verifies
    count = len(saved.arrays.get("evaluations", {}).get("decks", ()))
    return (f"{path}: rewritten as checkpoint version {ckpt.VERSION} ({count} evaluations); its contents are "
            "checked when the run resumes or is reported")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog=ckpt.UPGRADE_COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path, help="a version-1 checkpoint.h5, or the run folder holding it")
    args = parser.parse_args(argv)
    try:
        print(upgrade(args.path))
    except PipelineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
