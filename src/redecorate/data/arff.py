"""A reader for Weka's ARFF format that keeps the header's attribute types.

Why our own parser: the dissertation's data are Weka ARFF files, and the experiments depend on
what the *header* declares (the full nominal domain, in declared order, including values that
never occur), which generic CSV readers lose. The reader follows Weka's conventions:

* ``%`` starts a comment anywhere outside quotes; keywords are case-insensitive.
* Names and values may be quoted with ``'`` or ``"`` (backslash escapes allowed).
* An **unquoted** ``?`` is a missing value; a **quoted** ``'?'`` is the literal value ``?``
  (Weka's ``anneal.arff`` declares ``'?'`` as a real nominal value, and Weka treats it so).
* Types: ``numeric``/``real``/``integer`` (float64), nominal ``{a, 'b c', ...}`` (Categorical
  over the declared domain, single-value domains kept), ``string`` (dropped with a note in
  :attr:`Dataset.notes`, because no learner of the study can use free text and Weka's J48
  refuses it too), ``date`` and ``relational`` (rejected: the study's data has none, and a
  silent conversion would be a guess).
* Sparse rows ``{i v, ...}`` (0-based indices; absent numeric values are 0 and absent nominal
  values the first declared value, as in Weka's ``SparseInstance``).
* Instance weights ``{w}`` after a row are kept in :attr:`Dataset.weights`.
* Rows whose class is missing are dropped (Weka's ``deleteWithMissingClass``) and counted.

Speed: the data section is split line by line with ``str.split`` when a line has no quotes
(the common case) and a compiled regular expression otherwise; type conversion is then done
column-wise with numpy, so the largest mirror file (~1 MB) parses in a fraction of a second.
Every malformed input raises :class:`ArffError` naming the file, the line, the problem and the fix.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd

from redecorate.data.dataset import Dataset, category_index
from redecorate.data.errors import ArffError

AttributeKind = Literal["nominal", "numeric", "string"]
ClassAttribute = str | int | None

_NUMERIC_TYPES = {"numeric", "real", "integer"}
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "0": "\0"}

# Header tokens: a quoted string, a brace or comma, a bare word, a comment, or a stray quote.
_HEADER_TOKEN = re.compile(
    r"""\s*(?:'(?P<sq>(?:[^'\\]|\\.)*)'|"(?P<dq>(?:[^"\\]|\\.)*)"|(?P<punct>[{},])"""
    r"""|(?P<bare>[^\s{},'"%]+)|(?P<comment>%.*)|(?P<stray>['"]))"""
)
# One dense data field followed by a comma or the end of the line.
_FIELD = re.compile(
    r"""[ \t]*(?:'(?P<sq>(?:[^'\\]|\\.)*)'|"(?P<dq>(?:[^"\\]|\\.)*)"|(?P<bare>[^,'"]*?))"""
    r"""[ \t]*(?P<sep>,|$)"""
)
# One sparse field: an index, whitespace, a value.
_SPARSE_FIELD = re.compile(
    r"""[ \t]*(?P<index>[^\s,'"]+)[ \t]+(?:'(?P<sq>(?:[^'\\]|\\.)*)'|"(?P<dq>(?:[^"\\]|\\.)*)"|"""
    r"""(?P<bare>[^,'"]*?))[ \t]*(?P<sep>,|$)"""
)
_WEIGHT_SUFFIX = re.compile(r",[ \t]*\{[ \t]*(?P<w>[^{}'\",]*?)[ \t]*\}[ \t]*$")


@dataclass(frozen=True)
class ArffAttribute:
    """One ``@attribute`` declaration: its name, kind, declared domain and header line."""

    name: str
    kind: AttributeKind
    values: tuple[str, ...] = ()
    line: int = 0


@dataclass
class ArffContent:
    """Everything an ARFF file holds, before a class attribute is chosen.

    ``columns`` maps each attribute name to a typed pandas Series (Categorical or float64),
    string attributes included (as object Series). ``lines`` gives the source line of every
    row so later checks can still point at the file.
    """

    path: str
    relation: str
    attributes: list[ArffAttribute]
    columns: dict[str, pd.Series]
    weights: np.ndarray | None
    lines: np.ndarray
    sha256: str


# -- small helpers ------------------------------------------------------------------------
def _unescape(text: str) -> str:
    """Resolve backslash escapes inside a quoted token (``\\'``, ``\\n``, ``\\\\``, ...)."""
    if "\\" not in text:
        return text
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), text)


def _quoted_value(match: re.Match[str]) -> str | None:
    """The value of a field match: unquoted ``?`` is missing (None); quotes are removed."""
    sq, dq = match.group("sq"), match.group("dq")
    if sq is not None:
        return _unescape(sq)
    if dq is not None:
        return _unescape(dq)
    bare = match.group("bare")
    return None if bare == "?" else bare


def _first_unquoted(text: str, char: str, start: int = 0) -> int:
    """Index of the first ``char`` at or after ``start`` that is outside quotes (a quoted one is
    data; backslashes escape inside quotes), or -1."""
    quote = ""
    escaped = False
    for i in range(start, len(text)):
        ch = text[i]
        if escaped:
            escaped = False
        elif ch == "\\" and quote:
            escaped = True
        elif quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == char:
            return i
    return -1


def _strip_comment(line: str) -> str:
    """Cut a ``%`` comment that is outside quotes (quoted ``%`` is data)."""
    if "%" not in line:
        return line
    i = _first_unquoted(line, "%")
    return line if i < 0 else line[:i]


def _domain_text(values: Sequence[str], limit: int = 12) -> str:
    """A readable rendering of a nominal domain for error messages."""
    shown = ", ".join(values[:limit])
    return "{" + shown + (", ..." if len(values) > limit else "") + "}"


# -- header -------------------------------------------------------------------------------
def _header_tokens(line: str, path: str, lineno: int) -> list[tuple[str, bool]]:
    """Tokens of a header line as ``(text, quoted)``; punctuation comes back unquoted."""
    tokens: list[tuple[str, bool]] = []
    pos, end = 0, len(line)
    while pos < end:
        m = _HEADER_TOKEN.match(line, pos)
        if m is None or m.end() == pos:
            if line[pos:].strip() == "":
                break
            raise ArffError(path, lineno, f"cannot read header text {line[pos:].strip()!r}",
                            "check the quoting of names and values")
        pos = m.end()
        if m.group("comment") is not None:
            break
        if m.group("stray") is not None:
            raise ArffError(path, lineno, f"unterminated quote in {line.strip()!r}",
                            "close the quote, or escape a quote inside a value as \\'")
        if m.group("sq") is not None or m.group("dq") is not None:
            tokens.append((_unescape(m.group("sq") if m.group("sq") is not None else m.group("dq")), True))
        elif m.group("punct") is not None:
            tokens.append((m.group("punct"), False))
        elif m.group("bare") is not None:
            tokens.append((m.group("bare"), False))
    return tokens


def _parse_nominal_domain(
    tokens: list[tuple[str, bool]], name: str, path: str, lineno: int
) -> tuple[str, ...]:
    """Values of a ``{...}`` domain (tokens start after the opening brace)."""
    values: list[str] = []
    current: list[str] = []
    closed = False
    rest: list[tuple[str, bool]] = []
    for i, (tok, quoted) in enumerate(tokens):
        if not quoted and tok == "}":
            closed = True
            rest = tokens[i + 1:]
            break
        if not quoted and tok == ",":
            if not current:
                raise ArffError(path, lineno, f"empty value in the nominal domain of attribute {name!r}",
                                "remove the doubled comma, or quote an empty value as ''")
            values.append(current[0])
            current = []
            continue
        if not quoted and tok == "{":
            raise ArffError(path, lineno, f"nested '{{' in the nominal domain of attribute {name!r}",
                            "quote values that contain braces")
        if current:
            raise ArffError(path, lineno,
                            f"nominal value {' '.join([current[0], tok])!r} of attribute {name!r} "
                            "contains a space",
                            "quote values that contain spaces (e.g. 'b c'), or separate values with commas")
        current.append(tok)
    if not closed:
        raise ArffError(path, lineno, f"unterminated nominal domain of attribute {name!r} (no closing '}}')",
                        "close the value list with '}' on the same line")
    if current:
        values.append(current[0])
    elif values:
        raise ArffError(path, lineno, f"empty value in the nominal domain of attribute {name!r}",
                        "remove the trailing comma")
    if rest:
        raise ArffError(path, lineno, f"unexpected text {' '.join(t for t, _ in rest)!r} after the "
                        f"nominal domain of attribute {name!r}", "remove it or comment it out with %")
    seen: set[str] = set()
    for v in values:
        if v in seen:
            raise ArffError(path, lineno, f"value {v!r} is declared twice in the nominal domain of "
                            f"attribute {name!r}", "declare every nominal value once")
        seen.add(v)
    return tuple(values)


def _parse_attribute(tokens: list[tuple[str, bool]], path: str, lineno: int) -> ArffAttribute:
    """An ``@attribute`` line (tokens include the keyword)."""
    if len(tokens) < 3:
        raise ArffError(path, lineno, "incomplete @attribute declaration",
                        "write '@attribute <name> <type>' with type numeric, real, integer, "
                        "string or {v1, v2, ...}")
    name, _ = tokens[1]
    type_tok, type_quoted = tokens[2]
    if type_tok == "{" and not type_quoted:
        return ArffAttribute(name, "nominal", _parse_nominal_domain(tokens[3:], name, path, lineno), lineno)
    kind = type_tok.lower()
    if kind in _NUMERIC_TYPES or kind == "string":
        extra = "".join(t for t, _ in tokens[3:])
        if kind in _NUMERIC_TYPES and extra[:1] in {"[", "("}:
            # Weka's optional range, e.g. 'integer [1,10]' in breast.w.arff: Weka ignores it.
            extra = ""
        if extra:
            raise ArffError(path, lineno, f"unexpected text {' '.join(t for t, _ in tokens[3:])!r} after "
                            f"the type of attribute {name!r}",
                            "quote attribute names that contain spaces")
        return ArffAttribute(name, "string" if kind == "string" else "numeric", (), lineno)
    if kind == "date":
        raise ArffError(path, lineno, f"attribute {name!r} has type date, which redecorate does "
                        "not support", "convert it to numeric (e.g. days since an epoch) or nominal, "
                        "or delete the attribute")
    if kind == "relational":
        raise ArffError(path, lineno, f"attribute {name!r} is relational (multi-instance), which "
                        "redecorate does not support", "flatten the bag into ordinary attributes, "
                        "or delete the attribute")
    raise ArffError(path, lineno, f"unknown type {type_tok!r} for attribute {name!r}",
                    "use numeric, real, integer, string or a nominal domain {v1, v2, ...}; quote "
                    "attribute names that contain spaces")


def _parse_header(lines: list[str], path: str) -> tuple[str, list[ArffAttribute], int]:
    """Relation name, attributes and the index of the first line after ``@data``."""
    relation = ""
    attributes: list[ArffAttribute] = []
    names: dict[str, int] = {}
    for idx, raw in enumerate(lines):
        lineno = idx + 1
        stripped = raw.strip()
        if not stripped or stripped.startswith("%"):
            continue
        tokens = _header_tokens(raw, path, lineno)
        if not tokens:
            continue
        keyword = tokens[0][0].lower() if not tokens[0][1] else ""
        if keyword == "@relation":
            relation = tokens[1][0] if len(tokens) > 1 else ""
        elif keyword == "@attribute":
            attr = _parse_attribute(tokens, path, lineno)
            if attr.name in names:
                raise ArffError(path, lineno, f"attribute {attr.name!r} is declared twice (first on "
                                f"line {names[attr.name]})", "give every attribute a distinct name")
            names[attr.name] = lineno
            attributes.append(attr)
        elif keyword == "@data":
            if not attributes:
                raise ArffError(path, lineno, "@data before any @attribute declaration",
                                "declare the attributes ('@attribute <name> <type>') before @data")
            if len(tokens) > 1:
                raise ArffError(path, lineno, "data on the @data line",
                                "start the data rows on the line after @data")
            return relation, attributes, idx + 1
        else:
            raise ArffError(path, lineno, f"unexpected header line {stripped[:60]!r}",
                            "header lines start with @relation, @attribute or @data; comments "
                            "start with %")
    raise ArffError(path, None, "no @data section", "add a line '@data' followed by the data rows")


# -- data ---------------------------------------------------------------------------------
def _split_dense(text: str, path: str, lineno: int) -> list[str | None]:
    """Values of a dense row that contains quotes (the slow path)."""
    values: list[str | None] = []
    pos = 0
    while True:
        m = _FIELD.match(text, pos)
        if m is None:
            raise ArffError(path, lineno, f"malformed value near column {pos + 1} of {text.strip()[:80]!r}",
                            "quote values that contain commas, spaces or quotes, and close every quote")
        if m.group("bare") == "":
            raise _empty_value(path, lineno)
        values.append(_quoted_value(m))
        pos = m.end()
        if m.group("sep") == "":
            return values


def _split_single_quoted(text: str) -> list[str | None] | None:
    """Fast split of a row whose values are bare or simply 'quoted' (no escapes, no commas inside).

    Returns None when a part is not a whole quoted value (a quoted comma split it), so the
    caller falls back to the general tokenizer. Without backslashes a single-quoted value
    cannot contain a quote, so a balanced part is exactly one value.
    """
    out: list[str | None] = []
    for part in text.split(","):
        s = part.strip()
        if s[:1] == "'":
            if len(s) < 2 or s[-1] != "'" or "'" in s[1:-1]:
                return None
            out.append(s[1:-1])
        elif not s or "'" in s:
            return None
        else:
            out.append(None if s == "?" else s)
    return out


def _split_sparse(
    body: str, defaults: list[str | None], path: str, lineno: int
) -> list[str | None]:
    """Values of a sparse row ``{i v, ...}`` (body without the braces), defaults filled in."""
    row = list(defaults)
    if not body.strip():
        return row
    n = len(defaults)
    pos = 0
    while True:
        m = _SPARSE_FIELD.match(body, pos)
        if m is None:
            raise ArffError(path, lineno, f"malformed sparse entry near column {pos + 2}",
                            "write sparse rows as {index value, index value, ...} with 0-based indices")
        try:
            index = int(m.group("index"))
        except ValueError:
            raise ArffError(path, lineno, f"sparse index {m.group('index')!r} is not an integer",
                            "write sparse rows as {index value, ...} with 0-based indices") from None
        if not 0 <= index < n:
            raise ArffError(path, lineno, f"sparse index {index} is out of range (the header declares "
                            f"{n} attributes, indices 0..{n - 1})", "sparse indices are 0-based")
        row[index] = _quoted_value(m)
        pos = m.end()
        if m.group("sep") == "":
            return row


def _closing_brace(text: str) -> int:
    """Index of the ``}`` that closes the ``{`` at position 0, skipping quoted text."""
    return _first_unquoted(text, "}", start=1)


def _empty_value(path: str, lineno: int) -> ArffError:
    """The error for ``a,,b`` or a trailing comma: Weka would shift the remaining values."""
    return ArffError(path, lineno, "empty value (two commas in a row, or a trailing comma)",
                     "write ? for a missing value, or '' for an empty string")


def _parse_weight(text: str, path: str, lineno: int) -> float:
    """An instance weight from a ``{w}`` suffix."""
    try:
        return float(text)
    except ValueError:
        raise ArffError(path, lineno, f"instance weight {{{text}}} is not a number",
                        "write an instance weight as {0.5} after the last value") from None


def _parse_rows(
    lines: list[str], start: int, attributes: list[ArffAttribute], path: str
) -> tuple[list[list[str | None]], list[int], list[float] | None]:
    """Tokenise the data section into rows of raw strings (None = missing)."""
    n_attr = len(attributes)
    defaults: list[str | None] = [
        (a.values[0] if a.values else None) if a.kind == "nominal" else ("0" if a.kind == "numeric" else "")
        for a in attributes
    ]
    rows: list[list[str | None]] = []
    row_lines: list[int] = []
    weights: list[float] = []
    any_weight = False
    for idx in range(start, len(lines)):
        raw = lines[idx]
        text = raw.strip()
        if not text or text[0] == "%":
            continue
        lineno = idx + 1
        weight = 1.0
        simple = '"' not in text and "{" not in text and "%" not in text and "\\" not in text
        values: list[str | None] | None = None
        if simple and "'" not in text:
            values = [None if (v := p.strip()) == "?" else v for p in text.split(",")]
            if "" in values:
                raise _empty_value(path, lineno)
        elif simple:
            values = _split_single_quoted(text)
        if values is None:
            text = _strip_comment(text).strip()
            if not text:
                continue
            if text[0] == "{":
                close = _closing_brace(text)
                if close < 0:
                    raise ArffError(path, lineno, "sparse row without a closing '}'",
                                    "close the sparse row: {index value, ...}")
                tail = text[close + 1:].strip()
                if tail:
                    wm = _WEIGHT_SUFFIX.match(tail)
                    if wm is None:
                        raise ArffError(path, lineno, f"unexpected text {tail!r} after a sparse row",
                                        "only an instance weight ', {w}' may follow a sparse row")
                    weight = _parse_weight(wm.group("w"), path, lineno)
                values = _split_sparse(text[1:close], defaults, path, lineno)
            else:
                wm = _WEIGHT_SUFFIX.search(text)
                if wm is not None:
                    weight = _parse_weight(wm.group("w"), path, lineno)
                    text = text[: wm.start()]
                values = _split_dense(text, path, lineno)
        if len(values) != n_attr:
            raise ArffError(path, lineno, f"row has {len(values)} values but the header declares "
                            f"{n_attr} attributes",
                            "give one value per @attribute (? for missing) and quote values that "
                            "contain commas")
        if weight != 1.0:
            any_weight = True
        rows.append(values)
        row_lines.append(lineno)
        weights.append(weight)
    return rows, row_lines, (weights if any_weight else None)


def _nominal_column(
    attr: ArffAttribute, raw: Sequence[str | None], row_lines: Sequence[int], path: str
) -> pd.Series:
    """Categorical over the declared domain; an undeclared value is an error."""
    mapping = {v: i for i, v in enumerate(attr.values)}
    codes = np.fromiter((-1 if v is None else mapping.get(v, -2) for v in raw), dtype=np.int64,
                        count=len(raw))
    bad = np.flatnonzero(codes == -2)
    if bad.size:
        value = raw[bad[0]]
        hint = " (an unquoted ? means missing)" if value == "?" else ""
        raise ArffError(path, row_lines[bad[0]],
                        f"value {value!r} not in the declared domain of attribute {attr.name!r} "
                        f"{_domain_text(attr.values)}{hint}",
                        f"correct the value or add it to the @attribute {attr.name!r} declaration on "
                        f"line {attr.line}")
    cats = category_index(attr.values)
    return pd.Series(pd.Categorical.from_codes(codes, categories=cats), name=attr.name)


def _numeric_column(
    attr: ArffAttribute, raw: Sequence[str | None], row_lines: Sequence[int], path: str
) -> pd.Series:
    """float64 column; a value that is not a number is an error."""
    texts = ["nan" if v is None else v for v in raw]
    try:
        values = np.array(texts, dtype=np.float64) if texts else np.empty(0, dtype=np.float64)
    except ValueError:
        for i, v in enumerate(texts):
            try:
                float(v)
            except ValueError:
                raise ArffError(path, row_lines[i],
                                f"value {v!r} of numeric attribute {attr.name!r} is not a number",
                                "correct the value, write ? for a missing value, or declare the "
                                f"attribute as nominal on line {attr.line}") from None
        raise
    # 'nan' typed in the file would silently become missing; Weka would reject it too.
    if int(np.isnan(values).sum()) != list(raw).count(None):
        i = next(i for i, v in enumerate(raw) if v is not None and np.isnan(values[i]))
        raise ArffError(path, row_lines[i], f"value {raw[i]!r} of numeric attribute {attr.name!r} is "
                        "not a number", "write ? for a missing value")
    return pd.Series(values, name=attr.name, dtype=np.float64)


def _read_text(path: Path) -> tuple[str, str]:
    """File text and the sha256 of its bytes (UTF-8, falling back to Latin-1 as Weka's files use)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ArffError(path, None, "file not found",
                        "check the path (for registry datasets: data_mirror and the entry's 'file' "
                        "in config/datasets.yaml)") from None
    digest = hashlib.sha256(data).hexdigest()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return text.lstrip("\ufeff"), digest


def read_arff(path: str | Path) -> ArffContent:
    """Parse an ARFF file into typed columns, keeping every attribute (class not yet chosen)."""
    p = Path(path)
    text, digest = _read_text(p)
    lines = text.splitlines()
    spath = str(p)
    relation, attributes, start = _parse_header(lines, spath)
    rows, row_lines, weights = _parse_rows(lines, start, attributes, spath)
    raw_columns: list[Sequence[str | None]] = (
        list(zip(*rows, strict=True)) if rows else [() for _ in attributes]
    )
    columns: dict[str, pd.Series] = {}
    for attr, raw in zip(attributes, raw_columns, strict=True):
        if attr.kind == "nominal":
            columns[attr.name] = _nominal_column(attr, raw, row_lines, spath)
        elif attr.kind == "numeric":
            columns[attr.name] = _numeric_column(attr, raw, row_lines, spath)
        else:
            columns[attr.name] = pd.Series(list(raw), name=attr.name, dtype=object)
    return ArffContent(
        path=spath,
        relation=relation,
        attributes=attributes,
        columns=columns,
        weights=None if weights is None else np.asarray(weights, dtype=np.float64),
        lines=np.asarray(row_lines, dtype=np.int64),
        sha256=digest,
    )


def _class_index(content: ArffContent, class_attribute: ClassAttribute) -> int:
    """Resolve a class attribute given as a name, a 0-based index (negative from the end) or None."""
    names = [a.name for a in content.attributes]
    n = len(names)
    if class_attribute is None:
        return n - 1
    if isinstance(class_attribute, bool):
        raise TypeError("class_attribute must be an attribute name or an index, not a bool")
    if isinstance(class_attribute, int):
        if -n <= class_attribute < n:
            return class_attribute % n
        raise ArffError(content.path, None, f"class attribute index {class_attribute} is out of range "
                        f"({n} attributes, indices 0..{n - 1} or -1 for the last)",
                        "fix class_attribute (0-based index or attribute name)")
    if class_attribute in names:
        return names.index(class_attribute)
    folded = [i for i, nm in enumerate(names) if nm.lower() == str(class_attribute).lower()]
    if len(folded) == 1:
        return folded[0]
    raise ArffError(content.path, None, f"no attribute named {class_attribute!r} to use as the class "
                    f"(attributes: {', '.join(names[:8])}{', ...' if n > 8 else ''})",
                    "fix class_attribute (an attribute name or a 0-based index)")


def to_dataset(
    content: ArffContent,
    class_attribute: ClassAttribute = None,
    *,
    name: str | None = None,
    source: str | None = None,
) -> Dataset:
    """Choose the class, drop string attributes and rows with a missing class, build a Dataset."""
    cidx = _class_index(content, class_attribute)
    cattr = content.attributes[cidx]
    if cattr.kind != "nominal":
        raise ArffError(content.path, cattr.line, f"class attribute {cattr.name!r} is {cattr.kind}, "
                        "but the experiments are classification", "choose a nominal class attribute "
                        "(class_attribute in config/datasets.yaml; the default is the last attribute)")
    notes: list[str] = []
    features: list[str] = []
    strings: list[tuple[str, int]] = []
    for i, attr in enumerate(content.attributes):
        if i == cidx:
            continue
        if attr.kind == "string":
            notes.append(f"dropped string attribute {attr.name!r} (line {attr.line}; learners cannot use free text)")
            strings.append((attr.name, attr.line))
            continue
        features.append(attr.name)
    y = content.columns[cattr.name]
    keep = y.notna().to_numpy()
    n_dropped = int((~keep).sum())
    missing_lines = tuple(int(line) for line in np.asarray(content.lines)[~keep])
    X = pd.DataFrame({f: content.columns[f] for f in features})
    if n_dropped:
        X = X.loc[keep].reset_index(drop=True)
        y = y.loc[keep].reset_index(drop=True)
        notes.append(f"dropped {n_dropped} rows with a missing class (as Weka does)")
    weights = content.weights
    if weights is not None:
        weights = weights[keep]
    relation = f" (relation {content.relation!r})" if content.relation else ""
    return Dataset(
        name=name or Path(content.path).stem,
        X=X,
        y=y.rename(cattr.name),
        source=source or f"ARFF file {content.path}{relation}",
        sha256=content.sha256,
        n_missing_class_dropped=n_dropped,
        notes=tuple(notes),
        weights=weights,
        missing_class_lines=missing_lines,
        string_attributes=tuple(strings),
    )


def load_arff(
    path: str | Path,
    class_attribute: ClassAttribute = None,
    *,
    name: str | None = None,
    check: bool = True,
) -> Dataset:
    """Load an ARFF file as a :class:`Dataset`.

    Args:
        path: the ``.arff`` file.
        class_attribute: the class as an attribute name or 0-based index (negative counts from
            the end); None means the last attribute, Weka's convention (``wine.arff`` in the
            mirror is the exception: its class is the first attribute).
        name: dataset name; defaults to the file stem.
        check: run :meth:`Dataset.check` (at least two classes present).
    """
    dataset = to_dataset(read_arff(path), class_attribute, name=name)
    return dataset.check() if check else dataset
