"""The self-contained HTML report (``snakemake --report``), rendered in headless Chromium.

Markers ``browser`` and ``workflow``. Builds the report of the shared smoke run, checks its
structure (every table CSV and figure PNG of the experiment embedded as a data URI, with the
reproduced-vs-published table, the replication report page with its verdict and
conclusions, and provenance, under numbered categories so the replication summary comes
first, all from the run's own scale), then renders it in Debian's Chromium with no network or profile, dumps
the DOM after the JavaScript app has run (its text outside <script> blocks) and compares a
screenshot with one of a blank page of the same size. Skips when ``chromium`` is
absent. (File name chosen not to clash with ``test_report.py``, the report library's tests.)
"""

from __future__ import annotations

import base64
import re
import shutil
import subprocess
from pathlib import Path

import matplotlib.image
import numpy as np
import pytest
import smoke_support as smoke

pytestmark = [pytest.mark.browser, pytest.mark.workflow, pytest.mark.slow]

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--virtual-time-budget=15000",  # let the report's JavaScript app render before dumping
)
CATEGORIES = ("1. Reproduced vs published", "2. Tables", "3. Figures", "4. Provenance")


@pytest.fixture(scope="module")
def report_html(smoke_reference: Path) -> Path:
    """``results/report.html`` of the shared smoke run."""
    result = smoke.run_snakemake(
        smoke_reference, "--report", "results/report.html", "--config", *smoke.SMOKE_CONFIG, cores=None
    )
    assert result.returncode == 0, smoke.output_of(result)[-5000:]
    # Captions are reStructuredText rendered by docutils, which reports mistakes and goes on.
    assert "(ERROR/" not in smoke.output_of(result), smoke.output_of(result)[-5000:]
    path = smoke_reference / "results" / "report.html"
    assert path.is_file()
    return path


def test_report_embeds_every_table_and_figure(report_html: Path, smoke_reference: Path) -> None:
    html = report_html.read_text(encoding="utf-8")
    embedded = smoke.embedded_results(html)
    results = smoke.results_dir(smoke_reference)
    expected = {
        *(p.relative_to(smoke_reference).as_posix() for p in (results / "tables").glob("*.csv")),
        *(p.relative_to(smoke_reference).as_posix() for p in (results / "figures").glob("*.png")),
        f"{smoke.SMOKE_RESULTS}/{smoke.EXPERIMENT}/replication.csv",
        f"{smoke.SMOKE_RESULTS}/{smoke.EXPERIMENT}/replication_conclusions.csv",
        f"{smoke.SMOKE_RESULTS}/{smoke.EXPERIMENT}/provenance.json",
        f"{smoke.SMOKE_RESULTS}/{smoke.EXPERIMENT}/replication.html",
    }
    assert len(expected) > 6
    assert expected <= set(embedded), sorted(expected - set(embedded))
    # Self-contained: the content itself is in the file, not a link to results/.
    assert html.count("data:image/png;") >= len(list((results / "figures").glob("*.png")))
    assert html.count("data:text/csv;") >= len(list((results / "tables").glob("*.csv")))
    for entry in embedded.values():
        assert entry["caption"].strip(), entry["name"]
    for category in CATEGORIES:
        assert category in html, category
    # Captions name the dissertation counterparts.
    captions = " ".join(" ".join(entry["caption"].split()) for entry in embedded.values())
    assert "Tables 4.2–4.5" in captions and "Figures 4.1–4.4" in captions
    # One scale per report: every experiment output comes from the smoke scale's folder.
    outputs = [name for name in embedded if name != "results/run_status.csv"]
    assert all(name.startswith(f"{smoke.SMOKE_RESULTS}/") for name in outputs), outputs


def _replication_page(report_html: Path) -> str:
    """The replication page the report embeds (a base64 data URI), decoded."""
    entry = smoke.embedded_results(report_html.read_text(encoding="utf-8"))[
        f"{smoke.SMOKE_RESULTS}/{smoke.EXPERIMENT}/replication.html"]
    assert entry["mime_type"] == "text/html"
    return base64.b64decode(entry["data_uri"].split("base64,", 1)[1]).decode("utf-8")


def test_report_carries_the_verdict_and_the_conclusions(report_html: Path, smoke_reference: Path) -> None:
    """replication.md (the "not comparable" verdict, the conclusions) is in the report, as
    the page the report shows for it, not left behind in results/."""
    page = _replication_page(report_html)
    markdown = (smoke.results_dir(smoke_reference) / "replication.md").read_text(encoding="utf-8")
    assert "Not comparable with the dissertation" in markdown  # a smoke run is not comparable
    assert "<strong>Not comparable with the dissertation</strong>" in page
    assert "<h2>Do the conclusions hold?</h2>" in page and "<table>" in page


@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (apt-get install chromium)")
def test_report_renders_in_headless_chromium(report_html: Path, tmp_path: Path) -> None:
    base = [CHROMIUM, *CHROMIUM_FLAGS]
    url = report_html.as_uri()
    dom = subprocess.run(
        [*base, f"--user-data-dir={tmp_path / 'profile-dom'}", "--dump-dom", url],
        capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert dom.returncode == 0, dom.stderr[-3000:]
    # What rendering produced: the DOM without the <script> blocks (the raw file's embedded
    # data already holds every string, so only text the app put into the page counts).
    visible = re.sub(r"<script\b.*?</script>", "", dom.stdout, flags=re.S | re.I)
    visible = re.sub(r"<style\b.*?</style>", "", visible, flags=re.S | re.I)
    assert "Melville (2005) reproduced" in visible
    for category in CATEGORIES:
        assert category in visible, category

    def screenshot(target: str, name: str) -> np.ndarray:
        path = tmp_path / f"{name}.png"
        shot = subprocess.run(
            [*base, f"--user-data-dir={tmp_path / f'profile-{name}'}", "--window-size=1400,1000",
             f"--screenshot={path}", target],
            capture_output=True, text=True, timeout=180,
        )  # fmt: skip
        assert shot.returncode == 0, shot.stderr[-3000:]
        assert path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
        return matplotlib.image.imread(path)[..., :3]

    blank_page = tmp_path / "blank.html"
    blank_page.write_text("<!doctype html><html><body></body></html>")
    report, blank = screenshot(url, "report"), screenshot(blank_page.as_uri(), "blank")
    assert report.shape == blank.shape
    # A rendered report differs from a blank page of the same size over a good part of it
    # (menu, headings, text), not in a handful of pixels.
    changed = np.any(np.abs(report - blank) > 0.1, axis=-1).mean()
    assert changed > 0.02, f"only {changed:.2%} of the screenshot differs from a blank page"


@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (apt-get install chromium)")
def test_the_replication_page_renders_its_verdict_in_headless_chromium(report_html: Path, tmp_path: Path) -> None:
    """The page the report opens for replication.html, rendered: the verdict and the
    conclusions table are visible text, the tables real tables."""
    page = tmp_path / "replication.html"
    page.write_text(_replication_page(report_html), encoding="utf-8")
    dom = subprocess.run(
        [CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert dom.returncode == 0, dom.stderr[-3000:]
    text = " ".join(re.sub(r"<[^>]+>", " ", dom.stdout).split())
    assert "Not comparable with the dissertation" in text
    assert "Do the conclusions hold?" in text
    assert dom.stdout.count("<tr>") > 10 and "**" not in text and "| :--" not in text
