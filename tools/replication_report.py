"""Regenerate the committed replication report from the committed records, and the README
lines that quote it.

Usage: ``python3 tools/replication_report.py [RECORDS_ROOT]`` (default ``reproduced``).

Writes ``RECORDS_ROOT/REPLICATION.md`` and ``RECORDS_ROOT/replication_figures/`` exactly as
the workflow's target does (``snakemake --cores 1 replication_report --config
replication_records=reproduced``: both call
:func:`redecorate.report.replication_index.write_report`), then, for the committed records,
the summary block of ``README.md`` and ``reproduced/README.md``. Run it after committing new
records (or editing a published value, a known disagreement or an experiment file);
``tests/test_replication_index.py`` fails while the committed report or a README block differs
from what the committed records give.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("MPLBACKEND", "Agg")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
# NumPy's AVX-512 loops off before NumPy loads, as in the workflow's processes: the report's
# last bits (a geometric mean's log) then do not depend on the CPU.
from redecorate.determinism import pin_cpu_dispatch  # noqa: E402

pin_cpu_dispatch()

from redecorate.report.replication_index import (  # noqa: E402
    REPORT_FILE,
    readme_block,
    summary_line,
    with_readme_block,
    write_report,
)
from redecorate.reproduction import Inputs, replication_index  # noqa: E402

READMES = {ROOT / "README.md": f"reproduced/{REPORT_FILE}", ROOT / "reproduced" / "README.md": REPORT_FILE}
"""The READMEs that quote the committed report's summary, and the report's path from each."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="?", default=ROOT / "reproduced", type=Path)
    args = parser.parse_args(argv)
    index = replication_index(Inputs.of_repository(args.records, ROOT))
    for path in write_report(index, args.records):
        print(path)
    summary = summary_line(index)
    if args.records.resolve() == (ROOT / "reproduced").resolve():
        for readme, report in READMES.items():
            text = readme.read_text(encoding="utf-8")
            readme.write_text(with_readme_block(text, readme_block(summary, report), str(readme)), encoding="utf-8")
            print(readme)
    print(summary)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
