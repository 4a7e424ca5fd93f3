"""Process settings that keep a record's arithmetic the same on every x86-64 CPU.

Why: NumPy compiles some loops once per instruction-set level and picks one when it loads.
On a CPU with AVX-512 it runs Intel's SVML for ``exp``, ``log``, ``power`` and the other
transcendental functions of float64 arrays, whose last bits differ from those of the C
library's functions (glibc), which every CPU without AVX-512 runs. Where such a value feeds a
choice, a record would depend on the CPU it was computed on. :data:`PINNED_CPU_DISPATCH`
turns NumPy's AVX-512 loops off, so that every machine runs the same functions; it must be
in the environment before NumPy is imported, so this module imports nothing that imports it.
:func:`pin_cpu_dispatch` is called by every process that computes records (the workflow's
``Snakefile``, ``scripts/run_job.py``, ``python3 -m redecorate.verify``) before NumPy loads.

The other half, sums whose order a BLAS kernel or a thread count chooses, is removed from the
code itself (:mod:`redecorate.arithmetic`); ``tests/test_cross_kernel.py`` computes records
under several kernels, thread counts and NumPy dispatch levels and demands the same bits.
"""

from __future__ import annotations

import os
import sys

__all__ = ["CPU_DISPATCH_VARIABLE", "PINNED_CPU_DISPATCH", "pin_cpu_dispatch"]

CPU_DISPATCH_VARIABLE = "NPY_DISABLE_CPU_FEATURES"

PINNED_CPU_DISPATCH = "X86_V4 AVX512_ICL AVX512_SPR AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL"
"""NumPy's AVX-512 targets, by the names of NumPy >= 2.3 (``X86_V4`` and up) and of earlier
releases (``AVX512F`` ...); NumPy ignores names it does not know and features the CPU lacks."""


def pin_cpu_dispatch() -> bool:
    """Set :data:`CPU_DISPATCH_VARIABLE` to :data:`PINNED_CPU_DISPATCH` unless it is set
    already (a user's or a test's own choice wins). Returns whether NumPy was still unloaded,
    i.e. whether the setting takes effect in this process (it always does in its children)."""
    os.environ.setdefault(CPU_DISPATCH_VARIABLE, PINNED_CPU_DISPATCH)
    return "numpy" not in sys.modules
