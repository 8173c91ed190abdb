"""`python -m pipeline.state.upgrade PATH`: accept a checkpoint of an older pipeline on purpose.

Files of versions 1 (no digests) and 2 (digests, no header) carry nothing that vouches for their
bytes before HDF5 parses them, so every reader refuses them. This reads one once, in a child
process with a time limit (`legacy.py`: a damaged file can make HDF5 loop or crash), and
rewrites it atomically as version 3 with the same contents: from then on any damage is caught.
A file the child cannot read in time, or that ends the child, is refused and left as it is.
PATH is the checkpoint or its run folder (held with the run's lock meanwhile). What the file
holds is still checked for plausibility (legal decks, finite values, ids that agree) when the
run resumes or is reported, as for any checkpoint."""
from __future__ import annotations

import contextlib
import sys
from pathlib import Path

from workers.inputs import ArgumentParser

from ..run_errors import PipelineError
from . import checkpoint as ckpt
from .legacy import READ_SECONDS, OlderCheckpointReader
from .run_dir import locked


def upgrade(path: Path, seconds: float = READ_SECONDS) -> str:
    """Rewrites the older checkpoint at `path` as version 3; returns what was done, in a line."""
    path = Path(path)
    if path.is_dir():
        path = path / ckpt.FILENAME
    # A run folder is held as a run holds it: a driver using it now is not disturbed.
    holding = locked(path.parent) if path.name == ckpt.FILENAME and path.is_file() else contextlib.nullcontext()
    with holding:
        if ckpt.verified_version(path, ckpt.read_file(path)) is not None:
            return f"{path} is checkpoint version {ckpt.VERSION}, verified by its checksums: left as it is"
        with OlderCheckpointReader(seconds) as reader:
            version, image = reader.read(path)
        # HDF5 here reads the image the child's HDF5 wrote, never the older file's own bytes
        _check_complete(path, ckpt.parse(path, image, (ckpt.VERSION,)))
        ckpt.replace_file(path, image)
        saved = ckpt.load(path, required=())  # what was written verifies
    count = len(saved.arrays.get("evaluations", {}).get("decks", ()))
    return (f"{path}: rewritten as checkpoint version {ckpt.VERSION} ({count} evaluations) from version {version}; "
            "its contents are checked when the run resumes or is reported")


def _check_complete(path: Path, saved: ckpt.Checkpoint) -> None:
    """What the child read (parsed here, from bytes its header vouches for) holds the groups a
    run resumes from, of a deck search or a strategy search: HDF5 reads a version-1 file whose
    links were damaged without the groups they led to, and no digest says so. CheckpointError
    else, before the file is replaced."""
    if not any(all(g in saved.arrays for g in groups) for groups in (ckpt.DECK_SEARCH_GROUPS, ckpt.STRATEGY_GROUPS)):
        held = ", ".join(sorted(saved.arrays)) or "no group"
        raise ckpt.damaged(path, f"it lacks the groups a run resumes from (it holds {held})")


def main(argv=None) -> int:
    parser = ArgumentParser(prog=ckpt.UPGRADE_COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path, help="a checkpoint.h5 of version 1 or 2, or the run folder holding it")
    parser.add_argument("--seconds", type=float, default=READ_SECONDS,
                        help=f"how long the file's reading may take before it is refused (default {READ_SECONDS:g})")
    args = parser.parse_args(argv)
    if not args.seconds > 0:
        parser.error(f"--seconds must be positive, not {args.seconds:g}")
    try:
        print(upgrade(args.path, args.seconds))
    except PipelineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
