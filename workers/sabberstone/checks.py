"""The startup check of the SabberStone engine: the build (SabberStoneCore.dll and
SabberStoneBasicAI.dll) exists, loads, has its cards, plays and copies games, and plays them the
same way twice from the same seeds (`seeded=1`). Every failure is one SabberStoneSetupError line naming what is
missing; the games run in a child process, so a runtime crash (Mono on a build with the
EntityData copy bug) becomes a message instead of killing the caller.

`python -m workers.sabberstone.checks [DIR]` runs the whole check and prints its result.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from . import SabberStoneSetupError
from .compiler import find_compiler
from .locate import sabberstone_dir
from .runtime import RUNTIME_ENV, runtime_kind

MIN_CARDS = 1000  # SabberStone's database holds thousands; a handful means a broken build
CHECK_GAMES = 3
LOADED = "stage: loaded"  # the child got as far as SabberStone's card database
CRASH_WORDS = ("FailFast", "Assertion", "Exception", "Could not", "rror")  # a dying runtime's own words
MONO_BUG = ("SabberStone crashed while playing and copying games{detail}. On Mono this is the "
            "EntityData copy-constructor bug (it writes past the end of a new array; Microsoft's "
            ".NET tolerates it, Mono crashes once games are copied): fix EntityData's copy "
            "constructor in your build, or run on .NET (install the .NET SDK, "
            f"{RUNTIME_ENV}=coreclr)")


def check_static(path: str | None = None, source: str = "engine.path") -> dict:
    """What can be checked without starting .NET: folder, DLL, pythonnet, a compiler, a runtime."""
    folder = sabberstone_dir(path, source)
    try:
        import pythonnet  # noqa: F401
    except ImportError:
        raise SabberStoneSetupError("pythonnet is not installed: pip install 'pythonnet>=3.0'") from None
    compiler = find_compiler("mono" if os.environ.get(RUNTIME_ENV) == "mono" else None)
    return {"folder": str(folder), "compiler": compiler.kind, "runtime": runtime_kind(compiler.kind)}


def check(path: str | None = None, games: int = CHECK_GAMES, timeout: float = 600,
          source: str = "engine.path") -> dict:
    """The whole check; returns what it found (folder, runtime, card count). `source`: where
    `path` came from, for the messages."""
    found = check_static(path, source)
    # The child runs in a scratch folder: a dying Mono writes its crash reports into the cwd.
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])),
           "MONO_DEBUG": "no-gdb-backtrace"}  # a crashing Mono need not attach gdb
    try:
        with tempfile.TemporaryDirectory(prefix="dsame-sabberstone-check-") as scratch:
            done = subprocess.run([sys.executable, "-W", "ignore", "-m", "workers.sabberstone.checks", "--in-process",
                                   found["folder"], str(games)], capture_output=True, text=True,
                                  timeout=timeout, cwd=scratch, env=env)
    except subprocess.TimeoutExpired:
        raise SabberStoneSetupError(f"SabberStone did not finish {games} check games in {timeout:.0f} s") from None
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith(("ok ", "error: "))]
    if lines and lines[-1].startswith("error: "):
        raise SabberStoneSetupError(lines[-1][len("error: "):])
    if done.returncode != 0 or not lines:
        if LOADED not in done.stdout:  # died before any game: the runtime itself failed
            said = [ln.strip() for ln in (done.stdout + "\n" + done.stderr).splitlines()]
            first = next((ln for ln in said if any(w in ln for w in CRASH_WORDS)), "no message")
            raise SabberStoneSetupError(f"the {found['runtime']} runtime crashed while loading "
                                        f"SabberStone (exit {done.returncode}): {first[:300]}")
        detail = f" (exit {done.returncode}, runtime {found['runtime']})"
        raise SabberStoneSetupError(MONO_BUG.format(detail=detail))
    found.update(item.split("=", 1) for item in lines[-1][3:].split())
    return found


def _in_process(path: str, games: int) -> str:
    """Runs inside the child: load, count cards, play and copy games; the 'ok ...' line."""
    from ..protocol import evaluate
    from .protocol import parse_summary
    from .runtime import load_bridge
    bridge = load_bridge(path)
    cards = int(bridge.CardCount())
    print(LOADED, flush=True)
    if cards < MIN_CARDS:
        raise SabberStoneSetupError(f"SabberStone's card database has {cards} cards (expected "
                                    f"thousands): its card data did not load")
    header, records = parse_summary(str(bridge.SelfCheck(",".join(evaluate.miracle_rogue()), "ROGUE", games)))
    failed = [r for r in records if r.error]
    if len(failed) == len(records):
        raise SabberStoneSetupError(f"SabberStone could not play any check game: {failed[0].error}")
    return f"ok cards={cards} games={len(records)} errors={len(failed)} seeded={header.get('seeded', '?')}"


def main(argv: list[str]) -> int:
    try:
        if argv[:1] == ["--in-process"]:
            print(_in_process(argv[1], int(argv[2])), flush=True)
        else:
            found = check(argv[0] if argv else None, source="the command line")
            print("SabberStone ready: " + ", ".join(f"{k} {v}" for k, v in found.items()))
    except SabberStoneSetupError as exc:
        print(f"error: {exc}", flush=True)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
