"""Where a pricing benchmark's rows go: ``<out>.csv`` and a Markdown page made from it.

Why: the pricing benchmarks (``online_boosting_pricing.py``, ``meta_member_pricing.py``) time
fits for minutes and then summarise them; ``--from-csv`` rewrites the summary from the rows
already measured, so a change to the page never needs the fits again.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd


def fastest_fit_seconds(learner: str, params: dict[str, Any], X: Any, y: Any,
                        seeds: tuple[int, ...] = (0, 1)) -> float:
    """Process CPU of the faster of one fit of the registry ``learner`` per seed: the faster,
    because a loaded machine only ever adds time."""
    from redecorate.learners.params import make_learner

    cpu = []
    for seed in seeds:
        model = make_learner(learner, params, random_state=seed)
        started = time.process_time()
        model.fit(X, y)
        cpu.append(time.process_time() - started)
    return min(cpu)


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


def priced_arguments(description: str, datasets: str, out: str) -> argparse.ArgumentParser:
    """The options every pricing benchmark takes (``--datasets``, ``--data-dir``, ``--out``,
    ``--from-csv``); a benchmark adds its own before parsing."""
    repo = Path(__file__).resolve().parents[1]
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--datasets", default=datasets)
    parser.add_argument("--data-dir", default=str(repo / "data"))
    parser.add_argument("--out", default=str(repo / "benchmarks" / "results" / out))
    parser.add_argument("--from-csv", action="store_true", help="rewrite the Markdown from <out>.csv")
    return parser


def priced_main(description: str, datasets: str, out: str,
                sample: Callable[[list[str], str], pd.DataFrame], markdown: Callable[[pd.DataFrame], str]) -> int:
    """A pricing benchmark with no options of its own: ``sample(datasets, data_dir)`` measured
    (or read back with ``--from-csv``) and written by :func:`write_priced_results`."""
    args = priced_arguments(description, datasets, out).parse_args()
    return write_priced_results(args.out, args.from_csv, lambda: sample(args.datasets.split(","), args.data_dir),
                                markdown)
