"""Keep an experiment's finished job files for continuing elsewhere: copy the job files of
``results/<experiment>/records/`` that computed something into ``reproduced/<experiment>/records/``.

Why: a thesis-scale experiment outlasts the machine it runs on, and a later run continues
from the kept files (``records_from=reproduced``, docs/operations.md). A plain ``cp -r``
loses what it should keep: a job whose units were all read from kept files computed nothing,
and its file, copied over the one it read them from, would replace the record of where and
at which commit the units were computed with a note that they came from that very file. So:

* a job file whose units were all reused is not copied (its units are kept where they were
  computed);
* ``--prefix`` names the copies ``<prefix>-chunkN.parquet``, so files of another scale (a
  pilot's ``chunkN``) stay beside them;
* a kept file is replaced only by a file that holds all of its units and took none of them
  from it; otherwise the new file is kept beside it, named with its commit (and a number when
  a different file of that commit is already kept there);
* the job files of the experiment's slices (``results/<experiment>.slice-<hash>/``, a run
  with ``--config datasets=[...]`` or ``algorithms=[...]``) are kept too, named
  ``<prefix>-slice-<hash>-chunkN.parquet``: a slice packs its jobs differently, so its
  ``chunkN`` is not the whole run's, and the names keep the two apart;
* every copy is written to a temporary name and renamed into place.

Usage::

    python3 tools/keep_records.py ch7_cpe ch8_afa --prefix thesis
    python3 tools/keep_records.py ch6_active --results /scratch/results --into reproduced
    python3 tools/keep_records.py ch6_active ch8_afa --check   # exit 1 if a computed unit is not kept

``--check`` copies nothing: it lists the units computed under the results (job files and their
slices') whose key no file under ``--into`` holds. A file-by-file comparison cannot answer that
question, since the all-reused files are deliberately not copied and a slice's are renamed.
"""

from __future__ import annotations

import argparse
import filecmp
import itertools
import os
import shutil
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from redecorate.job_records import job_record_info  # noqa: E402
from redecorate.layout import SLICE_MARK  # noqa: E402


@dataclass(frozen=True)
class Kept:
    """What happened to one job file."""

    source: Path
    target: Path | None
    action: str  # "copied", "replaced", "beside", "same", "all reused", "no metadata"


def _same_file(a: str | os.PathLike[str], b: Path) -> bool:
    """Whether the recorded source path ``a`` names ``b`` (recorded paths are relative to the
    directory the workflow ran in, or absolute)."""
    path = Path(a)
    if path.is_absolute():
        return path.resolve() == b.resolve()
    return b.resolve().as_posix().endswith("/" + path.as_posix())


def keep_file(source: Path, target: Path) -> Kept:
    """Keep one job file ``source`` as ``target`` (see the module docstring)."""
    info = job_record_info(source)
    if info is None or "unit_keys" not in info:
        return Kept(source, None, "no metadata")
    sources = info.get("unit_sources") or []
    if sources and all(sources):
        return Kept(source, None, "all reused")
    action = "copied"
    if target.exists():
        if filecmp.cmp(source, target, shallow=False):
            return Kept(source, target, "same")
        old = job_record_info(target) or {}
        took_from_it = any(s and _same_file(s, target) for s in sources)
        if took_from_it or not set(old.get("unit_keys", [])) <= set(info["unit_keys"]):
            commit = str(info.get("commit") or "unknown")[:7]
            action = "beside"
            for n in itertools.count():
                stem = f"{target.stem}.{commit}" + (f".{n}" if n else "")
                beside = target.with_name(f"{stem}{target.suffix}")
                if not beside.exists():
                    break
                if filecmp.cmp(source, beside, shallow=False):
                    return Kept(source, beside, "same")
            target = beside
        else:
            action = "replaced"
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    shutil.copyfile(source, tmp)
    os.replace(tmp, target)
    return Kept(source, target, action)


def record_folders(results: Path, experiment: str) -> list[tuple[Path, str]]:
    """The ``records/`` folders of ``experiment`` under ``results`` (its own, then its slices'),
    each with the tag its copies are named with (``""``, ``"slice-<hash>"``)."""
    folders = [(results / experiment / "records", "")]
    for folder in sorted(results.glob(f"{experiment}{SLICE_MARK}*/records")):
        folders.append((folder, "slice-" + folder.parent.name[len(experiment) + len(SLICE_MARK):]))
    return [(folder, tag) for folder, tag in folders if folder.is_dir()]


def keep_experiment(results: Path, into: Path, experiment: str, prefix: str = "") -> list[Kept]:
    """Keep every job file of ``results/<experiment>/records/`` and of its slices' ``records/``
    under ``into/<experiment>/records/``."""
    out = []
    for folder, tag in record_folders(results, experiment):
        for source in sorted(folder.glob("*/*.parquet")):
            name = "-".join(part for part in (prefix, tag, source.name) if part)
            out.append(keep_file(source, into / experiment / "records" / source.parent.name / name))
    return out


def unkept_units(results: Path, into: Path, experiment: str) -> dict[Path, int]:
    """Job file -> how many of the units it computed (not read from elsewhere) no job file
    under ``into/*/records/`` holds by key; files with none are left out."""
    kept: set[str] = set()
    for path in into.glob("*/records/*/*.parquet"):
        info = job_record_info(path)
        if info is not None:
            kept.update(info.get("unit_keys", []))
    out = {}
    for folder, _ in record_folders(results, experiment):
        for source in sorted(folder.glob("*/*.parquet")):
            info = job_record_info(source)
            if info is None or "unit_keys" not in info:
                continue
            sources = info.get("unit_sources") or [None] * len(info["unit_keys"])
            missing = sum(1 for key, src in zip(info["unit_keys"], sources, strict=True) if not src and key not in kept)
            if missing:
                out[source] = missing
    return out


def tally(kept: list[Kept]) -> str:
    """What :func:`keep_experiment` did, in one line: ``N job files: n copied, m same``."""
    counts = Counter(k.action for k in kept)
    return f"{len(kept)} job files: " + ", ".join(f"{n} {action}" for action, n in sorted(counts.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("experiments", nargs="+", help="experiment names (folders of the results directory)")
    parser.add_argument("--results", default="results", help="the results directory (default: results)")
    parser.add_argument("--into", default="reproduced", help="where to keep them (default: reproduced)")
    parser.add_argument("--prefix", default="", help="name the copies <prefix>-chunkN.parquet")
    parser.add_argument("--check", action="store_true",
                        help="copy nothing; exit 1 if a unit computed under --results is kept nowhere under --into")
    args = parser.parse_args(argv)
    if args.check:
        unkept = {}
        for experiment in args.experiments:
            unkept.update(unkept_units(Path(args.results), Path(args.into), experiment))
        for source, n in unkept.items():
            print(f"  {source}: {n} computed unit(s) kept nowhere under {args.into}")
        print(f"{', '.join(args.experiments)}: " + (f"{sum(unkept.values())} computed unit(s) not kept"
                                                   if unkept else f"every computed unit is kept under {args.into}"))
        return 1 if unkept else 0
    for experiment in args.experiments:
        if not record_folders(Path(args.results), experiment):
            print(f"{experiment}: no job files under {args.results}/{experiment}/records "
                  f"or {args.results}/{experiment}{SLICE_MARK}*/records")
            continue
        kept = keep_experiment(Path(args.results), Path(args.into), experiment, args.prefix)
        for k in kept:
            if k.action == "beside":
                print(f"  {k.source}: kept beside an earlier file as {k.target}")
        print(f"{experiment}: {tally(kept)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
