"""Where datasets come from: each source returns a checked :class:`~redecorate.data.Dataset`.

* :mod:`.local_arff` - the offline mirror of Weka ARFF files, or any ARFF path;
* :mod:`.openml` - download by OpenML id (openml-python) into a checksummed cache;
* :mod:`.bundled` - scikit-learn's bundled iris / wine / breast_cancer (offline);
* :mod:`.csv_table` - a local CSV with a named class column;
* :mod:`.synthetic` - generated data (Oza's Synthetic1-3), a function of a seed (offline);
* :mod:`.prepared` - the workflow's own parquet + JSON copies of loaded datasets.
"""

from redecorate.data.sources.bundled import BUNDLED_NAMES, load_bundled
from redecorate.data.sources.checksum import file_digest, verify_sha256
from redecorate.data.sources.csv_table import load_csv
from redecorate.data.sources.local_arff import load_local_arff, load_mirror
from redecorate.data.sources.openml import (
    DEFAULT_SERVER,
    DEFAULT_TIMEOUT,
    download_openml,
    load_openml,
)
from redecorate.data.sources.prepared import load_prepared, save_prepared, sidecar_path
from redecorate.data.sources.synthetic import generate_oza

__all__ = [
    "BUNDLED_NAMES",
    "DEFAULT_SERVER",
    "DEFAULT_TIMEOUT",
    "download_openml",
    "file_digest",
    "generate_oza",
    "load_bundled",
    "load_csv",
    "load_local_arff",
    "load_mirror",
    "load_openml",
    "load_prepared",
    "save_prepared",
    "sidecar_path",
    "verify_sha256",
]
