"""Python side of the Weka 3.6 oracle: compile and drive ``WekaOracle.java``.

Weka is the reference implementation that redecorate's learners are checked and
benchmarked against, never a runtime dependency, so everything here is optional:
:func:`weka_available` says why the oracle cannot run (tests skip with that reason)
instead of raising.

Rows are addressed by their 0-based position in the ARFF data section, in file order and
before any filtering, so Java builds every training set from the very same header the
Python loader sees. One call of :func:`run_weka` is one JVM running one classifier
configuration over many training sets, which keeps start-up cost to a few dozen JVMs per
test session.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "DEFAULT_WEKA_JAR",
    "OracleData",
    "compile_oracle",
    "default_cache_dir",
    "load_oracle_data",
    "run_weka",
    "weka_available",
    "weka_frame",
    "weka_info",
    "weka_jar",
    "weka_version",
    "write_arff",
]

DEFAULT_WEKA_JAR = "/usr/share/java/weka.jar"
SOURCE = Path(__file__).with_name("WekaOracle.java")
# Deep C4.5 trees on large unpruned data recurse deeply in Weka; a roomy thread stack
# keeps an oracle run from dying of StackOverflowError where our Python side would not.
JVM_OPTIONS: tuple[str, ...] = ("-Xss64m", "-Xmx1g")


def weka_jar() -> Path:
    """The Weka jar to use: ``$WEKA_JAR`` if set, else Debian's ``/usr/share/java/weka.jar``."""
    return Path(os.environ.get("WEKA_JAR", DEFAULT_WEKA_JAR))


def weka_available() -> str | None:
    """Return ``None`` when the oracle can run, else a human-readable reason it cannot.

    A reason rather than a bool, so ``pytest.skip`` tells the reader what to install.
    """
    if os.environ.get("REDECORATE_NO_WEKA"):
        return "disabled by REDECORATE_NO_WEKA"
    if shutil.which("java") is None:
        return "java not found (install a JDK, e.g. apt-get install default-jdk-headless)"
    if shutil.which("javac") is None:
        return "javac not found (install a JDK, not only a JRE)"
    jar = weka_jar()
    if not jar.is_file():
        return f"{jar} not found (apt-get install weka, or set WEKA_JAR)"
    return None


def default_cache_dir() -> Path:
    """Where compiled harness classes live: ``$REDECORATE_CACHE/weka_oracle`` or ``~/.cache``."""
    root = os.environ.get("REDECORATE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "redecorate"
    )
    return Path(root) / "weka_oracle"


def _source_key() -> str:
    """Hash of what the compiled class depends on: the harness source and the jar used."""
    h = hashlib.sha256(SOURCE.read_bytes())
    jar = weka_jar().resolve()
    h.update(str(jar).encode())
    if jar.is_file():
        st = jar.stat()
        h.update(f"{st.st_size}:{int(st.st_mtime)}".encode())
    return h.hexdigest()[:16]


def compile_oracle(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """Compile the harness with ``javac`` once per source hash and return the class directory.

    The class is never committed; it is rebuilt whenever ``WekaOracle.java`` (or the jar)
    changes. Compilation goes to a temporary directory that is renamed into place, so
    concurrent test processes cannot observe a half-written class file.
    """
    reason = weka_available()
    if reason is not None:
        raise RuntimeError(f"Weka oracle unavailable: {reason}")
    cache = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    target = cache / _source_key()
    if (target / "WekaOracle.class").is_file():
        return target
    cache.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="build-", dir=cache))
    try:
        proc = subprocess.run(
            [
                "javac",
                "-nowarn",
                "-Xlint:none",
                "-encoding",
                "UTF-8",
                "-cp",
                str(weka_jar()),
                "-d",
                str(tmp),
                str(SOURCE),
            ],
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"javac failed on {SOURCE}:\n{proc.stderr}")
        try:
            tmp.rename(target)
        except OSError:
            # Another process won the race; its identical build is in place.
            if not (target / "WekaOracle.class").is_file():
                raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return target


def _java(class_dir: Path, args: Sequence[str], timeout: float | None) -> None:
    cmd = [
        "java",
        *JVM_OPTIONS,
        "-cp",
        os.pathsep.join([str(weka_jar()), str(class_dir)]),
        "WekaOracle",
        *args,
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"WekaOracle exited with {proc.returncode}:\n{proc.stderr[-4000:]}")


def _class_arg(class_index: int | str) -> str:
    """Weka-side class spec: 0-based index, or ``first``/``last`` (negative counts from the end)."""
    if isinstance(class_index, str):
        if class_index not in ("first", "last"):
            raise ValueError(f"class_index must be an int, 'first' or 'last', not {class_index!r}")
        return class_index
    if class_index == -1:
        return "last"
    if class_index < 0:
        raise ValueError("negative class indices other than -1 are ambiguous here")
    return str(int(class_index))


def weka_info(
    arff_path: str | os.PathLike[str],
    class_index: int | str = "last",
    *,
    with_data: bool = False,
    cache_dir: str | os.PathLike[str] | None = None,
    timeout: float | None = 120,
) -> dict[str, Any]:
    """Weka's view of an ARFF file: attributes, declared values, rows with a missing class.

    Used to check that the Python loader agrees with Weka before comparing learners, and to
    map Python row numbers (missing-class rows dropped) back to file rows. ``with_data``
    adds ``columns`` (column-major values as Weka parsed them: numbers, nominal value
    indices, ``None`` for missing) and ``weights``.
    """
    class_dir = compile_oracle(cache_dir)
    mode = "--dump" if with_data else "--info"
    with tempfile.TemporaryDirectory(prefix="weka_info_") as td:
        out = Path(td) / "info.json"
        _java(class_dir, [mode, str(arff_path), _class_arg(class_index), str(out)], timeout)
        return json.loads(out.read_text())


def weka_frame(
    arff_path: str | os.PathLike[str],
    class_index: int | str = "last",
    *,
    cache_dir: str | os.PathLike[str] | None = None,
) -> tuple[pd.DataFrame, pd.Series, dict[str, Any]]:
    """The ARFF data exactly as Weka parsed it, in redecorate's DataFrame convention.

    Nominal attributes become ``Categorical`` over the declared values (in order), numeric
    ones float64 with NaN for missing; ``y`` is the class as a Categorical Series. ALL file
    rows are kept (also missing-class ones) so row ``i`` here is data row ``i`` for Java.
    Returns ``(X, y, info)``. This lets a differential test check, or stand in for, the
    project's own loader without trusting it.
    """
    import pandas as pd

    info = weka_info(arff_path, class_index, with_data=True, cache_dir=cache_dir)
    cols: dict[str, Any] = {}
    y: pd.Series | None = None
    for j, (attr, values) in enumerate(zip(info["attributes"], info["columns"], strict=True)):
        arr = np.array([np.nan if v is None else v for v in values], dtype=np.float64)
        if attr["type"] == "nominal":
            codes = np.where(np.isnan(arr), -1, arr).astype(np.int64)
            col: Any = pd.Categorical.from_codes(codes, categories=attr["values"])
        elif attr["type"] == "numeric":
            col = arr
        else:
            raise ValueError(f"attribute {attr['name']!r} has type {attr['type']}: unsupported")
        if j == info["class_index"]:
            y = pd.Series(col, name=attr["name"])
        else:
            cols[attr["name"]] = col
    assert y is not None
    return pd.DataFrame(cols), y, info


@dataclass
class OracleData:
    """A dataset on both sides of the oracle, with the row mapping between them.

    ``X``/``y`` are what our learners are fitted on (rows with a missing class dropped, as
    redecorate's loader and Weka's learners both do); ``file_rows[r]`` is the ARFF data row
    of Python row ``r``, which is what :func:`run_weka` must be told. ``source`` says which
    parser produced ``X``: ``"load_arff"`` when redecorate's loader ran and agreed with Weka
    value for value, else ``"weka"`` (Weka's own parse) with ``loader_problem`` saying why.
    """

    name: str
    arff_path: Path
    class_index: int
    X: pd.DataFrame
    y: pd.Series
    file_rows: np.ndarray
    class_values: list[str]
    source: str
    loader_problem: str | None = None


def _frames_differ(X: pd.DataFrame, y: pd.Series, Xw: pd.DataFrame, yw: pd.Series) -> str | None:
    """First difference between the loader's frames and Weka's, or None when identical."""
    import pandas as pd

    if list(map(str, X.columns)) != list(Xw.columns):
        return f"attribute names differ: {list(X.columns)[:5]}... vs Weka {list(Xw.columns)[:5]}..."
    if X.shape != Xw.shape or len(y) != len(yw):
        return f"shape {X.shape} vs Weka {Xw.shape}"
    pairs = [(str(c), X[c], Xw[c]) for c in Xw.columns] + [("<class>", y, yw)]
    for name, a, b in pairs:
        a_nom = isinstance(a.dtype, pd.CategoricalDtype)
        b_nom = isinstance(b.dtype, pd.CategoricalDtype)
        if a_nom != b_nom:
            return f"{name}: nominal={a_nom} vs Weka nominal={b_nom}"
        if a_nom:
            ca, cb = list(map(str, a.cat.categories)), list(map(str, b.cat.categories))
            if ca != cb:
                return f"{name}: declared values {ca[:6]} vs Weka {cb[:6]}"
            bad = np.flatnonzero(a.cat.codes.to_numpy() != b.cat.codes.to_numpy())
        else:
            va = a.to_numpy(dtype=np.float64, na_value=np.nan)
            vb = b.to_numpy(dtype=np.float64, na_value=np.nan)
            bad = np.flatnonzero(~((va == vb) | (np.isnan(va) & np.isnan(vb))))
        if bad.size:
            r = int(bad[0])
            return f"{name}: {bad.size} values differ, first at row {r}: {a.iloc[r]!r} vs Weka {b.iloc[r]!r}"
    return None


def load_oracle_data(
    arff_path: str | os.PathLike[str],
    class_index: int | str = "last",
    *,
    prefer_loader: bool = True,
    cache_dir: str | os.PathLike[str] | None = None,
) -> OracleData:
    """Load a dataset for a differential run, checking redecorate's loader against Weka.

    Differential tests must compare learners, not parsers: if ``redecorate.data.load_arff``
    is missing, fails, or reads any value differently from Weka, Weka's own parse is used
    instead and the reason is kept in ``loader_problem`` for the report.
    """
    arff_path = Path(arff_path)
    Xw, yw, info = weka_frame(arff_path, class_index, cache_dir=cache_dir)
    ci = int(info["class_index"])
    missing = set(info["missing_class_rows"])
    file_rows = np.array([i for i in range(len(yw)) if i not in missing], dtype=np.int64)
    Xw = Xw.iloc[file_rows].reset_index(drop=True)
    yw = yw.iloc[file_rows].reset_index(drop=True)
    X, y, source, problem = Xw, yw, "weka", None
    if prefer_loader:
        try:
            try:
                from redecorate.data import load_arff  # type: ignore[attr-defined]
            except ImportError:
                from redecorate.data.arff import load_arff
            ds = load_arff(arff_path, class_attribute=ci)
            problem = _frames_differ(ds.X, ds.y, Xw, yw)
            if problem is None:
                X, y, source = ds.X, ds.y, "load_arff"
        except Exception as exc:  # the loader is someone else's work in progress
            problem = f"load_arff failed: {type(exc).__name__}: {exc}"
    return OracleData(
        name=arff_path.stem,
        arff_path=arff_path,
        class_index=ci,
        X=X,
        y=y,
        file_rows=file_rows,
        class_values=list(info["attributes"][ci]["values"]),
        source=source,
        loader_problem=problem,
    )


def _arff_quote(text: str) -> str:
    """One ARFF name or nominal value in single quotes, escaped for Weka's tokenizer."""
    return "'" + str(text).replace("\\", "\\\\").replace("'", "\\'") + "'"


def write_arff(path: str | os.PathLike[str], X: pd.DataFrame, y: pd.Series, relation: str = "oracle") -> Path:
    """Write ``X`` and the class ``y`` (last) as an ARFF file both sides can read.

    Differential tests address rows of a file, so data that exists only in memory (a masked
    view, a corrupted copy) must be written out first; NaN becomes ``?``. Nominal columns
    keep their declared categories in order, so Weka's class and value indices are ours.
    """
    import pandas as pd

    path = Path(path)
    nominal = {c: isinstance(X[c].dtype, pd.CategoricalDtype) for c in X.columns}
    lines = [f"@relation {_arff_quote(relation)}"]
    for c in X.columns:
        kind = "{" + ",".join(_arff_quote(v) for v in X[c].cat.categories) + "}" if nominal[c] else "numeric"
        lines.append(f"@attribute {_arff_quote(c)} {kind}")
    lines.append(f"@attribute {_arff_quote(y.name or 'class')} {{{','.join(_arff_quote(v) for v in y.cat.categories)}}}")
    lines.append("@data")
    columns = [X[c].tolist() for c in X.columns] + [y.tolist()]
    quote = [nominal[c] for c in X.columns] + [True]
    for row in zip(*columns, strict=True):
        lines.append(",".join(
            "?" if pd.isna(v) else _arff_quote(v) if q else repr(float(v)) for v, q in zip(row, quote, strict=True)
        ))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _weka_quote(token: str) -> str:
    """Quote one option the way ``weka.core.Utils.splitOptions`` will split it back."""
    if token and not any(c in token for c in " \t\"\\'\n"):
        return token
    return '"' + token.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _options_string(options: str | Sequence[str] | None) -> str:
    if options is None:
        return ""
    if isinstance(options, str):
        return options
    return " ".join(_weka_quote(str(o)) for o in options)


def _ints(rows: Iterable[int]) -> str:
    return " ".join(str(int(r)) for r in rows)


def _per_set(value: Any, n: int, name: str) -> list[Any]:
    """Broadcast a scalar / None to every set, or check a per-set sequence's length."""
    if value is None or np.isscalar(value):
        return [value] * n
    values = list(value)
    if len(values) != n:
        raise ValueError(f"{name} has {len(values)} entries for {n} training sets")
    return values


def write_spec(
    path: Path,
    arff_path: str | os.PathLike[str],
    class_index: int | str,
    train_sets: Sequence[Sequence[int]],
    test_sets: Sequence[Sequence[int] | None] | None,
    classifier: str,
    options: str | Sequence[str] | None,
    weights: Sequence[Sequence[float] | None] | None,
    seed: int | Sequence[int],
    time_reps: int,
    dump_model: bool,
    set_ids: Sequence[str] | None,
    warmup: int | None = None,
) -> None:
    """Write the plain-text spec ``WekaOracle.java`` parses (see its header comment)."""
    n = len(train_sets)
    tests = _per_set(test_sets, n, "test_sets") if test_sets is not None else [None] * n
    wts = [None] * n if weights is None else _per_set(weights, n, "weights")
    seeds = _per_set(seed, n, "seed")
    ids = [str(i) for i in range(n)] if set_ids is None else [str(s) for s in set_ids]
    if len(ids) != n:
        raise ValueError(f"set_ids has {len(ids)} entries for {n} training sets")
    lines = [
        f"arff {Path(arff_path).resolve()}",
        f"class {_class_arg(class_index)}",
        f"classifier {classifier} {_options_string(options)}".rstrip(),
        f"time {int(time_reps)}",
        f"warmup {-1 if warmup is None else int(warmup)}",
        f"model {1 if dump_model else 0}",
    ]
    for i in range(n):
        train = np.asarray(train_sets[i], dtype=np.int64)
        lines.append(f"set {ids[i]}")
        lines.append(f"train {_ints(train)}")
        if wts[i] is not None:
            w = np.asarray(wts[i], dtype=np.float64)
            if w.shape != train.shape:
                raise ValueError(f"set {ids[i]}: {w.size} weights for {train.size} train rows")
            # repr() round-trips exactly, so Weka sees bit-identical weights.
            lines.append("weights " + " ".join(repr(float(x)) for x in w))
        if tests[i] is not None:
            lines.append(f"test {_ints(tests[i])}")
        if seeds[i] is not None:
            lines.append(f"seed {int(seeds[i])}")
        lines.append("end")
    path.write_text("\n".join(lines) + "\n")


def _decode(record: dict[str, Any], n_classes_hint: int | None) -> dict[str, Any]:
    """Turn one JSON line into arrays plus J48's two size measures as top-level ints."""
    if record.get("error") is None:
        pred = np.asarray(record.get("pred", []), dtype=np.int64)
        record["pred_eval"] = np.asarray(record.get("pred_eval", []), dtype=np.int64)
        rows = record.get("dist", [])
        width = len(rows[0]) if rows else (n_classes_hint or 0)
        dist = np.array(
            [[np.nan if p is None else p for p in row] for row in rows], dtype=np.float64
        ).reshape(len(rows), width)
        record["pred"] = pred
        record["dist"] = dist
        measures = record.get("measures", {})
        if "measureTreeSize" in measures:
            record["tree_size"] = int(round(measures["measureTreeSize"]))
        if "measureNumLeaves" in measures:
            record["num_leaves"] = int(round(measures["measureNumLeaves"]))
    return record


def run_weka(
    arff_path: str | os.PathLike[str],
    class_index: int | str,
    train_sets: Sequence[Sequence[int]],
    test_sets: Sequence[Sequence[int] | None] | None,
    classifier: str,
    options: str | Sequence[str] | None = None,
    weights: Sequence[Sequence[float] | None] | None = None,
    seed: int | Sequence[int] = 1,
    time_reps: int = 0,
    *,
    dump_model: bool = True,
    set_ids: Sequence[str] | None = None,
    warmup: int | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    timeout: float | None = None,
) -> list[dict[str, Any]]:
    """Fit ``classifier`` on each training set in one JVM and predict its test set.

    Parameters
    ----------
    arff_path, class_index
        The full ARFF file and its class attribute (0-based int, ``"first"`` or ``"last"``).
    train_sets, test_sets
        Per training set, 0-based data-section rows (file order, no filtering). Training
        order is preserved, since C4.5's tie-breaking can depend on it.
    classifier, options
        Weka class name and its options, as a string (Weka quoting) or a token list, e.g.
        ``"weka.classifiers.meta.Bagging", "-I 15 -W weka.classifiers.trees.J48"``.
    weights
        Optional per-set instance weights (one per train row; ``None`` = all 1).
    seed
        ``setSeed`` for ``Randomizable`` learners, one int for all sets or one per set.
    time_reps
        0: run once. ``R > 0``: warm-up pass over all sets, then R timed repetitions of
        fit + predict per set; the medians are ``fit_seconds`` / ``predict_seconds``.
        ``warmup`` limits the warm-up pass to the first k sets (default: all).

    Returns
    -------
    One dict per training set, in order: ``set``, ``error`` (``None`` or Weka's exception
    text: a failing set does not stop the others), ``n_train``, ``n_test``, ``measures``
    (Weka's AdditionalMeasureProducer values), ``tree_size`` / ``num_leaves`` (J48),
    ``model`` (``toString()``), ``pred`` (``classifyInstance``: int array of class indices
    into the DECLARED class values, -1 when Weka predicts missing), ``pred_eval`` (the label
    ``weka.classifiers.Evaluation`` scores: first argmax of ``dist``, -1 if it is 0; differs
    from ``pred`` e.g. for J48 ``-A``, whose classifyInstance ignores the Laplace correction),
    ``dist`` (``distributionForInstance``, n_test x n_declared_classes),
    ``serialized_bytes`` (Java serialization size of the fitted model, a memory proxy),
    ``fit_seconds``, ``predict_seconds`` (medians in timing mode, single run otherwise).
    """
    class_dir = compile_oracle(cache_dir)
    with tempfile.TemporaryDirectory(prefix="weka_oracle_") as td:
        spec = Path(td) / "spec.txt"
        out = Path(td) / "out.jsonl"
        write_spec(
            spec,
            arff_path,
            class_index,
            train_sets,
            test_sets,
            classifier,
            options,
            weights,
            seed,
            time_reps,
            dump_model,
            set_ids,
            warmup,
        )
        _java(class_dir, [str(spec), str(out)], timeout)
        records = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    if len(records) != len(train_sets):
        raise RuntimeError(f"WekaOracle returned {len(records)} results for {len(train_sets)} sets")
    return [_decode(r, None) for r in records]


def weka_version() -> str:
    """Weka's version string (``weka.core.Version``), for benchmark provenance."""
    proc = subprocess.run(
        ["java", "-cp", str(weka_jar()), "weka.core.Version"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    text = (proc.stdout or proc.stderr).strip().splitlines()
    return text[0] if text else "unknown"


def total_row(results: Iterable[Any], total: Any) -> Any:
    """Fill ``total`` (a dataclass of per-dataset agreement counts) with the column totals.

    Numeric fields are summed over ``results``, fields named ``max_*`` take the maximum,
    anything else (names, lists of messages) is left alone: the TOTAL row of the tables
    the differential tests print.
    """
    rows = list(results)
    for f in dataclasses.fields(total):
        values = [getattr(r, f.name) for r in rows]
        if not values or isinstance(values[0], bool) or not isinstance(values[0], (int, float)):
            continue
        setattr(total, f.name, max(values) if f.name.startswith("max_") else sum(values))
    return total
