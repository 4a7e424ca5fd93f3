"""Compute a fixed set of units and print each one's record digest as JSON.

Run as a script in a fresh process (``python tests/arithmetic/probe.py [--only thesis|smoke]``),
so that the BLAS kernel, the thread count and the other variables the arithmetic reads
(:data:`redecorate.provenance.ARITHMETIC_VARIABLES`) can be set for the whole process, as
they are chosen once when the libraries load. ``tests/test_cross_kernel.py`` runs it under
several kernels and demands the same digests.

The units: every unit of every experiment file in ``config/experiments/`` at the ``smoke``
scale on the ARFF mirror (what the workflow tests run), and one thesis-protocol unit of every
active-learning system on labor (``active_systems_thesis.yaml``), whose committees rank
whole pools with one example labeled per iteration.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
MIRROR = (REPO / ".." / "shared" / "datasets" / "uci").resolve()
THESIS_FILE = HERE / "active_systems_thesis.yaml"


def probe_units(only: str | None = None) -> Iterator[tuple[str, Any, str, dict[str, Any]]]:
    """(label, spec, dataset, unit) of every unit probed, in a fixed order."""
    from redecorate.experiments import load_experiment
    from redecorate.kinds import get_kind
    from redecorate.run_config import load_run

    specs = []
    if only in (None, "smoke"):
        run = load_run({"scale": "smoke", "data_mirror": str(MIRROR)}, REPO)
        specs += [("smoke", spec) for spec in run.experiments.values()]
    if only in (None, "thesis"):
        specs.append(("thesis", load_experiment(THESIS_FILE, schema=REPO / "workflow" / "schemas" /
                                                "experiment.schema.yaml")))
    for scale, spec in specs:
        kind = get_kind(spec.kind)
        for dataset in spec.datasets:
            for unit in kind.units(spec):
                fold = "" if unit.get("fold") is None else f" fold {unit['fold']}"
                yield (f"{scale} {spec.name} {dataset} {unit.get('algorithm')} run {unit['run']}{fold}",
                       spec, dataset, dict(unit))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("smoke", "thesis"), help="one of the two sets of units")
    parser.add_argument("--list", action="store_true", help="list the units without computing them")
    args = parser.parse_args(argv)
    from redecorate.determinism import pin_cpu_dispatch

    assert pin_cpu_dispatch(), "numpy was loaded before the probe could pin its CPU dispatch"
    from redecorate.data import load_dataset, load_registry
    from redecorate.kinds import get_kind
    from redecorate.kinds.unit import run_unit
    from redecorate.provenance import arithmetic_environment
    from redecorate.verify import record_digest

    registry = load_registry(REPO / "config" / "datasets.yaml")
    data: dict[str, Any] = {}
    digests: dict[str, str] = {}
    seconds: dict[str, float] = {}
    for label, spec, dataset, unit in probe_units(args.only):
        if args.list:
            digests[label] = ""
            continue
        if dataset not in data:
            data[dataset] = load_dataset(dataset, registry=registry, mirror=MIRROR)
        kind = get_kind(spec.kind)
        started = time.process_time()
        frame = run_unit(kind, data[dataset], kind.job_settings(spec), unit, progress=lambda _line: None)
        seconds[label] = round(time.process_time() - started, 2)
        digests[label] = record_digest(frame)
    json.dump({"environment": arithmetic_environment(), "digests": digests, "cpu_s": seconds}, sys.stdout,
              indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
