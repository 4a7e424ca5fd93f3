"""The OpenML download path (openml-python), against a local HTTP server started by the test.

The server speaks the two requests openml-python makes for a dataset: the XML description at
``/api/v1/xml/data/<id>`` (with the file URL and md5) and the ARFF file itself, and answers
an unknown address as OpenML does (HTTP 412, an XML error with code 111).
"""

from __future__ import annotations

import hashlib
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from redecorate.data import DownloadError, load_dataset, load_openml, load_registry

REPO = Path(__file__).resolve().parents[1]
SCHEMA = REPO / "workflow/schemas/datasets.schema.yaml"

TOY_ARFF = b"""% toy dataset served by the test
@relation toy
@attribute row_id numeric
@attribute outlook {sunny, overcast, rainy}
@attribute temp numeric
@attribute play {yes, no}
@data
1,sunny,85,no
2,overcast,83,yes
3,rainy,?,yes
4,sunny,70,no
"""


UNKNOWN = (b'<oml:error xmlns:oml="http://openml.org/openml"><oml:code>111</oml:code>'
           b"<oml:message>Unknown dataset</oml:message></oml:error>")


class FakeOpenML:
    """Routes of the fake server: path -> (status, body, delay seconds)."""

    def __init__(self) -> None:
        self.routes: dict[str, tuple[int, bytes, float]] = {}
        self.hits: list[str] = []
        self.base = ""

    def publish(self, openml_id: int, arff: bytes, *, md5: str | None = None, **extra: str) -> str:
        file_url = f"{self.base}/data/v1/download/{openml_id}/toy.arff"
        fields = {"id": str(openml_id), "name": "toy", "version": "1", "format": "ARFF", "url": file_url,
                  "md5_checksum": md5 or hashlib.md5(arff).hexdigest(), "default_target_attribute": "play",
                  **extra}
        xml = "".join(f"<oml:{key}>{value}</oml:{key}>" for key, value in fields.items())
        desc = f'<oml:data_set_description xmlns:oml="http://openml.org/openml">{xml}</oml:data_set_description>'
        self.routes[f"/api/v1/xml/data/{openml_id}"] = (200, desc.encode(), 0.0)
        self.routes[f"/data/v1/download/{openml_id}/toy.arff"] = (200, arff, 0.0)
        return file_url


def cached(root: Path, openml_id: int) -> Path:
    """openml-python's cache folder of a dataset under ``<root>/openml`` (any server)."""
    found = list((root / "openml").glob(f"**/datasets/{openml_id}"))
    assert len(found) == 1, found
    return found[0]


@pytest.fixture
def server() -> Iterator[FakeOpenML]:
    fake = FakeOpenML()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # http.server calls do_GET
            fake.hits.append(self.path)
            status, body, delay = fake.routes.get(self.path, (412, UNKNOWN, 0.0))
            if delay:
                time.sleep(delay)
            try:
                self.send_response(status)
                self.send_header("Content-Type", "text/plain; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    fake.base = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        httpd.shutdown()
        httpd.server_close()


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_download_verify_cache_and_load(server: FakeOpenML, tmp_path: Path) -> None:
    server.publish(42, TOY_ARFF, row_id_attribute="row_id")
    ds = load_openml(42, name="toy", data_dir=tmp_path, server=server.base, timeout=5, retries=0)
    assert ds.name == "toy" and ds.n_instances == 4 and ds.class_name == "play"
    assert list(ds.X.columns) == ["outlook", "temp"]  # the row id is not a feature
    assert any("row ids" in n for n in ds.notes)
    assert list(ds.X["outlook"].cat.categories) == ["sunny", "overcast", "rainy"]
    assert "OpenML dataset 42" in ds.source and ds.sha256 == hashlib.sha256(TOY_ARFF).hexdigest()
    folder = cached(tmp_path, 42)
    assert (folder / "dataset.arff").read_bytes() == TOY_ARFF
    assert (folder / "description.xml").is_file()
    # A second load is served from the cache: no request reaches the server.
    hits = len(server.hits)
    again = load_openml(42, name="toy", data_dir=tmp_path, server=server.base, timeout=5, retries=0)
    assert len(server.hits) == hits and again.X.equals(ds.X)


def test_openml_python_settings_are_restored_after_a_download(server: FakeOpenML, tmp_path: Path) -> None:
    """The server, cache, retries and the requests timeout are set for our call only."""
    import openml
    import requests.adapters

    before = (openml.config.server, openml.config.get_config_as_dict()["cachedir"],
              openml.config.connection_n_retries, requests.adapters.HTTPAdapter.send)  # fmt: skip
    server.publish(42, TOY_ARFF)
    load_openml(42, name="toy", data_dir=tmp_path, server=server.base, timeout=5, retries=0)
    with pytest.raises(DownloadError):
        load_openml(999, name="toy", data_dir=tmp_path, server=server.base, timeout=5, retries=0)
    after = (openml.config.server, openml.config.get_config_as_dict()["cachedir"],
             openml.config.connection_n_retries, requests.adapters.HTTPAdapter.send)  # fmt: skip
    assert after == before


def test_downloads_from_two_threads_take_turns_and_restore_the_settings(tmp_path: Path) -> None:
    """openml-python's settings and requests' send are process globals: two threads that
    configured them at once would each restore what the other had set, leaving a patched
    send behind. Inside one call the other thread waits."""
    import requests.adapters

    from redecorate.data.sources.openml import _client

    original = requests.adapters.HTTPAdapter.send
    first_in, overlap = threading.Event(), []

    def first() -> None:
        with _client("http://127.0.0.1:9", tmp_path / "a", 1.0, 0):
            first_in.set()
            time.sleep(0.3)
            overlap.append(second_thread.is_alive() and not second_in.is_set())

    second_in = threading.Event()

    def second() -> None:
        first_in.wait(5)
        with _client("http://127.0.0.1:9", tmp_path / "b", 2.0, 0):
            second_in.set()

    first_thread, second_thread = threading.Thread(target=first), threading.Thread(target=second)
    first_thread.start()
    second_thread.start()
    first_thread.join(10)
    second_thread.join(10)
    assert overlap == [True]  # the second waited while the first was configured
    assert second_in.is_set()
    assert requests.adapters.HTTPAdapter.send is original


def test_corrupt_cache_is_downloaded_again(server: FakeOpenML, tmp_path: Path) -> None:
    server.publish(42, TOY_ARFF)
    load_openml(42, name="toy", data_dir=tmp_path, server=server.base, timeout=5, retries=0)
    # A truncated or damaged file (a download killed while writing it) is fetched again.
    (cached(tmp_path, 42) / "dataset.arff").write_bytes(TOY_ARFF[:40])
    hits = len(server.hits)
    ds = load_openml(42, name="toy", data_dir=tmp_path, server=server.base, timeout=5, retries=0)
    assert ds.n_instances == 4 and len(server.hits) > hits
    assert (cached(tmp_path, 42) / "dataset.arff").read_bytes() == TOY_ARFF


def test_checksum_mismatch_leaves_no_file(server: FakeOpenML, tmp_path: Path) -> None:
    url = server.publish(43, TOY_ARFF, md5="0" * 32)
    with pytest.raises(DownloadError) as info:
        load_openml(43, name="toy", data_dir=tmp_path, server=server.base, timeout=5, retries=0)
    msg = str(info.value)
    assert "'toy'" in msg and "/api/v1/xml/data/43" in msg and "md5 checksum mismatch" in msg and url in msg
    assert "--config data_mirror=../shared/datasets/uci" in msg
    assert not any(p.is_file() for p in (tmp_path / "openml").rglob("*"))


def test_unreachable_server_fails_fast_with_the_offline_fix(tmp_path: Path) -> None:
    base = f"http://127.0.0.1:{closed_port()}"
    start = time.monotonic()
    with pytest.raises(DownloadError) as info:
        load_openml(2, name="anneal", data_dir=tmp_path, server=base, timeout=2, retries=1)
    assert time.monotonic() - start < 5  # two attempts, one second apart
    msg = str(info.value)
    assert "'anneal'" in msg and f"{base}/api/v1/xml/data/2" in msg and "no connection" in msg
    assert "--config data_mirror=../shared/datasets/uci" in msg


def test_timeout_is_bounded(server: FakeOpenML, tmp_path: Path) -> None:
    server.publish(44, TOY_ARFF)
    # the server answers after 4 s; a 0.3 s timeout must give up long before (a wide margin:
    # the suite shares a loaded machine, and the property is "does not wait", not a speed)
    server.routes["/api/v1/xml/data/44"] = (*server.routes["/api/v1/xml/data/44"][:2], 4.0)
    start = time.monotonic()
    with pytest.raises(DownloadError, match="timed out"):
        load_openml(44, name="toy", data_dir=tmp_path, server=server.base, timeout=0.3, retries=0)
    assert time.monotonic() - start < 3.0


def test_unknown_id_points_at_the_registry(server: FakeOpenML, tmp_path: Path) -> None:
    with pytest.raises(DownloadError) as info:
        load_openml(999, name="toy", data_dir=tmp_path, server=server.base, timeout=5, retries=0)
    msg = str(info.value)
    assert "OpenML error 111 Unknown dataset" in msg and "check openml_id for 'toy' in config/datasets.yaml" in msg


def test_missing_file_on_server(server: FakeOpenML, tmp_path: Path) -> None:
    server.publish(45, TOY_ARFF)
    del server.routes["/data/v1/download/45/toy.arff"]
    with pytest.raises(DownloadError, match=r"from http://\S+/data/v1/download/45/toy.arff: OpenML error 111"):
        load_openml(45, name="toy", data_dir=tmp_path, server=server.base, timeout=5, retries=0)
    assert not any(p.is_file() and p.suffix == ".arff" for p in (tmp_path / "openml").rglob("*"))


def test_registry_openml_entry_is_downloaded_and_checked(server: FakeOpenML, tmp_path: Path) -> None:
    server.publish(46, TOY_ARFF, ignore_attribute="row_id")
    reg_path = tmp_path / "datasets.yaml"
    reg_path.write_text("datasets:\n  toy:\n    source: openml\n    openml_id: 46\n    file: toy.arff\n"
                        "    instances: 4\n    classes: 2\n    attributes: 2\n")
    reg = load_registry(reg_path, schema_path=SCHEMA)
    ds = load_dataset("toy", registry=reg, data_dir=tmp_path / "data", openml_server=server.base,
                      timeout=5, retries=0)
    assert ds.X.shape == (4, 2) and (cached(tmp_path / "data", 46) / "dataset.arff").is_file()
    # With a mirror the same entry never touches the network.
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    lines = TOY_ARFF.decode().splitlines()
    without_row_id = [ln for ln in lines if "row_id" not in ln]
    without_row_id = [ln.split(",", 1)[1] if ln[:1].isdigit() else ln for ln in without_row_id]
    (mirror / "toy.arff").write_text("\n".join(without_row_id) + "\n")
    hits = len(server.hits)
    local = load_dataset("toy", registry=reg, mirror=mirror, openml_server="http://127.0.0.1:9")
    assert local.X.equals(ds.X) and len(server.hits) == hits
