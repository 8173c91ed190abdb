"""One HDF5 checkpoint per run directory, replaced atomically: complete or absent, and checked.

Layout: root attributes (format, version, resolved config, identity hash); /state (counters
and random-generator states as JSON attributes); /real_archive and /surrogate_archive
(elites by cell); /evaluations (every real evaluation, in evaluation-id order); /blobs
(torch model + Adam state as bytes).

Integrity (version 3): the file starts with a header of its own in HDF5's user block (bytes HDF5
skips): the format, the version and the SHA-256 of both and of every byte after the header. It is
checked before HDF5 reads a byte, because HDF5 can crash, not only fail, on damaged metadata;
any flipped, lost or partly written byte anywhere is refused as damaged. Inside, as in version 2,
every dataset carries the SHA-256 of its dtype, shape and bytes as its `sha256` attribute, and
the root's `sha256` covers the attributes (config, identity, state) and the list of datasets
with their digests. The digests guard against accidents, not against someone who can write the
file: they are plain SHA-256, so a consistent edit passes (run folders are private to their
user for that). The file is built in memory and written with plain file I/O, so a full disk is
an ordinary OSError on our side of the HDF5 library, never a failure inside it.

Only a file whose version-3 header vouches for every byte is handed to HDF5 here: a file of
an older pipeline (version 1 without digests, version 2 without the header) starts with HDF5's
signature, nothing vouches for its bytes, and HDF5 can loop or crash on damaged metadata, so
`load` refuses it from its first bytes and names `python -m pipeline.state.upgrade`, which reads
it in a child process with a time limit (`legacy.py`) and rewrites it as version 3. Every read
is bounded: a dataset whose stored shape claims more bytes than the whole file is refused before
anything is allocated.
"""
from __future__ import annotations

import errno
import hashlib
import io
import json
import os
import re
from pathlib import Path

import h5py
import numpy as np

from workers.protocol.results import TARGET_NAMES

from ..behavior_space import DEFAULT_MEASURES, DEFAULT_OBJECTIVE
from ..run_errors import CheckpointError, RunDirError

FORMAT = "dsame-hearthstone-checkpoint"
VERSION = 3
OLDER_VERSIONS = (1, 2)  # 1 without digests, 2 without the header: read only by legacy.py's child
UPGRADE_COMMAND = "python -m pipeline.state.upgrade"
HEADER_SIZE = 512  # HDF5's smallest user block
HEADER = re.compile(rb"%s (\d{1,6}) sha256 [0-9a-f]{64}\n\0*" % FORMAT.encode())
HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"  # where a file without our header starts
FILENAME = "checkpoint.h5"
# The groups each kind of run keeps (a deck search, or a strategy search of CMA-ME).
DECK_SEARCH_GROUPS = ("evaluations", "real_archive")
STRATEGY_EVALUATIONS, STRATEGY_ARCHIVE = "strategy_evaluations", "strategy_archive"
STRATEGY_GROUPS = (STRATEGY_EVALUATIONS, STRATEGY_ARCHIVE)
WRITE_MARGIN = 1 << 20  # bytes left free beside a new checkpoint, for the reports written after it
# A run's folders and files are its user's alone, whatever the umask: the digests guard against
# accidents, not against whoever can write the file.
FILE_MODE, DIR_MODE = 0o600, 0o700


# --- digests --------------------------------------------------------------------------------
def array_digest(value: np.ndarray) -> str:
    """SHA-256 of an array's dtype, shape and bytes: a flipped bit anywhere changes it."""
    value = np.ascontiguousarray(value)
    if value.dtype.kind == "O":
        raise TypeError("object arrays cannot be checkpointed")
    head = f"{value.dtype.str}|{value.shape}|".encode()
    return hashlib.sha256(head + value.tobytes()).hexdigest()


def header(version: int, body: bytes) -> bytes:
    """The user block: format, version and the SHA-256 of both and of the bytes after it."""
    digest = hashlib.sha256(f"{FORMAT} {version}\n".encode() + body).hexdigest()
    return f"{FORMAT} {version} sha256 {digest}\n".encode().ljust(HEADER_SIZE, b"\0")


def root_digest(attrs: dict, state_json: str, datasets: dict[str, str]) -> str:
    """SHA-256 of the root attributes, the state and every dataset's path and digest."""
    text = json.dumps({"attrs": attrs, "state": state_json, "datasets": datasets}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


# --- writing --------------------------------------------------------------------------------
def save(path: Path, *, config_yaml: str, identity: str, state: dict, arrays: dict[str, dict],
         blobs: dict[str, bytes]) -> None:
    """Build the file in memory, then write it to a temporary file beside `path`, fsync it,
    rename it over `path` and fsync the folder. A write that fails (a full disk) raises
    RunDirError naming the folder and its free space; the previous checkpoint stays."""
    image = file_image(config_yaml=config_yaml, identity=identity, state=state, arrays=arrays,
                       blobs=blobs)
    replace_file(Path(path), image)


def file_image(*, config_yaml: str, identity: str, state: dict, arrays: dict[str, dict],
               blobs: dict[str, bytes]) -> bytes:
    """The bytes of a complete checkpoint file."""
    attrs = {"format": FORMAT, "version": VERSION, "config": config_yaml, "identity": identity}
    state_json = json.dumps(state, sort_keys=True)
    digests: dict[str, str] = {}
    buf = io.BytesIO()
    with h5py.File(buf, "w", userblock_size=HEADER_SIZE) as f:
        for key, value in attrs.items():
            f.attrs[key] = value
        f.create_group("state").attrs["json"] = state_json
        items = [(f"{group}/{name}", np.asarray(value)) for group, data in arrays.items()
                 for name, value in data.items()]
        items += [(f"blobs/{name}", np.frombuffer(blob, dtype=np.uint8)) for name, blob in blobs.items()]
        for name, value in items:
            digests[name] = array_digest(value)
            f.create_dataset(name, data=value).attrs["sha256"] = digests[name]
        f.attrs["sha256"] = root_digest(attrs, state_json, digests)
    body = buf.getvalue()[HEADER_SIZE:]
    return header(VERSION, body) + body


def replace_file(path: Path, data: bytes) -> None:
    """Atomically replace `path` by `data` (temp file, fsync, rename, fsync of the folder)."""
    folder = path.parent
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    needed = len(data) + WRITE_MARGIN
    try:
        free = free_bytes(folder)
        if free is not None and free < needed:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))  # before writing a byte
        fd = new_private_file(tmp)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError as exc:
        raise write_error(path, exc, needed) from None
    finally:
        tmp.unlink(missing_ok=True)


def write_error(path: Path, exc: OSError, needed: int | None = None, what: str | None = None) -> RunDirError:
    """A failed write into a run folder as one line: the file (or `what`) and the reason; for a
    full disk also the free space, what the write needed, and whether a checkpoint is kept to
    resume from (what was written before stays as it was)."""
    path = Path(path)
    reason = exc.strerror or str(exc)
    if exc.errno not in (errno.ENOSPC, errno.EDQUOT):
        return RunDirError(f"cannot write {path}: {reason}")
    free = free_bytes(path.parent)
    space = "free space unknown" if free is None else f"{free / 2 ** 20:.1f} MiB free"
    if needed is not None:
        space += (f", {needed / 2 ** 20:.1f} MiB needed: {(needed - WRITE_MARGIN) / 2 ** 20:.1f} MiB for the file "
                  f"and {WRITE_MARGIN / 2 ** 20:.0f} MiB the run keeps in reserve for the files it writes next")
    if (path.parent / FILENAME).is_file():
        then = "the last complete checkpoint is kept; free some space and run the same command again to resume"
    else:
        then = "no checkpoint was written yet; free some space and run the same command again to start"
    return RunDirError(f"cannot write {what or path.name} in {path.parent}: {reason} ({space}); {then}")


def new_private_file(path: Path) -> int:
    """A write descriptor of `path`, created or emptied, mode 0600 (set, not left to the umask)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    os.fchmod(fd, FILE_MODE)
    return fd


def make_private_dir(folder: Path) -> None:
    """`folder` created if missing (not its parents) and made 0700 (also one an older run made 0755)."""
    folder.mkdir(mode=DIR_MODE, exist_ok=True)
    folder.chmod(DIR_MODE)


def free_bytes(folder: Path) -> int | None:
    try:
        stats = os.statvfs(folder)
    except OSError:
        return None
    return stats.f_bavail * stats.f_frsize


# --- reading --------------------------------------------------------------------------------
class Checkpoint:
    """A loaded checkpoint, fully read into memory (the file is closed at once)."""

    def __init__(self, path: Path, config_yaml: str, identity: str, state: dict,
                 arrays: dict[str, dict[str, np.ndarray]], blobs: dict[str, bytes], version: int = VERSION):
        self.path, self.config_yaml, self.identity = path, config_yaml, identity
        self.state, self.arrays, self.blobs, self.version = state, arrays, blobs, version


def load(path: Path, required: tuple[str, ...] = DECK_SEARCH_GROUPS) -> Checkpoint:
    """Read a checkpoint and verify its digests; any problem becomes a CheckpointError naming
    the file and what is wrong (for anything in the file, that it is damaged). The file is only
    read; HDF5 reads from memory the bytes the header vouched for, and nothing else: an older
    or damaged file is refused from its first bytes."""
    path = Path(path)
    return parse(path, verified_bytes(path), (VERSION,), required)


def verified_bytes(path: Path) -> bytes:
    """The file's bytes, once its version-3 header vouches for every one; CheckpointError else
    (from the first bytes for an older or damaged file), without HDF5."""
    data = read_file(path)
    if verified_version(path, data) is None:
        raise older_or_damaged(path)
    return data


def read_file(path: Path) -> bytes:
    if not path.is_file():
        what = "no checkpoint" if not path.exists() else "not a regular file (so not a checkpoint)"
        raise CheckpointError(f"{what} at {path}")
    try:
        return path.read_bytes()
    except OSError as exc:
        raise CheckpointError(f"cannot read checkpoint {path}: {exc.strerror or exc}") from None


def parse(path: Path, data: bytes, versions: tuple[int, ...], required: tuple[str, ...] = ()) -> Checkpoint:
    """The checkpoint in `data`, read with HDF5 from memory, its digests verified (version 1 has
    none). HDF5 may loop or crash on damaged bytes: in the driver this only ever reads bytes a
    version-3 header vouched for; older files are parsed by legacy.py's child process."""
    try:
        with h5py.File(io.BytesIO(data), "r") as f:
            version = _check_header(path, f, versions)
            state_json = str(f["state"].attrs["json"])
            datasets = _read_datasets(path, f, verify=version >= 2, limit=len(data))
            attrs = {"format": FORMAT, "version": version, "config": str(f.attrs["config"]),
                     "identity": str(f.attrs["identity"])}
            if version >= 2 and str(f.attrs.get("sha256")) != root_digest(
                    attrs, state_json, {k: d for k, (_, d) in datasets.items()}):
                raise damaged(path, "its attributes (config, identity or state) fail their checksum")
        state = json.loads(state_json)
    except CheckpointError:
        raise
    except Exception as exc:  # HDF5 and the decoders raise many types on damaged bytes
        reason = (str(exc).splitlines() or [type(exc).__name__])[0]
        raise damaged(path, f"it cannot be read as a checkpoint ({reason})") from None
    if not isinstance(state, dict):
        raise damaged(path, "its state is not a JSON object")
    arrays: dict[str, dict[str, np.ndarray]] = {}
    blobs: dict[str, bytes] = {}
    for name, (value, _) in datasets.items():
        group, key = name.split("/", 1)
        if group == "blobs":
            blobs[key] = value.tobytes()
        else:
            arrays.setdefault(group, {})[key] = value
    return require(Checkpoint(path, attrs["config"], attrs["identity"], state, arrays, blobs, version), required)


def require(saved: Checkpoint, groups: tuple[str, ...]) -> Checkpoint:
    """`saved`, if it holds every one of these groups; CheckpointError naming the missing else."""
    missing = [name for name in groups if name not in saved.arrays]
    if missing:
        raise CheckpointError(f"checkpoint {saved.path} lacks {', '.join(missing)}")
    return saved


def damaged(path: Path, what: str) -> CheckpointError:
    return CheckpointError(f"checkpoint {path} is damaged: {what}; it was left as it is")


def verified_version(path: Path, data: bytes) -> int | None:
    """The version whose header vouches for every byte after it (only VERSION is read), or None
    for a file that starts with HDF5's signature: one of an older pipeline, or one whose
    header was lost; nothing vouches for such a file's bytes. Anything else is refused."""
    if data.startswith(HDF5_SIGNATURE):
        return None
    match = HEADER.fullmatch(data[:HEADER_SIZE])
    if match is None:
        if not data.startswith(FORMAT.encode()):
            raise foreign(path, "neither a checkpoint header nor HDF5's signature at its start")
        raise damaged(path, "its header is damaged")
    version = int(match.group(1))
    if data[:HEADER_SIZE] != header(version, data[HEADER_SIZE:]):
        raise damaged(path, "the file fails its checksum (a byte was changed, lost or not written)")
    if version != VERSION:
        raise CheckpointError(f"{path} is checkpoint version {version}, this pipeline reads version {VERSION} "
                              f"(and versions {' and '.join(map(str, OLDER_VERSIONS))} once upgraded)")
    return version


def older_or_damaged(path: Path) -> CheckpointError:
    return CheckpointError(
        f"checkpoint {path} has no verified header: it is an older checkpoint (version 1 or 2, written before "
        "checkpoints carried a header with checksums), a damaged one or another HDF5 file, and it is not read; "
        "to accept an older checkpoint on purpose, "
        f"run `{UPGRADE_COMMAND} {path}` (reads it once in a separate process and rewrites it as a verified "
        "version-3 file) and then the same command again")


def foreign(path: Path, what: str) -> CheckpointError:
    """A file that is not a checkpoint of this pipeline, or one damaged where it says so."""
    return CheckpointError(f"checkpoint {path} is damaged or not a DSA-ME checkpoint ({what}); "
                           "it was left as it is")


def _check_header(path: Path, f: h5py.File, versions: tuple[int, ...]) -> int:
    if f.attrs.get("format") != FORMAT:
        raise foreign(path, f"no '{FORMAT}' format tag")
    version = f.attrs.get("version")
    if version not in versions:
        raise damaged(path, f"its version attribute is {version!r}, not {' or '.join(map(str, versions))}")
    if version == 1 and "sha256" in f.attrs:  # a version-2 file whose version was damaged
        raise damaged(path, "it claims version 1 but carries digests")
    return int(version)


def _read_datasets(path: Path, f: h5py.File, verify: bool, limit: int) -> dict[str, tuple[np.ndarray, str]]:
    """Every dataset under the root's groups: path -> (value, digest), each digest verified;
    each one's claimed size checked against the file's (`limit` bytes) before it is read."""
    out = {}
    for group in f:
        if group == "state":
            continue
        if not isinstance(f[group], h5py.Group):
            raise damaged(path, f"/{group} is not a group")
        for name, dataset in f[group].items():
            if not isinstance(dataset, h5py.Dataset):
                raise damaged(path, f"/{group}/{name} is not a dataset")
            _check_readable(path, f"/{group}/{name}", dataset, limit)
            value = np.asarray(dataset[()])
            digest = array_digest(value) if verify else ""
            if verify and str(dataset.attrs.get("sha256")) != digest:
                raise damaged(path, f"dataset /{group}/{name} fails its checksum")
            out[f"{group}/{name}"] = (value, digest)
    return out


def _check_readable(path: Path, where: str, dataset: h5py.Dataset, limit: int) -> None:
    """A checkpoint's datasets are plain arrays stored whole (no chunks, filters or variable
    lengths), so none can hold more bytes than the file: a shape that claims more (damaged
    metadata) is refused before HDF5 allocates and fills it, which could take minutes."""
    dtype, shape = dataset.dtype, dataset.shape or ()
    if dtype.hasobject or dataset.chunks is not None:
        raise damaged(path, f"dataset {where} is not stored as a plain array")
    size = dtype.itemsize
    for extent in shape:
        size *= int(extent)
    if size > limit:
        raise damaged(path, f"dataset {where} claims shape {shape} of {dtype} ({size} bytes), more than the "
                            f"whole file ({limit} bytes)")


# --- plausibility of what was loaded ----------------------------------------------------------
def check_contents(saved: Checkpoint, *, limits: np.ndarray, deck_size: int, cells: int | None,
                   values=None) -> None:
    """What the digests cannot vouch for (a version-1 file has none; a file can be written
    consistently wrong): legal decks, finite values in their ranges, ids that agree between
    the evaluations and the archives, a usable random-generator state. CheckpointError else.
    cells=None: the archives are not checked (another run's file, read for its evaluations)."""
    path, arrays = saved.path, saved.arrays
    limits = np.asarray(limits)
    n = None
    if "evaluations" in arrays:
        n = _check_evaluations(path, arrays["evaluations"], limits, deck_size)
    if cells is not None and "real_archive" in arrays:
        _check_real_archive(path, arrays["real_archive"], arrays.get("evaluations"), limits, deck_size, cells,
                            values)
    if cells is not None and "surrogate_archive" in arrays:
        _check_surrogate_archive(path, arrays["surrogate_archive"], limits, deck_size, cells)
    _check_state(path, saved.state, n)


def _fields(path, group: str, data: dict, names: tuple[str, ...]) -> int:
    """The named fields exist and share their first dimension; returns it."""
    missing = [k for k in names if k not in data]
    if missing:
        raise damaged(path, f"/{group} lacks {', '.join(missing)}")
    lengths = {k: (data[k].shape[0] if data[k].ndim else -1) for k in names}
    if len(set(lengths.values())) != 1 or -1 in lengths.values():
        raise damaged(path, f"/{group} holds fields of different lengths ({lengths})")
    return next(iter(lengths.values()))


def _check_decks(path, where: str, decks: np.ndarray, limits: np.ndarray, deck_size: int) -> None:
    if decks.ndim != 2 or decks.shape[1] != len(limits) or decks.dtype.kind not in "iu":
        raise damaged(path, f"{where} is {decks.dtype} {decks.shape}, not decks of {len(limits)} card counts")
    bad = np.argwhere((decks < 0) | (decks > limits))
    if len(bad):
        row, card = bad[0]
        raise damaged(path, f"{where} row {row} holds {decks[row, card]} copies of pool card {card} "
                            f"(allowed 0 to {limits[card]})")
    sizes = decks.sum(axis=1)
    wrong = np.flatnonzero(sizes != deck_size)
    if len(wrong):
        raise damaged(path, f"{where} row {wrong[0]} is a deck of {sizes[wrong[0]]} cards, not {deck_size}")


def _check_finite(path, where: str, values: np.ndarray, columns: int | None = None) -> None:
    if values.dtype.kind not in "fiu" or (columns is not None and (values.ndim != 2 or values.shape[1] != columns)):
        raise damaged(path, f"{where} is {values.dtype} {values.shape}, not {columns or 'some'} numbers per row")
    if not np.isfinite(values).all():
        raise damaged(path, f"{where} holds NaN or infinite values")


# The real targets' possible ranges by name: health difference within two heroes' health and
# armour, hand size within the hand's 10 places, win rate a share; every other target a
# non-negative count or average.
_TARGET_RANGES = {"health_difference": (-100.0, 100.0), "hand_size": (0.0, 10.0), "win_rate": (0.0, 1.0)}
_TARGET_LOW, _TARGET_HIGH = np.array([_TARGET_RANGES.get(name, (0.0, np.inf)) for name in TARGET_NAMES]).T


def _check_targets(path, where: str, targets: np.ndarray) -> None:
    _check_finite(path, where, targets, len(_TARGET_LOW))
    bad = np.argwhere((targets < _TARGET_LOW) | (targets > _TARGET_HIGH))
    if len(bad):
        row, col = bad[0]
        raise damaged(path, f"{where} row {row} target {col} is {targets[row, col]:g}, outside "
                            f"[{_TARGET_LOW[col]:g}, {_TARGET_HIGH[col]:g}]")


def _check_evaluations(path, ev: dict, limits, deck_size: int) -> int:
    n = _fields(path, "evaluations", ev, ("decks", "targets", "eval_id", "source", "iteration"))
    _check_decks(path, "/evaluations/decks", ev["decks"], limits, deck_size)
    _check_targets(path, "/evaluations/targets", ev["targets"])
    if not np.array_equal(ev["eval_id"], np.arange(n)):
        raise damaged(path, "/evaluations/eval_id is not 0, 1, 2, ... in order")
    if not np.isin(ev["source"], (0, 1, 2)).all():
        raise damaged(path, "/evaluations/source holds values other than 0, 1, 2")
    it = ev["iteration"]
    if it.dtype.kind not in "iu" or (it < 0).any() or (np.diff(it) < 0).any():
        raise damaged(path, "/evaluations/iteration is not a non-decreasing count")
    return n


def _check_cells(path, where: str, index: np.ndarray, cells: int) -> None:
    if index.dtype.kind not in "iu" or ((index < 0) | (index >= cells)).any():
        raise damaged(path, f"{where} holds cell numbers outside 0 to {cells - 1}")
    if len(np.unique(index)) != len(index):
        raise damaged(path, f"{where} holds a cell twice")


def _check_real_archive(path, a: dict, ev: dict | None, limits, deck_size: int, cells: int, values=None) -> None:
    """`values(targets, decks)`: an elite's (objective, measures) from its evaluation, as the
    run's behaviour space takes them (default: the paper's space)."""
    m = _fields(path, "real_archive", a, ("index", "solution", "objective", "measures", "eval_id", "targets"))
    if m == 0:
        return
    _check_cells(path, "/real_archive/index", a["index"], cells)
    _check_decks(path, "/real_archive/solution", a["solution"], limits, deck_size)
    _check_targets(path, "/real_archive/targets", a["targets"])
    objective, measures = (values or _paper_values)(a["targets"], a["solution"])
    ok = np.array_equal(a["objective"], objective) and np.array_equal(a["measures"], measures)
    if not ok:
        raise damaged(path, "/real_archive objective or measures disagree with its targets")
    if ev is not None:
        ids = a["eval_id"]
        if ids.dtype.kind not in "iu" or ((ids < 0) | (ids >= len(ev["decks"]))).any():
            raise damaged(path, "/real_archive/eval_id names evaluations that do not exist")
        if not (np.array_equal(a["solution"], ev["decks"][ids]) and np.array_equal(a["targets"], ev["targets"][ids])):
            raise damaged(path, "/real_archive elites differ from the evaluations they name")


def _paper_values(targets: np.ndarray, decks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The default (the paper's) space's objective and measures, taken from the targets by name."""
    column = TARGET_NAMES.index
    return targets[:, column(DEFAULT_OBJECTIVE)], targets[:, [column(m) for m in DEFAULT_MEASURES]]


def _check_surrogate_archive(path, a: dict, limits, deck_size: int, cells: int) -> None:
    m = _fields(path, "surrogate_archive", a, ("index", "solution", "objective", "measures", "targets"))
    if "occ_list" not in a or len(a["occ_list"]) != m or not np.array_equal(np.sort(a["occ_list"]), np.sort(a["index"])):
        raise damaged(path, "/surrogate_archive/occ_list does not list its occupied cells")
    if m == 0:
        return
    _check_cells(path, "/surrogate_archive/index", a["index"], cells)
    _check_decks(path, "/surrogate_archive/solution", a["solution"], limits, deck_size)
    for key in ("objective", "measures", "targets"):
        _check_finite(path, f"/surrogate_archive/{key}", a[key])


def _check_state(path, state: dict, n: int | None) -> None:
    try:
        np.random.PCG64().state = state["rng"]
        outer = state["outer_iteration"]
        history = state["history"]
    except (KeyError, TypeError, ValueError) as exc:
        raise damaged(path, f"its state is incomplete or malformed ({exc!r})") from None
    if not isinstance(outer, int) or isinstance(outer, bool) or outer < 0:
        raise damaged(path, f"its state's outer_iteration is {outer!r}")
    if not isinstance(history, list) or not all(isinstance(h, dict) for h in history):
        raise damaged(path, "its state's history is not a list of records")
    if n is not None and state.get("evaluations", n) != n:
        raise damaged(path, f"its state counts {state.get('evaluations')!r} evaluations, the file holds {n}")
    lag = state.get("lag", 0)  # the steady-state loop's; absent from runs begun under the old auto (legacy_lag)
    if not isinstance(lag, int) or isinstance(lag, bool) or lag < 0:
        raise damaged(path, f"its state's lag is {lag!r}")
