"""Benchmark: reading the ARFF mirror with ``redecorate.data.read_arff`` against Python peers.

Why: every job of the workflow reads its dataset's ARFF file once, and the test suite reads the
whole mirror; a reader that is slow on the ~1 MB files (waveform-5000, nursery, optdigits)
shows up in both. Speed belongs here, not in a timed unit test (the suite shares two cores
with other work, so a wall-clock bound there fails on load, not on code).

Protocol: every ``*.arff`` of the mirror, each reader timed with ``time.process_time`` (CPU of
this process, so other load on the machine counts less), median of ``--reps`` calls after one
untimed warm-up call. The peers, measured in the same run:

* ``scipy.io.arff.loadarff``: numpy's record array; it refuses ``string`` attributes and
  quoted nominal values with spaces on some files, which the table records as ``fails``;
* ``liac-arff`` (``arff.load``): pure Python lists, the parser many projects vendor
  (``pip install liac-arff``; the column is blank without it).

All three go from the file to typed columns: ours to a pandas Series per attribute
(Categorical or float64, ``ArffContent``), scipy to a record array, liac-arff to lists of
Python values. Ratios are ours / peer: below 1 we are faster.

Usage (from the repository root)::

    python benchmarks/arff_read.py                  # reps 5, every mirror file
    python benchmarks/arff_read.py --files nursery,waveform5000 --reps 3

Results: ``benchmarks/results/arff_read.md`` and ``.csv``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parents[1]
MIRROR = Path(os.environ.get("REDECORATE_MIRROR", REPO.parent / "shared" / "datasets" / "uci"))
RESULTS = REPO / "benchmarks" / "results"


def cpu_median(fn: Callable[[], object], reps: int) -> float:
    """Median process-CPU seconds of ``reps`` calls, after one untimed warm-up call."""
    fn()
    times = []
    for _ in range(reps):
        tic = time.process_time()
        fn()
        times.append(time.process_time() - tic)
    return statistics.median(times)


def ours(path: Path) -> Callable[[], object]:
    from redecorate.data import read_arff

    return lambda: read_arff(path)


def peer_scipy(path: Path) -> Callable[[], object]:
    from scipy.io import arff as scipy_arff

    return lambda: scipy_arff.loadarff(str(path))


def peer_liac(path: Path) -> Callable[[], object] | None:
    try:
        import arff as liac
    except ImportError:
        return None
    if not hasattr(liac, "load"):  # another package called ``arff``
        return None

    def run() -> object:
        with path.open(encoding="utf-8") as handle:
            return liac.load(handle)

    return run


def timed_or_fails(fn: Callable[[], object] | None, reps: int) -> float | None | str:
    """Median CPU seconds, ``None`` when the peer is not installed, ``"fails"`` when it
    cannot read the file."""
    if fn is None:
        return None
    try:
        return cpu_median(fn, reps)
    except Exception:  # noqa: BLE001 - a peer's refusal is a result, whatever it raises
        return "fails"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--files", default="", help="comma-separated file stems (default: all)")
    args = parser.parse_args()
    if not MIRROR.is_dir():
        raise SystemExit(f"ARFF mirror not found at {MIRROR}: set REDECORATE_MIRROR")
    paths = sorted(MIRROR.glob("*.arff"))
    if args.files:
        wanted = set(args.files.split(","))
        paths = [p for p in paths if p.stem in wanted]
        if missing := wanted - {p.stem for p in paths}:
            raise SystemExit(f"not in {MIRROR}: {', '.join(sorted(missing))}")

    rows = []
    for path in paths:
        mine = cpu_median(ours(path), args.reps)
        row = {"file": path.name, "kb": round(path.stat().st_size / 1024), "ours_s": mine}
        for name, fn in (("scipy", peer_scipy(path)), ("liac", peer_liac(path))):
            theirs = timed_or_fails(fn, args.reps)
            row[f"{name}_s"] = theirs
            row[f"ours/{name}"] = mine / theirs if isinstance(theirs, float) and theirs > 0 else None
        rows.append(row)
        print(f"{path.name:28s} {row['kb']:6d} kB  ours {mine * 1000:8.1f} ms", flush=True)

    table = pd.DataFrame(rows)
    stem = "arff_read"
    RESULTS.mkdir(parents=True, exist_ok=True)
    table.to_csv(RESULTS / f"{stem}.csv", index=False)

    def total(column: str) -> float:
        values = [v for v in table[column] if isinstance(v, float)]
        return sum(values)

    readable = table[[isinstance(v, float) for v in table["scipy_s"]]]
    lines = [
        "# ARFF reading: ours vs scipy and liac-arff",
        "",
        f"{len(table)} mirror files, median of {args.reps} process-CPU timings after a warm-up; "
        f"{platform.processor() or platform.machine()}, Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, {time.strftime('%Y-%m-%d')}.",
        "",
        f"- ours, all files: {total('ours_s'):.3f} s; slowest file "
        f"{table.loc[table['ours_s'].idxmax(), 'file']} {table['ours_s'].max():.3f} s",
        f"- on the {len(readable)} files scipy reads: ours {readable['ours_s'].sum():.3f} s, "
        f"scipy {sum(readable['scipy_s']):.3f} s",
    ]
    liac_ok = table[[isinstance(v, float) for v in table["liac_s"]]]
    if len(liac_ok):
        lines.append(f"- on the {len(liac_ok)} files liac-arff reads: ours {liac_ok['ours_s'].sum():.3f} s, "
                     f"liac-arff {sum(liac_ok['liac_s']):.3f} s")
    ratios = [c for c in table.columns if c.startswith("ours/")]
    for column in ratios:
        values = table[column].dropna()
        if len(values):
            lines.append(f"- median per-file ratio {column}: {values.median():.2f} "
                         f"(range {values.min():.2f}–{values.max():.2f})")
    shown = table.map(lambda v: "" if v is None or v != v else (f"{v:.4f}" if isinstance(v, float) else v))
    lines += ["", shown.to_markdown(index=False), ""]
    (RESULTS / f"{stem}.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines[:10]))


if __name__ == "__main__":
    main()
