"""Dataset preparation: one job per dataset, shared by every experiment that uses it.

The prepared parquet (+ JSON sidecar with provenance and checksum) is what every
experiment job reads, so the (possibly slow, possibly online) fetching and ARFF parsing
happen once. The rule's parameter `source` is what the data is made from (the registry
entry and the local file's checksum: redecorate.data.staleness), so an edit prepares the
dataset again and reruns every job that read it. It is computed here, while the workflow is
parsed, for every dataset the selected experiments use, so a missing file, a file that is not
the version the registry pins, or a registry whose sizes no longer match the prepared data
fails the dry run; so does a user's own file (a registry ``path``) about to be prepared that
its loader refuses (a string attribute, a blank class cell, sizes the registry does not
declare), and what such a load leaves out (a string attribute) is said. Whether a mirror or a download gave a checksummed file is not part of it:
switching between them must not invalidate finished results.
"""

from redecorate.data.errors import DataError
from redecorate.data.staleness import prepared_source_param, prepared_source_params

try:
    PREPARED_SOURCES = prepared_source_params(
        all_datasets(), DATASET_REGISTRY, mirror=config["data_mirror"], prepared_dir=f"{DATA}/prepared",
        announce=_announce,
    )
except DataError as exc:
    raise WorkflowError(f"Invalid configuration.\n{exc}") from None


def _prepared_source(wildcards):
    """The `source` parameter (a dataset no selected experiment uses, asked for by path, too)."""
    if wildcards.dataset not in PREPARED_SOURCES:
        PREPARED_SOURCES[wildcards.dataset] = prepared_source_param(
            wildcards.dataset, DATASET_REGISTRY, mirror=config["data_mirror"], prepared=prepared(wildcards.dataset)
        )
    return PREPARED_SOURCES[wildcards.dataset]


def _prepare_mem_mb(wildcards):
    """Memory of parsing a dataset: 160 bytes per ARFF cell and 500 MB, at least 1 GB.

    Measured peaks: 1.5 GB for a covertype-sized numeric ARFF (581,012 x 55 cells, ~50 bytes
    each) and 2.0 GB for a census-income-sized nominal one with long values (299,285 x 42,
    ~155 each); the small thesis datasets stay far below 1 GB. A cluster kills a job that
    exceeds its request, so the request grows with the registry's size of the dataset.
    """
    entry = DATASET_REGISTRY.get(wildcards.dataset)
    if entry is None:
        return 1000
    cells = entry.instances * ((entry.attributes or 0) + 1)
    return max(1000, 500 + math.ceil(cells * 160 / 2**20))


rule prepare_dataset:
    output:
        parquet=f"{DATA}/prepared/{{dataset}}.parquet",
        sidecar=f"{DATA}/prepared/{{dataset}}.json",
    params:
        raw_dir=f"{DATA}/raw",
        source=_prepared_source,
    log:
        f"{DATA}/logs/prepare_{{dataset}}.log",
    benchmark:
        f"{DATA}/benchmarks/prepare_{{dataset}}.tsv"
    threads: 1
    resources:
        mem_mb=_prepare_mem_mb,
        runtime=30,
    script:
        "../../scripts/prepare_dataset.py"
