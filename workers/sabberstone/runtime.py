"""Loading .NET into this process once (pythonnet), then SabberStone's assemblies and the bridge."""
from __future__ import annotations

import os
import shutil
import warnings
from pathlib import Path

from . import SabberStoneSetupError
from .compiler import compile_bridge, find_compiler
from .locate import ASSEMBLIES, sabberstone_dir

RUNTIME_ENV = "SABBERSTONE_RUNTIME"  # "mono" or "coreclr"; default: what the compiler targets
_loaded: dict = {}


def runtime_kind(compiler_kind: str) -> str:
    wanted = os.environ.get(RUNTIME_ENV)
    if wanted:
        if wanted not in ("mono", "coreclr"):
            raise SabberStoneSetupError(f"{RUNTIME_ENV}={wanted!r} is not mono or coreclr")
        return wanted
    return "coreclr" if compiler_kind == "dotnet" else "mono"


def _load_pythonnet(kind: str) -> None:
    try:
        import pythonnet
    except ImportError:
        raise SabberStoneSetupError("pythonnet is not installed: pip install 'pythonnet>=3.0'") from None
    if kind == "mono" and not shutil.which("mono"):
        raise SabberStoneSetupError("no Mono runtime: apt-get install mono-runtime (or install .NET "
                                    f"and set {RUNTIME_ENV}=coreclr)")
    if kind == "coreclr" and not shutil.which("dotnet"):
        raise SabberStoneSetupError(f"no .NET runtime (dotnet): install .NET or set {RUNTIME_ENV}=mono")
    try:
        with warnings.catch_warnings():  # clr_loader's note on Mono < 6.12 (Debian 12 ships 6.8)
            warnings.simplefilter("ignore")
            pythonnet.load(kind)
    except RuntimeError as exc:
        if "already" not in str(exc).lower():  # a runtime loaded earlier in this process is fine
            raise SabberStoneSetupError(f"pythonnet cannot start the {kind} runtime: {str(exc).splitlines()[0]}") from None
    except Exception as exc:
        raise SabberStoneSetupError(f"pythonnet cannot start the {kind} runtime: {str(exc).splitlines()[0]}") from None


def load_bridge(path: str | None = None):
    """The bridge's .NET `Bridge` class, loaded once per process (later calls: a dict lookup)."""
    folder = sabberstone_dir(path)
    if folder in _loaded:
        return _loaded[folder]
    compiler = find_compiler("mono" if os.environ.get(RUNTIME_ENV) == "mono" else None)
    bridge_dll = compile_bridge(folder, compiler)
    _load_pythonnet(runtime_kind(compiler.kind))
    try:
        import clr
        for name in ASSEMBLIES:
            clr.AddReference(str(folder / name))
        clr.AddReference(str(bridge_dll))
        from DsameBridge import Bridge  # noqa: the namespace exists once the assembly is loaded
    except Exception as exc:  # a .NET load error: name the file, never the .NET trace
        raise SabberStoneSetupError(
            f"cannot load {' and '.join(ASSEMBLIES)} from {folder} with the bridge {Path(bridge_dll).name}: "
            f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}") from None
    _loaded[folder] = Bridge
    return Bridge
