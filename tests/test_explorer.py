"""``explore.html``: the replication report's cells and curves as one page, checked in a real browser.

Built from chapter 7's committed records of one dataset (a root of the thesis scale, as the
report of a run that reached it): the page holds every printed cell of its tables with the
interval it is judged by, and every system's curve; headless Chromium loads it from a file URL
with the network off, plotly draws both plots, the table lists every cell, and the screenshot
is not a blank page.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_report_html import CHROMIUM, CHROMIUM_FLAGS

from redecorate.report.explorer import explorer_html
from redecorate.report.replication_index import EXPLORER_FILE, summary_line, write_report
from redecorate.reproduction import Inputs, replication_index

REPO = Path(__file__).resolve().parents[1]
NAME = "ch7_binary"


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    root = tmp_path_factory.mktemp("explorer")
    records = pd.read_parquet(REPO / "reproduced" / NAME / "records.parquet")
    (root / NAME).mkdir()
    records[records["dataset"] == records["dataset"].iloc[0]].to_parquet(root / NAME / "records.parquet", index=False)
    index = replication_index(Inputs.of_repository(root, REPO))
    write_report(index, root)
    path = root / EXPLORER_FILE
    data = json.loads(re.search(r'id="explorer-data">(.*?)</script>', path.read_text(encoding="utf-8"), re.S)[1])
    return path, data


def test_the_page_holds_every_printed_cell_with_its_interval_and_every_curve(page) -> None:
    path, data = page
    cells = data["cells"]
    assert cells and {c["source"] for c in cells} == {"Melville (2005)"}
    for cell in cells:
        assert cell["published"] is not None and cell["reproduced"] is not None
        assert cell["interval"] in ("difference", "reproduced mean") and cell["verdict"]
        if cell["low"] is not None:
            assert cell["low"] <= cell["reproduced"] <= cell["high"]
    [(experiment, by_dataset)] = data["curves"].items()
    assert experiment == NAME and len(by_dataset) == 1
    [traces] = by_dataset.values()
    assert len(traces) >= 2 and all(len(t["x"]) == len(t["y"]) == len(t["se"]) for t in traces)
    text = path.read_text(encoding="utf-8")
    assert not re.search(r'<script[^>]+src=|<link[^>]+href="https?:', text), "the page must not load anything"


def test_the_index_summary_opens_the_page() -> None:
    from redecorate.report.replication_index import ReplicationIndex

    index = ReplicationIndex(())
    text = explorer_html(index, index.curves, summary_line(index))
    assert summary_line(index) in text and '"cells":[]' in text


@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (apt-get install chromium)")
def test_the_page_renders_offline_in_headless_chromium(page, tmp_path: Path) -> None:
    import matplotlib.image

    path, data = page
    base = [CHROMIUM, *CHROMIUM_FLAGS, "--virtual-time-budget=15000"]
    dom = subprocess.run([*base, f"--user-data-dir={tmp_path / 'dom'}", "--dump-dom", path.as_uri()],
                         capture_output=True, text=True, timeout=180)  # fmt: skip
    assert dom.returncode == 0, dom.stderr[-3000:]
    assert dom.stdout.count('class="main-svg"') >= 4, "plotly drew neither plot"  # two layers per plot
    assert f"{len(data['cells'])} of {len(data['cells'])} cells" in dom.stdout
    body = re.search(r'<tbody id="cells-body">(.*?)</tbody>', dom.stdout, re.S)[1]
    assert body.count("<tr>") == min(len(data["cells"]), 2000)
    assert re.search(r"<option[^>]*>Melville \(2005\) · Table 7\.\d", dom.stdout)

    def shot(url: str, name: str) -> np.ndarray:
        target = tmp_path / f"{name}.png"
        done = subprocess.run([*base, f"--user-data-dir={tmp_path / name}", "--window-size=1200,1400",
                               f"--screenshot={target}", url], capture_output=True, text=True, timeout=180)
        assert done.returncode == 0, done.stderr[-3000:]
        return matplotlib.image.imread(target)[..., :3]

    blank = tmp_path / "blank.html"
    blank.write_text("<!doctype html><html><body></body></html>", encoding="utf-8")
    rendered, empty = shot(path.as_uri(), "page"), shot(blank.as_uri(), "blank")
    assert np.any(np.abs(rendered - empty) > 0.1, axis=-1).mean() > 0.02  # text, axes, markers, curves
