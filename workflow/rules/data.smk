"""Dataset preparation: one job per dataset, shared by every experiment that uses it.

The prepared parquet (+ JSON sidecar with provenance and checksum) is what every
experiment job reads, so the (possibly slow, possibly online) fetching and ARFF parsing
happen once. Where the data came from (the registry's source or data_mirror) is not a
rule parameter: a mirror and a download of the same checksummed file give the same
prepared data, and switching between them must not invalidate finished results.
"""


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
