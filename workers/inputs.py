"""Files and command-line arguments that users give, read defensively: every problem (a missing
or oversized file, bad encoding, malformed or absurdly nested JSON, a number out of range)
becomes one InputError line that names the file or the argument."""
from __future__ import annotations

import argparse
import json
import math
import stat
import sys
from pathlib import Path

from .errors import DeckError

MAX_FILE_BYTES = 16 << 20  # deck, opponents, pool and weights files are a few kB


class InputError(DeckError):
    """A file or argument a user gave that cannot be used (a DeckError, so every command that
    reports deck errors as one line reports these too)."""


def read_text(path: str | Path, what: str, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a user's file, or InputError naming `what` and the path."""
    path = Path(path)
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise InputError(f"{what} {path} is a directory, not a file")
        if not stat.S_ISREG(info.st_mode):  # a pipe or device could block or never end
            raise InputError(f"{what} {path} is not a regular file")
        size = info.st_size
        if size > max_bytes:
            raise InputError(f"{what} {path} has {size} bytes, more than the {max_bytes} allowed")
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{what} {path} is not UTF-8 text (byte {exc.start})") from None


def load_json(path: str | Path, what: str, max_bytes: int = MAX_FILE_BYTES):
    """A user's JSON file, parsed; NaN and infinities are refused as JSON does not have them."""
    text = read_text(path, what, max_bytes)
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise InputError(f"{what} {path} is nested too deeply to be a {what}") from None
    except ValueError as exc:
        raise InputError(f"{what} {path} is not valid JSON: {exc}") from None


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def finite_numbers(values, what: str) -> list[float]:
    """A list of finite numbers (not booleans), or InputError."""
    if not isinstance(values, list):
        raise InputError(f"{what} must be a list of numbers")
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise InputError(f"{what}[{i}] is {v!r}, not a finite number")
    return [float(v) for v in values]


# --- command-line arguments ---------------------------------------------------------------------
class ArgumentParser(argparse.ArgumentParser):
    """argparse with one `error: ...` line (exit 2) instead of a usage block."""

    def error(self, message: str):
        print(f"error: {message}", file=sys.stderr)
        sys.exit(2)


def int_in(low: int, high: int):
    """An argparse type: an integer in [low, high]."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not between {low} and {high}")
        return value
    parse.__name__ = "integer"
    return parse
