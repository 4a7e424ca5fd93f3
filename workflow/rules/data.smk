"""Dataset preparation: one job per dataset, shared by every experiment that uses it.

The prepared parquet (+ JSON sidecar with provenance and checksum) is what every
experiment job reads, so the (possibly slow, possibly online) fetching and ARFF parsing
happen once. Where the data came from (the registry's source or data_mirror) is not a
rule parameter: a mirror and a download of the same checksummed file give the same
prepared data, and switching between them must not invalidate finished results.
"""


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
        mem_mb=1000,
        runtime=30,
    script:
        "../../scripts/prepare_dataset.py"
