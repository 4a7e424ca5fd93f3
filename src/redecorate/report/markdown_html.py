"""The replication report (``replication.md``) as a standalone HTML page for ``snakemake --report``.

Why: Snakemake's HTML report shows images, CSV tables and HTML pages, not Markdown, so the
verdict ("not comparable", the scale and protocol of the run) and the conclusions, which exist
only as the prose and tables of ``replication.md``, never reached it. The Markdown the reports
write uses a small subset (``#`` headings, paragraphs, ``- `` lists, pipe tables, ``**bold**``,
``*italic*``, ``code``, ``[links](path)`` and ``![images](path)``), converted here without a
Markdown dependency; any other line is shown as text, escaped, so nothing the report writes is
lost. Images can be embedded (``images=``), so a page stays self-contained in the report.
"""

from __future__ import annotations

import base64
import html
import re
from os import PathLike
from pathlib import Path

__all__ = ["markdown_to_html"]

_STYLE = """
body { font-family: sans-serif; margin: 1.5em; line-height: 1.4; color: #222; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.9em; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; }
th { background: #eee; }
td.num { text-align: right; }
code { background: #f3f3f3; padding: 0 0.2em; }
img { max-width: 100%; }
"""

_INLINE = (
    (re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)"), r'<img alt="\1" src="\2">'),
    (re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)"), r'<a href="\2">\1</a>'),
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*(.+?)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), r"<em>\1</em>"),
)


def _inline(text: str) -> str:
    """Escape, then mark up code, bold and italic spans."""
    out = html.escape(text, quote=False)
    for pattern, replacement in _INLINE:
        out = pattern.sub(replacement, out)
    return out


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _table(lines: list[str]) -> str:
    """A pipe table: header, alignment row (``--:`` right-aligns a column), body rows."""
    header, body = _cells(lines[0]), lines[1:]
    align = _cells(body[0]) if body and re.fullmatch(r"[\s|:\-]+", body[0]) else None
    if align is not None:
        body = body[1:]
    right = [bool(align) and i < len(align) and align[i].endswith(":") for i in range(len(header))]
    rows = ["<tr>" + "".join(f"<th>{_inline(c)}</th>" for c in header) + "</tr>"]
    numeric = ' class="num"'
    for line in body:
        cells = (f"<td{numeric if i < len(right) and right[i] else ''}>{_inline(c)}</td>"
                 for i, c in enumerate(_cells(line)))
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return "<table>\n" + "\n".join(rows) + "\n</table>"


def _embedded(page: str, images: Path) -> str:
    """``page`` with every PNG it shows from under ``images`` as a data URI."""
    def embed(match: re.Match[str]) -> str:
        path = images / html.unescape(match.group(1))
        if path.suffix != ".png" or not path.is_file():
            return match.group(0)
        return f'src="data:image/png;base64,{base64.b64encode(path.read_bytes()).decode("ascii")}"'

    return re.sub(r'src="([^"]+)"', embed, page)


def markdown_to_html(markdown: str, title: str, *, images: str | PathLike[str] | None = None) -> str:
    """A complete HTML page of ``markdown`` (the reports' subset), titled ``title``; with
    ``images`` (the directory the Markdown's image paths are relative to), its PNG images
    are embedded."""
    blocks: list[str] = []
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif heading := re.match(r"(#{1,6})\s+(.*)", line):
            level = len(heading.group(1))
            blocks.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
            i += 1
        elif line.lstrip().startswith("|"):
            j = i
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                j += 1
            blocks.append(_table(lines[i:j]))
            i = j
        elif re.match(r"\s*[-*]\s+", line):
            j = i
            while j < len(lines) and re.match(r"\s*[-*]\s+", lines[j]):
                j += 1
            items = (re.sub(r"\s*[-*]\s+", "", item, count=1) for item in lines[i:j])
            blocks.append("<ul>" + "".join(f"<li>{_inline(item)}</li>" for item in items) + "</ul>")
            i = j
        else:
            j = i
            while j < len(lines) and lines[j].strip() and not re.match(r"(#{1,6}\s|\s*\||\s*[-*]\s+)", lines[j]):
                j += 1
            blocks.append(f"<p>{_inline(' '.join(part.strip() for part in lines[i:j]))}</p>")
            i = j
    page = (f'<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{html.escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
            + "\n".join(blocks) + "\n</body>\n</html>\n")
    return _embedded(page, Path(images)) if images is not None else page
