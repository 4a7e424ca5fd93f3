"""Datasets from OpenML by id, through openml-python, the field's client.

openml-python fetches the dataset description (which names the ARFF file and its md5) and the
ARFF file into its cache; the ARFF is then read by our own reader
(:func:`redecorate.data.arff.read_arff`), so a download and the Weka mirror give datasets
with the same semantics (declared domains in declared order, Weka's handling of missing
classes). What openml-python leaves to its caller is done here:

* **bounded network time**: openml-python calls ``requests`` without a timeout, so a stalled
  server blocks forever; every request made while it works gets ``timeout`` seconds to
  connect and between bytes (:func:`_client`), and at most ``retries`` retries of a
  connection failure (its own retry loop, one second more between attempts each time);
* **a verified cache**: openml-python reuses a cached file without checking it, and writes it
  in place (a killed download leaves a truncated file). A cached ARFF whose md5 is not the
  description's is fetched again, once; a download whose md5 is still wrong fails, and
  nothing of it stays in the cache;
* **errors that say what to do**: which dataset, which address, what went wrong, and the fix
  (check ``openml_id`` in the registry, or work offline from the mirror).

Cache: ``<data_dir>/openml/`` is openml-python's root cache directory (its layout:
``<reversed server host>/datasets/<id>/description.xml`` and ``dataset.arff``). A dataset
downloaded once loads without any network access afterwards.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import requests
import requests.adapters

from redecorate.data.arff import ClassAttribute, read_arff, to_dataset
from redecorate.data.dataset import Dataset
from redecorate.data.errors import DownloadError
from redecorate.data.sources.checksum import file_digest

__all__ = ["DEFAULT_RETRIES", "DEFAULT_SERVER", "DEFAULT_TIMEOUT", "OFFLINE_FIX", "download_openml", "load_openml"]

DEFAULT_SERVER = "https://www.openml.org"
DEFAULT_TIMEOUT = 30.0
"""Seconds a connection may take to open, and a response between two bytes."""
DEFAULT_RETRIES = 2
"""Extra attempts after a connection failure."""
OFFLINE_FIX = "--config data_mirror=../shared/datasets/uci"
_API = "/api/v1/xml"
_CLIENT_LOCK = threading.Lock()
"""Held while openml-python is configured for one call: its settings and ``requests``'s
``send`` are process globals, so two threads downloading at once would each restore what
the other had set (the last one out leaving a patched ``send`` behind)."""


@contextmanager
def _client(server: str, cache: Path, timeout: float, retries: int) -> Iterator[Any]:
    """openml-python configured for one call, its settings restored afterwards.

    openml-python keeps its server, cache directory and retry policy in module globals, and
    ``requests`` has no global default timeout; both are set here for the duration of the
    call only, so nothing else in the process (another server, a notebook's own settings)
    is changed; calls from several threads take turns (:data:`_CLIENT_LOCK`).
    """
    import openml

    with _CLIENT_LOCK, _configured(openml, server, cache, timeout, retries):
        yield openml


@contextmanager
def _configured(openml: Any, server: str, cache: Path, timeout: float, retries: int) -> Iterator[None]:
    """The settings of :func:`_client`, restored on the way out (under its lock)."""
    config = openml.config
    saved = (config.server, config.get_config_as_dict()["cachedir"], config.retry_policy,
             config.connection_n_retries, os.environ.get(config.OPENML_SKIP_PARQUET_ENV_VAR))  # fmt: skip
    send = requests.adapters.HTTPAdapter.send

    def bounded_send(self: Any, request: Any, *args: Any, timeout: Any = None, **kwargs: Any) -> Any:
        return send(self, request, *args, timeout=seconds if timeout is None else timeout, **kwargs)

    seconds = timeout
    config.server = server.rstrip("/") + _API
    config.set_root_cache_directory(cache)
    config.set_retry_policy("human", retries + 1)  # attempts; "human": 1 s, 2 s, ... between them
    # The ARFF, not the parquet copy: our reader keeps Weka's semantics (the mirror's).
    os.environ[config.OPENML_SKIP_PARQUET_ENV_VAR] = "true"
    requests.adapters.HTTPAdapter.send = bounded_send
    try:
        yield
    finally:
        requests.adapters.HTTPAdapter.send = send
        config.server = saved[0]
        config.set_root_cache_directory(saved[1])
        config.set_retry_policy(saved[2], saved[3])
        if saved[4] is None:
            os.environ.pop(config.OPENML_SKIP_PARQUET_ENV_VAR, None)
        else:
            os.environ[config.OPENML_SKIP_PARQUET_ENV_VAR] = saved[4]


def _fail(name: str, openml_id: int, url: str, reason: str, fix: str | None = None) -> DownloadError:
    fix = fix or (
        "check the network connection and the OpenML server, or work offline from the local "
        f"mirror with {OFFLINE_FIX}"
    )
    return DownloadError(
        f"cannot download dataset {name!r} (OpenML id {openml_id}) from {url}: {reason}; fix: {fix}"
    )


def _download_error(exc: BaseException, name: str, openml_id: int, url: str) -> DownloadError:
    """What went wrong inside openml-python, as a :class:`DownloadError` with its fix."""
    from openml.exceptions import OpenMLHashException, OpenMLServerException

    url = getattr(exc, "url", None) or url  # the address that failed: the description's or the file's
    if isinstance(exc, OpenMLHashException):
        return _fail(name, openml_id, url, f"md5 checksum mismatch ({exc})",
                     "retry later (the transfer may have been corrupted); if it persists the server's "
                     f"file changed: work offline with {OFFLINE_FIX}")  # fmt: skip
    if isinstance(exc, OpenMLServerException) and exc.code in (110, 111, 112):
        return _fail(name, openml_id, url, f"OpenML error {exc.code} {exc.message}",
                     f"check openml_id for {name!r} in config/datasets.yaml, or work offline with "
                     f"{OFFLINE_FIX}")  # fmt: skip
    if isinstance(exc, requests.exceptions.Timeout):
        return _fail(name, openml_id, url, f"timed out ({exc})")
    if isinstance(exc, requests.exceptions.ConnectionError):
        return _fail(name, openml_id, url, f"no connection ({exc})")
    return _fail(name, openml_id, url, f"{type(exc).__name__}: {exc}")


def download_openml(
    openml_id: int,
    *,
    name: str,
    data_dir: str | Path = "data",
    server: str = DEFAULT_SERVER,
    timeout: float = DEFAULT_TIMEOUT,
    retries: int = DEFAULT_RETRIES,
) -> tuple[Path, Any]:
    """The dataset's ARFF in the cache, verified against the description's md5 (downloaded
    when missing or damaged), and openml-python's description of it (an ``OpenMLDataset``).

    Raises :class:`DownloadError` naming the dataset, the address and the fix when the server
    is unreachable or too slow, answers with an error, or sends bytes whose md5 is wrong.
    """
    import openml.exceptions

    url = f"{server.rstrip('/')}{_API}/data/{int(openml_id)}"
    failures = (openml.exceptions.OpenMLServerError, openml.exceptions.OpenMLHashException,
                requests.exceptions.RequestException, OSError, ValueError)  # fmt: skip
    with _client(server, Path(data_dir) / "openml", timeout, retries) as client:
        for refresh in (False, True):
            try:
                described = client.datasets.get_dataset(
                    int(openml_id), download_data=True, download_qualities=False,
                    download_features_meta_data=False, force_refresh_cache=refresh)  # fmt: skip
            except failures as exc:
                raise _download_error(exc, name, openml_id, url) from exc
            arff = Path(described.data_file)
            if not described.md5_checksum or file_digest(arff, "md5") == described.md5_checksum.lower():
                return arff, described
    arff.unlink(missing_ok=True)  # a file whose md5 is wrong after a fresh download must not stay
    raise _fail(name, openml_id, described.url, "md5 checksum mismatch: the downloaded file is not the "
                "one the description names", f"retry later; if it persists work offline with {OFFLINE_FIX}")


def load_openml(
    openml_id: int,
    *,
    name: str,
    data_dir: str | Path = "data",
    class_attribute: ClassAttribute = None,
    server: str = DEFAULT_SERVER,
    timeout: float = DEFAULT_TIMEOUT,
    retries: int = DEFAULT_RETRIES,
) -> Dataset:
    """Download (or reuse from the cache) an OpenML dataset and load it as a :class:`Dataset`.

    The class is ``class_attribute`` if given, else the description's default target, else
    the last attribute. Attributes OpenML marks as ignored or as row ids are dropped (they are
    identifiers, not features) and the drop is recorded in :attr:`Dataset.notes`.
    """
    path, described = download_openml(openml_id, name=name, data_dir=data_dir, server=server,
                                      timeout=timeout, retries=retries)
    content = read_arff(path)
    target: ClassAttribute = class_attribute
    if target is None and described.default_target_attribute:
        targets = [t.strip() for t in str(described.default_target_attribute).split(",") if t.strip()]
        target = targets[0] if len(targets) == 1 else None
    dataset = to_dataset(content, target, name=name)
    ignored = described.ignore_attribute or []
    ignored = [ignored] if isinstance(ignored, str) else list(ignored)
    present = [a for a in (*ignored, described.row_id_attribute) if a and a in dataset.X.columns]
    notes = dataset.notes
    if present:
        notes = (*notes, f"dropped attributes {present} that OpenML marks as ignored or row ids")
    version = f" v{described.version}" if described.version else ""
    source = f"OpenML dataset {described.dataset_id} ({described.name}{version}) from {described.url}, cached at {path}"
    return replace(dataset, X=dataset.X.drop(columns=present), notes=notes, source=source).check()
