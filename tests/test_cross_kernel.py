"""Records are the same under every BLAS kernel and thread count this CPU can run.

OpenBLAS picks its kernel by CPU when it loads (``OPENBLAS_CORETYPE`` forces one) and each
kernel adds the terms of a product in its own order. The committed ActiveDecorate records
once reproduced only on AVX-512 machines: the committee's mean was a BLAS product, and
margins equal in exact arithmetic ordered the pool by their last bit. Since then every sum
that can reach a record runs in a fixed order (:mod:`redecorate.arithmetic`) and scores are
compared on a tie grid; this test computes every experiment file's smoke-scale units and one
thesis-protocol unit of every active-learning system on labor (``tests/arithmetic/probe.py``)
in a subprocess per kernel and demands the same records, bit for bit, from each.

The variants: Haswell (AVX2) with one BLAS thread and NumPy's loops as every job runs them
(:func:`redecorate.determinism.pin_cpu_dispatch`: AVX-512 off); Sandybridge (AVX) with two
threads; SkylakeX (AVX-512) where the CPU has AVX-512, else Nehalem (SSE only), since a
forced AVX-512 kernel dies on a CPU without it, with two threads and NumPy's baseline loops
only (every dispatched level off). Each process reports the kernel and NumPy loops it ran
(threadpoolctl, NumPy's dispatch table), so a variable that did not take effect cannot pass
for one that did.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PROBE = REPO / "tests" / "arithmetic" / "probe.py"
MIRROR = (REPO / ".." / "shared" / "datasets" / "uci").resolve()

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not (MIRROR / "labor.arff").is_file(),
                                                   reason=f"ARFF mirror not found at {MIRROR}")]


def _cpu_flags() -> set[str]:
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return set()
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def kernels() -> list[str]:
    """The three OpenBLAS kernels this CPU can run (see the module docstring)."""
    flags = _cpu_flags()
    return ["Haswell", "Sandybridge", "SkylakeX" if "avx512f" in flags else "Nehalem"]


#: NumPy's dispatched instruction-set levels (>= 2.3) and features (earlier): all off
BASELINE_LOOPS = "X86_V3 X86_V4 AVX512_ICL AVX512_SPR AVX AVX2 F16C FMA3 AVX512F AVX512CD AVX512_SKX"


def variant(kernel: str) -> dict[str, str]:
    """The environment of the probe under ``kernel`` (see the module docstring)."""
    first, *_ = kernels()
    env = {"OPENBLAS_CORETYPE": kernel, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1" if kernel == first else "2"}
    if kernel == kernels()[-1]:
        env["NPY_DISABLE_CPU_FEATURES"] = BASELINE_LOOPS
    return env


@cache
def probe(kernel: str) -> dict:
    """The probe's digests and environment, computed in a process with ``kernel`` forced."""
    env = {k: v for k, v in os.environ.items() if k != "NPY_DISABLE_CPU_FEATURES"} | variant(kernel)
    done = subprocess.run([sys.executable, str(PROBE)], capture_output=True, text=True, env=env,
                          timeout=1800, cwd=REPO)
    assert done.returncode == 0, f"probe under {kernel} failed:\n{done.stderr[-3000:]}"
    return json.loads(done.stdout)


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="OpenBLAS x86-64 kernels")
def test_every_probe_ran_the_kernel_it_was_given() -> None:
    for kernel in kernels():
        environment = probe(kernel)["environment"]
        blas = environment["blas"]
        assert blas and {lib["architecture"] for lib in blas} == {kernel}, (kernel, blas)
        assert {lib["num_threads"] for lib in blas} == {int(variant(kernel)["OPENBLAS_NUM_THREADS"])}
        dispatch = environment["numpy_dispatch"]
        if "NPY_DISABLE_CPU_FEATURES" in variant(kernel):
            assert dispatch == [], (kernel, dispatch)
        else:
            assert not [level for level in dispatch if level.startswith(("X86_V4", "AVX512"))], (kernel, dispatch)


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="OpenBLAS x86-64 kernels")
def test_records_are_identical_under_every_kernel() -> None:
    first, *others = kernels()
    reference = probe(first)["digests"]
    assert len(reference) > 250, "the probe computed too few units to mean anything"
    assert any(label.startswith("thesis ") for label in reference)
    for kernel in others:
        digests = probe(kernel)["digests"]
        assert digests.keys() == reference.keys()
        differing = sorted(label for label in reference if digests[label] != reference[label])
        assert not differing, f"{len(differing)} units differ between {first} and {kernel}: {differing[:20]}"
