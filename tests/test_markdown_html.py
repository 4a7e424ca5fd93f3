"""The Markdown of the reports as HTML: every value under its own header.

The reports' agreement tables have headers with escaped pipes (``Median \\|diff.\\|``) and
cells with code spans and links; a converter that splits rows on every ``|`` shifts each value
under the wrong header. Here the table of the agreement section, as the reports write it, is
converted and read back cell by cell.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path

from redecorate.report.markdown_html import markdown_to_html

AGREEMENT = """# Table 4.2 reproduced

| Table | Sign agreement | Trivial | Median \\|diff.\\| | Not run |
| --- | --: | --: | --: | --: |
| [4.2](ch4_passive/replication.md) | 0.93 | 0.87 | 1.02 | 0 |
| `ch4\\|x` | 0.50 | 0.40 | 2.00 | 3 |

A paragraph with **bold**, *italic*, `code` and <b>raw html</b>.

- one item
- another

![figure](figures/a.png)
"""


def _rows(page: str) -> list[list[str]]:
    """Each table row's cells, as text."""
    rows = re.findall(r"<tr>(.*?)</tr>", page, flags=re.S)
    return [[re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, flags=re.S)]
            for row in rows]


def test_escaped_pipes_code_spans_and_links_keep_every_value_under_its_header() -> None:
    rows = _rows(markdown_to_html(AGREEMENT, "t"))
    assert rows[0] == ["Table", "Sign agreement", "Trivial", "Median |diff.|", "Not run"]
    assert rows[1] == ["4.2", "0.93", "0.87", "1.02", "0"]
    assert rows[2] == ["ch4|x", "0.50", "0.40", "2.00", "3"]
    assert all(len(row) == 5 for row in rows)


def test_inline_markup_lists_links_and_raw_html() -> None:
    page = markdown_to_html(AGREEMENT, "A <title>")
    assert "<title>A &lt;title&gt;</title>" in page
    assert '<a href="ch4_passive/replication.md">4.2</a>' in page
    assert "<strong>bold</strong>" in page and "<em>italic</em>" in page and "<code>code</code>" in page
    assert "&lt;b&gt;raw html&lt;/b&gt;" in page and "<b>" not in page  # shown as text
    assert "<li>one item</li>" in page and "<h1>Table 4.2 reproduced</h1>" in page
    assert 'style="text-align:right"' in page  # the --: columns


def test_png_images_are_embedded_when_asked(tmp_path: Path) -> None:
    (tmp_path / "figures").mkdir()
    png = b"\x89PNG\r\n\x1a\nfake"
    (tmp_path / "figures" / "a.png").write_bytes(png)
    embedded = markdown_to_html(AGREEMENT, "t", images=tmp_path)
    assert f'src="data:image/png;base64,{base64.b64encode(png).decode("ascii")}"' in embedded
    assert 'src="figures/a.png"' in markdown_to_html(AGREEMENT, "t")
