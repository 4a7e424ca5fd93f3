"""Shared pytest setup: make the repo's ``tools/`` importable and expose the Weka oracle.

``tools/`` is not part of the installed package (Weka is a test oracle, never a runtime
dependency), so it is put on ``sys.path`` here rather than installed.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

TOOLS_DIR = Path(__file__).resolve().parents[1] / "tools"
if str(TOOLS_DIR) not in sys.path:
    sys.path.insert(0, str(TOOLS_DIR))


@pytest.fixture(scope="session")
def weka_oracle() -> ModuleType:
    """The ``weka_oracle.oracle`` module with its harness compiled, or a skip with the reason."""
    from weka_oracle import oracle

    reason = oracle.weka_available()
    if reason is not None:
        pytest.skip(f"Weka oracle unavailable: {reason}")
    oracle.compile_oracle()
    return oracle


@pytest.fixture(scope="session")
def smoke_reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Working directory of one uninterrupted local smoke run (``--cores 2``), shared by the
    reliability, SLURM and HTML-report tests so the machine runs it once per session."""
    import smoke_support as smoke

    reason = smoke.mirror_missing_reason()
    if reason is not None:
        pytest.skip(reason)
    workdir = tmp_path_factory.mktemp("smoke_reference")
    result = smoke.run_snakemake(workdir, "--config", *smoke.SMOKE_CONFIG, cores=2)
    assert result.returncode == 0, smoke.output_of(result)[-5000:]
    return workdir
