"""Compiling the C# bridge on first use, with whichever compiler exists (the .NET SDK's
Roslyn `csc.dll`, Mono's `mcs` or `csc`), cached by the hash of everything that goes in."""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..engine.carddb import cache_root, private_dir
from ..errors import CacheDirError
from . import SabberStoneSetupError
from .locate import AI_DLL, ASSEMBLIES, CORE_DLL

BRIDGE_SOURCE = Path(__file__).with_name("Bridge.cs")
MONO_FACADES = ("/usr/lib/mono/4.5/Facades", "/usr/lib/mono/4.7.2-api/Facades", "/usr/lib/mono/4.5-api/Facades")


@dataclass(frozen=True)
class Compiler:
    kind: str  # "dotnet" (Roslyn on .NET, for coreclr) or "mono" (mcs/csc, for Mono)
    command: tuple[str, ...]
    references: tuple[str, ...]  # framework assemblies passed with -r:


def cache_dir() -> Path:
    return cache_root() / "sabberstone"


def _dotnet_compiler() -> Compiler | None:
    dotnet = shutil.which("dotnet")
    if not dotnet:
        return None
    try:
        sdks = subprocess.run([dotnet, "--list-sdks"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    for line in reversed(sdks.strip().splitlines()):  # newest SDK last: "8.0.100 [/usr/share/dotnet/sdk]"
        version, _, base = line.partition(" ")
        csc = Path(base.strip("[] ")) / version / "Roslyn" / "bincore" / "csc.dll"
        packs = Path(base.strip("[] ")).parent / "packs" / "Microsoft.NETCore.App.Ref"
        refs = sorted(packs.glob("*/ref/net*/*.dll"))
        if csc.is_file() and refs:
            newest = max({r.parent for r in refs}, key=lambda p: [int(x) for x in p.parent.parent.name.split(".")[:2]])
            return Compiler("dotnet", (dotnet, str(csc)), tuple(str(r) for r in sorted(newest.glob("*.dll"))))
    return None


def _mono_compiler() -> Compiler | None:
    exe = shutil.which("mcs") or shutil.which("csc")
    if not exe:
        return None
    refs = ["System.Core.dll"]
    for folder in MONO_FACADES:  # SabberStoneCore targets netstandard2.0
        if (Path(folder) / "netstandard.dll").is_file():
            refs.append(str(Path(folder) / "netstandard.dll"))
            break
    return Compiler("mono", (exe,), tuple(refs))


def find_compiler(prefer: str | None = None) -> Compiler:
    """The .NET SDK's compiler or Mono's; `prefer` ("dotnet"/"mono") picks when both exist."""
    order = [_mono_compiler, _dotnet_compiler] if prefer == "mono" else [_dotnet_compiler, _mono_compiler]
    for find in order:
        found = find()
        if found is not None:
            return found
    raise SabberStoneSetupError(
        "no C# compiler to build the SabberStone bridge: install the .NET SDK (dotnet) or Mono's "
        "compiler (apt-get install mono-mcs mono-runtime)")


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def compiler_version(compiler: Compiler) -> str:
    """The compiler's own version line (its files can change under the same command)."""
    try:
        done = subprocess.run([*compiler.command, "--version"], capture_output=True, text=True, timeout=60)
        return (done.stdout + done.stderr).strip().splitlines()[0] if (done.stdout + done.stderr).strip() else ""
    except (OSError, subprocess.TimeoutExpired):
        return ""


def bridge_hash(folder: Path, compiler: Compiler, source: Path = BRIDGE_SOURCE) -> str:
    """The cache key: the bridge source, both SabberStone assemblies, the compiler and its version,
    and the contents of every framework assembly it references."""
    h = hashlib.sha256()
    h.update(source.read_bytes())
    for name in ASSEMBLIES:
        h.update(_digest(Path(folder) / name).encode())
    h.update(repr((compiler.kind, compiler.command, compiler_version(compiler))).encode())
    for ref in compiler.references:
        h.update(ref.encode())
        if Path(ref).is_file():  # bare names (System.Core.dll) resolve inside the compiler
            h.update(_digest(Path(ref)).encode())
    return h.hexdigest()[:24]


def _cached(target: Path) -> bool:
    """The compiled bridge is there and is what was compiled: its digest matches the record."""
    record = target.with_suffix(".sha256")
    if not (target.is_file() and record.is_file()):
        return False
    return record.read_text().strip() == _digest(target)


def compile_bridge(folder: Path, compiler: Compiler | None = None, source: Path = BRIDGE_SOURCE,
                   cache: Path | None = None) -> Path:
    """DsameBridge-<hash>.dll for the SabberStone build in `folder`, compiled once and then reused
    while its recorded digest holds (anything else under that name is compiled over)."""
    compiler = compiler or find_compiler()
    try:  # a DLL another user could plant there would be loaded and run as this user
        cache = private_dir(Path(cache or cache_dir()), "the bridge cache")
    except CacheDirError as exc:
        raise SabberStoneSetupError(str(exc)) from None
    folder = Path(folder)
    target = cache / f"DsameBridge-{compiler.kind}-{bridge_hash(folder, compiler, source)}.dll"
    if _cached(target):
        return target
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        out = Path(tmp) / "DsameBridge.dll"
        args = [*compiler.command, "-nologo", "-target:library", "-optimize+", "-nowarn:1701,1702",
                f"-out:{out}", *(f"-r:{folder / name}" for name in ASSEMBLIES),
                *(f"-r:{r}" for r in compiler.references), str(source)]
        if compiler.kind == "dotnet":
            args.insert(len(compiler.command), "-nostdlib")
        done = subprocess.run(args, capture_output=True, text=True, timeout=300)
        if done.returncode != 0 or not out.is_file():
            errors = [ln for ln in (done.stdout + done.stderr).splitlines() if "error" in ln]
            raise SabberStoneSetupError(
                f"the SabberStone bridge does not compile against {folder / CORE_DLL} and {AI_DLL} (a "
                f"SabberStone build with another API?): {(errors or [done.stderr.strip() or 'no output'])[0]}")
        record = Path(tmp) / "digest"
        record.write_text(_digest(out) + "\n")
        # The DLL first, then its record: a reader sees either no record or a matching pair.
        os.replace(out, target)
        os.replace(record, target.with_suffix(".sha256"))
    return target
