"""Workflow entry point: fetch or read one dataset and write its prepared copy.

Called by rule ``prepare_dataset`` (workflow/rules/data.smk). The data source (registry
entry or ``data_mirror``) comes from the configuration rather than from rule parameters so
that switching between a mirror and a download never invalidates finished results.
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core per job: Snakemake schedules the cores

from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from redecorate.data import load_dataset, load_registry, save_prepared  # noqa: E402
from redecorate.util import atomic_files, job_log  # noqa: E402


def _repo_path(repo: Path, value: str) -> Path:
    path = Path(os.path.expanduser(value))
    return path if path.is_absolute() else repo / path


def main(smk: Any) -> None:
    """Prepare ``smk.wildcards.dataset`` into ``smk.output.parquet`` (+ sidecar)."""
    repo = Path(smk.scriptdir).parent
    name = smk.wildcards.dataset
    with job_log(smk.log[0] if smk.log else None):
        registry = load_registry(_repo_path(repo, smk.config["registry"]))
        mirror = smk.config.get("data_mirror")
        entry = registry.resolve(name)
        origin = f"mirror {mirror}" if mirror and entry.file else f"its registry source ({entry.source})"
        print(f"preparing {name!r} from {origin}")
        dataset = load_dataset(name, registry=registry, data_dir=smk.params.raw_dir, mirror=mirror)
        with atomic_files(smk.output.parquet, smk.output.sidecar) as (parquet, _sidecar):
            save_prepared(dataset, parquet)
        print(
            f"prepared {name!r}: {dataset.n_instances} instances, {dataset.n_classes} classes, "
            f"{dataset.X.shape[1]} attributes, sha256={dataset.sha256}"
        )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
