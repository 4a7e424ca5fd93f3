"""Where the tests and benchmarks find the UCI ARFF mirror, and the Table 4.1 file names.

The mirror is ``$REDECORATE_MIRROR`` (``$REDECORATE_UCI_DIR`` is accepted too), else
``../shared/datasets/uci`` beside the repository, as in CI. ``MIRROR`` is that path whether
or not it exists; ``mirror_dir()`` returns it only when it does, so callers can skip cleanly.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

MIRROR = Path(
    os.environ.get("REDECORATE_MIRROR")
    or os.environ.get("REDECORATE_UCI_DIR")
    or REPO.parent / "shared" / "datasets" / "uci"
)

#: The 15 datasets of the dissertation's Table 4.1, as file stems of the mirror.
TABLE_4_1_FILES: tuple[str, ...] = (
    "anneal",
    "audiology",
    "autos",
    "breast.w",
    "credit.a",
    "glass",
    "heart.c",
    "hepatitis",
    "colic",
    "iris",
    "labor",
    "lymph",
    "segment",
    "soybean",
    "splice",
)


def mirror_dir() -> Path | None:
    """The mirror directory if it exists, else None."""
    return MIRROR if MIRROR.is_dir() else None
