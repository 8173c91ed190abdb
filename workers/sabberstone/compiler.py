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

from . import SabberStoneSetupError

BRIDGE_SOURCE = Path(__file__).with_name("Bridge.cs")
MONO_FACADES = ("/usr/lib/mono/4.5/Facades", "/usr/lib/mono/4.7.2-api/Facades", "/usr/lib/mono/4.5-api/Facades")


@dataclass(frozen=True)
class Compiler:
    kind: str  # "dotnet" (Roslyn on .NET, for coreclr) or "mono" (mcs/csc, for Mono)
    command: tuple[str, ...]
    references: tuple[str, ...]  # framework assemblies passed with -r:


def cache_dir() -> Path:
    root = os.environ.get("DSAME_CACHE_DIR") or Path.home() / ".cache" / "dsame"
    return Path(root) / "sabberstone"


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


def bridge_hash(core_dll: Path, compiler: Compiler, source: Path = BRIDGE_SOURCE) -> str:
    h = hashlib.sha256()
    h.update(source.read_bytes())
    h.update(Path(core_dll).read_bytes())
    h.update(repr((compiler.kind, compiler.references)).encode())
    return h.hexdigest()[:16]


def compile_bridge(core_dll: Path, compiler: Compiler | None = None, source: Path = BRIDGE_SOURCE,
                   cache: Path | None = None) -> Path:
    """DsameBridge-<hash>.dll for this SabberStoneCore.dll, compiled once and then reused."""
    compiler = compiler or find_compiler()
    cache = Path(cache or cache_dir())
    target = cache / f"DsameBridge-{compiler.kind}-{bridge_hash(core_dll, compiler, source)}.dll"
    if target.is_file():
        return target
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        out = Path(tmp) / "DsameBridge.dll"
        args = [*compiler.command, "-nologo", "-target:library", "-optimize+", "-nowarn:1701,1702",
                f"-out:{out}", f"-r:{core_dll}", *(f"-r:{r}" for r in compiler.references), str(source)]
        if compiler.kind == "dotnet":
            args.insert(len(compiler.command), "-nostdlib")
        done = subprocess.run(args, capture_output=True, text=True, timeout=300)
        if done.returncode != 0 or not out.is_file():
            errors = [ln for ln in (done.stdout + done.stderr).splitlines() if "error" in ln]
            raise SabberStoneSetupError(
                f"the SabberStone bridge does not compile against {core_dll} (a SabberStone build "
                f"with another API?): {(errors or [done.stderr.strip() or 'no output'])[0]}")
        os.replace(out, target)  # atomic: concurrent workers never see half a file
    return target
