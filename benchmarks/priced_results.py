"""Where a pricing benchmark's rows go: ``<out>.csv`` and a Markdown page made from it.

Why: the pricing benchmarks (``online_boosting_pricing.py``, ``meta_member_pricing.py``) time
fits for minutes and then summarise them; ``--from-csv`` rewrites the summary from the rows
already measured, so a change to the page never needs the fits again.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd


def write_priced_results(out: str, from_csv: bool, sample: Callable[[], pd.DataFrame],
                         markdown: Callable[[pd.DataFrame], str]) -> int:
    """The rows sampled (or read from ``<out>.csv`` with ``from_csv``), kept as ``<out>.csv``,
    and their page written as ``<out>.md``."""
    if from_csv:
        frame = pd.read_csv(f"{out}.csv")
    else:
        frame = sample()
        frame.to_csv(f"{out}.csv", index=False)
    Path(f"{out}.md").write_text(markdown(frame), encoding="utf-8")
    return 0
