"""One CPU code path for the head node's arithmetic, so a run computes the same on any machine.

A DSA-ME run's choices hang on the surrogate's numbers: the inner loop keeps a deck only if
its predicted objective beats the cell's, and a difference in the last bit of one prediction
can change which deck a batch plays (docs/results.md: evaluation 1047 of the seed-0 run).
Three libraries pick their kernels from the CPU they find, and each choice changes those bits
(measured: docs/pipeline.md#the-same-numbers-on-any-machine): torch's own vectorised kernels
(ELU, Adam, reductions: AVX2 or AVX-512), MKL's matrix products under torch's Linear layers,
and numba's compiled inner loop (its fastmath reductions are as wide as the CPU's vectors).
Each is pinned here to the AVX2 path, which every x86-64 CPU since 2013 runs and which is what
they choose unpinned on an AVX2 machine. This must run before numba is imported and before
torch's first operation: `pipeline/__init__.py` calls it first thing.
"""
from __future__ import annotations

import os
import platform

# Each library's setting for the AVX2 path. The values win over the environment's: a run's
# numbers must not depend on what a shell or a cluster's module system happened to set.
AVX2_PATH = {
    "ATEN_CPU_CAPABILITY": "avx2",   # torch's vectorised kernels
    "MKL_CBWR": "AVX2,STRICT",       # MKL's conditional numerical reproducibility, also across threads
    "NUMBA_CPU_NAME": "haswell",     # numba compiles for the first AVX2 + FMA CPU, not the host
}
NEEDS = ("avx2", "fma")  # CPU flags the pinned path executes


def cpu_flags() -> set[str]:
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            for line in info:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def pin() -> bool:
    """Pins the AVX2 path where the CPU runs it; False where it cannot (not x86-64, or no AVX2
    and FMA): there the numbers may differ from an AVX2 machine's in the last bits."""
    if platform.machine() not in ("x86_64", "AMD64") or not set(NEEDS) <= cpu_flags():
        return False
    os.environ.update(AVX2_PATH)
    return True


PINNED = pin()
