"""Benchmark: redecorate's J48 against Weka 3.6's J48 on the chapter-4 protocol.

Why: every experiment of the replication fits thousands of J48 trees (alone and as the
base learner of every ensemble), so the Python reimplementation has to be in the same
league as the Java original for the thesis-scale runs to be feasible on two cores.

Protocol (dissertation §4.1, ``config/experiments/ch4_passive.yaml``): for each dataset,
run 0 of the seeded stratified 10-fold split; in each fold, learning-curve points 1, 2, 5,
10, 20, 30, 40, 50, 75 and 100 % of the training fold, taken as prefixes of one seeded
random order (``redecorate.protocol``); the test set is the fold's test set. Both sides
fit and predict exactly the same rows:

* ours: ``J48().fit(X_train, y_train)`` then ``predict_proba(X_test)`` on pandas input
  (the public API, so input validation and encoding are included), each timed R times per
  set after one warm-up pass (numba compilation is measured separately, below);
* Weka: ``buildClassifier`` then ``distributionForInstance`` over the test rows, timed R
  times per set inside ONE warm JVM after a warm-up pass over all sets
  (``tools/weka_oracle``'s ``--time`` mode), so JVM start-up and JIT warm-up are excluded.

Per set the median over the R repetitions is kept; per dataset the table reports the
median and the sum over sets, the ratio ours/Weka (> 1 = we are slower), the size of a
fitted tree at the 100 % point (``len(pickle.dumps(model))`` vs Java serialization), and
label agreement as a sanity check that both sides timed the same work. The first-call
cost of our numba engine is measured in fresh subprocesses with an empty and with a warm
``NUMBA_CACHE_DIR``.

Usage (from the repository root)::

    python benchmarks/j48_vs_weka.py --reps 3
    python benchmarks/j48_vs_weka.py --quick
    python benchmarks/j48_vs_weka.py --datasets iris,glass --reps 5

Results: ``benchmarks/results/j48_vs_weka.md`` (+ ``.csv`` per dataset and
``_sets.csv`` per training set). ``ensembles_vs_weka.py`` reuses this module's helpers.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import datetime as dt
import json
import os
import pickle
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
if str(REPO / "tools") not in sys.path:
    sys.path.insert(0, str(REPO / "tools"))

from uci_mirror import MIRROR, TABLE_4_1_FILES  # noqa: E402
from weka_oracle import oracle  # noqa: E402

UCI = MIRROR
RESULTS = REPO / "benchmarks" / "results"
# The 15 datasets of Table 4.1, as file stems of the UCI mirror.
DATASETS = list(TABLE_4_1_FILES)
POINTS = (1, 2, 5, 10, 20, 30, 40, 50, 75, 100)
QUICK_POINTS = (10, 50, 100)
SEED = 20050801  # ch4_passive.yaml's experiment seed
N_FOLDS = 10


# ----------------------------------------------------------------------------- protocol
@dataclass(frozen=True)
class TrainSet:
    """One training set of the protocol: Python rows (see OracleData.file_rows for Java)."""

    fold: int
    point: float
    train: np.ndarray
    test: np.ndarray

    @property
    def label(self) -> str:
        return f"f{self.fold}p{self.point:g}"


def protocol_sets(
    data: oracle.OracleData,
    *,
    points: Sequence[float] = POINTS,
    n_folds: int = N_FOLDS,
    max_folds: int | None = None,
    seed: int = SEED,
    run: int = 0,
) -> list[TrainSet]:
    """The chapter-4 training/test sets of one run, via the project's own protocol code.

    Using ``redecorate.protocol`` (not a private re-implementation) means the benchmark
    times exactly the training sets the experiments will fit.
    """
    from redecorate.protocol import curve_sizes, seed_sequence, stratified_folds, training_order

    folds = stratified_folds(data.y, n_folds, seed_sequence(seed, "folds", data.name, run))
    out: list[TrainSet] = []
    for k, (train, test) in enumerate(folds[: max_folds or n_folds]):
        order = training_order(train, seed_sequence(seed, "order", data.name, run, k))
        for point, size in zip(points, curve_sizes(len(order), points), strict=True):
            out.append(TrainSet(k, float(point), order[:size], test))
    return out


def load(name: str) -> oracle.OracleData:
    """A dataset checked against Weka's parse (Weka's parse is used if the loader disagrees)."""
    return oracle.load_oracle_data(UCI / f"{name}.arff", "last")


# ----------------------------------------------------------------------------- timing
@dataclass
class Timing:
    """Per-set medians of one side, plus what the report needs besides time."""

    fit: list[float]
    predict: list[float]
    bytes_full: list[int]  # model size at the 100 % point of each fold
    labels: list[np.ndarray]  # declared class indices per set (agreement check)
    errors: list[str]


def time_ours(
    make: Callable[[], Any],
    data: oracle.OracleData,
    sets: Sequence[TrainSet],
    reps: int,
    *,
    warmup_sets: int | None = None,
    encoded: bool = False,
) -> Timing:
    """Fit + predict every set ``reps`` times; keep the median per set.

    ``encoded=True`` times the learner on the already encoded matrix (``_fit_encoded`` /
    ``_proba_encoded``), the counterpart of Weka's ``buildClassifier`` on parsed
    ``Instances`` and the path ensembles use for their members; otherwise the public
    ``fit``/``predict_proba`` on DataFrames, validation and encoding included.

    A warm-up pass (all sets, or the first ``warmup_sets``) runs first so that numba's
    compilation and pandas' first-call caches are not charged to the first set.
    """
    column = {v: i for i, v in enumerate(data.class_values)}
    if encoded:
        return _time_encoded(make, data, sets, reps, column)
    slices = [(data.X.iloc[s.train], data.y.iloc[s.train], data.X.iloc[s.test]) for s in sets]
    for Xtr, ytr, Xte in slices[: len(slices) if warmup_sets is None else warmup_sets]:
        with contextlib.suppress(Exception):  # failures are reported by the timed pass
            make().fit(Xtr, ytr).predict_proba(Xte)
    t = Timing([], [], [], [], [])
    for s, (Xtr, ytr, Xte) in zip(sets, slices, strict=True):
        fits, preds = [], []
        model = None
        try:
            for _ in range(max(1, reps)):
                model = make()
                t0 = time.perf_counter()
                model.fit(Xtr, ytr)
                t1 = time.perf_counter()
                proba = model.predict_proba(Xte)
                t2 = time.perf_counter()
                fits.append(t1 - t0)
                preds.append(t2 - t1)
        except Exception as exc:
            t.errors.append(f"{s.label}: {type(exc).__name__}: {exc}")
            t.fit.append(float("nan"))
            t.predict.append(float("nan"))
            t.labels.append(np.full(len(s.test), -2))
            continue
        t.fit.append(statistics.median(fits))
        t.predict.append(statistics.median(preds))
        classes = [column[str(c)] for c in model.classes_]
        t.labels.append(np.asarray(classes)[np.argmax(proba, axis=1)])
        if s.point == 100:
            t.bytes_full.append(len(pickle.dumps(model)))
    return t


def _time_encoded(make, data, sets, reps: int, column: dict) -> Timing:
    from redecorate.learners.features import FeatureSchema

    schema = FeatureSchema.from_input(data.X)
    Xe = schema.encode(data.X)
    y = data.y.cat.codes.to_numpy().astype(np.int64)
    k = len(data.y.cat.categories)
    classes = [column[str(c)] for c in data.y.cat.categories]
    prepared = [
        (
            np.ascontiguousarray(Xe[s.train]),
            np.ascontiguousarray(y[s.train]),
            np.ones(len(s.train)),
            np.ascontiguousarray(Xe[s.test]),
        )
        for s in sets
    ]
    for Xtr, ytr, w, Xte in prepared:  # warm-up
        m = make()
        m._fit_encoded(Xtr, ytr, w, schema, k)
        m._proba_encoded(Xte)
    t = Timing([], [], [], [], [])
    for s, (Xtr, ytr, w, Xte) in zip(sets, prepared, strict=True):
        fits, preds = [], []
        for _ in range(max(1, reps)):
            model = make()
            t0 = time.perf_counter()
            model._fit_encoded(Xtr, ytr, w, schema, k)
            t1 = time.perf_counter()
            proba = model._proba_encoded(Xte)
            t2 = time.perf_counter()
            fits.append(t1 - t0)
            preds.append(t2 - t1)
        t.fit.append(statistics.median(fits))
        t.predict.append(statistics.median(preds))
        t.labels.append(np.asarray(classes)[np.argmax(proba, axis=1)])
        if s.point == 100:
            model.classes_ = data.y.cat.categories
            t.bytes_full.append(len(pickle.dumps(model)))
    return t


def time_weka(
    data: oracle.OracleData,
    sets: Sequence[TrainSet],
    classifier: str,
    options: str,
    reps: int,
    *,
    seeds: Sequence[int] | int = 1,
    warmup_sets: int | None = None,
) -> Timing:
    """Weka's side in one warm JVM (the harness's timing mode)."""
    res = oracle.run_weka(
        data.arff_path,
        data.class_index,
        [data.file_rows[s.train] for s in sets],
        [data.file_rows[s.test] for s in sets],
        classifier,
        options,
        seed=seeds,
        time_reps=max(1, reps),
        dump_model=False,
        set_ids=[s.label for s in sets],
        warmup=warmup_sets,
    )
    t = Timing([], [], [], [], [])
    for s, r in zip(sets, res, strict=True):
        if r["error"] is not None:
            t.errors.append(f"{s.label}: {r['error']}")
            t.fit.append(float("nan"))
            t.predict.append(float("nan"))
            t.labels.append(np.full(len(s.test), -3))
            continue
        t.fit.append(float(r["fit_seconds"]))
        t.predict.append(float(r["predict_seconds"]))
        t.labels.append(r["pred_eval"])
        if s.point == 100:
            t.bytes_full.append(int(r["serialized_bytes"]))
    return t


def _nanmedian(v: Sequence[float]) -> float:
    a = np.asarray(v, dtype=float)
    return float(np.nanmedian(a)) if np.isfinite(a).any() else float("nan")


def _nansum(v: Sequence[float]) -> float:
    return float(np.nansum(np.asarray(v, dtype=float)))


def compare_row(
    name: str, learner: str, data: oracle.OracleData, sets, ours: Timing, weka: Timing
) -> dict[str, Any]:
    """One table row: medians and sums over sets, ratios ours/Weka, sizes, agreement.

    Times, accuracies and agreement are taken over the sets BOTH sides fitted (Weka's
    Decorate, for one, refuses fewer than 15 training instances), so ratios compare like
    with like; the failures are counted separately.
    """
    ok = np.isfinite(np.asarray(ours.fit, dtype=float)) & np.isfinite(
        np.asarray(weka.fit, dtype=float)
    )
    pick = np.flatnonzero(ok)
    of, wf = [ours.fit[i] for i in pick], [weka.fit[i] for i in pick]
    op, wp = [ours.predict[i] for i in pick], [weka.predict[i] for i in pick]
    truth = data.y.cat.codes.to_numpy()
    agree = sum(int((ours.labels[i] == weka.labels[i]).sum()) for i in pick)
    n_pred = sum(len(ours.labels[i]) for i in pick)
    ours_acc = [float((ours.labels[i] == truth[sets[i].test]).mean()) for i in pick]
    weka_acc = [float((weka.labels[i] == truth[sets[i].test]).mean()) for i in pick]
    row = {
        "dataset": name,
        "learner": learner,
        "n": len(data.y),
        "sets": int(ok.sum()),
        "ours_failed": int(np.isnan(np.asarray(ours.fit, dtype=float)).sum()),
        "weka_failed": int(np.isnan(np.asarray(weka.fit, dtype=float)).sum()),
        "ours_fit_ms": 1e3 * _nanmedian(of),
        "weka_fit_ms": 1e3 * _nanmedian(wf),
        "ours_pred_ms": 1e3 * _nanmedian(op),
        "weka_pred_ms": 1e3 * _nanmedian(wp),
        "ours_total_s": _nansum(of) + _nansum(op),
        "weka_total_s": _nansum(wf) + _nansum(wp),
        "ours_kb": _nanmedian(ours.bytes_full) / 1024 if ours.bytes_full else float("nan"),
        "weka_kb": _nanmedian(weka.bytes_full) / 1024 if weka.bytes_full else float("nan"),
        "label_agree_pct": 100.0 * agree / max(n_pred, 1),
        "ours_acc_pct": 100.0 * float(np.mean(ours_acc)) if pick.size else float("nan"),
        "weka_acc_pct": 100.0 * float(np.mean(weka_acc)) if pick.size else float("nan"),
        "errors": "; ".join((ours.errors + [f"weka {e}" for e in weka.errors])[:3]),
    }
    row["fit_ratio"] = row["ours_fit_ms"] / row["weka_fit_ms"]
    row["pred_ratio"] = row["ours_pred_ms"] / row["weka_pred_ms"]
    row["total_ratio"] = row["ours_total_s"] / row["weka_total_s"]
    return row


def set_rows(name: str, learner: str, sets, ours: Timing, weka: Timing) -> list[dict[str, Any]]:
    """Per-training-set detail for the ``_sets.csv`` file."""
    return [
        {
            "dataset": name,
            "learner": learner,
            "fold": s.fold,
            "point": s.point,
            "n_train": len(s.train),
            "n_test": len(s.test),
            "ours_fit_s": of,
            "weka_fit_s": wf,
            "ours_pred_s": op,
            "weka_pred_s": wp,
        }
        for s, of, wf, op, wp in zip(
            sets, ours.fit, weka.fit, ours.predict, weka.predict, strict=True
        )
    ]


# ----------------------------------------------------------------------------- JIT cost
_FIRST_CALL = (
    textwrap.dedent(
        """
    import json, sys, time
    t0 = time.perf_counter()
    import redecorate.learners as L
    from redecorate.data.arff import load_arff
    t1 = time.perf_counter()
    ds = load_arff(sys.argv[1])
    make = eval(sys.argv[2], {{"L": L}})
    t2 = time.perf_counter()
    make().fit(ds.X, ds.y).predict_proba(ds.X)
    t3 = time.perf_counter()
    make().fit(ds.X, ds.y).predict_proba(ds.X)
    t4 = time.perf_counter()
    print(json.dumps({{"import_s": t1 - t0, "first_s": t3 - t2, "second_s": t4 - t3}}))
    """
    )
    .replace("{{", "{")
    .replace("}}", "}")
)


def first_call_cost(
    make_expr: str, dataset: str = "colic", *, cold: bool = True
) -> dict[str, dict[str, float]]:
    """First fit+predict of a fresh process with an empty, then a warm, numba cache.

    ``NUMBA_CACHE_DIR`` points at a private temporary directory, so the repository's own
    ``__pycache__`` is neither used nor touched. ``make_expr`` is evaluated with the
    ``redecorate.learners`` module bound to ``L``, e.g. ``"lambda: L.J48()"``.
    """
    path = str(UCI / f"{dataset}.arff")
    out: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="numba_cache_") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        if not cold:
            # Populate the cache first so both measurements below are warm.
            subprocess.run(
                [sys.executable, "-c", _FIRST_CALL, path, make_expr],
                env=env, check=True, capture_output=True, text=True,
            )  # fmt: skip
        for label in ("empty cache", "warm cache") if cold else ("warm cache",):
            proc = subprocess.run(
                [sys.executable, "-c", _FIRST_CALL, path, make_expr],
                env=env, capture_output=True, text=True,
            )  # fmt: skip
            if proc.returncode != 0:
                raise RuntimeError(f"first-call subprocess failed:\n{proc.stderr[-3000:]}")
            out[label] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


JIT_NOTE = (
    "A fresh Python process imports `redecorate.learners` (import s), then fits and predicts "
    "`{learner}` on all of colic twice (first / second), with `NUMBA_CACHE_DIR` pointing at a "
    "private directory: empty (compilation included), then populated by that run (cached "
    "machine code is loaded). The second call is the steady state."
)


# ----------------------------------------------------------------------------- provenance
def _run(cmd: list[str]) -> str:
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        return (p.stdout or p.stderr).strip()
    except (OSError, subprocess.SubprocessError):
        return "unavailable"


def load_average() -> str:
    """The 1-, 5- and 15-minute load averages: other work on the machine changes every timing."""
    if not hasattr(os, "getloadavg"):
        return "n/a"
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run_setting(load_start: str, started: float) -> list[str]:
    """A result file's setting lines after a run that began at ``started`` (``perf_counter``)
    under load ``load_start``: the load at both ends, the wall time and the machine, so every
    benchmark states its conditions the same way."""
    return [
        f"- **load average at start / end**: {load_start} / {load_average()}",
        f"- **benchmark wall time**: {time.perf_counter() - started:.1f} s",
        *(f"- **{k}**: {v}" for k, v in machine_info().items()),
    ]


def machine_info() -> dict[str, str]:
    """Date, machine and versions, so a result file says where and with what it was made."""
    import numba
    import pandas
    import sklearn

    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = "unknown"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    try:
        from redecorate import __version__ as rv
    except ImportError:
        rv = "unknown"
    java = _run(["java", "-version"]).splitlines()
    return {
        "date": dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "host": platform.node(),
        "nproc": str(os.cpu_count()),
        "cpu": cpu,
        "memory": mem,
        "os": platform.platform(),
        "python": platform.python_version(),
        "redecorate": rv,
        "numpy": np.__version__,
        "pandas": pandas.__version__,
        "numba": numba.__version__,
        "scikit-learn": sklearn.__version__,
        "java": java[0] if java else "unavailable",
        "weka": oracle.weka_version(),
        "jvm options": " ".join(oracle.JVM_OPTIONS),
    }


# ----------------------------------------------------------------------------- output
def _fmt(v: Any, digits: int = 2) -> str:
    if isinstance(v, float):
        return "nan" if not np.isfinite(v) else f"{v:.{digits}f}"
    return str(v)


def markdown_table(rows: list[dict[str, Any]], columns: list[tuple[str, str, int]]) -> str:
    """``columns`` = (key, header, decimals)."""
    head = "| " + " | ".join(h for _, h, _ in columns) + " |"
    sep = "|" + "|".join("---:" if i else "---" for i in range(len(columns))) + "|"
    body = ["| " + " | ".join(_fmt(r[k], d) for k, _, d in columns) + " |" for r in rows]
    return "\n".join([head, sep, *body])


def write_csv(path: Path, rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def totals_row(rows: list[dict[str, Any]], label: str = "ALL") -> dict[str, Any]:
    """Sum of totals; medians of the per-dataset medians (geometric mean of ratios)."""
    tot: dict[str, Any] = {k: "" for k in rows[0]}
    tot.update(dataset=label, learner=rows[0].get("learner", ""))
    for k in ("n", "sets", "ours_failed", "weka_failed"):
        tot[k] = sum(r[k] for r in rows)
    for k in ("ours_fit_ms", "weka_fit_ms", "ours_pred_ms", "weka_pred_ms", "ours_kb", "weka_kb"):
        tot[k] = _nanmedian([r[k] for r in rows])
    for k in ("ours_total_s", "weka_total_s"):
        tot[k] = sum(r[k] for r in rows)
    for k in ("fit_ratio", "pred_ratio"):
        vals = np.array([r[k] for r in rows], dtype=float)
        vals = vals[np.isfinite(vals) & (vals > 0)]
        tot[k] = float(np.exp(np.log(vals).mean())) if vals.size else float("nan")
    tot["total_ratio"] = tot["ours_total_s"] / tot["weka_total_s"]
    for k in ("label_agree_pct", "ours_acc_pct", "weka_acc_pct"):
        vals = np.array([r[k] for r in rows], dtype=float)
        wts = np.array([r["sets"] for r in rows], dtype=float)
        good = np.isfinite(vals) & (wts > 0)
        tot[k] = float(np.average(vals[good], weights=wts[good])) if good.any() else float("nan")
    tot["errors"] = ""
    return tot


TABLE_COLUMNS = [
    ("dataset", "dataset", 0),
    ("sets", "sets", 0),
    ("weka_failed", "Weka failed", 0),
    ("ours_fit_ms", "ours fit ms", 2),
    ("weka_fit_ms", "Weka fit ms", 2),
    ("fit_ratio", "fit ratio", 2),
    ("ours_pred_ms", "ours pred ms", 3),
    ("weka_pred_ms", "Weka pred ms", 3),
    ("pred_ratio", "pred ratio", 2),
    ("ours_total_s", "ours total s", 2),
    ("weka_total_s", "Weka total s", 2),
    ("total_ratio", "total ratio", 2),
    ("ours_kb", "ours KB", 1),
    ("weka_kb", "Weka KB", 1),
    ("label_agree_pct", "labels agree %", 2),
    ("ours_acc_pct", "ours acc %", 2),
    ("weka_acc_pct", "Weka acc %", 2),
]


def write_report(
    stem: str,
    title: str,
    intro: str,
    sections: list[tuple[str, str]],
    rows: list[dict[str, Any]],
    detail: list[dict[str, Any]],
    meta: dict[str, str],
    out_dir: Path = RESULTS,
) -> Path:
    """Write ``<stem>.md``, ``<stem>.csv`` and ``<stem>_sets.csv`` into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    lines = [f"# {title}", "", intro.strip(), "", "## Environment", ""]
    lines += [f"- **{k}**: {v}" for k, v in meta.items()]
    for heading, body in sections:
        lines += ["", f"## {heading}", "", body.strip()]
    md = out_dir / f"{stem}.md"
    md.write_text("\n".join(lines) + "\n")
    write_csv(out_dir / f"{stem}.csv", rows)
    write_csv(out_dir / f"{stem}_sets.csv", detail)
    return md


# ----------------------------------------------------------------------------- main
def parse_args(argv: Sequence[str] | None, description: str) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=description)
    p.add_argument(
        "--datasets",
        default=",".join(DATASETS),
        help="comma-separated file stems of the UCI mirror (default: the 15 of Table 4.1)",
    )
    p.add_argument("--reps", type=int, default=3, help="timed repetitions per set (median kept)")
    p.add_argument(
        "--quick",
        action="store_true",
        help=f"2 folds, points {QUICK_POINTS}, 1 rep, no empty-cache JIT run: a smoke test",
    )
    p.add_argument("--out-dir", type=Path, default=RESULTS, help="where results are written")
    p.add_argument(
        "--api",
        choices=sorted(API_TEXT),
        default="public",
        help="time the public fit/predict_proba on DataFrames, or the encoded-matrix path",
    )
    p.add_argument("--seed", type=int, default=SEED, help="experiment seed (folds and orders)")
    args = p.parse_args(argv)
    args.datasets = [d.strip() for d in args.datasets.split(",") if d.strip()]
    unknown = [d for d in args.datasets if not (UCI / f"{d}.arff").is_file()]
    if unknown:
        p.error(f"no such dataset(s) in {UCI}: {', '.join(unknown)}")
    if args.quick:
        args.reps = 1
    return args


API_TEXT = {
    "public": "`J48().fit(DataFrame)` + `predict_proba` (validation and encoding included)",
    "encoded": "`_fit_encoded` + `_proba_encoded` on the encoded matrix (as Weka's "
    "`buildClassifier` on parsed `Instances`; the path ensembles use for members)",
}


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv, "Time redecorate's J48 against Weka 3.6's J48.")
    reason = oracle.weka_available()
    if reason is not None:
        print(f"Weka oracle unavailable: {reason}", file=sys.stderr)
        return 2
    from redecorate.learners import J48

    command = "python " + " ".join(shlex.quote(a) for a in [sys.argv[0], *(argv or sys.argv[1:])])
    meta = {"command": command, "load average at start": load_average(), **machine_info()}
    points = QUICK_POINTS if args.quick else POINTS
    max_folds = 2 if args.quick else None
    print("first-call (numba JIT) cost ...", flush=True)
    jit = first_call_cost("lambda: L.J48()", "colic", cold=not args.quick)
    rows, detail = [], []
    started = time.perf_counter()
    for name in args.datasets:
        data = load(name)
        sets = protocol_sets(data, points=points, max_folds=max_folds, seed=args.seed)
        weka = time_weka(data, sets, "weka.classifiers.trees.J48", "-C 0.25 -M 2", args.reps)
        ours = time_ours(J48, data, sets, args.reps, encoded=args.api == "encoded")
        row = compare_row(name, "J48", data, sets, ours, weka)
        row["source"] = data.source
        rows.append(row)
        detail += set_rows(name, "J48", sets, ours, weka)
        print(
            f"{name:<10} sets {row['sets']:>4}  fit {row['ours_fit_ms']:8.2f} ms vs "
            f"{row['weka_fit_ms']:8.2f} ms (x{row['fit_ratio']:.2f})  pred "
            f"{row['ours_pred_ms']:7.3f} vs {row['weka_pred_ms']:7.3f} ms  total "
            f"{row['ours_total_s']:6.2f} s vs {row['weka_total_s']:6.2f} s  "
            f"labels {row['label_agree_pct']:.2f}%  [{time.perf_counter() - started:.0f}s]",
            flush=True,
        )
    table_rows = rows + [totals_row(rows)]
    jit_lines = ["| cache | import s | first fit+predict s | second fit+predict s |"]
    jit_lines.append("|---|---:|---:|---:|")
    for label, v in jit.items():
        jit_lines.append(
            f"| {label} | {v['import_s']:.2f} | {v['first_s']:.2f} | {v['second_s']:.4f} |"
        )
    intro = f"""
J48 (C4.5 r8) fit + predict time per training set, redecorate vs Weka 3.6, on the
chapter-4 protocol: run 0 of a seeded stratified {N_FOLDS}-fold split (seed {args.seed}),
{"first 2 folds, " if args.quick else ""}learning-curve points {", ".join(map(str, points))} % of
each training fold as prefixes of one seeded random order (`redecorate.protocol`), the
fold's test set as test set. {args.reps} timed repetition(s) per set, median kept. Ours
({args.api} path): {API_TEXT[args.api]}, after a warm-up pass. Weka: `buildClassifier` + `distributionForInstance` in one warm
JVM after a warm-up pass over all sets. Ratios are ours / Weka (> 1: we are slower).
"""
    sections = [
        (
            "Per dataset",
            markdown_table(table_rows, TABLE_COLUMNS)
            + "\n\n`fit ms`/`pred ms`: median over sets of the per-set median; `total s`: sum "
            "over sets of fit + predict medians; ALL: median of medians, geometric mean of "
            "ratios, sum of totals. `KB`: size of one fitted tree at the 100 % point (median "
            "over folds): `len(pickle.dumps(model))` for ours, Java serialization for Weka. "
            "`labels agree %`: our `predict` vs the label Weka's Evaluation scores, over all "
            "test predictions of all sets (a check that both sides did the same work); "
            "`acc %`: mean test accuracy over sets.",
        ),
        (
            "First call (numba compilation)",
            "\n".join(jit_lines) + "\n\n" + JIT_NOTE.format(learner="J48()"),
        ),
    ]
    errors = [f"- {r['dataset']}: {r['errors']}" for r in rows if r["errors"]]
    if errors:
        sections.append(("Errors", "\n".join(errors)))
    md = write_report(
        "j48_vs_weka" if args.api == "public" else f"j48_vs_weka_{args.api}",
        f"J48 vs Weka 3.6: time and memory ({args.api} API)", intro, sections, rows, detail,
        meta, args.out_dir,
    )  # fmt: skip
    print(f"\nwrote {md} (+ .csv, _sets.csv)")
    print("\n".join(jit_lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
