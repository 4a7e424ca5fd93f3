"""Shared pytest setup: make the repo's ``tools/`` importable and expose the Weka oracle.

``tools/`` is not part of the installed package (Weka is a test oracle, never a runtime
dependency), so it is put on ``sys.path`` here rather than installed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

# scikit-learn's check_array_api_input (run for every estimator by test_sklearn_checks) skips
# unless SciPy's array-API support is switched on before SciPy is imported; with it on, the
# check runs (and passes) instead of being skipped.
os.environ.setdefault("SCIPY_ARRAY_API", "1")
from types import ModuleType

import pytest

TOOLS_DIR = Path(__file__).resolve().parents[1] / "tools"
if str(TOOLS_DIR) not in sys.path:
    sys.path.insert(0, str(TOOLS_DIR))


#: In CI (``CI=true``, as ``.ci/run`` sets it) nothing may be skipped: a skipped Weka-oracle,
#: workflow, reliability, reproduction, SLURM or browser test would let a run pass without the
#: checks the README claims. Locally, tests still skip with their reason.
IN_CI = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    """In CI, turn every skip (but not an expected failure) into a failure naming its reason."""
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid} was skipped in CI: {reason}\n"
            "CI must run every test (Weka oracle, ARFF mirror, workflow, SLURM, Chromium): "
            "install or provide what is missing (see .ci/run)."
        )


#: Markers of the tests that take tens of seconds to minutes (Snakemake runs, Weka, SLURM).
HEAVY_MARKERS = ("workflow", "slurm", "weka", "slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the files holding heavy tests first, each file's tests in their order.

    Why: with ``-n auto --dist loadfile`` the workers take files in this order, so the longest
    ones start first and the short ones fill the gaps at the end; in file-name order the
    longest run (every experiment file at the smoke scale) came last and left one core idle.
    """
    heavy = {item.nodeid.split("::")[0] for item in items
             if any(item.get_closest_marker(marker) for marker in HEAVY_MARKERS)}
    items.sort(key=lambda item: item.nodeid.split("::")[0] not in heavy)


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
