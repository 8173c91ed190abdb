"""Checkpoints of older pipelines (versions 1 and 2), read only in a child process.

Nothing vouches for such a file's bytes (version 1 has no digests, neither has a header), and
HDF5 can loop forever or crash on damaged metadata, inside C code where no signal handler or
timeout of ours runs. So the driver never parses one: `OlderCheckpointReader` hands the path
to a child process, which reads the file with HDF5 and answers with the same contents as a
version-3 file image (whose header the parent verifies before HDF5 sees it). A child that has
not answered within the time limit is killed, one that dies is named by its signal, and in
both cases the file is refused in one line and left as it is. The upgrade command
(`pipeline.state.upgrade`) is the one user; the tests drive it over thousands of damaged files.
"""
from __future__ import annotations

import multiprocessing
import signal
from pathlib import Path

from ..run_errors import CheckpointError
from . import checkpoint as ckpt

READ_SECONDS = 5.0  # a 10,000-evaluation file reads in well under a second
START_SECONDS = 60.0  # the child's own start (imports), which says nothing about the file


class OlderCheckpointReader:
    """A child process that reads older checkpoints one at a time; a fresh one replaces a
    child that was killed or died. Use it as a context manager."""

    def __init__(self, seconds: float = READ_SECONDS):
        self.seconds = seconds
        self._process = None
        self._conn = None

    def __enter__(self) -> "OlderCheckpointReader":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def read(self, path: Path) -> tuple[int, bytes]:
        """(the version the file claims, its contents as a version-3 file image), or a
        CheckpointError in one line naming the file and why it was refused."""
        path = Path(path)
        conn = self._child()
        conn.send(str(path))
        if not conn.poll(self.seconds):
            self._end()
            raise ckpt.damaged(path, f"it could not be read within {self.seconds:g} s (HDF5 can loop on damaged "
                                     "metadata; the reader was stopped)")
        try:
            answer = conn.recv()
        except (EOFError, OSError):
            code = self._end()
            how = f"signal {signal.Signals(-code).name}" if code is not None and code < 0 else f"exit code {code}"
            raise ckpt.damaged(path, f"reading it ended the reader ({how})") from None
        if answer[0] == "error":
            raise CheckpointError(answer[1])
        _, version, image = answer
        return version, image

    def close(self) -> None:
        if self._process is not None:
            self._conn.close()
            self._process.join(1)
            self._end()

    def _child(self):
        if self._process is None:
            ours, theirs = multiprocessing.Pipe()
            # spawn: a fresh interpreter, never a fork of a driver that holds threads or HDF5 state
            process = multiprocessing.get_context("spawn").Process(target=_serve, args=(theirs,), daemon=True,
                                                                    name="older-checkpoint-reader")
            process.start()
            theirs.close()
            self._process, self._conn = process, ours
            if not ours.poll(START_SECONDS) or ours.recv() != "ready":
                self._end()
                raise CheckpointError(f"the reader of older checkpoints did not start within {START_SECONDS:g} s")
        return self._conn

    def _end(self) -> int | None:
        """Kill the child (if it still runs); its exit code."""
        process, self._process = self._process, None
        if process is None:
            return None
        if process.is_alive():
            process.kill()
        process.join()
        self._conn.close()
        return process.exitcode


def _serve(conn) -> None:
    """The child: read each path it is sent, answer ("ok", version, image) or ("error", line)."""
    conn.send("ready")
    while True:
        try:
            path = Path(conn.recv())
        except EOFError:
            return
        try:
            saved = ckpt.parse(path, ckpt.read_file(path), ckpt.OLDER_VERSIONS)
            image = ckpt.file_image(config_yaml=saved.config_yaml, identity=saved.identity, state=saved.state,
                                    arrays=saved.arrays, blobs=saved.blobs)
            conn.send(("ok", saved.version, image))
        except CheckpointError as exc:
            conn.send(("error", str(exc)))
        except Exception as exc:  # anything the writer finds in what HDF5 returned
            conn.send(("error", str(ckpt.damaged(path, f"its contents cannot be rewritten ({exc})"))))
