"""Downloading datasets from OpenML by id, with a checksummed on-disk cache.

Why plain HTTP rather than openml-python: the REST API needs two requests (the JSON description
``{server}/api/v1/json/data/{id}``, which names the ARFF file's URL and its ``md5_checksum``, and
the file itself), and doing them with the standard library keeps every network call under our
control: bounded timeouts, a bounded number of retries, atomic writes, and an error message
that says how to work offline. It also lets the tests point the code at a local HTTP server.

Cache layout (``data_dir`` defaults to ``data/``)::

    data/openml/<id>/description.json   the server's description, as received
    data/openml/<id>/<file name>.arff   the dataset, verified against md5_checksum

A cached file whose md5 still matches the cached description is used without any network
access, so a workflow that downloaded once can run offline afterwards.
"""

from __future__ import annotations

import hashlib
import json
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from redecorate.data.arff import ClassAttribute, read_arff, to_dataset
from redecorate.data.dataset import Dataset
from redecorate.data.errors import DownloadError
from redecorate.data.sources.checksum import file_digest
from redecorate.util import atomic_path

DEFAULT_SERVER = "https://www.openml.org"
DEFAULT_TIMEOUT = 30.0
"""Seconds a single connect or read may block."""
DEFAULT_RETRIES = 2
"""Extra attempts after a transient failure (connection error, timeout, HTTP 5xx)."""
OFFLINE_FIX = "--config data_mirror=../shared/datasets/uci"
_USER_AGENT = "redecorate (DECORATE replication; python urllib)"
_CHUNK = 1 << 16


@dataclass(frozen=True)
class OpenMLDescription:
    """The parts of an OpenML dataset description the loader needs."""

    openml_id: int
    name: str
    version: str
    url: str
    md5: str | None
    default_target: str | None
    ignore_attributes: tuple[str, ...]
    row_id_attribute: str | None

    @property
    def file_name(self) -> str:
        """A safe local file name for the ARFF, taken from the URL when it names one."""
        base = Path(urllib.parse.urlparse(self.url).path).name
        if not base.endswith(".arff"):
            base = f"{self.name or 'dataset'}.arff"
        return "".join(c if c.isalnum() or c in "._-" else "_" for c in base)


def description_url(server: str, openml_id: int) -> str:
    """The REST address of a dataset description."""
    return f"{server.rstrip('/')}/api/v1/json/data/{int(openml_id)}"


def _fail(name: str, openml_id: int, url: str, reason: str, fix: str | None = None) -> DownloadError:
    fix = fix or (
        "check the network connection and the OpenML server, or work offline from the local "
        f"mirror with {OFFLINE_FIX}"
    )
    return DownloadError(
        f"cannot download dataset {name!r} (OpenML id {openml_id}) from {url}: {reason}; fix: {fix}"
    )


def _is_transient(exc: BaseException) -> bool:
    """Server errors and network failures are worth retrying; 4xx answers are not."""
    if isinstance(exc, urllib.error.HTTPError):
        return exc.code >= 500
    return isinstance(exc, (urllib.error.URLError, TimeoutError, ConnectionError, OSError))


def _open(url: str, timeout: float) -> Any:
    request = urllib.request.Request(url, headers={"User-Agent": _USER_AGENT, "Accept-Encoding": "identity"})
    return urllib.request.urlopen(request, timeout=timeout)  # http(s) URLs by construction


def _with_retries(fn: Any, *, retries: int, backoff: float) -> Any:
    """Call ``fn`` up to ``retries + 1`` times, sleeping ``backoff * 2**k`` between attempts."""
    for attempt in range(retries + 1):
        try:
            return fn()
        except Exception as exc:  # classified below; re-raised when final
            if attempt == retries or not _is_transient(exc):
                raise
            time.sleep(backoff * 2**attempt)
    raise AssertionError("unreachable")


def _reason(exc: BaseException) -> str:
    """A short human description of a network exception."""
    if isinstance(exc, urllib.error.HTTPError):
        return f"HTTP {exc.code} {exc.reason}"
    if isinstance(exc, urllib.error.URLError):
        return f"{exc.reason}"
    if isinstance(exc, TimeoutError):
        return "timed out"
    return f"{type(exc).__name__}: {exc}"


def _parse_description(payload: dict[str, Any], openml_id: int) -> OpenMLDescription:
    desc = payload.get("data_set_description", payload)
    if not isinstance(desc, dict) or "url" not in desc:
        raise ValueError("the answer is not an OpenML dataset description (no 'url')")
    ignore = desc.get("ignore_attribute") or ()
    if isinstance(ignore, str):
        ignore = (ignore,)
    return OpenMLDescription(
        openml_id=int(desc.get("id", openml_id)),
        name=str(desc.get("name", "")),
        version=str(desc.get("version", "")),
        url=str(desc["url"]),
        md5=(str(desc["md5_checksum"]).lower() if desc.get("md5_checksum") else None),
        default_target=desc.get("default_target_attribute") or None,
        ignore_attributes=tuple(str(a) for a in ignore),
        row_id_attribute=desc.get("row_id_attribute") or None,
    )


def _write_atomically(path: Path, chunks: Any, *, md5: str | None) -> str:
    """Stream ``chunks`` to ``path`` via a temporary file; return the md5 of what was written.

    The rename happens only after the checksum matched, so a crash or a corrupt transfer never
    leaves a file that a later run would take for a good download.
    """
    h = hashlib.md5()  # OpenML publishes md5: integrity, not security
    with atomic_path(path) as tmp:
        with tmp.open("wb") as fh:
            for chunk in chunks:
                h.update(chunk)
                fh.write(chunk)
        digest = h.hexdigest()
        if md5 is not None and digest != md5:
            raise ValueError(f"md5 checksum mismatch: expected {md5}, got {digest}")
    return digest


def _stream(url: str, timeout: float) -> Any:
    """Yield a response body in chunks, with an overall deadline of 20 timeouts."""
    deadline = time.monotonic() + 20 * timeout
    with _open(url, timeout) as response:
        while chunk := response.read(_CHUNK):
            if time.monotonic() > deadline:
                raise TimeoutError(f"download took longer than {20 * timeout:.0f} s")
            yield chunk


def fetch_description(
    openml_id: int,
    *,
    name: str,
    server: str = DEFAULT_SERVER,
    timeout: float = DEFAULT_TIMEOUT,
    retries: int = DEFAULT_RETRIES,
    backoff: float = 1.0,
) -> tuple[OpenMLDescription, bytes]:
    """Ask the server for a dataset description; return it parsed and as raw bytes."""
    url = description_url(server, openml_id)

    def get() -> bytes:
        with _open(url, timeout) as response:
            return response.read()

    try:
        raw = _with_retries(get, retries=retries, backoff=backoff)
    except urllib.error.HTTPError as exc:
        fix = (f"check openml_id for {name!r} in config/datasets.yaml, or work offline with {OFFLINE_FIX}"
               if exc.code in {404, 412} else None)
        raise _fail(name, openml_id, url, _reason(exc), fix) from exc
    except (OSError, ValueError) as exc:
        raise _fail(name, openml_id, url, _reason(exc)) from exc
    try:
        return _parse_description(json.loads(raw.decode("utf-8")), openml_id), raw
    except (ValueError, UnicodeDecodeError) as exc:
        raise _fail(name, openml_id, url, f"unreadable description ({exc})",
                    f"check the server address (expected an OpenML REST API), or work offline with {OFFLINE_FIX}") from exc


def download_openml(
    openml_id: int,
    *,
    name: str,
    data_dir: str | Path = "data",
    server: str = DEFAULT_SERVER,
    timeout: float = DEFAULT_TIMEOUT,
    retries: int = DEFAULT_RETRIES,
    backoff: float = 1.0,
) -> tuple[Path, OpenMLDescription]:
    """Make sure the dataset's ARFF is in the cache (downloading if needed); return its path.

    Raises :class:`DownloadError` naming the dataset, the URL and the offline fix when the
    server is unreachable, answers with an error, or sends bytes whose md5 does not match.
    """
    cache = Path(data_dir) / "openml" / str(int(openml_id))
    desc_path = cache / "description.json"
    if desc_path.is_file():
        try:
            desc = _parse_description(json.loads(desc_path.read_text(encoding="utf-8")), openml_id)
        except (ValueError, OSError):
            desc = None  # a damaged cache entry is refetched below
        if desc is not None:
            arff = cache / desc.file_name
            if arff.is_file() and (desc.md5 is None or file_digest(arff, "md5") == desc.md5):
                return arff, desc
    desc, raw = fetch_description(openml_id, name=name, server=server, timeout=timeout,
                                  retries=retries, backoff=backoff)
    arff = cache / desc.file_name
    try:
        _with_retries(lambda: _write_atomically(arff, _stream(desc.url, timeout), md5=desc.md5),
                      retries=retries, backoff=backoff)
    except ValueError as exc:  # checksum mismatch
        raise _fail(name, openml_id, desc.url, str(exc),
                    "retry later (the transfer may have been corrupted); if it persists the server's "
                    f"file changed: work offline with {OFFLINE_FIX}") from exc
    except OSError as exc:
        raise _fail(name, openml_id, desc.url, _reason(exc)) from exc
    cache.mkdir(parents=True, exist_ok=True)
    _write_atomically(desc_path, [raw], md5=None)
    return arff, desc


def load_openml(
    openml_id: int,
    *,
    name: str,
    data_dir: str | Path = "data",
    class_attribute: ClassAttribute = None,
    server: str = DEFAULT_SERVER,
    timeout: float = DEFAULT_TIMEOUT,
    retries: int = DEFAULT_RETRIES,
    backoff: float = 1.0,
) -> Dataset:
    """Download (or reuse from the cache) an OpenML dataset and load it as a :class:`Dataset`.

    The class is ``class_attribute`` if given, else the description's default target, else
    the last attribute. Attributes OpenML marks as ignored or as row ids are dropped (they are
    identifiers, not features) and the drop is recorded in :attr:`Dataset.notes`.
    """
    path, desc = download_openml(openml_id, name=name, data_dir=data_dir, server=server,
                                 timeout=timeout, retries=retries, backoff=backoff)
    content = read_arff(path)
    target: ClassAttribute = class_attribute
    if target is None and desc.default_target:
        targets = [t.strip() for t in desc.default_target.split(",") if t.strip()]
        target = targets[0] if len(targets) == 1 else None
    dataset = to_dataset(content, target, name=name)
    present = [a for a in (*desc.ignore_attributes, desc.row_id_attribute)
               if a and a in dataset.X.columns]
    notes = dataset.notes
    if present:
        notes = (*notes, f"dropped attributes {present} that OpenML marks as ignored or row ids")
    version = f" v{desc.version}" if desc.version else ""
    source = f"OpenML dataset {desc.openml_id} ({desc.name}{version}) from {desc.url}, cached at {path}"
    return replace(dataset, X=dataset.X.drop(columns=present), notes=notes, source=source).check()
