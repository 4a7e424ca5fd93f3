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
