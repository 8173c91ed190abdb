"""One CPU code path for the head node's arithmetic, so a run computes the same on any machine.

A DSA-ME run's choices hang on the surrogate's numbers: the inner loop keeps a deck only if
its predicted objective beats the cell's, and a difference in the last bit of one prediction
can change which deck a batch plays (docs/results.md: evaluation 1047 of the seed-0 run).
Three libraries pick their kernels from the CPU they find, and each choice changes those bits
(measured: docs/pipeline.md#the-same-numbers-on-any-machine): torch's own vectorised kernels
(ELU, Adam, reductions: AVX2 or AVX-512), MKL's matrix products under torch's Linear layers,
and numba's compiled inner loop (its fastmath reductions are as wide as the CPU's vectors).
Each is pinned here to a path that any x86-64 CPU with AVX2 and FMA (Intel's or AMD's, since
2013) runs as the same instructions. This must run before numba is imported and before torch's
first operation: `pipeline/__init__.py` calls it first thing.
"""
from __future__ import annotations

import ctypes
import os
import platform

# Each library's setting. The values win over the environment's: a run's numbers must not depend
# on what a shell or a cluster's module system happened to set.
PINNED_PATH = {
    "ATEN_CPU_CAPABILITY": "avx2",   # torch's vectorised kernels: its own code, the same on any vendor's CPU
    # MKL keeps an ISA branch (AVX2, AVX512, ...) on Intel CPUs only; elsewhere it silently runs its
    # AUTO dispatch (oneMKL developer guide, conditional numerical reproducibility). COMPATIBLE
    # (SSE2 without approximate reciprocals) is the branch it keeps on every vendor's CPU. Even
    # STRICT, it gives other last bits on two threads (measured): the surrogate runs on one.
    "MKL_CBWR": "COMPATIBLE,STRICT",
    "NUMBA_CPU_NAME": "haswell",     # numba compiles for the first AVX2 + FMA CPU, not the host
}
NEEDS = ("avx2", "fma")  # CPU flags the pinned path executes
MKL_STRICT = 0x10000  # mkl_cbwr_get's flag for strict CNR (MKL_CBWR_STRICT)
MKL_BRANCHES = {2: "AUTO", 3: "COMPATIBLE", 4: "SSE2", 8: "SSE4_2", 9: "AVX", 10: "AVX2", 12: "AVX512",
                14: "AVX512_E1"}  # the oneMKL reference's named constants for CNR control


def _cpuinfo(field: str) -> str:
    """The first value of a /proc/cpuinfo field ("" where there is none)."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            for line in info:
                if line.startswith(field):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def cpu_flags() -> set[str]:
    return set(_cpuinfo("flags").split())


def cpu_model() -> str:
    return _cpuinfo("model name") or platform.machine()


def pin() -> bool:
    """Pins the path where the CPU runs it; False where it cannot (not x86-64, or no AVX2 and
    FMA): there the numbers may differ from a pinned machine's in the last bits."""
    if platform.machine() not in ("x86_64", "AMD64") or not set(NEEDS) <= cpu_flags():
        return False
    os.environ.update(PINNED_PATH)
    return True


def mkl_branch() -> int | None:
    """The branch and STRICT flag MKL runs in this process (mkl_cbwr_get's MKL_CBWR_ALL), or None
    where torch's MKL cannot be asked. MKL settles its branch at its first call, so this makes one."""
    import torch
    torch.ones(2, 2) @ torch.ones(2, 2)
    try:
        lib = ctypes.CDLL(os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cpu.so"))
        return int(lib.mkl_serv_cbwr_get(-1))  # torch exports MKL's service layer under this name
    except (OSError, AttributeError):
        return None


def describe_mkl_branch(code: int | None) -> str:
    """mkl_branch()'s code as MKL_CBWR spells it ("COMPATIBLE,STRICT")."""
    if code is None:
        return "unknown"
    name = MKL_BRANCHES.get(code & ~MKL_STRICT, str(code & ~MKL_STRICT))
    return name + (",STRICT" if code & MKL_STRICT else "")


PINNED = pin()
